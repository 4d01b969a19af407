// exports.js — exports that stand alone (issue 20 item 5): the PNG with its legend and the whole
// link wrapped under it, the CSV with every measured point's record, kernel, label, problem,
// time, achieved rate, efficiency, predicted time and error, and the current analysis as Markdown
// (assumptions table, the worked numbers, the verdict, the link). Every number is core's (the
// report's derived block, the controller's formatted cards and tables, the worked calculation's
// own text); nothing is computed here.
//
//   const ex = new Exports({ model, app, records, bus })   (takes the controller's export events)
//   ex.csv() → { header, rows }   ex.markdown() → text   ex.png(which) → Blob
//   lastFigure                     the texts the last PNG drew, by part (a test's canvas text hook)
import { download, csvBlob, copyText } from './io.js';
import { cssColors } from './charts.js';
import { pointKernel } from './record-pack.js';
import { $ } from './dom.js';
import { LABELS } from './import-form.js';

export const CSV_HEADER = ['chart', 'series', 'x', 'y', 'x_unit', 'y_unit', 'swept_value', 'record', 'kernel', 'label',
  'batch', 'heads', 'kv_heads', 'seq', 'kv_len', 'head_dim', 'dtype', 'kv_dtype', 'causal', 'pass',
  'time_median_s', 'achieved_flops_per_s', 'efficiency', 'predicted_time_s', 'prediction_error'];
const PROBLEM_COLUMNS = ['batch', 'heads', 'kv_heads', 'seq', 'kv_len', 'head_dim', 'dtype', 'kv_dtype', 'causal', 'pass'];
const num = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : '');

// An element's text with its block children and line breaks on lines of their own.
const BLOCKS = new Set(['DIV', 'P', 'UL', 'OL', 'LI', 'STRONG', 'TABLE', 'TR']);
function blockText(node) {
  return [...node.childNodes].map((c) => {
    if (c.nodeType === 3) return c.textContent;
    if (c.nodeType !== 1) return '';
    if (c.tagName === 'BR') return '\n';
    return BLOCKS.has(c.tagName) ? `\n${blockText(c)}\n` : blockText(c);
  }).join('');
}

export let lastFigure = null; // { legend: [text], caption: [line], height } of the last PNG

// Lines of `text` no wider than `width` on ctx: broken at spaces where it can, anywhere in a word
// too long for a line (a link), never cut off.
export function wrapText(ctx, text, width) {
  const lines = [];
  let line = '';
  for (const word of text.split(/(?<= )/)) {
    if (ctx.measureText(line + word).width <= width) { line += word; continue; }
    if (line) lines.push(line.trimEnd());
    line = '';
    let w = word;
    while (ctx.measureText(w).width > width && w.length > 1) {
      let n = w.length;
      while (n > 1 && ctx.measureText(w.slice(0, n)).width > width) n = Math.floor(n * 0.9);
      lines.push(w.slice(0, n));
      w = w.slice(n);
    }
    line = w;
  }
  if (line.trim()) lines.push(line.trimEnd());
  return lines;
}

export class Exports {
  constructor({ model, app, records, bus }) {
    this.model = model;
    this.app = app;
    this.records = records;
    this.esc = (s) => model.escapeText(s);
    bus.on('export-csv', () => { this.downloadCsv(); return true; });
    bus.on('export-png', (which) => { this.downloadPng(which); return true; });
    $('action-copy-markdown').addEventListener('click', () => this.copyMarkdown());
    // the printout's caption (print CSS shows it under the roofline): written shortly after a
    // render (not in a slider's input event) and right before printing
    bus.on('rendered', () => { clearTimeout(this.capTimer); this.capTimer = setTimeout(() => this.fillCaption(), 150); });
    window.addEventListener('beforeprint', () => this.fillCaption());
    this.fillCaption();
  }

  fillCaption() {
    if (!this.app.good) return;
    const text = this.esc(this.app.caption().join(' — '));
    const p = $('print-caption');
    if (p.textContent !== text) p.textContent = text;
  }

  // ---------------------------------------------------------------------------------------------
  // CSV: the drawn model series (the chart's rows, padded) and one row per shown measured point.
  csv() {
    const pad = (r) => [...r, ...Array(CSV_HEADER.length - r.length).fill('')];
    const measured = new Set(this.records.files.filter((f) => f.visible).map((f) => f.name));
    const chartRows = this.app.roofline.csvRows()
      .filter((r) => ![...measured].some((name) => String(r[1]).startsWith(this.esc(name)))) // given in full below
      .concat(this.app.sweepChart.csvRows());
    const rows = chartRows.map(pad);
    for (const f of this.records.files) {
      if (f.pending || !f.visible || !f.report || !f.report.ok) continue;
      const rec = f.report.record;
      for (let i = 0; i < rec.points.length; i++) {
        const p = rec.points[i];
        const d = p.derived || {};
        const pb = p.problem || {};
        rows.push(['roofline', this.esc(`${f.name}: measured`), num(d.intensity_flop_per_byte), num(d.achieved_flops_per_s), 'FLOP/B', 'FLOP/s', '',
          this.esc(f.name), this.esc(pointKernel(rec, p)), this.esc(p.label || ''),
          ...PROBLEM_COLUMNS.map((k) => (typeof pb[k] === 'boolean' ? String(pb[k]) : pb[k] ?? '')),
          num(p.timing && p.timing.median_s), num(d.achieved_flops_per_s), num(d.efficiency),
          d.predicted_time_s > 0 ? d.predicted_time_s : '', d.predicted_time_s > 0 ? num(d.prediction_error) : '']);
      }
    }
    return { header: CSV_HEADER, rows };
  }

  downloadCsv() {
    const { header, rows } = this.csv();
    download(csvBlob(header, rows), 'rooflab-points.csv');
  }

  // ---------------------------------------------------------------------------------------------
  // PNG: the chart, its legend (the drawn series, each with its swatch) and the caption (problem,
  // hardware, date, the whole link wrapped), in the page's colours.
  async png(which) {
    const chart = which === 'sweep' ? this.app.sweepChart.chart : this.app.roofline.chart;
    this.app.flush(); // the link in the caption is the state shown
    const caption = this.app.caption();
    const src = chart.canvas;
    const scale = src.width / (src.clientWidth || src.width) || 1;
    const pad = 8 * scale;
    const lineH = Math.round(15 * scale);
    const c = cssColors();
    const out = document.createElement('canvas');
    const ctx = out.getContext('2d');
    ctx.font = `${Math.round(11 * scale)}px system-ui, sans-serif`;
    const width = src.width - 2 * pad;
    const sw = 14 * scale; // a swatch and its gap
    const legend = chart.data.datasets
      .map((d, i) => ({ d, i }))
      .filter(({ d, i }) => !d.rlHideInLegend && d.data && d.data.length && chart.isDatasetVisible(i))
      .map(({ d }) => ({ d, lines: wrapText(ctx, this.esc(String(d.label)), width - sw) }));
    const capLines = caption.flatMap((line) => wrapText(ctx, this.esc(line), width));
    const legendH = legend.reduce((n, x) => n + x.lines.length, 0) * lineH;
    out.width = src.width;
    out.height = src.height + Math.round(pad) + legendH + Math.round(pad) + capLines.length * lineH + Math.round(pad);
    ctx.fillStyle = c.bg || '#fff';
    ctx.fillRect(0, 0, out.width, out.height);
    ctx.drawImage(src, 0, 0);
    ctx.font = `${Math.round(11 * scale)}px system-ui, sans-serif`;
    ctx.textBaseline = 'top';
    let y = src.height + pad;
    for (const { d, lines } of legend) {
      const fill = d.showLine ? d.borderColor : (d.pointBackgroundColor || d.backgroundColor || d.borderColor);
      const color = typeof fill === 'string' ? fill : (c.fg || '#000');
      ctx.fillStyle = color;
      ctx.strokeStyle = color;
      if (d.showLine) ctx.fillRect(pad, y + lineH / 2 - scale, sw - 4 * scale, 2 * scale);
      else { ctx.beginPath(); ctx.arc(pad + (sw - 4 * scale) / 2, y + lineH / 2 - scale, 4 * scale, 0, 2 * Math.PI); ctx.fill(); }
      ctx.fillStyle = c.fg || '#000';
      lines.forEach((t, k) => ctx.fillText(t, pad + sw, y + k * lineH));
      y += lines.length * lineH;
    }
    y += pad;
    ctx.fillStyle = c.fg || '#000';
    capLines.forEach((t, k) => ctx.fillText(t, pad, y + k * lineH));
    lastFigure = { legend: legend.map((x) => x.lines.join(' ')), caption: capLines, height: out.height, chartHeight: src.height };
    return new Promise((resolve) => out.toBlob(resolve, 'image/png'));
  }

  async downloadPng(which) {
    download(await this.png(which), `rooflab-${which}.png`);
  }

  // ---------------------------------------------------------------------------------------------
  // Markdown: the analysis for a design review or an issue comment — the inputs with where each
  // came from, the worked calculation's part-1 steps as the page wrote them, the traffic models'
  // numbers, the verdict with its "why", the link.
  markdown() {
    const app = this.app;
    app.flush(); // the URL and the worked calculation written now
    const { state, resolved, result: r, predError } = app.good;
    const m = this.model;
    const cell = (s) => String(s).replace(/\|/g, '\\|').replace(/\n/g, ' ');
    const row = (...cells) => `| ${cells.map(cell).join(' | ')} |`;
    const caption = app.caption();
    const out = [`## ${caption[0]}`, '', '### Assumptions', '', row('input', 'value', 'from'), row('---', '---', '---')];
    for (const f of m.fields) {
      const v = r[`problem.${f.key}`];
      const text = f.type === 'dtype' ? m.dtypes[v].name : f.type === 'pass' ? m.passes[v] : f.type === 'bool' ? (v ? 'yes' : 'no') : app.fmt.int(v);
      const typed = state[f.flag] !== '' && String(state[f.flag]) !== String(app.pageState.defaults[f.flag]);
      out.push(row(`${LABELS[f.flag] || f.flag} (--${f.flag})`, text, typed ? 'set' : 'default'));
    }
    const { roof, preset } = resolved;
    out.push(row('bandwidth β', m.format(roof.bandwidth, 'B/s'), roof.bandwidthFrom === 'typed' ? 'typed' : `${preset.name} datasheet`));
    out.push(row(`peak π (${roof.peakName})`, m.format(roof.peak, 'FLOP/s'), roof.peakFrom === 'typed' ? 'typed' : `${preset.name} datasheet`));
    out.push(row('kernel profile', m.kernels[resolved.params.kernel].name, state.kernel === app.pageState.defaults.kernel ? 'default' : 'set'));
    out.push('', '### Worked numbers', '');
    const steps = [...document.querySelectorAll('#worked ol')][0];
    const items = steps ? [...steps.children].filter((li) => li.tagName === 'LI') : [];
    items.forEach((li, i) => {
      const title = li.querySelector('strong');
      const lines = blockText(li).split('\n').map((t) => t.replace(/\s+/g, ' ').trim()).filter(Boolean);
      if (title && lines[0] === title.textContent.trim()) lines.shift();
      out.push(`${i + 1}. ${title ? `**${title.textContent.trim()}**: ` : ''}${lines.join('; ')}`);
    });
    out.push('', '### Traffic models', '');
    const table = app.modelTable(r);
    out.push(row('', ...table.models), row('---', ...table.models.map(() => '---:')));
    for (const t of table.rows) out.push(row(t.label, ...t.cells.map((x) => x.text)));
    out.push('', '### Verdict', '');
    const ridge = m.format(r.ridge_flop_per_byte, 'FLOP/B');
    for (const x of m.models) {
      if (!Number.isFinite(r[`models.${x}.bytes`])) continue;
      out.push(`- ${x}: **${m.bounds[r[`models.${x}.bound`]]}-bound** — its intensity ${m.format(r[`models.${x}.intensity_flop_per_byte`], 'FLOP/B')} against the ridge I* = π/β = ${ridge}; bound time ${m.format(r[`models.${x}.time_s`], 's')}.`);
    }
    const ledger = app.ledger(r, m.kernels[resolved.params.kernel].name, predError);
    if (ledger.unavailable) out.push(`- predicted (profile ${ledger.kernel}): not available — ${ledger.unavailable}.`);
    else out.push(`- predicted (profile ${m.kernels[resolved.params.kernel].name}): **${ledger.head.map((h) => h.text).join(', ')}**.`);
    out.push('', `Hardware: ${caption[1]}`, '', `Link: <${location.href}>`, '');
    return out.join('\n');
  }

  async copyMarkdown() {
    const text = this.markdown();
    const ok = await copyText(text);
    const box = $('markdown-out');
    box.value = text;
    box.hidden = false;
    $('link-status').textContent = ok ? 'The analysis was copied as Markdown (also shown below).' : 'The analysis as Markdown is below: select it and copy.';
    return text;
  }
}
