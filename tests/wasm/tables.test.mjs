// The tables core describes once (issue 19): the report-output table behind `rooflab eval --json`
// and the binding's report slots, the kernel-field table behind the CLI's kernel flags and the
// binding's kernel slots, and the problem fields' ties, read through the WASM exports.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadWasmModel, nativeEval } from './load.mjs';

let model;
let M;
before(async () => { model = await loadWasmModel(); M = model.M; });

const str = (p) => M.UTF8ToString(p);
const names = () => Array.from({ length: M._rlw_report_count() }, (_, i) => str(M._rlw_report_name(i)));
const kinds = () => Array.from({ length: M._rlw_report_count() }, (_, i) => M._rlw_report_kind(i));

// `rooflab eval --json`'s value at a dotted path (a segment of digits indexes an array).
function at(obj, name) {
  let v = obj;
  for (const seg of name.split('.')) {
    if (v === null || typeof v !== 'object' || !(seg in v)) return undefined;
    v = v[seg];
  }
  return v;
}

// The binding's report slots for a problem given as CLI flags (integer codes by the module's own
// lookups; everything else 0 = core's default).
function report(flags) {
  const p = { hw: model.presetIndex(flags.hw || 'h100-sxm') };
  p.dtype = model.parseDtype(flags.dtype || 'fp16').index;
  if (flags['kv-dtype']) p['kv-dtype'] = model.parseDtype(flags['kv-dtype']).index;
  p.bandwidth = model.presets[p.hw].bandwidth;
  p.peak = model.peakForDtype(p.hw, p.dtype);
  for (const k of ['heads', 'kv-heads', 'seq', 'kv-len', 'head-dim', 'kv-lora-rank', 'rope-dim', 'topk']) if (flags[k]) p[k] = flags[k];
  if (flags.pass === 'bwd') p.pass = 1;
  if (flags.causal) p.causal = 1;
  model.writeParams(p);
  const n = M._rlw_report_count();
  const out = M._malloc(8 * n);
  const err = M._malloc(M._rlw_error_size());
  const perr = M._malloc(M._rlw_error_size());
  try {
    assert.equal(M._rlw_report(model.inPtr, out, err, perr), 0, str(M._rlw_error_message(err)));
    return Array.from(M.HEAPF64.subarray(out >> 3, (out >> 3) + n));
  } finally { M._free(out); M._free(err); M._free(perr); }
}

function flagList(f) {
  return Object.entries(f).flatMap(([k, v]) => (v === true ? [`--${k}`] : [`--${k}`, String(v)]));
}

test('every report-table name is at its dotted path in `rooflab eval --json` and in the binding, with the same number', () => {
  const fwd = { heads: 32, 'kv-heads': 8, seq: 1, 'kv-len': 4096, 'head-dim': 128 }; // Llama-3-8B decode on h100-sxm
  const json = nativeEval(flagList(fwd));
  const slots = report(fwd);
  const list = names();
  const k = kinds();
  assert.ok(list.length > 150, `the table has ${list.length} entries`);
  assert.equal(new Set(list).size, list.length, 'names are unique');
  for (const [i, name] of list.entries()) {
    if (name === 'unmodelled.naive') continue; // the backward pass only: checked below
    if (name.startsWith('predicted.interval_')) continue; // null under too few held-out points: checked below
    if (name.startsWith('indexer.')) continue; // only with --topk: checked below
    if (name === 'mla_intensity_limit_flop_per_byte') continue; // only for absorbed MLA: checked below
    const v = at(json, name);
    assert.notEqual(v, undefined, `${name} missing from eval --json`);
    if (k[i] === 0 || k[i] === 1) assert.equal(v, slots[i], `${name}: JSON ${v}, binding ${slots[i]}`);
    if (k[i] === 2) assert.equal(v, slots[i] === 1, `${name}: a boolean`);
    if (k[i] === 3 || k[i] === 4) assert.equal(typeof v, 'string', `${name}: a name`);
  }
  // hand values (MODEL.md): F = 4·B·H·d·pairs = 4·32·128·4096 = 67 108 864 FLOP; compulsory bytes
  // Q + O = 2·(32·128·2) = 16 384 and K + V = 2·(8·4096·128·2) = 16 777 216 → 16 793 600 B
  assert.equal(slots[list.indexOf('flops')], 67108864);
  assert.equal(at(json, 'models.compulsory.bytes'), 16793600);
  assert.equal(at(json, 'problem.score_dtype'), 'fp16'); // the key cmd_eval.c used to leave out
  // the names as the page's test ids take them
  assert.ok(list.map((n) => n.replaceAll('.', '-')).includes('models-tiled-bytes'));
  assert.deepEqual(at(json, 'problem.kv_lens'), []); // a list: [[length, count], ...], empty when off
  assert.equal(at(json, 'indexer'), undefined); // left out without --topk
});

// --topk: the indexer's entries are there, and equal in both. DSA decode over an fp8 MLA cache:
// 2·64·128·65536 = 1 073 741 824 FLOP (index heads 64 × dim 128, V3.2-Exp config).
test('with --topk the indexer entries are in eval --json and the binding, equal', () => {
  const dsa = { heads: 128, seq: 1, 'kv-len': 65536, 'kv-lora-rank': 512, 'rope-dim': 64, dtype: 'bf16', 'kv-dtype': 'fp8', topk: 2048 };
  const json = nativeEval(flagList(dsa));
  const slots = report(dsa);
  const list = names();
  const ix = list.filter((n) => n.startsWith('indexer.'));
  assert.ok(ix.length >= 8, ix.join(' '));
  for (const name of ix) assert.equal(at(json, name), slots[list.indexOf(name)], name);
  assert.equal(at(json, 'indexer.flops'), 1073741824);
  assert.equal(json.sequences.length, 1); // one row without --kv-lens
  assert.equal(json.sequences[0].kv_len, 65536);
});

// Absorbed MLA decode (DeepSeek-V3 shape, bf16 latent): d_qk = 512 + 64 = 576, d_v = 512, one
// latent per key of 576 · 2 = 1152 B, so I → 2·H·N·(d_qk + d_v) / 1152 = 2·128·1·1088 / 1152
// = 241.777… FLOP/B; MHA (no latent) has no such limit and leaves the entry out.
test('the MLA intensity limit is in eval --json and the binding for absorbed MLA only, equal', () => {
  const mla = { heads: 128, seq: 1, 'kv-len': 65536, 'kv-lora-rank': 512, 'rope-dim': 64, dtype: 'bf16' };
  const json = nativeEval(flagList(mla));
  const i = names().indexOf('mla_intensity_limit_flop_per_byte');
  assert.ok(i >= 0, 'the table has the MLA intensity limit');
  assert.equal(report(mla)[i], json.mla_intensity_limit_flop_per_byte);
  assert.ok(Math.abs(json.mla_intensity_limit_flop_per_byte - (2 * 128 * 1 * 1088) / 1152) < 1e-9);
  const mha = { heads: 32, 'kv-heads': 8, seq: 1, 'kv-len': 4096, 'head-dim': 128 };
  assert.equal(nativeEval(flagList(mha)).mla_intensity_limit_flop_per_byte, undefined);
  assert.ok(Number.isNaN(report(mha)[i]), 'NaN in the binding where --json leaves it out');
});

test('outputs without a value: naive backward is null, the backward pass says so, slots are NaN', () => {
  const bwd = { heads: 8, seq: 4096, 'head-dim': 64, pass: 'bwd' };
  const json = nativeEval(flagList(bwd));
  const slots = report(bwd);
  const list = names();
  assert.equal(json.models.naive, null);
  assert.equal(json.unmodelled.naive, 'no naive backward traffic model');
  assert.ok(Number.isNaN(slots[list.indexOf('models.naive.bytes')]));
  // F_bwd = 2.5 · 4·B·H·d·N·L = 2.5 · 4·8·64·4096·4096
  assert.equal(slots[list.indexOf('flops')], 2.5 * 4 * 8 * 64 * 4096 * 4096);
  const interval = json.predicted.interval_s;
  const lo = slots[list.indexOf('predicted.interval_s.0')];
  if (interval === null) assert.ok(Number.isNaN(lo));
  else assert.equal(interval[0], lo);
});

test('rlw_field_tie is exported and answers the KV-heads tie (0 kv-heads = heads)', () => {
  const idx = (flag) => Array.from({ length: M._rlw_field_count() }, (_, i) => str(M._rlw_field_flag(i))).indexOf(flag);
  assert.equal(M._rlw_field_tie(idx('kv-heads')), idx('heads'));
  assert.equal(M._rlw_field_tie(idx('kv-len')), idx('seq'));
  assert.equal(M._rlw_field_tie(idx('kv-dtype')), idx('dtype'));
  assert.equal(M._rlw_field_tie(idx('heads')), -1);
});

test('the kernel-field table: the CLI\'s flags, core\'s limits, the binding\'s slots', () => {
  const n = M._rlw_kfield_count();
  const flags = Array.from({ length: n }, (_, i) => str(M._rlw_kfield_flag(i)));
  assert.deepEqual(flags, ['kernel', 'gqa-pack', 'splits', 'ctas-per-sm', 'cores']);
  const splits = flags.indexOf('splits');
  assert.equal(M._rlw_kfield_lo(splits), 1);
  assert.equal(M._rlw_kfield_hi(splits), 128); // `rooflab eval --splits 129` is refused with this range
  assert.equal(str(M._rlw_kfield_choice(flags.indexOf('gqa-pack'), 1)), 'packed');
  for (const f of flags) assert.ok(model.inKeys.includes(f), `input slot ${f}`);
  const err = M._malloc(M._rlw_error_size());
  try {
    assert.equal(M._rlw_kfield_parse(splits, model.cstr('129'), 0, err), -1); // typed text: 1 … 128
    assert.equal(str(M._rlw_error_message(err)), 'splits: expected an integer from 1 to 128, got "129"');
    assert.equal(M._rlw_kfield_parse(flags.indexOf('kernel'), model.cstr('fa3'), 0, err), 2); // generic, fa2, fa3
  } finally { M._free(err); }
});
