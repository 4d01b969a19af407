// record-pack.js — a checked (or imported) record's points from the worker to the page without a
// long main-thread task. Handing back core's report as one object graph costs the page its
// structured-clone copy in one go (1.2 s of main-thread time at 100,000 points, every point an
// object of objects). Instead the worker (records-worker.js) sends the report with the record's
// points taken out, and the points as UTF-8 JSON text (one point per line, ",\n" between them)
// with each one's end offset, in ArrayBuffers that are transferred, not copied; on the page
// (check-pool.js) the record's points become lazyPoints of them, each parsed when read (the chart's
// marks are made from the columns instead: record-marks.js, in slices by record-queue.js). The result is the report
// core gave: JSON text of JSON-parsed values parses to equal values, keys in the same order.
//
//   worker: const { result, transfer } = packResult(result); postMessage({ result }, transfer)
//   page:   unpackResult(result) → the same result, its record's points a lazyPoints array

import { runSteps, recordId, contentHash } from './record-store.js';

const SEP = 10; // '\n' of ",\n": never inside JSON.stringify's output, nor inside a UTF-8 sequence
export const SLICE_MS = 8; // main-thread time per slice of work that yields (half a 60 Hz frame)

// The record inside an op's result: checkRecord's report.record, importRecord's report.record.
export function recordOf(result) {
  if (!result || typeof result !== 'object') return null;
  const rep = result.report && typeof result.report === 'object' ? result.report : result;
  return rep.record && typeof rep.record === 'object' ? rep.record : null;
}

// In the worker: the points out of the record, into one transferable buffer, with the offset
// where each point's text ends (the ',' before the next; the last one's: the buffer's length).
export function packResult(result) {
  const rec = recordOf(result);
  if (!rec || !Array.isArray(rec.points) || rec.points.length === 0) return { result, transfer: [] };
  const summary = runSteps(summarySteps(rec));
  const bytes = new TextEncoder().encode(rec.points.map((p) => JSON.stringify(p)).join(',\n'));
  const ends = new Uint32Array(rec.points.length);
  let k = 0;
  for (let at = bytes.indexOf(SEP); at >= 0; at = bytes.indexOf(SEP, at + 1)) ends[k++] = at - 1;
  ends[k] = bytes.length;
  rec.points = [];
  result.rlPacked = { bytes: bytes.buffer, ends: ends.buffer, summary };
  return { result, transfer: [bytes.buffer, ends.buffer, ...COLUMNS.map((c) => summary[c].buffer)] };
}

export const isPacked = (result) => !!(result && result.rlPacked);

// What the page needs beside an op's result, worked out where the op ran (the worker; the main
// thread only where no worker starts), so the page neither decodes, hashes nor serialises:
//   detectFormat → text (the file as text: a record's stored text) and rawKey (its content hash,
//                  which finds the same tool output loaded twice)
//   checkRecord, importRecord with args.id = { source, name } → storeId, the record's id
//                  (record-store.js's recordId of the text kept: the file's, or the import's;
//                  a kept record's key is checked against it)
const decoder = new TextDecoder();
export function aboutResult(op, plain, result, args) {
  const about = {};
  if (op === 'detectFormat') {
    about.text = decoder.decode(plain);
    about.rawKey = contentHash(about.text);
  }
  const id = args && args.id;
  if (id && op === 'checkRecord') about.storeId = recordId({ ...id, text: decoder.decode(plain) });
  if (id && op === 'importRecord' && result.ok && result.report.ok && result.text !== null) about.storeId = recordId({ ...id, text: result.text });
  return about;
}

// In the worker: the text goes back as the (transferred) bytes it was decoded from.
export function packAbout(about, plain) {
  if (about.text === undefined) return { about, transfer: [] };
  const out = { ...about, textBytes: plain };
  delete out.text;
  return { about: out, transfer: [plain] };
}

// On the page: the text of packAbout's bytes (one decode, no copy to the worker and back).
export function unpackAbout(about) {
  if (!about || !about.textBytes) return about || {};
  const { textBytes, ...rest } = about;
  return { ...rest, text: decoder.decode(textBytes) };
}

// On the page: the record's points become lazyPoints of the buffer (nothing is parsed here).
export function unpackResult(result) {
  if (!isPacked(result)) return result;
  const { bytes, ends, summary } = result.rlPacked;
  delete result.rlPacked;
  const rec = recordOf(result);
  rec.points = lazyPoints(new Uint8Array(bytes), new Uint32Array(ends));
  summaries.set(rec, summary);
  return result;
}

// ---------------------------------------------------------------------------------------------
// What the chart needs of every point, in columns (made in the worker for a packed record, on the
// page in steps otherwise): per point its intensity x, achieved throughput y, efficiency eff, the
// prediction's throughput predY (pred 1 where predicted_time_s > 0) and its error err (core's
// prediction_error), the attainable throughput roofY on the point's own roof, indices into the tables of
// kernels, mark names and devices ({ key, preset, name }, in order of first use, with the dtype of
// the first point of each in dtypes) and the points' own hardware names. An undefined figure is NaN in its column (JSON has
// no NaN, so nothing else is); fig() turns it back.
const COLUMNS = ['x', 'y', 'eff', 'predY', 'pred', 'err', 'roofY', 'kernel', 'name', 'device'];
const summaries = new WeakMap(); // record → its summary, for the records unpackResult made
export const summaryOf = (rec) => summaries.get(rec) || null;
export const fig = (v) => (Number.isNaN(v) ? undefined : v);
const num = (v) => (v === undefined ? NaN : v);

// A point's kernel (its own, else the record's) and device (its hardware block, else the record's).
export const pointKernel = (rec, p) => p.kernel || rec.software.kernel || '(kernel not named)';
export function pointDevice(rec, p) {
  const hw = p.hardware || rec.hardware || {};
  return { key: hw.preset || hw.name || '', preset: hw.preset || '', name: hw.name || hw.preset || '' };
}

export const SUMMARY_STEP = 500;
export function* summarySteps(rec) {
  const pts = rec.points;
  const n = pts.length;
  const out = {
    x: new Float64Array(n), y: new Float64Array(n), eff: new Float64Array(n), predY: new Float64Array(n), pred: new Uint8Array(n),
    err: new Float64Array(n), roofY: new Float64Array(n), kernel: new Uint32Array(n), name: new Uint32Array(n), device: new Uint32Array(n),
    kernels: [], names: [], devices: [], dtypes: [], hwNames: [],
  };
  const tables = { kernels: new Map(), names: new Map(), devices: new Map() };
  const indexIn = (table, key, value) => {
    let i = tables[table].get(key);
    if (i === undefined) tables[table].set(key, (i = out[table].push(value) - 1));
    return i;
  };
  const recDevice = pointDevice(rec, {});
  for (let i = 0; i < n; i++) {
    const p = pts[i];
    const d = p.derived;
    out.x[i] = num(d.intensity_flop_per_byte);
    out.y[i] = num(d.achieved_flops_per_s);
    out.eff[i] = num(d.efficiency);
    out.pred[i] = d.predicted_time_s > 0 ? 1 : 0;
    out.predY[i] = num(d.predicted_flops_per_s);
    out.err[i] = num(d.prediction_error);
    out.roofY[i] = num(d.attainable_flops_per_s);
    const kernel = pointKernel(rec, p);
    out.kernel[i] = indexIn('kernels', kernel, kernel);
    const name = p.label && p.label.length <= 24 ? p.label : kernel;
    out.name[i] = indexIn('names', name, name);
    const dev = p.hardware ? pointDevice(rec, p) : recDevice;
    const before = out.devices.length;
    out.device[i] = indexIn('devices', p.hardware ? JSON.stringify(dev) : '', dev);
    if (out.devices.length > before) out.dtypes.push(p.problem.dtype);
    if (p.hardware && p.hardware.name && !out.hwNames.includes(p.hardware.name)) out.hwNames.push(p.hardware.name);
    if (i % SUMMARY_STEP === SUMMARY_STEP - 1) yield;
  }
  return out;
}


// An array of points kept as their UTF-8 JSON text (point i: bytes from ends[i - 1] + 2, after
// ",\n", to ends[i]): points[i] is parsed when read (the last CACHE read are kept), so 100,000
// points cost the page one buffer outside its heap rather than 100,000 object graphs (which the
// garbage collector would walk again and again). It is an array to every reader (Array.isArray,
// length, indexing, iteration, slice, map, forEach, JSON.stringify); a point read twice may be two
// equal objects, not the same one.
const CACHE = 256;
export function lazyPoints(bytes, ends) {
  const n = ends.length;
  const cache = new Map();
  const at = (i) => {
    let p = cache.get(i);
    if (p === undefined) {
      p = JSON.parse(decoder.decode(bytes.subarray(i === 0 ? 0 : ends[i - 1] + 2, ends[i])));
      if (cache.size >= CACHE) cache.delete(cache.keys().next().value);
      cache.set(i, p);
    }
    return p;
  };
  const index = (prop) => (typeof prop === 'string' && prop.length && prop.charCodeAt(0) >= 48 && prop.charCodeAt(0) <= 57 ? Number(prop) : -1);
  return new Proxy([], {
    get(target, prop, receiver) {
      if (prop === 'length') return n;
      const i = index(prop);
      if (Number.isInteger(i) && i >= 0) return i < n ? at(i) : undefined;
      return Reflect.get(target, prop, receiver);
    },
    has(target, prop) {
      const i = index(prop);
      if (Number.isInteger(i) && i >= 0) return i < n;
      return Reflect.has(target, prop);
    },
    set() { return false; }, // read only (strict-mode writes throw)
  });
}

// A macrotask later (a MessageChannel message: no 4 ms clamp as nested setTimeouts get), so
// input, rendering and other tasks run between slices.
export function yieldTask() {
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => { ch.port1.close(); resolve(); };
    ch.port2.postMessage(0);
  });
}
