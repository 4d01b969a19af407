// explain.js — the worked calculation: each step of the model written out with the current
// numbers substituted and units carried. Every number is a value the WASM model returned, shown
// with core's formatter; this file only writes the formulas around them.

const MODELS = ['compulsory', 'tiled', 'naive'];

function esc(s) {
  return String(s).replace(/[&<>"]/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[ch]);
}

export function makeFormatters(model) {
  const int = (v) => Number(v).toLocaleString('en-US');
  const q = (v, unit) => model.format(v, unit);
  // Bytes in SI, with IEC beside when the two differ by more than 2 % (from 1 KiB up: 2.4 %+).
  const bytes = (v) => (v >= 1024 ? `${q(v, 'B')} (${model.format(v, 'B', { iec: true })})` : `${int(v)} B`);
  const span = (testid, value, text) =>
    `<span class="num" data-testid="${esc(testid)}" data-value="${esc(value)}">${esc(text)}</span>`;
  return { int, q, bytes, span };
}

// r: model.evaluate(...).r, roof: { bandwidth, peak, peakName, bandwidthFrom, peakFrom }, preset.
export function workedHtml(model, r, roof, preset) {
  const { int, q, bytes, span } = makeFormatters(model);
  const dt = (i) => model.dtypes[i].name;
  const B = r['problem.batch'], H = r['problem.heads'], Hkv = r['problem.kv_heads'];
  const N = r['problem.seq'], L = r['problem.kv_len'], d = r['problem.head_dim'];
  const b = r['problem.dtype_bytes'], bkv = r['problem.kv_dtype_bytes'], bs = r['problem.score_dtype_bytes'];
  const Br = r['problem.block_m'], Bc = r['problem.block_n'];
  const causal = r['problem.causal'] === 1, bwd = r['problem.pass'] === 1;
  const out = [];
  const li = (title, body) => out.push(`<li><strong>${title}</strong><div class="eq">${body}</div></li>`);

  li('Problem', `B = ${int(B)}, H = ${int(H)}, Hkv = ${int(Hkv)} (H/Hkv query heads share each K/V head), ` +
    `N = ${int(N)}, L = ${int(L)}, d = ${int(d)}; Q/O in ${dt(r['problem.dtype'])} (b = ${b} B), ` +
    `K/V in ${dt(r['problem.kv_dtype'])} (b_kv = ${bkv} B); ${causal ? 'causal' : 'non-causal'}, ${bwd ? 'backward' : 'forward'} pass.`);

  li('Scored pairs', causal
    ? `P = N·L − N(N−1)/2 = ${int(N)} · ${int(L)} − ${int(N)} · ${int(N - 1)} / 2 = ${span('calc-pairs', r.pairs, int(r.pairs))} per (batch, head)`
    : `P = N · L = ${int(N)} · ${int(L)} = ${span('calc-pairs', r.pairs, int(r.pairs))} per (batch, head)`);

  const fwd = `4 · B · H · d · P = 4 · ${int(B)} · ${int(H)} · ${int(d)} · ${int(r.pairs)}`;
  li('FLOPs (matmuls QKᵀ and PV, 2 FLOPs per multiply-add)', bwd
    ? `F_fwd = ${fwd} = ${span('calc-fwd-flops', r.fwd_flops, q(r.fwd_flops, 'FLOP'))}<br>` +
      `F = 2.5 × F_fwd = ${span('calc-flops', r.flops, q(r.flops, 'FLOP'))} (five matmuls instead of two)`
    : `F = ${fwd} = ${span('calc-flops', r.flops, q(r.flops, 'FLOP'))}` +
      ` <span class="note">(softmax 5·B·H·P = ${span('calc-softmax-flops', r.softmax_flops, q(r.softmax_flops, 'FLOP'))}, reported apart, not in F)</span>`);

  li('Bytes per tensor (once)',
    `Q = b · B · H · N · d = ${b} B · ${int(B)} · ${int(H)} · ${int(N)} · ${int(d)} = ${span('calc-q-tensor', r.q_tensor_bytes, bytes(r.q_tensor_bytes))}<br>` +
    `K = b_kv · B · Hkv · L · d = ${bkv} B · ${int(B)} · ${int(Hkv)} · ${int(L)} · ${int(d)} = ${span('calc-k-tensor', r.k_tensor_bytes, bytes(r.k_tensor_bytes))}; V the same<br>` +
    `O = ${span('calc-o-tensor', r.o_tensor_bytes, bytes(r.o_tensor_bytes))} (as Q)<br>` +
    `S (or P) matrix = b_s · B · H · N · L = ${bs} B · ${int(B)} · ${int(H)} · ${int(N)} · ${int(L)} = ${span('calc-score-matrix', r.score_matrix_bytes, bytes(r.score_matrix_bytes))}`);

  const c = 'compulsory.';
  let traffic = bwd
    ? `compulsory = Q + K + V + O + (dO + dQ + dK + dV) = ${span('calc-bytes-compulsory', r[c + 'bytes'], bytes(r[c + 'bytes']))}`
    : `compulsory = Q + K + V + O = ${bytes(r[c + 'q_bytes'])} + ${bytes(r[c + 'k_bytes'])} + ${bytes(r[c + 'v_bytes'])} + ${bytes(r[c + 'o_bytes'])} = ${span('calc-bytes-compulsory', r[c + 'bytes'], bytes(r[c + 'bytes']))}`;
  if (r['tiled.available']) {
    const t = 'tiled.';
    const reload = r[t + 'kv_reload_factor'];
    traffic += `<br>tiled: ⌈N/Br⌉ = ⌈${int(N)}/${int(Br)}⌉ = ${span('calc-query-blocks', r[t + 'query_blocks'], int(r[t + 'query_blocks']))} query blocks per (batch, head); ` +
      `each streams the K and V rows it needs${causal ? ` (causal: up to its last key, in Bc = ${int(Bc)} row steps)` : ''}: ` +
      `${span('calc-kv-rows-tiled', r[t + 'kv_rows_loaded_per_head'], int(r[t + 'kv_rows_loaded_per_head']))} rows per head = ` +
      `${span('calc-kv-reload-tiled', reload, model.format(reload, '', { sig: 6 }))} × L<br>` +
      `K reads = ${model.format(reload, '', { sig: 6 })} × K = ${bytes(r[t + 'k_bytes'])}, V reads the same = ${bytes(r[t + 'v_bytes'])}<br>` +
      `tiled = Q + O + K reads + V reads = ${span('calc-bytes-tiled', r[t + 'bytes'], bytes(r[t + 'bytes']))}`;
  } else {
    traffic += '<br>tiled: not modelled for the backward pass yet (DESIGN.md), so it is not shown.';
  }
  const nv = 'naive.';
  traffic += `<br>naive = compulsory + S written and read + P written and read = ${bytes(r[c + 'bytes'])} + ${bytes(r[nv + 's_bytes'])} + ${bytes(r[nv + 'p_bytes'])} = ${span('calc-bytes-naive', r[nv + 'bytes'], bytes(r[nv + 'bytes']))}` +
    (causal ? ' <span class="note">(causal does not shrink it: the full matrix is stored)</span>' : '');
  li('Device-memory traffic per model', traffic);

  li('Arithmetic intensity I = F / bytes', MODELS.filter((m) => r[`${m}.available`]).map((m) =>
    `${m}: ${q(r.flops, 'FLOP')} / ${q(r[`${m}.bytes`], 'B')} = ${span(`calc-intensity-${m}`, r[`${m}.intensity_flop_per_byte`], q(r[`${m}.intensity_flop_per_byte`], 'FLOP/B'))}`).join('<br>'));

  const from = (w) => (w === 'typed' ? 'typed' : `${w} preset`);
  li('Ridge point I* = π / β',
    `π = ${span('calc-peak', r.peak_flops_per_s, q(r.peak_flops_per_s, 'FLOP/s'))} (${esc(roof.peakName)}, ${from(roof.peakFrom)}), ` +
    `β = ${span('calc-bandwidth', r.bandwidth_bytes_per_s, q(r.bandwidth_bytes_per_s, 'B/s'))} (${from(roof.bandwidthFrom)}` +
    (r.bandwidth_bytes_per_s >= 1024 ? `; = ${model.format(r.bandwidth_bytes_per_s, 'B/s', { iec: true })}` : '') + ')<br>' +
    `I* = ${q(r.peak_flops_per_s, 'FLOP/s')} / ${q(r.bandwidth_bytes_per_s, 'B/s')} = ${span('calc-ridge', r.ridge_flop_per_byte, q(r.ridge_flop_per_byte, 'FLOP/B'))}`);

  li('Attainable throughput P(I) = min(π, β · I)', MODELS.filter((m) => r[`${m}.available`]).map((m) =>
    `${m}: min(${q(r.peak_flops_per_s, 'FLOP/s')}, ${q(r.bandwidth_bytes_per_s, 'B/s')} × ${q(r[`${m}.intensity_flop_per_byte`], 'FLOP/B')}) = ${span(`calc-attainable-${m}`, r[`${m}.attainable_flops_per_s`], q(r[`${m}.attainable_flops_per_s`], 'FLOP/s'))}`).join('<br>'));

  li('Bound time t = max(F / π, bytes / β)', MODELS.filter((m) => r[`${m}.available`]).map((m) => {
    const bound = model.bounds[r[`${m}.bound`]];
    return `${m}: max(${q(r[`${m}.compute_time_s`], 's')}, ${q(r[`${m}.memory_time_s`], 's')}) = ${span(`calc-time-${m}`, r[`${m}.time_s`], q(r[`${m}.time_s`], 's'))} → ` +
      `${span(`calc-bound-${m}`, bound, `${bound}-bound`)} (I ${r[`${m}.bound`] ? '≥' : '<'} I*)`;
  }).join('<br>'));

  const S = (k) => r[`sram.${k}`];
  let sram = `Q tile Br·d·b = ${int(Br)} · ${int(d)} · ${b} B = ${span('calc-sram-q', S('q_tile_bytes'), bytes(S('q_tile_bytes')))}<br>` +
    `K tile Bc·d·b_kv = ${int(Bc)} · ${int(d)} · ${bkv} B = ${span('calc-sram-k', S('k_tile_bytes'), bytes(S('k_tile_bytes')))}<br>` +
    `V tile Bc·d·b_kv = ${span('calc-sram-v', S('v_tile_bytes'), bytes(S('v_tile_bytes')))}<br>` +
    `S tile Br·Bc·4 (fp32 scores) = ${int(Br)} · ${int(Bc)} · 4 B = ${span('calc-sram-s', S('s_tile_bytes'), bytes(S('s_tile_bytes')))}<br>` +
    `O accumulator Br·d·4 (fp32) = ${int(Br)} · ${int(d)} · 4 B = ${span('calc-sram-o', S('o_acc_bytes'), bytes(S('o_acc_bytes')))}<br>` +
    `m and l 2·Br·4 = 2 · ${int(Br)} · 4 B = ${span('calc-sram-ml', S('ml_bytes'), bytes(S('ml_bytes')))}<br>` +
    `total = ${span('calc-sram-total', S('total_bytes'), bytes(S('total_bytes')))} in bytes, not elements`;
  if (S('limit_default_bytes') > 0) {
    sram += ` against ${esc(preset.id)}'s shared memory per block: ${bytes(S('limit_default_bytes'))} default, ${bytes(S('limit_optin_bytes'))} opt-in maximum.`;
    if (!S('fits_optin')) {
      sram += `<div class="warn" data-testid="sram-warning" data-value="optin">⚠ This tile does not fit in shared memory even with the opt-in maximum (${bytes(S('limit_optin_bytes'))}): pick a smaller Br, Bc or d.</div>`;
    } else if (!S('fits_default')) {
      sram += `<div class="warn" data-testid="sram-warning" data-value="default">⚠ Over the ${bytes(S('limit_default_bytes'))} default per block: the kernel must opt in to more shared memory (cudaFuncSetAttribute) — it fits the ${bytes(S('limit_optin_bytes'))} maximum.</div>`;
    }
  } else {
    sram += ' <span class="note">(the custom preset has no shared-memory figure to compare with)</span>';
  }
  li('SRAM budget of one tiled block', sram);
  return `<ol>${out.join('')}</ol>`;
}
