// explain.js — the worked calculation: each step of the model written out with the current
// numbers substituted and units carried. Every number is a value the WASM model returned, shown
// with core's formatter in a span with a stable data-testid and its exact value in data-value;
// this file only writes the formulas around them.

import { escapeHtml as esc } from './html.js';
import { limitText } from './chart-data.js';

// One formatter for every integer: toLocaleString builds a new one on each call (a slider move
// formats a few hundred integers). The same text: toLocaleString('en-US') is this format.
const INT = new Intl.NumberFormat('en-US');

export function makeFormatters(model) {
  const int = (v) => INT.format(Number(v));
  const q = (v, unit) => model.format(v, unit);
  // Bytes in SI, with IEC beside when the two differ by more than 2 % (from 1 KiB up: 2.4 %+).
  const bytes = (v) => (v >= 1024 ? `${q(v, 'B')} (${model.format(v, 'B', { iec: true })})` : `${int(v)} B`);
  const span = (testid, value, text) =>
    `<span class="num" data-testid="${esc(testid)}" data-value="${esc(value)}">${esc(text)}</span>`;
  return { int, q, bytes, span };
}

// A worked-calculation number's test id: calc- and its report-output name, `.` → `-`, as the
// numbers table and the ledger name theirs (the prefix keeps them apart from those: the same value
// is often shown in both places).
export const calcId = (key) => `calc-${key.replace(/\./g, '-')}`;

// Stable ids of the rows (data-row, for the guided tours' highlight): a title's start → its id.
const ROW_IDS = [['Problem', 'problem'], ['Scored pairs', 'pairs'], ['FLOPs', 'flops'], ['Bytes per tensor', 'tensors'],
  ['Device-memory traffic', 'traffic'], ['Arithmetic intensity', 'intensity'], ['MLA intensity', 'mla'], ['Ridge point', 'ridge'],
  ['Attainable', 'attainable'], ['Bound time', 'bound-time'], ['SRAM budget', 'sram'], ['Bytes per memory level', 'levels'],
  ['Memory levels', 'levels'], ['The L2 roof', 'l2-roof'], ['MMA time', 'mma'], ['Tile padding', 'tiles'],
  ['Exponentials', 'exp'], ['Waves', 'waves'], ['Memory and its overlap', 'memory'], ['Occupancy and fixed costs', 'occupancy'],
  ['Predicted time =', 'predicted-time'], ['Predicted time', 'predicted']];
const rowId = (title) => (ROW_IDS.find(([t]) => title.startsWith(t)) || ['', ''])[1];

// r: model.evaluate(...).r, roof: { bandwidth, peak, peakName, bandwidthFrom, peakFrom }, preset;
// pred: { kernel (name), error (core's reason when the profile cannot predict, or null) }.
export function workedHtml(model, r, roof, preset, pred = { kernel: '', error: null }) {
  const { int, q, bytes, span } = makeFormatters(model);
  // n(key, how): the report-output table's value `key` (model.evaluate's names, as `rooflab eval
  // --json` nests them) in a span with the test id calc-KEY, `.` → `-` (calc-models-tiled-bytes);
  // how = 'int', 'B' (bytes, SI + IEC), or a base unit. own(id, value, how): a number that is not
  // one of the table's (a preset's figure, or a value shown twice: docs/PAGE.md lists them).
  const text = (value, how) => (how === 'int' ? int(value) : how === 'B' ? bytes(value) : how === 'x' ? model.format(value, '', { sig: 6 }) : q(value, how));
  const n = (key, how) => span(calcId(key), r[key], text(r[key], how));
  const own = (id, value, how) => span(`calc-${id}`, value, text(value, how));
  const dt = (i) => model.dtypes[i].name;
  const B = r['problem.batch'], H = r['problem.heads'], Hkv = r['problem.kv_heads'];
  const N = r['problem.seq'], L = r['problem.kv_len'], d = r['problem.head_dim'];
  const b = r['element_bytes.dtype'], bkv = r['element_bytes.kv_dtype'], bs = r['element_bytes.score_dtype'];
  const bo = r['element_bytes.out_dtype'];
  const Br = r['problem.block_m'], Bc = r['problem.block_n'];
  const causal = r['problem.causal'] === 1, bwd = r['problem.pass'] === 1;
  const avail = model.models.filter((m) => Number.isFinite(r[`models.${m}.bytes`]));
  const out = [];
  const li = (title, body) => out.push(`<li data-row="${rowId(title)}"><strong>${title}</strong><div class="eq">${body}</div></li>`);

  li('Problem', `B = ${n('problem.batch', 'int')}, H = ${n('problem.heads', 'int')}, Hkv = ${n('problem.kv_heads', 'int')} (H/Hkv query heads share each K/V head), ` +
    `N = ${n('problem.seq', 'int')}, L = ${n('problem.kv_len', 'int')}, d = ${n('problem.head_dim', 'int')}; ` +
    `Q/O in ${dt(r['problem.dtype'])} (b = ${n('element_bytes.dtype', 'int')} B), K/V in ${dt(r['problem.kv_dtype'])} (b_kv = ${n('element_bytes.kv_dtype', 'int')} B); ` +
    `${causal ? 'causal' : 'non-causal'}, ${bwd ? 'backward' : 'forward'} pass; tile Br × Bc = ${n('problem.block_m', 'int')} × ${n('problem.block_n', 'int')}.`);

  li('Scored pairs', causal
    ? `P = N·L − N(N−1)/2 = ${int(N)} · ${int(L)} − ${int(N)} · ${int(N - 1)} / 2 = ${n('pairs', 'int')} per (batch, head)`
    : `P = N · L = ${int(N)} · ${int(L)} = ${n('pairs', 'int')} per (batch, head)`);

  const fwd = `4 · B · H · d · P = 4 · ${int(B)} · ${int(H)} · ${int(d)} · ${int(r.pairs)}`;
  li('FLOPs (matmuls QKᵀ and PV, 2 FLOPs per multiply-add)', (bwd
    ? `F_fwd = ${fwd} = ${n('fwd_flops', 'FLOP')}<br>F = 2.5 × F_fwd = ${n('flops', 'FLOP')} (five matmuls instead of two)`
    : `F = ${fwd} = ${n('flops', 'FLOP')}`) +
    `<br><span class="note">softmax and scaling 5·B·H·P = ${n('softmax_flops', 'FLOP')}, reported apart, not part of F</span>`);

  li('Bytes per tensor (once)',
    `Q = b · B · H · N · d = ${b} B · ${int(B)} · ${int(H)} · ${int(N)} · ${int(d)} = ${n('q_tensor_bytes', 'B')}<br>` +
    `K = b_kv · B · Hkv · L · d = ${bkv} B · ${int(B)} · ${int(Hkv)} · ${int(L)} · ${int(d)} = ${n('k_tensor_bytes', 'B')}; ` +
    `V the same = ${n('v_tensor_bytes', 'B')}<br>` +
    (bo === b ? `O = ${n('o_tensor_bytes', 'B')} (as Q)<br>`
      : `O = b_o · B · H · N · d = ${bo} B · ${int(B)} · ${int(H)} · ${int(N)} · ${int(d)} = ${n('o_tensor_bytes', 'B')} (O in ${dt(r['problem.out_dtype'])})<br>`) +
    `S (or P) matrix = b_s · B · H · N · L = ${bs} B · ${int(B)} · ${int(H)} · ${int(N)} · ${int(L)} = ${n('score_matrix_bytes', 'B')}`);

  const c = 'models.compulsory.';
  let traffic = bwd
    ? `compulsory = Q + K + V + O + (dO read, dQ dK dV written) = ${n('models.compulsory.terms_bytes.q', 'B')} + ${n('models.compulsory.terms_bytes.k', 'B')} + ${n('models.compulsory.terms_bytes.v', 'B')} + ${n('models.compulsory.terms_bytes.o', 'B')} + ${n('models.compulsory.terms_bytes.grad', 'B')} = ${n('models.compulsory.bytes', 'B')}`
    : `compulsory = Q + K + V + O = ${n('models.compulsory.terms_bytes.q', 'B')} + ${n('models.compulsory.terms_bytes.k', 'B')} + ${n('models.compulsory.terms_bytes.v', 'B')} + ${n('models.compulsory.terms_bytes.o', 'B')} = ${n('models.compulsory.bytes', 'B')}`;
  if (Number.isFinite(r['models.tiled.bytes']) && bwd) {
    traffic += `<br>tiled (FlashAttention-2 backward dataflow, KV blocks outer): K and V read once per (batch, query head), dK and dV written once; ` +
      `for every Br × Bc tile pair the query block's Q, dO, log-sum-exp and D rows read and its fp32 dQ accumulator read and written; ` +
      `a pre-pass for D and a post-pass for dQ (MODEL.md “Work, traffic and the roofline”)<br>` +
      `tiled = Q reads + K + V + O + (dO, LSE, D, dQ, dK, dV traffic) = ${n('models.tiled.terms_bytes.q', 'B')} + ${n('models.tiled.terms_bytes.k', 'B')} + ` +
      `${n('models.tiled.terms_bytes.v', 'B')} + ${n('models.tiled.terms_bytes.o', 'B')} + ${n('models.tiled.terms_bytes.grad', 'B')} = ${n('models.tiled.bytes', 'B')}`;
  } else if (Number.isFinite(r['models.tiled.bytes'])) {
    const t = 'models.tiled.';
    const reload = r[t + 'kv_reload_factor'];
    traffic += `<br>tiled: ⌈N/Br⌉ = ⌈${int(N)}/${int(Br)}⌉ = ${n('models.tiled.query_blocks', 'int')} query blocks per (batch, head); ` +
      `each streams the K and V rows it needs${causal ? ` (causal: up to its last key, in steps of Bc = ${int(Bc)} rows)` : ' (all L)'}: ` +
      `${n('models.tiled.kv_rows_loaded_per_head', 'int')} rows per head = ${n('models.tiled.kv_reload_factor', 'x')} × L<br>` +
      `K reads = ${model.format(reload, '', { sig: 6 })} × K = ${n('models.tiled.terms_bytes.k', 'B')}, ` +
      `V reads = ${n('models.tiled.terms_bytes.v', 'B')}<br>` +
      `tiled = Q + O + K reads + V reads = ${n('models.tiled.terms_bytes.q', 'B')} + ${n('models.tiled.terms_bytes.o', 'B')} + ${bytes(r[t + 'terms_bytes.k'])} + ${bytes(r[t + 'terms_bytes.v'])} = ${n('models.tiled.bytes', 'B')}`;
  } else {
    traffic += '<br>tiled: no backward traffic model yet (MODEL.md “Work, traffic and the roofline”) — not shown rather than guessed.';
  }
  if (Number.isFinite(r['models.naive.bytes'])) {
    traffic += `<br>naive = compulsory + S written and read + P written and read = ${bytes(r[c + 'bytes'])} + ${n('models.naive.terms_bytes.s', 'B')} + ${n('models.naive.terms_bytes.p', 'B')} = ${n('models.naive.bytes', 'B')}` +
      (causal ? ' <span class="note">(causal does not shrink it: the full matrix is stored)</span>' : '');
  } else {
    traffic += '<br>naive: no backward traffic model yet — not shown rather than guessed.';
  }
  li('Device-memory traffic per model', traffic);

  li('Arithmetic intensity I = F / bytes', avail.map((m) =>
    `${m}: ${q(r.flops, 'FLOP')} / ${q(r[`models.${m}.bytes`], 'B')} = ${n(`models.${m}.intensity_flop_per_byte`, 'FLOP/B')}`).join('<br>'));

  // Absorbed MLA (core's rl_mla_intensity_limit): one latent per key read once for every head, so
  // the intensity grows with H·N instead of H/Hkv.
  const limit = r.mla_intensity_limit_flop_per_byte;
  if (r['problem.kv_lora_rank'] > 0 && limit > 0) {
    const dqk = r['problem.head_dim'], dv = r['problem.head_dim_v'];
    const same = r['problem.kv_dtype'] === r['problem.dtype'];
    li('MLA intensity as L grows (absorbed: one latent, read once for all H heads)',
      `latent R + d_R = ${n('problem.kv_lora_rank', 'int')} + ${n('problem.rope_dim', 'int')} = d_qk ${own('mla-dqk', dqk, 'int')}; d_v = R = ${n('problem.head_dim_v', 'int')}; ` +
      `each key adds one latent of ${same ? `d_qk · b = ${int(dqk)} · ${bkv} B = ` : ''}${n('kv_token_bytes', 'B')}${same ? '' : ` (${dt(r['problem.kv_dtype'])} cache layout)`}, whatever H is<br>` +
      `F = 2·B·H·P·(d_qk + d_v) with P → N·L, and the bytes → B·L·(latent bytes) as Q and O fade beside the cache, so<br>` +
      `I → 2·H·N·(d_qk + d_v) / (d_qk·b) = 2 · ${int(H)} · ${int(N)} · (${int(dqk)} + ${int(dv)}) / ${int(r.kv_token_bytes)} B = ${n('mla_intensity_limit_flop_per_byte', 'FLOP/B')}` +
      `<br><span class="note">here (L = ${int(L)}) compulsory I = ${q(r['models.compulsory.intensity_flop_per_byte'], 'FLOP/B')}, the ridge ${q(r.ridge_flop_per_byte, 'FLOP/B')}: ` +
      `${limit >= r.ridge_flop_per_byte ? 'at or past it: H query heads on one latent make decode compute-bound' : 'below it: memory-bound'}. ` +
      'Each extra query row (MTP, speculative decoding) adds 2·H·(d_qk + d_v) FLOP per key and no bytes: N = 2 doubles I.</span>');
  }

  const from = (w) => (w === 'typed' ? 'typed' : `${w} preset`);
  li('Ridge point I* = π / β',
    `π = ${n('peak_flops_per_s', 'FLOP/s')} (${esc(roof.peakName)}, ${from(roof.peakFrom)}), ` +
    `β = ${n('bandwidth_bytes_per_s', 'B/s')} = ${model.format(r.bandwidth_bytes_per_s, 'B/s', { iec: true })} (${from(roof.bandwidthFrom)})<br>` +
    `I* = ${q(r.peak_flops_per_s, 'FLOP/s')} / ${q(r.bandwidth_bytes_per_s, 'B/s')} = ${n('ridge_flop_per_byte', 'FLOP/B')}`);

  li('Attainable throughput P(I) = min(π, β · I)', avail.map((m) =>
    `${m}: min(${q(r.peak_flops_per_s, 'FLOP/s')}, ${q(r.bandwidth_bytes_per_s, 'B/s')} × ${q(r[`models.${m}.intensity_flop_per_byte`], 'FLOP/B')}) = ${n(`models.${m}.attainable_flops_per_s`, 'FLOP/s')}`).join('<br>'));

  li('Bound time t = max(F / π, bytes / β)', avail.map((m) => {
    const bound = model.bounds[r[`models.${m}.bound`]];
    return `${m}: max(${n(`models.${m}.compute_time_s`, 's')}, ${n(`models.${m}.memory_time_s`, 's')}) = ${n(`models.${m}.time_s`, 's')} → ` +
      `${span(calcId(`models.${m}.bound`), bound, `${bound}-bound`)} (I ${r[`models.${m}.bound`] ? '≥' : '<'} I*)`;
  }).join('<br>'));

  const S = (k) => r[`sram.${k}`];
  let sram = `Q tile Br·d·b = ${int(Br)} · ${int(d)} · ${b} B = ${n('sram.q_tile_bytes', 'B')}<br>` +
    `K tile Bc·d·b_kv = ${int(Bc)} · ${int(d)} · ${bkv} B = ${n('sram.k_tile_bytes', 'B')}<br>` +
    `V tile Bc·d·b_kv = ${n('sram.v_tile_bytes', 'B')}<br>` +
    `S tile Br·Bc·4 (fp32 scores) = ${int(Br)} · ${int(Bc)} · 4 B = ${n('sram.s_tile_bytes', 'B')}<br>` +
    `O accumulator Br·d·4 (fp32) = ${int(Br)} · ${int(d)} · 4 B = ${n('sram.o_acc_bytes', 'B')}<br>` +
    `m and l 2·Br·4 = 2 · ${int(Br)} · 4 B = ${n('sram.ml_bytes', 'B')}<br>` +
    `total = ${n('sram.total_bytes', 'B')} — bytes, not elements`;
  if (S('limit_default_bytes') > 0) {
    sram += `<br>${esc(preset.id)} shared memory per block: ${n('sram.limit_default_bytes', 'B')} by default, ${n('sram.limit_optin_bytes', 'B')} with opt-in.`;
    if (!S('fits_optin')) {
      sram += `<div class="warn" data-testid="sram-warning" data-value="optin">⚠ This tile does not fit in shared memory even with the opt-in maximum (${bytes(S('limit_optin_bytes'))}): pick a smaller Br, Bc or d.</div>`;
    } else if (!S('fits_default')) {
      sram += `<div class="warn" data-testid="sram-warning" data-value="default">⚠ Over the ${bytes(S('limit_default_bytes'))} default per block: the kernel must opt in to more shared memory (cudaFuncSetAttribute); it fits the ${bytes(S('limit_optin_bytes'))} maximum.</div>`;
    }
  } else {
    sram += ' <span class="note">(the custom preset has no shared-memory figure to compare with)</span>';
  }
  li('SRAM budget of one tiled block', sram);
  const basic = out.length;
  levelSteps(model, r, preset, avail, { n, own, q, li });
  predictionSteps(model, r, roof, preset, pred, { n, own, q, li, int, span });
  trackAdvancedOpen();
  // Two parts (issue 20): the roofline itself, then — folded — what it takes to predict a real
  // kernel, with each constant said in one plain sentence before the steps use it.
  return '<h3 class="worked-part" data-testid="worked-part-roofline">Part 1 — the roofline</h3>' +
    '<p class="note">Ten steps from the problem to the bound: FLOPs, bytes, their ratio, and the two roofs.</p>' +
    `<ol data-testid="worked-basic">${out.slice(0, basic).join('')}</ol>` +
    `<details class="worked-advanced" data-testid="worked-advanced"${advancedOpen ? ' open' : ''}>` +
    '<summary><h3 class="worked-part">Part 2 — predicting a real kernel</h3> ' +
    '<span class="note">the L2 reuse rule, the exp rate, waves and occupancy, the overlap exponent p</span></summary>' +
    CONSTANTS_HTML +
    `<ol start="${basic + 1}" data-testid="worked-prediction">${out.slice(basic).join('')}</ol></details>`;
}

// The constants part 2 uses, one plain sentence each: what it is and where its number comes from
// (docs/MODEL.md "Fitted constants" and "Predicted time").
const CONSTANTS = [
  ['l2', 'The L2 reuse rule', 'The blocks running at the same moment read the same K and V rows; if those rows fit in the L2 cache, the second and later reads come from L2, not from device memory — the rule compares that working set with the L2 size of the preset.'],
  ['exp', 'The exp rate (16 per SM per clock)', 'Each SM computes 16 exponentials per clock (the CUDA C++ Programming Guide’s throughput table for exp2f on compute capability 7.0–9.0), so exps per second = 16 × SMs × clock.'],
  ['mma', 'The MMA rate', 'The share of the tensor-core peak a kernel’s matrix multiplies reach: 1 for Hopper’s wgmma, a fraction fitted on one published FlashAttention-2 point for the older mma.sync instructions.'],
  ['waves', 'Waves', 'The GPU runs SMs × (blocks per SM) blocks at a time; when the blocks do not divide evenly, the last round leaves SMs idle, and that idle time is the waves term.'],
  ['occupancy', 'Occupancy, f1', 'With fewer blocks than SMs, some SMs have nothing to do; f1 is the share of an SM one lone block keeps busy, fitted on one published decode point with 16 blocks on 108 SMs.'],
  ['p', 'The overlap exponent p', 'Compute time c and memory time m overlap only partly: the kernel takes (c^p + m^p)^(1/p) — p = 1 adds them (no overlap), a large p gives max(c, m) (full overlap); p’s value is fitted on one published FlashAttention-3 point (FA3 paper, Fig. 5(c)).'],
  ['dram', 'The DRAM fraction', 'The share of the datasheet bandwidth β a kernel actually pulls from device memory, fitted per kernel family on one published point.'],
  ['floor', 'The fixed cost per kernel', 'Every kernel launch costs a few microseconds (launch gap, prologue, epilogue) whatever its size, fitted on the smallest published decode time.'],
];
const CONSTANTS_HTML = '<dl class="worked-constants" data-testid="worked-constants">' +
  CONSTANTS.map(([id, term, text]) => `<dt data-constant="${id}">${esc(term)}</dt><dd>${esc(text)}</dd>`).join('') + '</dl>';

// Whether part 2 is unfolded, kept across the re-renders of every update (the page writes the
// worked calculation afresh on each change); one listener on the document, added once.
let advancedOpen = false;
let tracking = false;
function trackAdvancedOpen() {
  if (tracking || typeof document === 'undefined') return;
  tracking = true;
  document.addEventListener('toggle', (e) => {
    if (e.target instanceof Element && e.target.matches('#worked details.worked-advanced')) advancedOpen = e.target.open;
  }, true);
  // A printout has both parts: part 2's steps are lifted out of the fold for printing (Chrome does
  // not split a <details> across pages) and put back after.
  let lifted = [];
  window.addEventListener('beforeprint', () => {
    lifted = [...document.querySelectorAll('#worked details.worked-advanced')].map((d) => {
      const ol = d.querySelector(':scope > ol');
      if (ol) d.after(ol);
      return [d, ol];
    }).filter(([, ol]) => ol);
  });
  window.addEventListener('afterprint', () => {
    for (const [d, ol] of lifted) if (d.isConnected && ol.isConnected) d.append(ol);
    lifted = [];
  });
}

// Memory levels: each traffic model's bytes through L2 and from DRAM (the L2 reuse rule), the L2
// roof and the intensity at each level.
function levelSteps(model, r, preset, avail, { n, own, q, li }) {
  if (!r.levels_known) {
    li('Memory levels (DRAM, L2)', `<span class="note">${esc(preset.id)} has no L2 bandwidth, L2 size or SM count on file: no per-level bytes (not guessed).</span>`);
    return;
  }
  li('Bytes per memory level (the L2 reuse rule)',
    `Every byte an SM moves passes through L2; only L2 misses reach DRAM. The CTAs in flight (SMs × CTAs per SM) touch the K/V of W (batch, KV head) pairs: ` +
    `if that working set W · 2 · L · d · b_kv fits the L2 of ${own('l2-size', preset.l2, 'B')}, the K/V re-reads hit L2 and DRAM carries each K/V row once; ` +
    `past it the hit fraction is L2 / working set.<br>` +
    avail.map((m) => `${m}: L2 ${n(`models.${m}.levels.l2.bytes`, 'B')} (as counted), K/V re-reads hit ${n(`models.${m}.levels.kv_hit_fraction`, 'x')} → DRAM ${n(`models.${m}.levels.dram.bytes`, 'B')}`).join('<br>'));
  li('The L2 roof and the intensity at each level',
    `L2 bandwidth β_L2 = ${n('roofs.l2_bandwidth_bytes_per_s', 'B/s')} <span class="note">(${esc(preset.l2BandwidthSource || 'preset')})</span>; ` +
    `the L2 roof is min(π, β_L2 · I)<br>` +
    avail.map((m) => `${m}: I_DRAM = F / DRAM bytes = ${n(`models.${m}.levels.dram.intensity_flop_per_byte`, 'FLOP/B')} → ${n(`models.${m}.levels.dram.attainable_flops_per_s`, 'FLOP/s')}; ` +
      `I_L2 = F / L2 bytes = ${n(`models.${m}.levels.l2.intensity_flop_per_byte`, 'FLOP/B')} → ${n(`models.${m}.levels.l2.attainable_flops_per_s`, 'FLOP/s')} (L2 time ${n(`models.${m}.levels.l2.time_s`, 's')})`).join('<br>'));
}

// The predicted time under the kernel profile: its ledger term by term.
// A large count for reading: 1.83 × 10⁹ (display only; data-value keeps the exact number).
function sci(v) {
  if (!(v > 0)) return String(v);
  const e = Math.floor(Math.log10(v));
  const sup = String(e).split('').map((ch) => '⁰¹²³⁴⁵⁶⁷⁸⁹'[ch]).join('');
  return `${Number((v / 10 ** e).toPrecision(6))} × 10${sup}`;
}

function predictionSteps(model, r, roof, preset, pred, { n, own, q, li, int, span }) {
  const P = (k) => r[`predicted.${k}`];
  const title = `Predicted time (${esc(pred.kernel)} profile)`;
  if (!Number.isFinite(P('time_s'))) {
    li(title, `<span class="warn" data-testid="calc-predicted-unavailable">${esc(pred.error || 'the profile cannot predict this problem')}</span>`);
    return;
  }
  const on = (k) => P(k) === 1;
  li(`${title}: the profile’s choices`,
    `tile Br × Bc = ${n('predicted.tile.block_m', 'int')} × ${n('predicted.tile.block_n', 'int')}, ` +
    `${n('predicted.tile.ctas_per_sm', 'int')} CTA(s) per SM, ${n('predicted.tile.splits', 'int')} KV split(s), ` +
    `${on('tile.gqa_packed') ? 'GQA group packed into one tile (K/V read once per KV head)' : 'K/V read per query head'}, ` +
    `${on('tile.persistent') ? 'persistent tile scheduler' : 'one CTA per tile'}, exp ${on('tile.exp_serialised') ? 'serialised with the MMA' : 'overlapped with the MMA'}.`);
  li('MMA time at the profile’s rate',
    `mma = F / MMA rate = ${q(r.flops, 'FLOP')} / ${n('predicted.mma_flops_per_s', 'FLOP/s')} = ${n('predicted.terms.mma', 's')} ` +
    `<span class="note">(the rate the profile reaches against π = ${q(roof.peak, 'FLOP/s')})</span>`);
  li('Tile padding',
    `the MMA computes whole Br × Bc tiles: ${n('predicted.computed_pairs', 'int')} pairs over all heads (scored: ${int(r.pairs)} per (batch, head)); ` +
    `the extra pairs at the MMA rate: tiles = ${n('predicted.terms.tiles', 's')}`);
  li('Exponentials: count, rate, time',
    `one exp per computed pair: ${int(P('computed_pairs'))} exps<br>` +
    `exp rate = 16 per SM per clock × SMs × clock = 16 × ${own('sms', preset.sms, 'int')} × ${span('calc-clock', preset.clock, `${sci(preset.clock)} Hz`)} = ${span(calcId('predicted.exp_per_s'), P('exp_per_s'), `${sci(P('exp_per_s'))} exp/s`)}<br>` +
    `exp = exps / exp rate${on('tile.exp_serialised') ? ' (+ the O rescale per KV tile where the profile serialises it)' : ' — 0: overlapped'} = ${n('predicted.terms.exp', 's')}<br>` +
    `roofs: exp alone 4·d·exp rate = ${n('roofs.exp_flops_per_s', 'FLOP/s')}; MMA and exp serialised 1 / (1/π + 1/exp roof) = ${n('roofs.mma_exp_flops_per_s', 'FLOP/s')}`);
  li('Waves',
    `waves = CTAs / (SMs × CTAs per SM) = ${n('predicted.ctas', 'int')} / (${int(preset.sms)} × ${int(P('tile.ctas_per_sm'))}) = ${n('predicted.waves', 'x')}; ` +
    `the partial last round costs waves = ${n('predicted.terms.waves', 's')} (idle SMs below one round: occupancy)`);
  li('Memory and its overlap with compute',
    `compute c = mma + tiles + exp + waves = ${n('predicted.compute_s', 's')}<br>` +
    `DRAM: ${n('predicted.levels.dram.bytes', 'B')} (I = ${n('predicted.levels.dram.intensity_flop_per_byte', 'FLOP/B')}) → m = ${n('predicted.levels.dram.time_s', 's')} ` +
    `<span class="note">(at the bandwidth the profile reaches)</span>; L2: ${n('predicted.levels.l2.bytes', 'B')} (I = ${n('predicted.levels.l2.intensity_flop_per_byte', 'FLOP/B')}) → ${n('predicted.levels.l2.time_s', 's')}<br>` +
    `partial overlap t = max((c^p + m^p)^(1/p), L2 time) with p = ${n('predicted.overlap_exponent', 'x')} (p → ∞: full overlap, p = 1: none; materialised S/P: phase by phase)<br>` +
    `memory = t − c = ${n('predicted.terms.memory', 's')}`);
  li('Occupancy and fixed costs', `occupancy (too few CTAs) = ${n('predicted.terms.occupancy', 's')}; floor = ${int(P('kernels'))} kernel(s) × a fixed cost = ${n('predicted.terms.floor', 's')}`);
  const lim = model.limits[P('limit')];
  li('Predicted time = mma + tiles + exp + waves + memory + occupancy + floor',
    `${n('predicted.time_s', 's')} → F / t = ${n('predicted.flops_per_s', 'FLOP/s')}, ${esc(limitText(lim))} ` +
    `<span class="note">(compute ${q(P('compute_s'), 's')} vs memory ${q(P('memory_s'), 's')})</span>`);
}
