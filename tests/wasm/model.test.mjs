// The WASM build of core, tested in node: the MODEL.md reference values (derived by hand, the
// same vectors as the native unit tests), equality with the native CLI (`rooflab eval --json`)
// to 1e-12 relative over a grid of problems, sweeps, presets, units and errors.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadWasmModel, nativeEval, nativeFail } from './load.mjs';

let model;
before(async () => { model = await loadWasmModel(); });

const MODELS = ['compulsory', 'tiled', 'naive'];

function close(actual, expected, rel, what) {
  if (expected === 0) return assert.equal(actual, 0, what);
  const err = Math.abs(actual - expected) / Math.abs(expected);
  assert.ok(err <= rel, `${what}: ${actual} vs ${expected} (relative error ${err})`);
}

// A problem in CLI-flag terms → model.evaluate() parameters, using the module's own lookups.
function params(p) {
  const hw = model.presetIndex(p.hw || 'h100-sxm');
  const dtype = model.parseDtype(p.dtype || 'fp16').index;
  const kv = p['kv-dtype'] ? model.parseDtype(p['kv-dtype']).index : 0;
  const bw = p.bandwidth ? model.parseQuantity(p.bandwidth, 'B/s', 'bandwidth').value : model.presets[hw].bandwidth;
  const peak = p.peak ? model.parseQuantity(p.peak, 'FLOP/s', 'peak').value : model.peakForDtype(hw, dtype);
  return {
    batch: p.batch || 0, heads: p.heads || 0, 'kv-heads': p['kv-heads'] || 0, seq: p.seq || 0,
    'kv-len': p['kv-len'] || 0, 'head-dim': p['head-dim'] || 0, dtype, 'kv-dtype': kv,
    causal: p.causal ? 1 : 0, pass: p.pass === 'bwd' ? 1 : 0, 'block-m': p['block-m'] || 0,
    'block-n': p['block-n'] || 0, bandwidth: bw, peak, hw, kernel: kernelIndex(p.kernel || 'generic'),
    'gqa-pack': { packed: 1, 'per-head': 2 }[p['gqa-pack']] || 0,
  };
}
// A kernel profile's index, by its name as the module itself lists them.
function kernelIndex(name) {
  const M = model.raw;
  for (let i = 0; i < M._rlw_kernel_count(); i++) if (M.UTF8ToString(M._rlw_kernel_name(i)) === name) return i;
  throw new Error(`no kernel profile ${name}`);
}
function flags(p) {
  const out = [];
  for (const [k, v] of Object.entries(p)) {
    if (k === 'causal') { if (v) out.push('--causal'); } else out.push(`--${k}`, String(v));
  }
  return out;
}
function evalOk(p) {
  const e = model.evaluate(params(p));
  assert.ok(e.ok, `evaluate ${JSON.stringify(p)}: ${e.message}`);
  return e.r;
}

test('the first source document\'s example: B=1 H=8 N=L=16384 d=64 fp16 Br=64 (DESIGN.md reference values)', () => {
  const r = evalOk({ seq: 16384, heads: 8, 'head-dim': 64, hw: 'a100-sxm4-80gb' });
  assert.equal(r.q_tensor_bytes, 2 * 8 * 16384 * 64);            // 16.78 MB
  assert.equal(r.score_matrix_bytes, 2 * 8 * 16384 * 16384);     // 4.29 GB
  assert.equal(r.flops, 4 * 8 * 16384 * 16384 * 64);             // 549.8 GFLOP
  assert.equal(r.pairs, 16384 * 16384);
  // tiled: Q + O + 256 × (K + V) ≈ 8.62 GB
  assert.equal(r['models.tiled.kv_reload_factor'], 256);
  assert.equal(r['models.tiled.bytes'], 2 * 16777216 + 256 * 2 * 16777216);
  // naive: S and P each written once and read once, plus Q, K, V, O ≈ 17.25 GB
  assert.equal(r['models.naive.bytes'], 4 * 16777216 + 4 * 4294967296);
  assert.equal(r['models.compulsory.bytes'], 4 * 16777216);
  // ridge A100 80 GB: 312 TFLOP/s / 2039 GB/s ≈ 153
  close(r.ridge_flop_per_byte, 312e12 / 2039e9, 1e-15, 'ridge');
  // SRAM for Br = Bc = d = 64, fp16 tiles, fp32 S and O: 56.5 KiB, over the 48 KiB default
  assert.equal(r['sram.total_bytes'], 56.5 * 1024);
  assert.equal(r['sram.fits_default'], 0);
  const small = evalOk({ seq: 1024, heads: 8, 'head-dim': 64 });
  assert.equal(small.flops, 4 * 8 * 1024 * 1024 * 64);          // ≈ 2.15 GFLOP
});

test('GQA decode: B=1 H=32 Hkv=8 N=1 L=4096 d=128 fp16', () => {
  const r = evalOk({ heads: 32, 'kv-heads': 8, seq: 1, 'kv-len': 4096, 'head-dim': 128 });
  assert.equal(r.flops, 67108864);
  assert.equal(r['models.compulsory.bytes'], 16793600);
  close(r['models.compulsory.intensity_flop_per_byte'], 67108864 / 16793600, 1e-15, 'intensity');
  assert.ok(Math.abs(r['models.compulsory.intensity_flop_per_byte'] - 3.996) < 5e-4);
  assert.equal(model.bounds[r['models.compulsory.bound']], 'memory');
  close(r['models.compulsory.time_s'], 16793600 / 3350e9, 1e-15, 'time');
});

test('FlashAttention-3 Table 2 problem: B=4 H=16 N=L=8448 d=128', () => {
  const r = evalOk({ batch: 4, heads: 16, seq: 8448, 'head-dim': 128 });
  assert.equal(r.flops, 2338609692672);
});

test('ridges from datasheet peaks: A100 ≈ 153, H100 SXM ≈ 295, V100 tensor vs non-tensor', () => {
  close(evalOk({ hw: 'h100-sxm' }).ridge_flop_per_byte, 989e12 / 3350e9, 1e-15, 'h100');
  const v = model.presets[model.presetIndex('v100-sxm2')];
  assert.equal(v.peaks.fp16_tensor, 125e12);
  assert.equal(v.peaks.fp16_nontensor, 31.4e12);
});

test('causal pairs: N·L − N(N−1)/2; backward is 2.5 × forward, tiled the FA2 backward dataflow', () => {
  const r = evalOk({ seq: 4096, causal: true });
  assert.equal(r.pairs, 4096 * 4097 / 2);
  const b = evalOk({ seq: 4096, pass: 'bwd' });
  assert.equal(b.flops, 2.5 * 4 * 8 * 4096 * 4096 * 64);
  assert.ok(Number.isFinite(b['models.tiled.bytes']), 'the tiled backward model has a value');
  assert.ok(Number.isNaN(b['models.naive.bytes']), 'no naive backward model: NaN, as --json writes null');
  assert.ok(Number.isFinite(b['models.compulsory.bytes']), 'the compulsory backward model has a value');
  assert.ok(b['models.tiled.bytes'] > b['models.compulsory.bytes']);
});

// The grid compared with the native build: presets, dtypes, GQA, decode, causal, bwd, tiles,
// overrides in units.
const GRID = [
  {},
  { seq: 16384, hw: 'a100-sxm4-80gb' },
  { seq: 8192, heads: 32, 'kv-heads': 8, 'head-dim': 128, dtype: 'bf16', causal: true, hw: 'h200-sxm', bandwidth: '4.8 TB/s' },
  { heads: 32, 'kv-heads': 8, seq: 1, 'kv-len': 4096, 'head-dim': 128 },
  { heads: 32, 'kv-heads': 4, seq: 1, 'kv-len': 131072, 'head-dim': 128, 'kv-dtype': 'fp8', hw: 'h100-pcie' },
  { heads: 64, 'kv-heads': 1, seq: 1, 'kv-len': 1048576, 'head-dim': 64, causal: true, hw: 'mi300x' },
  { batch: 4, heads: 16, seq: 8448, 'head-dim': 128 },
  { seq: 1000, 'block-m': 48, 'block-n': 80, causal: true, 'head-dim': 96 },
  { seq: 3000, 'kv-len': 5000, causal: true, 'block-m': 128, 'block-n': 32 },
  { seq: 8192, 'head-dim': 256, 'block-m': 16, 'block-n': 16, hw: 'rtx4090' },
  { seq: 2048, dtype: 'fp32', hw: 'v100-sxm2' },
  { seq: 2048, dtype: 'tf32', hw: 'a100-sxm4-40gb' },
  { seq: 4096, dtype: 'fp8', hw: 'h100-sxm' },
  { seq: 65536, pass: 'bwd', heads: 16, hw: 'l4' },
  { seq: 512, batch: 64, heads: 12, hw: 'rtx3060', peak: '25.5 TFLOPS' },
  { seq: 4096, hw: 'custom', bandwidth: '1 TiB/s', peak: '100 TFLOP/s' },
  { seq: 4096, bandwidth: '25 Gbit/s', peak: '1.5e15 FLOP/s' },
  { seq: 1048576, heads: 128, batch: 8, 'head-dim': 128, causal: true },
  { batch: 4, heads: 16, seq: 8192, 'head-dim': 128, kernel: 'fa3' },
  { batch: 32, heads: 16, seq: 512, 'head-dim': 128, kernel: 'fa3', causal: true },
  { batch: 2, heads: 32, seq: 4096, 'head-dim': 64, kernel: 'fa2', hw: 'a100-sxm4-80gb' },
  { heads: 32, 'kv-heads': 8, seq: 1, 'kv-len': 32768, 'head-dim': 128, kernel: 'flashinfer' },
  { batch: 8, heads: 16, 'kv-heads': 2, seq: 1, 'kv-len': 8192, 'head-dim': 128, kernel: 'flash-decoding', hw: 'a100-sxm4-80gb' },
  { batch: 4, heads: 16, seq: 4096, 'head-dim': 128, kernel: 'standard', causal: true },
  { heads: 32, 'kv-heads': 8, seq: 1, 'kv-len': 32768, 'head-dim': 128, 'gqa-pack': 'packed' },
  { batch: 2, heads: 16, seq: 4096, 'head-dim': 128, kernel: 'fa3', pass: 'bwd' },
];

test('every evaluation equals the native `rooflab eval --json` to 1e-12 relative', () => {
  for (const p of GRID) {
    const what = JSON.stringify(p);
    const r = evalOk(p);
    const n = nativeEval(flags(p));
    for (const k of ['flops', 'softmax_flops', 'pairs', 'bandwidth_bytes_per_s', 'peak_flops_per_s', 'ridge_flop_per_byte']) {
      close(r[k], n[k], 1e-12, `${what} ${k}`);
    }
    for (const m of MODELS) {
      const nm = n.models[m];
      if (!Number.isFinite(r[`models.${m}.bytes`])) {
        assert.ok(nm === undefined || nm === null || nm.available === false, `${what} ${m}: native shows a model the WASM build does not`);
        continue;
      }
      assert.ok(nm, `${what}: native lacks ${m}`);
      for (const k of ['bytes', 'intensity_flop_per_byte', 'attainable_flops_per_s', 'time_s']) {
        close(r[`models.${m}.${k}`], nm[k], 1e-12, `${what} ${m}.${k}`);
      }
      assert.equal(model.bounds[r[`models.${m}.bound`]], nm.bound, `${what} ${m}.bound`);
    }
    // Levels and the predicted time (rooflab 0.2): the same numbers as the native CLI.
    for (const m of MODELS) {
      const lv = n.models[m] && n.models[m].levels;
      if (!lv) { assert.ok(!r.levels_known || !Number.isFinite(r[`models.${m}.bytes`]), `${what} ${m}: native lacks levels`); continue; }
      close(r[`models.${m}.levels.dram.bytes`], lv.dram.bytes, 1e-12, `${what} ${m}.dram_bytes`);
      close(r[`models.${m}.levels.l2.bytes`], lv.l2.bytes, 1e-12, `${what} ${m}.l2_bytes`);
      close(r[`models.${m}.levels.l2.intensity_flop_per_byte`], lv.l2.intensity_flop_per_byte, 1e-12, `${what} ${m}.l2 intensity`);
      close(r[`models.${m}.levels.kv_hit_fraction`], lv.kv_hit_fraction, 1e-12, `${what} ${m}.kv_hit_fraction`);
    }
    if (n.predicted) {
      assert.ok(Number.isFinite(r['predicted.time_s']), `${what}: WASM did not predict`);
      close(r['predicted.time_s'], n.predicted.time_s, 1e-12, `${what} predicted.time_s`);
      for (const [term, sec] of Object.entries(n.predicted.terms)) {
        close(r[`predicted.terms.${term}`], sec, 1e-12, `${what} predicted.terms.${term}`);
      }
      close(r['predicted.levels.dram.bytes'], n.predicted.levels.dram.bytes, 1e-12, `${what} predicted.dram_bytes`);
    } else {
      assert.ok(Number.isNaN(r['predicted.time_s']), `${what}: WASM predicted, native did not`);
    }
    if (n.sram) {
      for (const k of ['q_tile_bytes', 'k_tile_bytes', 'v_tile_bytes', 's_tile_bytes', 'o_acc_bytes', 'ml_bytes', 'total_bytes', 'limit_default_bytes', 'limit_optin_bytes']) {
        close(r[`sram.${k}`], n.sram[k], 1e-12, `${what} sram.${k}`);
      }
      assert.equal(r['sram.fits_default'] === 1, n.sram.fits_default, `${what} sram.fits_default`);
    }
  }
});

test('a sweep equals one evaluation per value, and 256 log-spaced N cover 128 … 1,048,576', () => {
  const p = params({ seq: 4096, causal: true, heads: 16 });
  p['kv-len'] = 0; // tied: L = N
  const sw = model.sweep(p, 'seq', 128, 1048576, 256, true);
  assert.ok(sw.ok, sw.message);
  assert.ok(sw.rows.length > 200 && sw.rows.length <= 256, `rows ${sw.rows.length}`);
  assert.equal(sw.rows[0].x, 128);
  assert.equal(sw.rows[sw.rows.length - 1].x, 1048576);
  for (const row of [sw.rows[0], sw.rows[77], sw.rows[sw.rows.length - 1]]) {
    const r = model.evaluate({ ...p, seq: row.x });
    assert.ok(r.ok);
    assert.equal(row.flops, r.r.flops);
    for (const m of MODELS) {
      assert.equal(row[`${m}.bytes`], r.r[`models.${m}.bytes`]);
      assert.equal(row[`${m}.time_s`], r.r[`models.${m}.time_s`]);
    }
  }
});

test('presets: the ids DESIGN.md names, custom last, the datasheet figures', () => {
  const ids = model.presets.map((p) => p.id);
  for (const id of ['v100-sxm2', 'a100-sxm4-40gb', 'a100-sxm4-80gb', 'a100-pcie-80gb', 'h100-sxm', 'h100-pcie', 'h200-sxm', 'l4', 'rtx3060', 'rtx4090', 'mi300x']) {
    assert.ok(ids.includes(id), id);
  }
  assert.equal(ids[ids.length - 1], 'custom');
  const h = model.presets[model.presetIndex('h100-sxm')];
  assert.equal(h.bandwidth, 3350e9);
  assert.equal(h.peaks.fp16_tensor, 989e12);
  assert.equal(h.smemPerBlockDefault, 48 * 1024);
  assert.equal(model.presets[model.presetIndex('h200-sxm')].bandwidth, 4800e9);
});

test('units: values and core messages, the same text as the native CLI', () => {
  const q = (t, u) => model.parseQuantity(t, u, 'bandwidth');
  assert.equal(q('4.8 TB/s', 'B/s').value, 4.8e12);
  assert.equal(q('3.2 TiB/s', 'B/s').value, 3.2 * 2 ** 40);
  assert.equal(q('25 Gbit/s', 'B/s').value, 25e9 / 8);
  assert.equal(model.parseQuantity('989 TFLOP/s', 'FLOP/s', 'peak').value, 989e12);
  const bad = q('312 TFLOPS', 'B/s');
  assert.equal(bad.ok, false);
  assert.equal(bad.field, 'bandwidth');
  assert.match(bad.message, /^bandwidth: "312 TFLOPS" is a compute rate, expected bytes per second/);
  const native = nativeFail(['eval', '--bandwidth', '312 TFLOPS']);
  assert.equal(native.status, 2);
  // Same sentence after the field name (the CLI names the flag, the page the URL key).
  assert.ok(native.stderr.includes(bad.message.replace(/^bandwidth: /, '')), native.stderr);
  for (const t of ['-3 TB/s', '0 GB/s', 'NaN', 'inf TB/s', 'abc', '']) assert.equal(q(t, 'B/s').ok, false, t);
  assert.equal(model.format(2.039e12, 'B/s'), '2.039 TB/s');
  assert.equal(model.format(57856, 'B', { iec: true }), '56.5 KiB');
});

test('invalid problems come back as core errors naming the field, never a crash', () => {
  const base = params({});
  const cases = [
    [{ heads: 8, 'kv-heads': 3 }, 'kv-heads'],
    [{ seq: 8192, 'kv-len': 4096, causal: 1 }, 'kv-len'],
    [{ 'head-dim': 1 << 20 }, 'head-dim'],
    [{ seq: 2.5 }, 'seq'],
    [{ batch: -1 }, 'batch'],
    [{ bandwidth: -1 }, 'bandwidth'],
    [{ peak: Infinity }, 'peak'],
    [{ dtype: 17 }, 'dtype'],
    [{ 'kv-dtype': -1 }, 'kv-dtype'],
  ];
  for (const [over, field] of cases) {
    const e = model.evaluate({ ...base, ...over });
    assert.equal(e.ok, false, JSON.stringify(over));
    assert.ok(e.message.length > 10 && e.message.includes(field) || e.field.includes(field), `${JSON.stringify(over)} → ${e.field}: ${e.message}`);
  }
  const r = model.lookupPreset('h300', 'hw');
  assert.equal(r.ok, false);
  assert.match(r.message, /h300/);
  assert.equal(model.parseDtype('fp4', 'dtype').ok, false);
});
