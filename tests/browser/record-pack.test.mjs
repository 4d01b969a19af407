// How a large record travels from the worker to the page (record-pack.js: the points as JSON text
// in transferred buffers, read back as an array that parses each point when read, with the
// chart's columns made in the worker) and the record store's steps (record-store.js: a large
// text hashed and serialized in steps), in node: the page gets what core gave, equal value for
// value; the steps give what the one-go functions give.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  packResult, unpackResult, isPacked, lazyPoints, recordOf, summaryOf, summarySteps, fig, pointKernel, pointDevice,
  aboutResult, packAbout, unpackAbout,
} from '../../web/js/record-pack.js';
import { contentHash, hashSteps, recordId, recordIdSteps, serialize, serializeSteps, runSteps } from '../../web/js/record-store.js';

// A report as core's checkRecord gives it (the fields records.js reads), n points.
function report(n) {
  const points = Array.from({ length: n }, (_, i) => ({
    ...(i % 3 === 0 ? { kernel: `k${i % 5}` } : {}),
    ...(i % 7 === 0 ? { label: i % 2 ? 'a label, with "quotes",\n and a line' : 'x'.repeat(30) } : {}),
    ...(i % 11 === 0 ? { hardware: { name: `dev ${i % 2}`, preset: i % 4 ? 'a100-sxm4-80gb' : '' } } : {}),
    problem: { batch: 1, heads: 8, seq: 64 << (i % 5), dtype: i % 2 ? 'fp16' : 'bf16', pass: 'fwd', note: 'é😀' },
    timing: { median_s: 1e-5 * (i + 1), runs: 10 },
    derived: {
      intensity_flop_per_byte: 10 + i, achieved_flops_per_s: 1e12 * (i + 1),
      ...(i % 4 ? { efficiency: 0.5 } : {}),
      ...(i % 6 === 0 ? { predicted_time_s: 2e-5, predicted_flops_per_s: 3e12 } : { predicted_time_s: 0 }),
      model_bytes: { tiled: 123, compulsory: 45 },
    },
  }));
  return { ok: true, errors: 0, warnings: 1, issues: [{ severity: 'warning', path: 'points[3].timing', message: 'w' }], record: { software: { kernel: 'fa', kernel_version: '1' }, hardware: { name: 'H100', preset: 'h100-sxm' }, provenance: { kind: 'measured' }, points } };
}

// Through postMessage's structured clone, the buffers transferred.
const viaWorker = (r) => {
  const { result, transfer } = packResult(r);
  return unpackResult(structuredClone(result, { transfer }));
};

test('pack: the points come back equal, in order, as an array that reads like one', () => {
  const orig = report(1234);
  const want = JSON.parse(JSON.stringify(orig));
  const back = viaWorker(orig);
  const P = back.record.points;
  assert.ok(Array.isArray(P));
  assert.equal(P.length, 1234);
  assert.deepEqual(JSON.parse(JSON.stringify(back)), want);
  assert.deepEqual(P[7], want.record.points[7]);
  assert.deepEqual(P.slice(0, 3), want.record.points.slice(0, 3));
  assert.deepEqual([...P].map((p) => p.timing.median_s), want.record.points.map((p) => p.timing.median_s));
  let n = 0;
  P.forEach(() => n++);
  assert.equal(n, 1234);
  assert.equal(P[1234], undefined);
  assert.ok(0 in P && !(1234 in P));
  assert.deepEqual(P.map((p) => p.problem.note).filter((x) => x !== 'é😀'), []);
  assert.equal(isPacked(back), false, 'nothing of the transport left on the result');
  // an import's result ({ ok, report: { record } }) the same way; no points: nothing packed
  const imp = viaWorker({ ok: true, text: '{}', report: report(3) });
  assert.deepEqual(JSON.parse(JSON.stringify(imp.report.record.points)), report(3).record.points);
  const none = { ok: false, errors: 1, issues: [], record: null };
  assert.deepEqual(packResult(none).transfer, []);
  assert.equal(recordOf(none), null);
});

test('pack: the chart columns made in the worker are those made here, figure for figure', () => {
  const orig = report(500);
  const here = runSteps(summarySteps(orig.record));
  const back = viaWorker(report(500));
  const sum = summaryOf(back.record);
  assert.ok(sum, 'the summary came with the points');
  for (const k of ['x', 'y', 'eff', 'predY', 'pred', 'kernel', 'name', 'device']) assert.deepEqual([...sum[k]], [...here[k]], k);
  for (const k of ['kernels', 'names', 'devices', 'dtypes', 'hwNames']) assert.deepEqual(sum[k], here[k], k);
  orig.record.points.forEach((p, i) => {
    assert.equal(fig(sum.x[i]), p.derived.intensity_flop_per_byte);
    assert.equal(fig(sum.y[i]), p.derived.achieved_flops_per_s);
    assert.equal(fig(sum.eff[i]), p.derived.efficiency); // undefined stays undefined
    assert.equal(!!sum.pred[i], p.derived.predicted_time_s > 0);
    assert.equal(sum.kernels[sum.kernel[i]], pointKernel(orig.record, p));
    assert.equal(sum.names[sum.name[i]], p.label && p.label.length <= 24 ? p.label : pointKernel(orig.record, p));
    assert.deepEqual(sum.devices[sum.device[i]], pointDevice(orig.record, p));
  });
});

test('lazyPoints: read only, each point parsed when read', () => {
  const bytes = new TextEncoder().encode('{"a":1},\n{"b":"x,\\ny"}');
  const P = lazyPoints(bytes, new Uint32Array([7, bytes.length])); // each point's end: the ',' after it
  assert.deepEqual(JSON.parse(JSON.stringify(P)), [{ a: 1 }, { b: 'x,\ny' }]);
  assert.throws(() => { P[0] = 1; }); // a module is strict: the refused write throws
});

test('store steps: a large text hashed and serialized in steps as in one go', () => {
  let text = '';
  for (let i = 0; i < 400000; i++) text += i % 9 ? 'ab"c\\\n' : '😀\u0001é';
  const entry = { name: 'a "name"', source: 'upload', visible: true, added: 123, text };
  assert.equal(recordId(entry), contentHash(`${entry.source}\n${entry.name}\n${text}`));
  assert.equal(runSteps(recordIdSteps(entry)), recordId(entry));
  assert.equal(runSteps(hashSteps('ab', 'cd')), contentHash('abcd'));
  assert.equal(serialize(entry), JSON.stringify({ v: 2, ...entry }));
  // a cut between the halves of a surrogate pair, and lone surrogates at a cut
  for (const t of ['a'.repeat((1 << 20) - 1) + '😀b', 'a'.repeat((1 << 20) - 1) + '\ud800b', 'a'.repeat(1 << 20) + '\udc00', text]) {
    const e = { ...entry, text: t };
    assert.equal(runSteps(serializeSteps(e)), JSON.stringify({ v: 2, ...e }));
  }
});

// What the worker sends beside a result (aboutResult): the file's text, decoded from UTF-8 there
// (multi-byte characters: é is C3 A9, 😀 is F0 9F 98 80), its content hash and the record's id —
// the hash of "source\nname\n" then the text (record-store.js's layout) — and the text travels as
// the transferred bytes, decoded once on the page.
test('about: the text, its hash and the id come from the worker; the text as transferred bytes', () => {
  const bytes = new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0xa9, 0xf0, 0x9f, 0x98, 0x80, 0x22, 0x7d]); // {"a":"é😀"}
  const found = aboutResult('detectFormat', bytes.buffer, { ok: true, format: 'record' }, null);
  assert.equal(found.text, '{"a":"é😀"}');
  assert.equal(found.text.length, 11); // 9 ASCII + é + the surrogate pair of 😀 (2)
  assert.equal(found.rawKey, contentHash('{"a":"é😀"}'));
  assert.equal(found.storeId, undefined);
  const id = { source: 'upload', name: 'f.json' };
  const checked = aboutResult('checkRecord', bytes.buffer, { ok: true }, { id });
  assert.equal(checked.storeId, contentHash('upload\nf.json\n{"a":"é😀"}'));
  assert.equal(checked.text, undefined);
  assert.equal(aboutResult('checkRecord', bytes.buffer, { ok: true }, null).storeId, undefined); // no id asked for
  const imported = aboutResult('importRecord', bytes.buffer, { ok: true, report: { ok: true }, text: 'R' }, { id });
  assert.equal(imported.storeId, contentHash('upload\nf.json\nR')); // the import's text, not the file's
  assert.equal(aboutResult('importRecord', bytes.buffer, { ok: true, report: { ok: false }, text: null }, { id }).storeId, undefined);
  // through postMessage: the bytes transferred (the worker's copy detached), the text decoded once
  const plain = bytes.buffer.slice(0);
  const { about, transfer } = packAbout(found, plain);
  assert.deepEqual(transfer, [plain]);
  assert.equal(about.text, undefined);
  const back = unpackAbout(structuredClone(about, { transfer }));
  assert.equal(plain.byteLength, 0);
  assert.deepEqual(back, { rawKey: found.rawKey, text: '{"a":"é😀"}' });
  assert.deepEqual(packAbout(checked, plain).transfer, []);
});
