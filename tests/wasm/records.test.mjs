// One validator: the record reader compiled to WASM (the page's) gives the same verdict, the same
// messages with the same JSON paths, and the same derived numbers (to 1e-12) as the native
// `rooflab validate --json`, for every example, every test case and the JSONTestSuite corpus.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { loadWasmModel, nativeCli, ROOT } from './load.mjs';

function nativeCheck(files) {
  let out;
  try {
    out = execFileSync(nativeCli(), ['validate', '--json', '--quiet', ...files], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 256 << 20 });
  } catch (e) {
    out = e.stdout;
  }
  return JSON.parse(out).files;
}

function sameNumbers(a, b, where) {
  if (typeof a === 'number' && typeof b === 'number') {
    const m = Math.max(Math.abs(a), Math.abs(b));
    assert.ok(a === b || Math.abs(a - b) <= 1e-12 * m, `${where}: wasm ${a} vs native ${b}`);
    return;
  }
  if (a && b && typeof a === 'object') {
    assert.deepEqual(Object.keys(a).sort(), Object.keys(b).sort(), `${where}: keys`);
    for (const k of Object.keys(a)) sameNumbers(a[k], b[k], `${where}.${k}`);
    return;
  }
  assert.deepEqual(a, b, where);
}

async function filesIn(dir, ext = '.json') {
  return (await readdir(dir)).filter((f) => f.endsWith(ext)).map((f) => join(dir, f));
}

test('WASM and native validators agree on examples and test cases', async () => {
  const model = await loadWasmModel();
  const files = [
    ...(await filesIn(join(ROOT, 'data/examples'))),
    ...(await filesIn(join(ROOT, 'data/published'))),
    ...(await filesIn(join(ROOT, 'tests/record/cases/valid'))),
    ...(await filesIn(join(ROOT, 'tests/record/cases/invalid'))),
    ...(await filesIn(join(ROOT, 'tests/record/cases/semantic'))),
  ];
  assert.ok(files.length >= 40);
  const native = nativeCheck(files);
  for (let i = 0; i < files.length; i++) {
    const w = model.checkRecord(await readFile(files[i])); // the page's own call
    const n = native[i].report;
    assert.equal(native[i].file, files[i]);
    assert.equal(w.ok, n.ok, files[i]);
    assert.deepEqual(w.issues, n.issues, `${files[i]}: issues`);
    sameNumbers(w.record, n.record, files[i]);
  }
});

test('WASM refuses every JSONTestSuite file like the native build', async () => {
  const dir = join(ROOT, 'tests', 'data', 'jsontestsuite', 'test_parsing');
  assert.ok(existsSync(dir), `the JSONTestSuite corpus is missing at ${dir}`);
  const model = await loadWasmModel();
  const files = await filesIn(dir);
  assert.ok(files.length >= 300);
  const native = nativeCheck(files);
  for (let i = 0; i < files.length; i++) {
    const w = model.checkRecord(await readFile(files[i]));
    assert.equal(w.ok, false, files[i]);
    assert.deepEqual(w.issues, native[i].report.issues, files[i]);
  }
});

// The page's importers are the CLI's: rl_import_detect names each example's format, and
// rl_record_import through WASM writes the record `rooflab import` prints, byte for byte, for the
// same answers; an answer core refuses names its flag.
test('WASM import: the format recognised and the record identical to rooflab import', async () => {
  const model = await loadWasmModel();
  const ex = join(ROOT, 'data/examples');
  const cases = [
    ['ncu-raw-flash-fwd-h100.csv', 'ncu-csv', { batch: '4', heads: '16', seq: '4096', 'head-dim': '128', dtype: 'fp16', hw: 'h100-sxm', causal: '' }],
    ['gbench-flash-attn-h100.json', 'gbench', { hw: 'h100-sxm', 'kernel-version': 'flash-attn 2.6.3' }],
    ['ert-roofline-v100.json', 'ert', {}],
    ['ncu-raw-flash-fwd-h100.record.json', 'record', null],
  ];
  for (const [file, format, answers] of cases) {
    const bytes = await readFile(join(ex, file));
    assert.deepEqual(model.detectFormat(bytes), { ok: true, format }, file);
    if (!answers) continue;
    const r = model.importRecord(bytes, { format, answers: { ...answers, source: file } });
    assert.equal(r.ok, true, file);
    assert.equal(r.report.ok, true, file);
    const flags = Object.entries(answers).filter(([, v]) => v !== '').flatMap(([k, v]) => [`--${k}`, v]);
    const cli = execFileSync(nativeCli(), ['import', format, file, ...flags], { cwd: ex, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    assert.equal(r.text, cli.replace(/\n$/, ''), file);
  }
  const bad = model.importRecord(await readFile(join(ex, cases[0][0])), { format: 'ncu-csv', answers: { seq: '4096 ' } });
  assert.equal(bad.ok, false);
  assert.equal(bad.field, 'seq');
  assert.equal(model.detectFormat(new TextEncoder().encode('name,value\na,1\n')).ok, false);
});
