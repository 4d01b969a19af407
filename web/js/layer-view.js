// layer-view.js — the "whole layer" view: every operator of the chosen model's decoder layer as its
// own mark on the page's roof (attention the focus), a stacked bar of the step's time by operator,
// and the context where attention passes the weights. It renders only: every number is core's
// (model.layerStep → core/src/layer.c), the roof is the page's resolved one, the line under it
// core's attainable() (the marks' values come with the step). It listens on the bus: update(good) after each state the controller draws.
/* global Chart */
import { cssColors } from './charts.js';
import { withAlpha } from './chart-data.js';
import { escapeHtml as esc } from './html.js';

const KIND_LABEL = { gemm: 'GEMM (weights)', attention: 'attention', elementwise: 'element-wise', gather: 'gather' };
const TP_CHOICES = [1, 2, 4, 8];

export class LayerView {
  constructor(model, root) {
    this.model = model;
    this.root = root;
    this.tp = 1;
    this.weightDtype = 0; // 0 = the activations' dtype
    this.last = null;
    root.innerHTML = `
      <div class="chart-head"><h2 id="layer-title">Whole layer: is attention the bottleneck?</h2></div>
      <p class="hint">Every operator of one decoder layer of the chosen model, and once per step the embedding and
        LM head, on the same roof as attention: FLOPs, bytes (weights, activations, K/V cache) and bound time from core
        (MODEL.md “The layer”). The model, phase, batch, lengths and dtypes are the controls’ above.</p>
      <div class="layer-controls">
        <label>tensor parallel <select id="layer-tp" data-testid="layer-tp">${TP_CHOICES.map((t) => `<option value="${t}">${t}</option>`).join('')}</select></label>
        <label>weights <select id="layer-weight-dtype" data-testid="layer-weight-dtype"></select></label>
      </div>
      <p class="field-error" id="layer-error" data-testid="layer-error" role="alert" hidden></p>
      <p class="layer-summary" id="layer-summary" data-testid="layer-summary" aria-live="polite"></p>
      <p class="layer-crossover" id="layer-crossover" data-testid="layer-crossover"></p>
      <div class="layer-charts">
        <div class="canvas-wrap layer-roof-wrap"><canvas id="layer-roofline" data-testid="layer-roofline" role="img" aria-label="Log-log roofline of every operator of the layer: attainable FLOP/s against intensity; attention drawn large"></canvas></div>
        <div class="canvas-wrap layer-bar-wrap"><canvas id="layer-bar" data-testid="layer-bar" role="img" aria-label="The step's time stacked by operator"></canvas></div>
      </div>
      <p class="hint" id="layer-unplotted" data-testid="layer-unplotted"></p>
      <div class="layer-table-wrap" tabindex="0" role="region" aria-label="Every operator of the step"><table class="layer-table" data-testid="layer-table"><thead><tr><th>operator</th><th>× per step</th><th>FLOP</th><th>bytes</th>
        <th>FLOP/B</th><th>time</th><th>bound</th><th>share of the step</th></tr></thead><tbody id="layer-rows"></tbody></table></div>`;
    this.$ = (id) => root.querySelector(`#${id}`);
    const wsel = this.$('layer-weight-dtype');
    wsel.innerHTML = ['as the activations', ...this.weightNames()].map((n, i) => `<option value="${i}">${esc(n)}</option>`).join('');
    this.$('layer-tp').addEventListener('change', (e) => { this.tp = Number(e.target.value); this.redraw(); });
    wsel.addEventListener('change', (e) => { this.weightDtype = Number(e.target.value); this.redraw(); });
    this.colors = cssColors();
    this.makeCharts();
  }

  weightNames() { // core's names; index 0 is "default" (the activations' dtype)
    return this.model.weightDtypeNames().slice(1).map((n) => (n === 'fp4' ? 'fp4 (MXFP4)' : n));
  }

  kindColor(kind) {
    const c = this.colors;
    return { attention: c.naive, gemm: c.tiled, elementwise: c.compulsory, gather: c.muted }[kind] || c.fg;
  }

  makeCharts() {
    const c = this.colors;
    const fmt = (v, u) => this.model.format(v, u);
    const decade = (v) => (Math.abs(Math.log10(v) - Math.round(Math.log10(v))) < 1e-9 ? fmt(v, '') : '');
    this.roofChart = new Chart(this.$('layer-roofline'), {
      type: 'scatter',
      data: { datasets: [] },
      options: {
        animation: false, parsing: false, responsive: true, maintainAspectRatio: false,
        scales: {
          x: { type: 'logarithmic', title: { display: true, text: 'arithmetic intensity, FLOP/byte', color: c.fg }, ticks: { color: c.muted, callback: decade }, grid: { color: c.grid } },
          y: { type: 'logarithmic', title: { display: true, text: 'attainable FLOP/s', color: c.fg }, ticks: { color: c.muted, callback: (v) => (decade(v) ? fmt(v, 'FLOP/s') : '') }, grid: { color: c.grid } },
        },
        plugins: {
          legend: { labels: { color: c.fg, filter: (item) => !item.text.startsWith('_') } },
          tooltip: { callbacks: { label: (ctx) => ctx.raw.text || ctx.dataset.label } },
        },
      },
      plugins: [this.labelPlugin()],
    });
    this.barChart = new Chart(this.$('layer-bar'), {
      type: 'bar',
      data: { labels: ['step'], datasets: [] },
      options: {
        animation: false, responsive: true, maintainAspectRatio: false, indexAxis: 'y',
        scales: {
          x: { stacked: true, title: { display: true, text: 'time of one step', color: c.fg }, ticks: { color: c.muted, callback: (v) => fmt(v, 's') }, grid: { color: c.grid } },
          y: { stacked: true, ticks: { color: c.fg }, grid: { display: false } },
        },
        plugins: {
          legend: { position: 'bottom', labels: { color: c.fg, boxWidth: 10, font: { size: 10 }, filter: (item, data) => data.datasets[item.datasetIndex].rlShare >= 0.01 } },
          tooltip: { callbacks: { label: (ctx) => `${ctx.dataset.label}: ${fmt(ctx.raw, 's')} (${(100 * ctx.dataset.rlShare).toFixed(1)} %)` } },
        },
      },
    });
  }

  // Writes the operators' names beside their marks: marks within a few pixels of each other (in
  // decode every GEMM sits at ≈ 1 FLOP/B) share one label, three names a line; attention in bold.
  labelPlugin() {
    return {
      id: 'rlLayerLabels',
      afterDatasetsDraw: (chart) => {
        const { ctx, chartArea: a } = chart;
        const marks = [];
        chart.data.datasets.forEach((ds, i) => {
          if (!ds.rlMark || !chart.isDatasetVisible(i)) return;
          const el = chart.getDatasetMeta(i).data[0];
          if (!el || el.x < a.left || el.x > a.right || el.y < a.top || el.y > a.bottom) return;
          marks.push({ x: el.x, y: el.y, name: ds.label, focus: ds.rlFocus, r: ds.pointRadius || 5 });
        });
        const groups = [];
        for (const mk of marks) {
          const g = mk.focus ? null : groups.find((q) => !q.focus && Math.abs(q.x - mk.x) < 10 && Math.abs(q.y - mk.y) < 10);
          if (g) g.names.push(mk.name);
          else groups.push({ x: mk.x, y: mk.y, r: mk.r, focus: mk.focus, names: [mk.name] });
        }
        ctx.save();
        ctx.fillStyle = this.colors.fg;
        ctx.textBaseline = 'middle';
        const placed = [];
        for (const g of groups) {
          ctx.font = g.focus ? 'bold 12px system-ui, sans-serif' : '10px system-ui, sans-serif';
          const lines = [];
          for (let i = 0; i < g.names.length; i += 3) lines.push(g.names.slice(i, i + 3).join(', '));
          const h = 12 * lines.length;
          let top = g.y - h / 2;
          const x = g.x + g.r + 4;
          // Move down past labels already written that it would overlap.
          for (const p of placed) if (x < p.x1 && p.x0 < x + 200 && top < p.y1 && p.y0 < top + h) top = p.y1 + 1;
          lines.forEach((t, i) => ctx.fillText(t, x, top + 6 + 12 * i));
          placed.push({ x0: x, x1: x + Math.max(...lines.map((t) => ctx.measureText(t).width)), y0: top, y1: top + h });
        }
        ctx.restore();
      },
    };
  }

  // The controller's last good state: { state, resolved: { roof, preset }, result: r }.
  update(good) {
    this.good = good;
    this.redraw();
  }

  redraw() {
    const good = this.good;
    if (!good) return;
    const m = this.model;
    const { state, resolved, result: r } = good;
    const err = this.$('layer-error');
    const shape = m.shapes.find((x) => x.id === state.model && !x.unsupported);
    if (!shape) {
      this.showEmpty('Pick a model (Problem → Model) to see its whole layer.');
      return;
    }
    const decode = r['problem.seq'] === 1 && state.phase === 'decode';
    const inputs = {
      phase: decode ? 0 : 1, batch: r['problem.batch'], seq: decode ? 1 : r['problem.seq'], kv_len: r['problem.kv_len'],
      tp: this.tp, dtype: r['problem.dtype'], kv_dtype: r['problem.kv_dtype'], weight_dtype: this.weightDtype,
      bandwidth_bytes_per_s: resolved.roof.bandwidth, peak_flops_per_s: resolved.roof.peak,
    };
    const res = m.layerStep(shape.id, resolved.preset.id, inputs);
    if (!res.ok) {
      this.showEmpty('');
      err.textContent = m.escapeText(res.message); // core's message may quote a value: named, never rendered
      err.hidden = false;
      err.dataset.field = res.field;
      return;
    }
    err.hidden = true;
    this.last = { ...res, shape, inputs, roof: resolved.roof };
    this.renderText(res, shape, decode);
    this.renderRoofline(res, resolved.roof);
    this.renderBar(res);
    this.renderTable(res);
  }

  showEmpty(text) {
    this.last = null;
    this.$('layer-summary').textContent = text;
    this.$('layer-crossover').textContent = '';
    this.$('layer-unplotted').textContent = '';
    this.$('layer-rows').innerHTML = '';
    this.$('layer-error').hidden = true;
    this.roofChart.data.datasets = [];
    this.roofChart.update('none');
    this.barChart.data.datasets = [];
    this.barChart.update('none');
  }

  renderText(res, shape, decode) {
    const m = this.model;
    const s = res.step;
    const pct = (x) => `${(100 * x).toFixed(1)} %`;
    const sum = this.$('layer-summary');
    const moe = s.experts_touched > 0 ? ` The experts: ${s.experts_touched.toFixed(2)} touched per layer on average.` : '';
    const tp = s.tp > 1 ? ` Per rank of ${s.tp} (${s.heads} query and ${s.kv_heads} KV heads each); the all-reduces (${m.format(s.allreduce_bytes, 'B')} a step) are not timed.` : '';
    sum.innerHTML = `${esc(shape.id)}, ${decode ? 'decode' : 'prefill'}: one step takes <strong data-testid="layer-step-time" data-value="${s.time_s}">${esc(m.format(s.time_s, 's'))}</strong>
      (${s.layers} layers); it reads <span data-testid="layer-weight-bytes" data-value="${s.weight_bytes}">${esc(m.format(s.weight_bytes, 'B'))}</span> of weights,
      <span data-testid="layer-kv-bytes" data-value="${s.kv_bytes}">${esc(m.format(s.kv_bytes, 'B'))}</span> of K/V cache and
      <span data-testid="layer-act-bytes" data-value="${s.activation_bytes}">${esc(m.format(s.activation_bytes, 'B'))}</span> of activations.
      Attention is <strong data-testid="layer-attention-share" data-value="${s.attention_share}">${pct(s.attention_share)}</strong> of the step,
      the weight-reading operators <span data-testid="layer-weights-share" data-value="${s.weights_share}">${pct(s.weights_share)}</span>.${esc(moe)}${esc(tp)}${res.note ? ` ${esc(res.note)}.` : ''}`;
    const what = s.crossover_varies_seq ? 'N (prefill, L = N)' : 'L (decode, this batch)';
    const x = this.$('layer-crossover');
    x.dataset.value = s.crossover_found ? String(s.crossover_value) : '';
    if (!s.crossover_found) x.textContent = `Crossover: attention stays below the weights at every ${what} up to 16,777,216.`;
    else {
      const at = `<span data-testid="layer-crossover-at" data-value="${s.crossover_value}">${s.crossover_value.toLocaleString('en-US')}</span>`;
      x.innerHTML = s.crossover_at_minimum ? `Crossover: attention already passes the weights at ${esc(what)} = ${at}.`
        : `Crossover: attention passes the weights at ${esc(what)} = ${at}.`;
    }
  }

  renderRoofline(res, roof) {
    const m = this.model;
    const c = this.colors;
    const ops = res.ops.filter((o) => o.intensity_flop_per_byte > 0);
    const xs = ops.map((o) => o.intensity_flop_per_byte);
    const lo = Math.min(0.05, ...xs) / 2;
    const hi = Math.max(2 * roof.ridge, ...xs) * 4;
    // On log-log axes the roof is straight up to the ridge and flat after it: three of core's points.
    const line = [lo, roof.ridge, hi].map((x) => ({ x, y: m.attainable(roof.bandwidth, roof.peak, x) }));
    const roofSet = { label: `roof (${m.format(roof.bandwidth, 'B/s')}, ${m.format(roof.peak, 'FLOP/s')})`, data: line, showLine: true, pointRadius: 0, borderColor: c.roof, borderWidth: 2 };
    const ew = res.step.elementwise_peak_flops_per_s;
    const sets = [roofSet];
    if (ew > 0 && ew !== roof.peak) {
      sets.push({ label: `element-wise ceiling (${m.format(ew, 'FLOP/s')}, fp32 CUDA cores)`, data: [{ x: lo, y: ew }, { x: hi, y: ew }], showLine: true, pointRadius: 0, borderColor: c.muted, borderDash: [4, 4], borderWidth: 1 });
    }
    // Marks at the operator's attainable throughput at its intensity under its own ceiling.
    ops.forEach((o) => {
      const focus = o.kind === 'attention';
      const y = o.attainable_flops_per_s; // core's, under the operator's own ceiling
      sets.push({
        label: o.name, rlMark: true, rlFocus: focus,
        data: [{ x: o.intensity_flop_per_byte, y, text: `${o.name}: ${m.format(o.intensity_flop_per_byte, '')} FLOP/B, ${m.format(o.flops, 'FLOP')}, ${m.format(o.bytes, 'B')}, ${m.format(o.time_s, 's')} (${o.bound}-bound)` }],
        pointRadius: focus ? 9 : 5, pointHoverRadius: focus ? 11 : 7,
        backgroundColor: this.kindColor(o.kind), borderColor: focus ? c.fg : this.kindColor(o.kind), borderWidth: focus ? 2 : 1,
        pointStyle: o.kind === 'gemm' ? 'rect' : o.kind === 'attention' ? 'circle' : 'triangle',
      });
    });
    // The legend names the kinds once (marks carry their own labels).
    Object.entries(KIND_LABEL).forEach(([kind, label]) => {
      if (!ops.some((o) => o.kind === kind)) return;
      sets.push({ label, data: [], pointStyle: kind === 'gemm' ? 'rect' : kind === 'attention' ? 'circle' : 'triangle', backgroundColor: this.kindColor(kind), borderColor: this.kindColor(kind) });
    });
    this.roofChart.options.plugins.legend.labels.filter = (item, data) => !data.datasets[item.datasetIndex].rlMark;
    this.roofChart.data.datasets = sets;
    this.roofChart.update('none');
    const zero = res.ops.filter((o) => !(o.intensity_flop_per_byte > 0)).map((o) => o.name);
    this.$('layer-unplotted').textContent = zero.length ? `Not on the log axes (no FLOPs, intensity 0): ${zero.join(', ')} — in the table and the bar.` : '';
  }

  renderBar(res) {
    const ops = [...res.ops].sort((a, b) => b.step_time_s - a.step_time_s);
    const shades = {};
    this.barChart.data.datasets = ops.map((o) => {
      const n = (shades[o.kind] = (shades[o.kind] || 0) + 1);
      return {
        label: o.name, data: [o.step_time_s], rlShare: o.share,
        backgroundColor: this.kindColor(o.kind), borderColor: this.colors.bg, borderWidth: 1,
        // Operators of one kind told apart by their opacity, the largest the darkest.
        hoverBackgroundColor: this.kindColor(o.kind),
        rlShade: n,
      };
    });
    for (const ds of this.barChart.data.datasets) ds.backgroundColor = withAlpha(ds.backgroundColor, Math.max(0.3, 1 - 0.17 * (ds.rlShade - 1)));
    this.barChart.update('none');
  }

  renderTable(res) {
    const m = this.model;
    // Cell ids carry the view's prefix (the page's own panels use the bare names: flops, bytes,
    // time) and the operator's name as core gives it, which is one per operator of the step
    // (core names a second layer kind's attention apart: attention_local, attention_chunked), so
    // every id is on the page once: layer-op-attention-flops, layer-op-attention_local-bytes.
    this.$('layer-rows').innerHTML = res.ops.map((o) => {
      const name = esc(o.name);
      const cell = (col, value, text) => `<td data-testid="layer-op-${name}-${col}" data-value="${value}">${esc(text)}</td>`;
      return `<tr data-testid="layer-row-${name}" class="${o.kind === 'attention' ? 'layer-focus' : ''}">
      <th scope="row">${name}</th><td>${o.count}</td>
      ${cell('flops', o.flops, m.format(o.flops, 'FLOP'))}${cell('bytes', o.bytes, m.format(o.bytes, 'B'))}
      ${cell('intensity', o.intensity_flop_per_byte, o.intensity_flop_per_byte > 0 ? m.format(o.intensity_flop_per_byte, '') : '0')}
      ${cell('time', o.time_s, m.format(o.time_s, 's'))}<td class="bound-${o.bound}">${o.bound}</td>
      ${cell('share', o.share, `${(100 * o.share).toFixed(2)} %`)}</tr>`;
    }).join('');
  }

  recolor() {
    const colors = cssColors();
    if (JSON.stringify(colors) === JSON.stringify(this.colors)) return;
    this.colors = colors;
    this.roofChart.destroy();
    this.barChart.destroy();
    this.makeCharts();
    this.redraw();
  }
}


// bus: bus.js's; the view follows every state the controller draws ('rendered').
export function startLayerView(model, bus) {
  const root = document.getElementById('layer-view');
  if (!root) return null;
  const v = new LayerView(model, root);
  bus.on('rendered', (good) => v.update(good));
  // The theme button and the system scheme recolour the page's charts; these follow.
  new MutationObserver(() => v.recolor()).observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => v.recolor());
  return v;
}
