// record-marks.js — a record's points as marks on the roofline, and the kernels list beside it.
// From the chart's columns the worker made (record-pack.js's summary: intensity, achieved
// throughput, efficiency, prediction, kernel, name and device of every point) each point becomes
// a Mark at its intensity and achieved throughput, and its own prediction (core's derived figures:
// the point's kernel profile on its hardware's preset) a hollow star at the same intensity, the
// vertical gap being the error. Tooltip lines are made when a mark is hovered (Mark's getter),
// from the point's own details (record-pack.js's lazyPoints) and core's formatter.
//
//   const marks = new Marks(model, { esc, onChange(list), rerender() })
//   marks.steps(report)                a generator of a record's marks (the queue runs it in slices)
//   marks.of(f)                        a listed file's marks (made once)
//   marks.render(files, { labels, compare }) → the measured datasets (charts.js), also given to onChange
//   marks.compareSources(files)        the devices and measured ceilings compare mode can offer
// It holds no record rules and no arithmetic: every figure is core's (the report's derived block,
// model.attainable for a ceiling's slope, model.format for every number in words).

import { groupSeries, GROUP_AT } from './record-groups.js';
import { runSteps } from './record-store.js';
import { summaryOf, summarySteps, fig, pointDevice, pointKernel } from './record-pack.js';
import { SPAN } from './chart-data.js';
import { shortName } from './compare.js';
import { $, makeEl } from './dom.js';

const MARK_STEP = 250; // marks made per step of steps() (run in slices by the queue)

// A record's optional device details (hardware.sm_count, sm_clock_hz, memory_clock_hz in Hz,
// threads) in words, e.g. "132 SMs, SM clock 1.98 GHz, memory clock 3.2 GHz"; '' when none.
const hz = (v) => (v >= 1e9 ? `${+(v / 1e9).toPrecision(4)} GHz` : `${+(v / 1e6).toPrecision(4)} MHz`);
export function deviceDetails(hw) {
  const parts = [];
  if (!hw) return '';
  if (hw.compute_capability) parts.push(`compute capability ${hw.compute_capability}`);
  if (hw.sm_count) parts.push(`${hw.sm_count} SMs`);
  if (hw.sm_clock_hz) parts.push(`SM clock ${hz(hw.sm_clock_hz)}`);
  if (hw.memory_clock_hz) parts.push(`memory clock ${hz(hw.memory_clock_hz)}`);
  if (hw.threads) parts.push(`${hw.threads} CPU thread${hw.threads === 1 ? '' : 's'}`);
  return parts.join(', ');
}

// A compute ceiling's precision: its dtype, else the one its name states (ERT's "FP64 GFLOPs");
// '' when neither says. precisionNote: what a label adds ("" when the name says it already).
const PRECISION_IN_NAME = /\b(fp64|fp32|fp16|bf16|tf32|fp8|int8|e4m3|e5m2|double|single|half)\b/i;
export function precisionOf(c) {
  if (c.dtype) return c.dtype;
  const m = PRECISION_IN_NAME.exec(c.name || '');
  return m ? m[1] : '';
}
export function precisionNote(c) {
  if (c.dtype) return ` (${c.dtype})`;
  return PRECISION_IN_NAME.test(c.name || '') ? '' : ' (precision not stated)';
}

// The report's warnings by point index (a path "points[i]…"): Map i → [message].
export function warningsByPoint(report) {
  const map = new Map();
  for (const it of report.issues) {
    const m = /^points\[(\d+)\]/.exec(it.path);
    if (!m || it.severity !== 'warning') continue;
    const i = Number(m[1]);
    if (!map.has(i)) map.set(i, []);
    map.get(i).push(it.message);
  }
  return map;
}

// One mark on the roofline (charts.js reads x, y, text, kernel, name, device, eff): a measured
// point (rec.points[i]), or its prediction (the ☆). It keeps the point's index, not the point (a
// large record's points are parsed when read: record-pack.js's lazyPoints).
// A measured mark also carries its ☆'s throughput predY and core's prediction error err (the thin
// line joining the two, chart-plugins.js pairPlugin) and the attainable throughput roofY on its own
// roof (the hover drop-line). adopt() makes its problem the page's (the details panel's button).
class Mark {
  #owner; #rec; #i; #warn; #predicted;
  constructor(owner, rec, i, warn, x, y, eff, kernel, name, device, predicted) {
    this.x = x;
    this.y = y;
    this.kernel = kernel;
    this.name = name;
    this.device = device;
    this.eff = eff;
    this.#owner = owner;
    this.#rec = rec;
    this.#i = i;
    this.#warn = warn || [];
    this.#predicted = predicted;
  }

  get text() {
    const p = this.#rec.points[this.#i];
    const o = this.#owner;
    const lines = this.#predicted ? o.predictedText(this.#rec, p) : o.pointText(this.#rec, p, this.#warn);
    return (this.file && o.grouped ? [`file: ${this.file}`, ...lines] : lines).map(o.esc); // record-groups.js
  }

  adopt() { this.#owner.onAdopt(this.#rec, this.#rec.points[this.#i]); }
}

// Within a record, points are told apart (issue 20) by kernel where it has several, else by the
// problem fields that vary (N = 2048 / 8448 / 16384): each group a series of its own shape, named
// so. The fields are read from the points of records up to FIELD_NAMES_MAX points (a larger one is
// told apart by kernel only); a record split into more than MAX_GROUPS groups stays one series,
// its points still named by what varies (the labels toggle).
const FIELD_NAMES_MAX = 500;
export const MAX_GROUPS = 10;
// [Chart.js point style, rotation in degrees]: ten marks told apart in one colour (the FA3 paper's
// record has ten kernels)
export const GROUP_SHAPES = [['crossRot', 0], ['triangle', 0], ['rect', 0], ['rectRot', 0], ['cross', 0], ['triangle', 180],
  ['rectRounded', 0], ['triangle', 90], ['triangle', 270], ['line', 90]];
const VARYING = [['seq', 'N'], ['kv_len', 'L'], ['batch', 'B'], ['heads', 'H'], ['kv_heads', 'Hkv'], ['head_dim', 'd'],
  ['dtype', 'dtype'], ['kv_dtype', 'KV dtype'], ['causal', 'causal'], ['pass', 'pass']];
const fieldValue = (k, v) => (typeof v === 'number' ? v.toLocaleString('en-US') : k === 'causal' ? (v ? 'yes' : 'no') : String(v));

// Per point a group name ('' where the record is one group): { by: 'kernel' | 'fields' | '', names }.
export function groupNames(rec, sum) {
  const n = sum.x.length;
  if (sum.kernels.length > 1) {
    const own = (k) => (k === rec.software.kernel && rec.software.kernel_version ? `${k} ${rec.software.kernel_version}` : k);
    return { by: 'kernel', names: Array.from(sum.kernel, (j) => own(sum.kernels[j])) };
  }
  if (n < 2 || n > FIELD_NAMES_MAX) return { by: '', names: null };
  const problems = [];
  for (let i = 0; i < n; i++) problems.push(rec.points[i].problem || {});
  let vary = VARYING.filter(([k]) => problems.some((pb) => pb[k] !== problems[0][k]));
  // L = N in prefill: a kv_len that follows seq point by point says nothing more
  if (vary.some(([k]) => k === 'seq')) vary = vary.filter(([k]) => k !== 'kv_len' || problems.some((pb) => pb.kv_len !== pb.seq));
  if (!vary.length) return { by: '', names: null };
  return { by: 'fields', names: problems.map((pb) => vary.slice(0, 2).map(([k, sym]) => `${sym} = ${fieldValue(k, pb[k])}`).join(', ')) };
}

export class Marks {
  constructor(model, { esc, onChange, rerender, onAdopt = () => {} }) {
    this.model = model;
    this.onAdopt = onAdopt; // a mark's details asked to adopt its problem (records.js adopt)
    this.esc = esc;
    this.el = makeEl(esc);
    this.onChange = onChange; // the datasets to draw (and a highlight: list.redrawOnly)
    this.rerender = rerender; // the kernels list changed what is isolated: the owner renders again
    this.isolated = new Set(); // kernels isolated in the kernels list (none: all shown)
    this.highlight = '';
    this.grouped = false;
    this.chartList = null;
  }

  // A predicted star's tooltip: the profile, the predicted and measured times, the error.
  predictedText(rec, p) {
    const m = this.model, d = p.derived;
    const pct = (100 * d.prediction_error).toFixed(1);
    return [`predicted by profile ${p.profile} on ${(p.hardware || rec.hardware).preset}: ${m.format(d.predicted_time_s, 's')}, ${m.format(d.predicted_flops_per_s, 'FLOP/s')}`,
      `measured ${m.format(p.timing.median_s, 's')}: error (predicted − measured) / measured = ${pct > 0 ? '+' : ''}${pct} %`,
      ...(p.figure ? [`source: ${p.figure}`] : [])];
  }

  pointText(rec, p, warnings) {
    const m = this.model;
    const pb = p.problem;
    const d = p.derived || {};
    const lines = [];
    lines.push(`kernel: ${pointKernel(rec, p)} ${rec.software.kernel_version}`);
    if (p.label) lines.push(`label: ${p.label}`);
    const hwBlock = p.hardware || rec.hardware || {};
    const details = deviceDetails(hwBlock);
    lines.push(`hardware: ${hwBlock.name || ''}${details ? ` (${details})` : ''}`);
    lines.push(`problem: B=${pb.batch} H=${pb.heads} Hkv=${pb.kv_heads} N=${pb.seq} L=${pb.kv_len} d=${pb.head_dim} ${pb.dtype}${pb.kv_dtype !== pb.dtype ? `/${pb.kv_dtype}` : ''}${pb.causal ? ' causal' : ''} ${pb.pass}, traffic ${p.traffic_model}`);
    if (d.predicted_time_s > 0) lines.push(`predicted by profile ${p.profile}: ${m.format(d.predicted_time_s, 's')} (error ${(100 * d.prediction_error).toFixed(1)} %; the ☆ at this intensity)`);
    const t = p.timing;
    const spread = t.min_s || t.max_s ? ` (min ${t.min_s ? m.format(t.min_s, 's') : '?'}, max ${t.max_s ? m.format(t.max_s, 's') : '?'}${t.runs ? `, ${t.runs} runs` : ''})` : (t.runs ? ` (${t.runs} runs)` : '');
    lines.push(`time: ${m.format(t.median_s, 's')} median${spread}`);
    // the spread of the runs: mean ± sample standard deviation, and that as a share of the mean
    if (d.time_cv >= 0) lines.push(`spread: mean ${m.format(t.mean_s, 's')} ± ${m.format(t.stddev_s, 's')} (cv ${(100 * d.time_cv).toFixed(2)} %)`);
    else if (t.stddev_s >= 0) lines.push(`spread: ± ${m.format(t.stddev_s, 's')} (sample standard deviation)`);
    lines.push(`achieved: ${m.format(d.achieved_flops_per_s, 'FLOP/s')}, ${m.format(d.achieved_bytes_per_s, 'B/s')} (F = ${m.format(p.flops, 'FLOP')})`);
    if (d.efficiency !== undefined) {
      lines.push(`efficiency: ${(100 * d.efficiency).toFixed(1)} % of its roof at I = ${m.format(d.intensity_flop_per_byte, 'FLOP/B')} (${m.format(d.attainable_flops_per_s, 'FLOP/s')} from ${m.format(d.roof_bandwidth_bytes_per_s, 'B/s')}, ${m.format(d.roof_peak_flops_per_s, 'FLOP/s')})`);
    } else {
      lines.push('efficiency: no roof known for this hardware (name a preset in hardware.preset, or give ceilings)');
    }
    const mb = d.model_bytes || {};
    const models = Object.entries(mb).map(([k, v]) => `${k} ${m.format(v, 'B')}`).join(', ');
    if (d.bytes_source === 'measured') {
      const ref = mb[p.traffic_model];
      lines.push(`bytes: counter ${m.format(p.measured_bytes, 'B')}${ref ? ` vs model ${p.traffic_model} ${m.format(ref, 'B')} (×${(p.measured_bytes / ref).toFixed(2)})` : ''}; models: ${models}`);
    } else if (d.bytes_source === 'modelled') {
      lines.push(`bytes: the record's model ${m.format(p.modelled_bytes, 'B')}; rooflab's models: ${models}`);
    } else {
      lines.push(`bytes: rooflab's ${p.traffic_model} model ${m.format(d.bytes, 'B')} (no counter bytes)`);
    }
    if (p.rel_l2_error !== undefined || p.max_abs_error !== undefined) {
      const errs = [];
      if (p.rel_l2_error !== undefined) errs.push(`relative L2 ${m.format(p.rel_l2_error, '', { sig: 3 })}`);
      if (p.max_abs_error !== undefined) errs.push(`max abs ${m.format(p.max_abs_error, '', { sig: 3 })}`);
      lines.push(`error vs fp64 reference: ${errs.join(', ')}`);
    }
    for (const w of warnings.slice(0, 3)) lines.push(`⚠ ${w}`);
    if (rec.provenance.kind === 'historical-unaudited') lines.push('historical, unaudited: drawn hollow, not evidence');
    return lines;
  }

  // A file's marks, made once per record (the queue makes a large one's in slices beforehand):
  // { points, predicted, kernels: Map kernel → points, devices: [{ key, preset, name, dtype }],
  // hwNames: the points' own hardware names }.
  of(f) {
    if (!f.marks) f.marks = runSteps(this.steps(f.report));
    if (!f.marks.named) { // the file each mark is from, for a grouped dataset's tooltip
      for (const mk of f.marks.points) mk.file = f.name;
      for (const mk of f.marks.predicted) mk.file = f.name;
      f.marks.named = true;
    }
    return f.marks;
  }

  // The marks of a record's points, in their order, MARK_STEP points per step, from the chart's
  // columns (made in the worker; here first only for a report checked on the main thread).
  * steps(report) {
    const rec = report.record;
    const sum = summaryOf(rec) || (yield* summarySteps(rec));
    const warn = warningsByPoint(report);
    const out = { points: [], predicted: [], kernels: new Map(), devices: [], hwNames: new Set(sum.hwNames), groups: [] };
    const counts = new Array(sum.kernels.length).fill(0);
    const perDevice = new Array(sum.devices.length).fill(0);
    const { by, names } = groupNames(rec, sum);
    const groups = new Map(); // group name → { name, points, predicted }
    for (let i = 0; i < sum.x.length; i++) {
      counts[sum.kernel[i]]++;
      perDevice[sum.device[i]]++;
      const kernel = sum.kernels[sum.kernel[i]];
      const label = sum.names[sum.name[i]];
      // a point's name beside its mark: its own label, else what tells it apart in its record
      const name = by === 'fields' && label === kernel ? names[i] : label;
      const device = sum.devices[sum.device[i]];
      const mk = new Mark(this, rec, i, warn.get(i), fig(sum.x[i]), fig(sum.y[i]), fig(sum.eff[i]), kernel, name, device, false);
      mk.roofY = fig(sum.roofY[i]);
      out.points.push(mk);
      let star = null;
      if (sum.pred[i]) {
        star = new Mark(this, rec, i, null, fig(sum.x[i]), fig(sum.predY[i]), undefined, kernel, name, device, true);
        mk.predY = star.y;
        mk.err = fig(sum.err[i]);
        out.predicted.push(star);
      }
      if (names) {
        const g = names[i];
        if (!groups.has(g)) groups.set(g, { name: g, points: [], predicted: [] });
        groups.get(g).points.push(mk);
        if (star) groups.get(g).predicted.push(star);
        mk.group = g;
      }
      if (i % MARK_STEP === MARK_STEP - 1) yield;
    }
    // kernels in order of first use (the table's order), each with its count
    sum.kernels.forEach((k, j) => out.kernels.set(k, counts[j]));
    sum.devices.forEach((d, j) => out.devices.push({ ...d, dtype: sum.dtypes[j], count: perDevice[j] }));
    if (groups.size >= 2 && groups.size <= MAX_GROUPS) out.groups = [...groups.values()];
    out.groupBy = by;
    return out;
  }

  // The measured datasets of the shown files (charts.js), with the kernels list made to match;
  // labels: the chart's labels toggle; compare: compare mode's config (compare.js).
  render(files, { labels, compare }) {
    const esc = this.esc;
    const list = [];
    let count = 0;
    const kernels = new Map(); // kernel name → points drawn
    const shown = files.filter((f) => f.report && f.report.ok && f.visible);
    const keep = (mk) => this.isolated.has(mk.kernel);
    for (const f of shown) {
      const rec = f.report.record;
      const hist = rec.provenance.kind === 'historical-unaudited';
      const marks = this.of(f);
      for (const [k, n] of marks.kernels) kernels.set(k, (kernels.get(k) || 0) + n);
      // The same arrays while nothing is isolated (the chart's bitmap of them stays valid).
      const points = this.isolated.size ? marks.points.filter(keep) : marks.points;
      const predicted = this.isolated.size ? marks.predicted.filter(keep) : marks.predicted;
      count += points.length;
      if (!points.length) continue; // a record of ceilings only (ERT): its lines are drawn below
      const series = { hollow: hist, color: f.color, colorIndex: f.colorIndex };
      const histNote = hist ? ' [historical, unaudited — not evidence]' : '';
      // one series per group (kernel, or the fields that vary), each its own shape; else one
      // (a historical table stays one series of hollow circles: its mark says "not evidence")
      const groups = marks.groups.length && !hist ? marks.groups.map((g) => ({
        ...g, points: this.isolated.size ? g.points.filter(keep) : g.points, predicted: this.isolated.size ? g.predicted.filter(keep) : g.predicted,
      })).filter((g) => g.points.length) : [{ name: '', points, predicted }];
      groups.forEach((g) => {
        const what = g.name || `${rec.software.kernel || 'kernel'} ${rec.software.kernel_version}`;
        const [shape, rotation] = hist ? ['circle', 0] : GROUP_SHAPES[g.name ? marks.groups.findIndex((x) => x.name === g.name) % GROUP_SHAPES.length : 0];
        list.push({ ...series, label: esc(`${f.name}: ${what}${histNote}`), pointStyle: shape, rotation, points: g.points, file: f.name, group: g.name });
        if (g.predicted.length) {
          list.push({ ...series, label: esc(`${f.name}: ${g.name ? `${g.name} ` : ''}predicted, each point by its own kernel profile (☆)`), hollow: true, pointStyle: 'star', points: g.predicted, predicted: true, file: f.name, group: g.name });
        }
      });
    }
    this.grouped = shown.length > GROUP_AT;
    if (this.grouped) list.splice(0, list.length, ...groupSeries(list).map((g) => ({ ...g, label: esc(g.label) })));
    for (const f of shown) list.push(...this.ceilingSeries(f));
    const out = $('measured-count');
    out.textContent = `${count.toLocaleString('en-US')} measured point${count === 1 ? '' : 's'} drawn`;
    out.dataset.value = String(count);
    this.renderKernels(kernels);
    list.labels = labels;
    list.highlight = this.highlight || '';
    list.compare = compare;
    this.chartList = list;
    this.onChange(list);
    return list;
  }

  // Ceilings a record states (measured or datasheet), drawn dotted in the record's colour over the
  // whole span and named on the line (L1, L2, DRAM …): a bandwidth ceiling as the slope β·I
  // (core's attainable throughput with no compute limit), a compute ceiling as a level line.
  ceilingSeries(f) {
    const esc = this.esc;
    const rec = f.report.record;
    const dev = pointDevice(rec, {});
    return ((rec.hardware && rec.hardware.ceilings) || []).map((c, ci) => {
      const bw = c.bytes_per_s !== undefined;
      const xs = [SPAN.xMin, SPAN.xMax];
      const ys = xs.map((x) => (bw ? this.model.attainable(c.bytes_per_s, Number.MAX_VALUE, x) : c.flops_per_s));
      const value = this.model.format(bw ? c.bytes_per_s : c.flops_per_s, bw ? 'B/s' : 'FLOP/s');
      // a compute ceiling names its precision (its dtype, or its name's; else says it has none)
      const prec = bw ? '' : precisionNote(c);
      const what = `${c.name}${prec} ${value} (${c.source})`;
      return {
        label: esc(`ceiling from ${f.name}: ${what}`), line: true, color: f.color, colorIndex: f.colorIndex, device: dev,
        lineLabel: esc(`${shortName(dev.name)} ${c.name}${prec} ${value}`), lineShort: esc(`${c.name}${prec} ${value}`), peak: bw ? 0 : c.flops_per_s,
        dash: c.source === 'datasheet' ? [1, 3] : [[6, 3], [3, 3], [2, 3], [8, 4]][ci % 4],
        points: xs.map((x, i) => ({ x, y: ys[i], text: [esc(`${what}, stated by ${f.name}`)] })),
      };
    });
  }

  // What compare mode can offer (compare.js): the devices of the shown points (with the dtype they
  // ran in) and the shown records' measured ceilings (the lowest DRAM-level bandwidth and the
  // highest compute figure each gives, as stated).
  compareSources(files) {
    const esc = this.esc;
    const used = [];
    const ceilings = [];
    for (const f of files) {
      if (!f.report || !f.report.ok || !f.visible) continue;
      const rec = f.report.record;
      for (const d of this.of(f).devices) if (!used.some((u) => u.key === d.key)) used.push({ ...d, name: esc(d.name) }); // names shown by compare mode
      const cs = ((rec.hardware && rec.hardware.ceilings) || []).filter((c) => c.source === 'measured');
      if (!cs.length) continue;
      const bws = cs.filter((c) => c.bytes_per_s !== undefined);
      const dram = bws.filter((c) => c.level === 'dram');
      const pick = (arr, key, better) => arr.reduce((b, c) => (b === null || better(c[key], b[key]) ? c : b), null);
      const bw = pick(dram.length ? dram : bws, 'bytes_per_s', (a, b) => a < b);
      const pk = pick(cs.filter((c) => c.flops_per_s !== undefined), 'flops_per_s', (a, b) => a > b);
      const dev = pointDevice(rec, {});
      ceilings.push({ key: `ceilings:${f.storeId}`, name: esc(dev.name), preset: dev.preset, file: esc(f.name), bandwidth: bw ? bw.bytes_per_s : 0, peak: pk ? pk.flops_per_s : 0, precision: pk ? esc(precisionOf(pk)) : '' });
    }
    return { used, ceilings };
  }

  // The kernels list: one button per kernel of the shown records (with its point count). Hover or
  // focus rings its points on the chart; a click isolates it (others hidden), again to show all.
  renderKernels(kernels) {
    const ul = $('kernels-list');
    const el = this.el;
    if (!ul) return;
    for (const k of [...this.isolated]) if (!kernels.has(k)) this.isolated.delete(k);
    $('kernels-box').hidden = kernels.size === 0;
    const key = JSON.stringify([...kernels, ...this.isolated]);
    if (key === this.kernelsKey) return;
    this.kernelsKey = key;
    ul.replaceChildren(...[...kernels].map(([k, n], i) => {
      const on = this.isolated.has(k);
      const b = el('button', { type: 'button', className: `kernel${on ? ' isolated' : ''}`, testid: `kernel-${i}`, 'aria-pressed': String(on), title: k });
      b.dataset.kernel = k;
      b.append(el('span', { className: 'kernel-name', text: k }), el('span', { className: 'kernel-count', text: ` (${n.toLocaleString('en-US')})` }));
      const light = (name) => () => this.setHighlight(name);
      b.addEventListener('mouseenter', light(k));
      b.addEventListener('focus', light(k));
      b.addEventListener('mouseleave', light(''));
      b.addEventListener('blur', light(''));
      b.addEventListener('click', () => {
        if (this.isolated.has(k)) this.isolated.delete(k); else this.isolated.add(k);
        this.rerender();
      });
      return el('li', {}, b);
    }));
  }

  // Rings one kernel's points (or none) without rebuilding the chart's datasets.
  setHighlight(kernel) {
    if (this.highlight === kernel) return;
    this.highlight = kernel;
    const list = this.chartList;
    if (!list) return;
    list.highlight = kernel;
    list.redrawOnly = true;
    this.onChange(list);
    const ul = $('kernels-list');
    if (ul) ul.dataset.highlight = kernel;
  }
}
