// records-worker.js — checks (and imports) uploaded files off the main thread, so a file at the
// size limit never freezes the page. It loads its own instance of the WASM module through
// model.js and runs core's C code with the model's methods named in OPS. check-pool.js gives each
// worker one job at a time and terminates it at the time limit or on cancel.
//   in:  { id, op, bytes: ArrayBuffer, args }
//   out: { id, started: true } (module loaded, the C call begins), { id, stage: { name: 'sending',
//        points } } (the call is done, the result follows), then { id, result, about } | { id, error }.
// A gzip'd upload (a .json.gz trace) is decompressed here first (gunzip.js), within the file
// limit, so that core's C code reads text.
// A result's record points come packed (record-pack.js: JSON text in a transferred buffer, each
// parsed when read, with the chart's columns in transferred typed arrays), and beside it `about`
// (record-pack.js's aboutResult): the file's text (as transferred bytes), its content hash and the
// record's id, so the page never spends a long task copying, hashing or serialising.
import createRooflab from '../wasm/rooflab.mjs';
import { loadModel } from './model.js';
import { packResult, aboutResult, packAbout } from './record-pack.js';
import { plainBytes } from './gunzip.js';

const OPS = ['checkRecord', 'detectFormat', 'importRecord'];
let modelPromise = null;

self.onmessage = async (event) => {
  const { id, op, bytes, args } = event.data;
  try {
    if (!OPS.includes(op)) throw new Error(`unknown operation ${op}`);
    if (!modelPromise) modelPromise = loadModel(createRooflab);
    const model = await modelPromise;
    self.postMessage({ id, started: true }); // the pool's time limit counts from here
    const plain = await plainBytes(bytes, model.recordLimits);
    const result = model[op](plain, args);
    // What is being copied back (a large record takes a while): the page says so meanwhile.
    const rec = result && (result.record || (result.report && result.report.record));
    self.postMessage({ id, stage: { name: 'sending', points: rec && rec.points ? rec.points.length : 0 } });
    const about = packAbout(aboutResult(op, plain, result, args), plain);
    const packed = packResult(result);
    self.postMessage({ id, result: packed.result, about: about.about }, [...packed.transfer, ...about.transfer]);
  } catch (err) {
    self.postMessage({ id, error: String((err && err.message) || err) });
  }
};
