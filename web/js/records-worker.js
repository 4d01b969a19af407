// records-worker.js — checks record files off the main thread, so a 16 MiB / 100,000-point file
// never freezes the page. It runs core's C reader (the same code as `rooflab validate`) in its own
// instance of the WASM module and posts back the JSON report (rl_record_check_json).
//   in:  { id, bytes: ArrayBuffer }    out: { id, report } | { id, error }
import createRooflab from '../wasm/rooflab.mjs';
import { checkRecordBytes } from './record-check.js';

let modulePromise = null;

self.onmessage = async (event) => {
  const { id, bytes } = event.data;
  try {
    if (!modulePromise) modulePromise = createRooflab();
    const M = await modulePromise;
    self.postMessage({ id, report: checkRecordBytes(M, new Uint8Array(bytes)) });
  } catch (err) {
    self.postMessage({ id, error: String((err && err.message) || err) });
  }
};
