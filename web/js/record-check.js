// record-check.js — one call into the WASM module's record checker (core's C reader and validator,
// the same code as `rooflab validate`): bytes in, the parsed JSON report out. Used by the worker
// and, when workers are unavailable, by records.js on the main thread.
export function checkRecordBytes(M, u8) {
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
