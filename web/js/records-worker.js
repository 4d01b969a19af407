// records-worker.js — checks record files off the main thread, so a 16 MiB / 100,000-point file
// never freezes the page. It runs core's C reader (the same code as `rooflab validate`) in its own
// instance of the WASM module and posts back the JSON report (rl_record_check_json).
//   in:  { id, bytes: ArrayBuffer }    out: { id, report } | { id, error }
import createRooflab from '../wasm/rooflab.mjs';

let modulePromise = null;

self.onmessage = async (event) => {
  const { id, bytes } = event.data;
  try {
    if (!modulePromise) modulePromise = createRooflab();
    const M = await modulePromise;
    self.postMessage({ id, report: checkWith(M, new Uint8Array(bytes)) });
  } catch (err) {
    self.postMessage({ id, error: String((err && err.message) || err) });
  }
};

function checkWith(M, u8) {
  const ptr = M._malloc(u8.length || 1);
  if (!ptr) throw new Error('out of memory');
  M.HEAPU8.set(u8, ptr);
  const out = M._rlw_record_check(ptr, u8.length);
  M._free(ptr);
  if (!out) throw new Error('out of memory');
  const text = M.UTF8ToString(out);
  M._free(out);
  return JSON.parse(text);
}
