// The page's pure parts in node (no browser): the URL fragment format (keys = CLI flags, defaults
// omitted, the same order as before), the state → model input through core's field table and
// roof resolution, chart-data.js (model output → datasets, axes, legend) and the one HTML escape.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadWasmModel } from '../wasm/load.mjs';
import { PageState } from '../../web/js/state.js';
import { buildViews, rooflineDatasets, rooflineAxes, legendItems, sweepDatasets } from '../../web/js/chart-data.js';
import { escapeHtml } from '../../web/js/html.js';

let model;
let ps;
before(async () => { model = await loadWasmModel(); ps = new PageState(model); });

test('fragments round-trip unchanged; defaults and ties are omitted', () => {
  for (const frag of ['', 'seq=8192&heads=32&kv-heads=8&head-dim=128&dtype=bf16&causal=1&hw=h200-sxm&bandwidth=4.8%20TB%2Fs',
    'phase=decode&seq=1&kv-len=32768&heads=32&kv-heads=8&head-dim=128&kv-dtype=fp8', 'heads=32', 'ceilings=fp32%2Cfp16_nontensor']) {
    assert.equal(ps.toFragment(ps.fromFragment(`#${frag}`)), frag);
  }
  // Core's ties (rl_problem_field_tie): Hkv → H, d_v → d, and L → N (prefill's L follows N
  // until typed: a prefill with a cached prefix; decode sets it apart).
  assert.deepEqual(ps.ties, { 'kv-heads': 'heads', 'kv-len': 'seq', 'head-dim-v': 'head-dim' });
  assert.equal(ps.defaults.seq, 4096);
  assert.equal(ps.defaults.hw, 'h100-sxm');
});

test('state → model input: core parses every field and resolves the roof', () => {
  const r = ps.resolve(ps.fromFragment('#seq=8192&hw=a100-sxm4-80gb&peak=624%20TFLOP%2Fs&dtype=fp8'));
  assert.ok(r.ok, r.message);
  assert.equal(r.params.seq, 8192);
  assert.equal(r.roof.peak, 624e12);
  assert.equal(r.roof.peakFrom, 'typed');
  const bad = ps.resolve(ps.fromFragment('#seq=abc'));
  assert.equal(bad.field, 'seq');
  assert.match(bad.message, /^seq: expected a positive integer/);
});

test('chart data: datasets, axes and legend from one evaluation', () => {
  const r = ps.resolve(ps.defaultState());
  const ev = model.evaluate(r.params);
  const sw = model.sweep(r.params, 'seq', 128, 1048576, 64, true);
  const v = buildViews(model, ev.r, sw.rows, r.roof, [], 'seq', 4096);
  const colors = { fg: '#000', bg: '#fff', roof: '#111', ridge: '#222', compulsory: '#333333', tiled: '#444444', naive: '#555555', ceilings: [] };
  const ds = rooflineDatasets(v.roofline, [{ label: '<b>x</b>', points: [{ x: 1e6, y: 1e9 }] }], colors, (x, u) => model.format(x, u));
  // The default profile (generic) predicts on the default H100: its point comes after the models'.
  assert.deepEqual(ds.map((d) => d.rlKind), ['roof', 'trail', 'trail', 'trail', 'point', 'point', 'point', 'predicted', 'measured']);
  assert.equal(ds[7].data[0].x, ev.r['predicted.levels.dram.intensity_flop_per_byte']);
  assert.equal(ds[7].data[0].y, ev.r['predicted.flops_per_s']);
  assert.equal(ds[4].data[0].x, ev.r['models.compulsory.intensity_flop_per_byte']);
  const axes = rooflineAxes(v.roofline, [{ points: [{ x: 1e9, y: 1e9 }] }]);
  assert.equal(axes.xMax, 1e9);
  assert.equal(sweepDatasets(v.sweep, colors).length, 7); // three times, three intensities, the predicted time
  const legend = legendItems(v.roofline, [], model, [128, 1048576]).map((x) => x[1]).join('\n');
  assert.match(legend, /sweeps 128 … 1,048,576/);
});

test('kernel keys: URL round trip, defaults omitted, model input; the extra roofs and level points', () => {
  for (const frag of ['kernel=fa3', 'phase=decode&seq=1&kv-len=32768&heads=32&kv-heads=8&kernel=flashinfer&gqa-pack=per-head&splits=16',
    'ctas-per-sm=2&roofs=l2%2Cexp&levels=1']) {
    assert.equal(ps.toFragment(ps.fromFragment(`#${frag}`)), frag);
  }
  assert.equal(ps.toFragment({ ...ps.defaultState(), splits: '0', 'ctas-per-sm': '0' }), '', '0 = the profile\'s choice, omitted');
  const r = ps.resolve(ps.fromFragment('#kernel=flash-decoding&gqa-pack=packed&splits=8&ctas-per-sm=3'));
  assert.ok(r.ok, r.message);
  assert.deepEqual([r.params.kernel, r.params['gqa-pack'], r.params.splits, r.params['ctas-per-sm']],
    [model.kernels.findIndex((k) => k.name === 'flash-decoding'), 1, 8, 3]);
  const bad = ps.resolve(ps.fromFragment('#kernel=fa9'));
  assert.equal(bad.field, 'kernel');
  assert.match(bad.message, /^kernel: unknown kernel profile "fa9"; expected one of generic, fa2, fa3/); // core's text (rl_kernel_parse)
  const st = ps.fromFragment('#seq=8192&batch=4&heads=16&head-dim=128&kernel=fa3&roofs=l2%2Cexp&levels=1');
  const rr = ps.resolve(st);
  const ev = model.evaluate(rr.params);
  const sw = model.sweep(rr.params, 'seq', 128, 1048576, 64, true);
  const v = buildViews(model, ev.r, sw.rows, rr.roof, [], 'seq', 8192, { roofs: ['l2', 'exp'], levels: true, kernel: 'fa3' }).roofline;
  assert.equal(v.l2Line.bandwidth, ev.r['roofs.l2_bandwidth_bytes_per_s']);
  assert.deepEqual(v.expLines.map((e) => e.peak), [ev.r['roofs.exp_flops_per_s'], ev.r['roofs.mma_exp_flops_per_s']]);
  assert.ok(v.yMax >= ev.r['roofs.exp_flops_per_s'], 'the y axis takes the exp roof in');
  assert.deepEqual(v.levels.l2.map((p) => p.x), ['compulsory', 'tiled', 'naive'].map((m) => ev.r[`models.${m}.levels.l2.intensity_flop_per_byte`]));
  assert.deepEqual(v.levels.dram.map((p) => p.y), ['compulsory', 'tiled', 'naive'].map((m) => ev.r[`models.${m}.levels.dram.attainable_flops_per_s`]));
});

test('one HTML escape for & < > " \'', () => {
  assert.equal(escapeHtml(`<a href="x" title='y'>&</a>`), '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
});
