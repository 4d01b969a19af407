// test-hook.js — window.rooflab, the page's narrow hook for tests and benchmarks (docs/PAGE.md
// "The test hook"). Not the controller and no Chart.js object: what the page drew, as plain data
// copied out (datasets with their labels, kinds and styles, the axes, the tooltip, the legend),
// where a mark is on the screen, and a few read-only accessors. Charts by name: 'roofline',
// 'sweep', 'layer-roof', 'layer-bar' (the whole-layer view's, when a model is chosen).
import { backdropInfo } from './backdrop.js';
import { layerInfo } from './measured-layer.js';

// A point or a table copied out as plain data: own fields, and the getters of its class (a record's
// point writes its text when asked); functions stay behind.
function copy(v, depth = 0) {
  if (!v || typeof v !== 'object' || depth > 8) return v;
  if (Array.isArray(v) || ArrayBuffer.isView(v)) return Array.from(v, (x) => copy(x, depth + 1));
  const out = {};
  for (let o = v; o && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
    for (const [k, d] of Object.entries(Object.getOwnPropertyDescriptors(o))) {
      if (k === 'constructor' || k in out || (o === v ? !d.enumerable : !d.get)) continue;
      const val = v[k];
      if (typeof val !== 'function') out[k] = copy(val, depth + 1);
    }
  }
  return out;
}

// A dataset as data, under the names chart-data.js gives it (label, rlKind, rlId, rlLabel, the
// Chart.js style fields) with `n`, its number of points, and `data`: every point copied (points
// true), none (false: null), or only those at the indices given (an array as long as the data).
const FIELDS = ['label', 'rlKind', 'rlId', 'rlDevice', 'rlMark', 'rlOwnRoof', 'type', 'showLine', 'borderColor',
  'backgroundColor', 'pointStyle', 'pointRotation', 'pointRadius', 'borderWidth', 'hidden'];
function plainDataset(d, index, points) {
  let data = null;
  if (Array.isArray(points)) {
    data = new Array(d.data.length);
    for (const i of points) data[i] = copy(d.data[i]);
  } else if (points) {
    data = d.data.map((p) => copy(p));
  }
  const o = { index, n: d.data.length, data };
  for (const f of FIELDS) if (d[f] !== undefined && typeof d[f] !== 'function') o[f] = copy(d[f]);
  if (d.rlLabel) o.rlLabel = { text: d.rlLabel.text, short: d.rlLabel.short };
  return o;
}

export function testHook({ app, model, records, layerView }) {
  const charts = () => ({
    roofline: app.roofline.chart, sweep: app.sweepChart.chart,
    'layer-roof': layerView?.roofChart, 'layer-bar': layerView?.barChart,
  });
  const chartOf = (name) => {
    const c = charts()[name];
    if (!c) throw new Error(`no chart "${name}" (roofline, sweep, layer-roof, layer-bar)`);
    return c;
  };
  const fileOf = (which) => (typeof which === 'number' ? records.files[which] : records.files.find((f) => f.name === which));
  const datasetIndex = (c, { kind, label = null, id = null }) => c.data.datasets.findIndex((d) =>
    (kind === undefined || d.rlKind === kind) && !d.showLine && (label === null || d.label === label) && (id === null || d.rlId === id));
  return Object.freeze({
    ready: true,
    // The URL and an off-screen worked calculation written now.
    flush: () => app.flush(),
    caption: () => app.caption(),
    get state() { return { ...app.state }; },
    sweepPoints: () => app.good.rows.length,
    model, // core's tables and computations (model.js), for tests that ask core directly

    // What chart `name` drew: { datasets, scales: { x, y: { min, max, title, ticks (labels) } }, plugins: { band,
    // pointLabels, highlight, background, annotations (ids) }, tooltip: { opacity, active, kinds,
    // labels, lines, x, width, chartWidth }, legend: the item texts, area: the plot area in canvas
    // pixels }. points: false leaves the
    // points out (their count stays), an array of indices copies only those (100,000 measured points).
    chart(name, { points = true } = {}) {
      const c = chartOf(name);
      const o = c.options.plugins || {};
      const t = c.tooltip;
      const axis = (s, opt) => (s ? { min: s.min, max: s.max, title: opt?.title?.text ?? '', ticks: (s.ticks || []).map((k) => k.label) } : null);
      return {
        datasets: c.data.datasets.map((d, i) => plainDataset(d, i, points)),
        labels: c.data.labels ? [...c.data.labels] : [],
        scales: { x: axis(c.scales.x, c.options.scales?.x), y: axis(c.scales.y, c.options.scales?.y) },
        area: c.chartArea ? { left: c.chartArea.left, right: c.chartArea.right, top: c.chartArea.top, bottom: c.chartArea.bottom } : null,
        plugins: {
          band: !!o.rlBand?.band, pointLabels: !!o.rlPointLabels?.show, highlight: o.rlHighlight?.kernel ?? '',
          background: o.rlBackground?.color ?? '', annotations: Object.keys(o.annotation?.annotations || {}),
          // chart-identity.js's last draw: the × → ☆ lines, the hover drop-line, the ★'s caption,
          // the ridge's label;
          // chart-plugins.js's line labels as placed ({ text, x0, x1, y0, y1 } in canvas pixels)
          pairs: copy(o.rlPairs?.drawn || []), pairsSkipped: o.rlPairs?.skipped || 0, drop: copy(o.rlDrop?.drawn ?? null),
          star: o.rlStar?.drawn ?? '', starBox: copy(o.rlStar?.box ?? null), lineLabels: copy(o.rlLineLabels?.drawn || []),
          pairBoxes: copy(o.rlPairs?.boxes || []), pointLabelBoxes: copy(o.rlPointLabels?.drawn || []),
          ridge: o.rlRidge?.drawn ?? '', ridgeBox: copy(o.rlRidge?.box ?? null), bandNote: copy(o.rlBand?.noteBox ?? null),
        },
        tooltip: {
          opacity: t?.opacity || 0, active: c.getActiveElements().length,
          kinds: (t?.dataPoints || []).map((p) => p.dataset.rlKind), labels: (t?.dataPoints || []).map((p) => p.dataset.label),
          lines: (t?.body || []).flatMap((b) => b.lines), x: t?.x, width: t?.width, chartWidth: c.width,
        },
        legend: (c.legend?.legendItems || []).map((i) => i.text),
      };
    },
    // Where point `index` of the first mark dataset of that kind (and label / id) is drawn:
    // { x, y } in page pixels, { px, py } on the canvas, { want } the x axis's pixel for its value.
    markAt(name, { kind, label = null, id = null, index = 0 }) {
      const c = chartOf(name);
      const i = datasetIndex(c, { kind, label, id });
      if (i < 0) return null;
      const el = c.getDatasetMeta(i).data[index];
      const r = c.canvas.getBoundingClientRect();
      const p = c.data.datasets[i].data[index];
      return { x: r.left + el.x, y: r.top + el.y, px: el.x, py: el.y, want: c.scales.x.getPixelForValue(p.x), value: copy(p) };
    },
    // The texts a measured point shows: its tooltip lines and its details panel (filled as a click does).
    pointTexts({ kind = 'measured', label = null, index = 0 } = {}) {
      const r = app.roofline;
      const c = r.chart;
      const di = datasetIndex(c, { kind, label });
      const ds = c.data.datasets[di];
      const tip = c.options.plugins.tooltip.callbacks.label({ dataset: ds, raw: ds.data[index], datasetIndex: di, dataIndex: index, chart: c });
      r.fillDetails(ds, ds.data[index]);
      return { label: ds.label, tooltip: [].concat(tip), details: document.getElementById('point-details-lines').textContent };
    },
    // The roofline's own legend labels as Chart.js would build them (its generateLabels callback).
    legendLabels: () => { const c = app.roofline.chart; return c.options.plugins.legend.labels.generateLabels(c).map((i) => i.text); },
    // An ordinary full draw of the chart (the fast path's pixels are compared against it).
    redraw: (name) => chartOf(name).draw(),
    pixels: (name) => { const c = chartOf(name); return c.ctx.getImageData(0, 0, c.canvas.width, c.canvas.height).data; },
    backdrop: (name) => backdropInfo(chartOf(name)),
    measuredLayer: () => layerInfo(app.roofline.chart),
    colors: () => copy(app.roofline.colors),
    trails: () => copy(app.roofline.view.trails),
    keyMark: () => (app.roofline.keyMark ? { kind: app.roofline.chart.data.datasets[app.roofline.keyMark.datasetIndex].rlKind } : null),
    csvRows: (name) => (name === 'sweep' ? app.sweepChart : app.roofline).csvRows(),
    // Records (records.js): a held file's text and report (by name or place), a point's text, checks
    // run in a worker, the series drawn, the warnings core's report gives per point, the keeper's timing.
    recordText: (which) => fileOf(which)?.text ?? null,
    recordReport: (which) => copy(fileOf(which)?.report ?? null),
    pointText: (record, point, warnings) => records.pointText(record, point, warnings),
    checksInWorker: () => records.checker.inWorker,
    recordSeries: () => records.chartList.map((s) => ({ predicted: !!s.predicted, points: s.points ? s.points.map(copy) : null })),
    warningsByPoint: (report) => records.warningsByPoint(report),
    keeperTiming: () => copy(records.keeper.timing),
    // Work the records did, counted: { listRenders, chartRenders, itemsMade, checks } (checks:
    // answered by a worker).
    recordWork: () => ({ ...records.work, checks: records.checker.inWorker }),
  });
}
