// records-worker.js — checks record files off the main thread, so a file at the size limit never
// freezes the page. It loads its own instance of the WASM module through model.js and runs core's
// C reader (the same code as `rooflab validate`) with model.checkRecord.
//   in:  { id, bytes: ArrayBuffer }    out: { id, report } | { id, error }
import createRooflab from '../wasm/rooflab.mjs';
import { loadModel } from './model.js';

let modelPromise = null;

self.onmessage = async (event) => {
  const { id, bytes } = event.data;
  try {
    if (!modelPromise) modelPromise = loadModel(createRooflab);
    const model = await modelPromise;
    self.postMessage({ id, report: model.checkRecord(bytes) });
  } catch (err) {
    self.postMessage({ id, error: String((err && err.message) || err) });
  }
};
