// The JSON Schema (data/schema/record-1.schema.json, checked with ajv) and the C validator
// (`rooflab validate --json`) agree on every example and test file:
//   data/examples/*.json and data/published/*.json records and tests/record/cases/valid → both
//   accept;
//   tests/record/cases/invalid → both refuse;
//   tests/record/cases/semantic → the schema accepts (it cannot express these rules: H a multiple
//   of Hkv, causal N ≤ L, timing order, duplicate keys, nesting depth, finite numbers, a byte
//   count for every point) and the C validator refuses — the documented division of labour.
// Run: ROOFLAB=build/native/cli/rooflab node --test tests/record/schema_agreement.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const rooflab = process.env.ROOFLAB || join(root, 'build', 'native', 'cli', 'rooflab');
const schema = JSON.parse(readFileSync(join(root, 'data', 'schema', 'record-1.schema.json'), 'utf8'));
const ajv = new Ajv({ allErrors: true, strict: false });
const validate = ajv.compile(schema);

function jsonFiles(dir) {
  return readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => join(dir, f));
}

function schemaAccepts(file) {
  let doc;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return false; // not JSON at all: the schema cannot accept it
  }
  return validate(doc);
}

function cAccepts(files) {
  let out;
  try {
    out = execFileSync(rooflab, ['validate', '--json', '--quiet', ...files], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 << 20 });
  } catch (e) {
    out = e.stdout; // exit 1 when some file is invalid
  }
  const report = JSON.parse(out);
  return new Map(report.files.map((f) => [f.file, f.report ? f.report.ok : false]));
}

const examples = jsonFiles(join(root, 'data', 'examples')).filter((f) => !f.endsWith('gbench-flash-attn-h100.json') && !f.endsWith('ert-roofline-v100.json'));
const cases = (sub) => jsonFiles(join(root, 'tests', 'record', 'cases', sub));

const published = jsonFiles(join(root, 'data', 'published'));

test('records in data/examples, data/published and cases/valid: schema and C validator both accept', () => {
  const files = [...examples, ...published, ...cases('valid')];
  assert.ok(files.length >= 10);
  const c = cAccepts(files);
  for (const f of files) {
    assert.equal(schemaAccepts(f), true, `schema refuses ${f}: ${JSON.stringify(validate.errors)}`);
    assert.equal(c.get(f), true, `C validator refuses ${f}`);
  }
});

test('cases/invalid: schema and C validator both refuse', () => {
  const files = cases('invalid');
  assert.ok(files.length >= 20);
  const c = cAccepts(files);
  for (const f of files) {
    assert.equal(schemaAccepts(f), false, `schema accepts ${f}`);
    assert.equal(c.get(f), false, `C validator accepts ${f}`);
  }
});

test('cases/semantic: rules beyond JSON Schema — schema accepts, C validator refuses', () => {
  const files = cases('semantic');
  assert.ok(files.length >= 5);
  const c = cAccepts(files);
  for (const f of files) {
    // (JSON.parse keeps the last of duplicate keys and reads 1e999 as Infinity, which ajv takes
    // for a number: the schema sees a valid document in both.)
    assert.equal(schemaAccepts(f), true, `schema refuses ${f}: ${JSON.stringify(validate.errors)}`);
    assert.equal(c.get(f), false, `C validator accepts ${f}`);
  }
});

test('the raw tool samples are not records: both refuse them', () => {
  const files = ['gbench-flash-attn-h100.json', 'ert-roofline-v100.json'].map((f) => join(root, 'data', 'examples', f));
  const c = cAccepts(files);
  for (const f of files) {
    assert.equal(schemaAccepts(f), false);
    assert.equal(c.get(f), false);
  }
});

test('the schema names exactly the presets rooflab hw lists', () => {
  const hw = JSON.parse(execFileSync(rooflab, ['hw', '--json'], { encoding: 'utf8' }));
  const ids = hw.map((p) => p.id).sort();
  const presetEnum = schema.definitions.hardware.properties.preset.enum.slice().sort();
  assert.deepEqual(presetEnum, ids);
});
