// measured-layer.js — many measured points on the roofline without redrawing them on every slider
// move. Above LAYER_MIN_POINTS measured points (records.js's series, charts.js's datasets of
// rlKind 'measured' without a line), those datasets are switched to a controller of their own
// (LAYER_TYPE) that keeps no Chart.js element per point: their marks are drawn once into an
// offscreen bitmap and blitted on every chart draw. The bitmap is drawn again only when what it
// shows changes: the measured data, their styles and visibility, the axis ranges, the plot area,
// the canvas size or pixel ratio (the theme changes the styles). Moving N then redraws only the
// model's few marks.
//
// The datasets keep their shape ({ label, data: [{ x, y, text }], colours, pointStyle }, the
// legend, CSV rows and tests read them as before). Hit-testing is a grid index of the drawn marks'
// positions, built with the bitmap: Chart.js's 'point' interaction mode (hover, tooltips, clicks)
// is wrapped to ask it for the layer's datasets (at most MAX_HITS marks under the pointer).
// meta.data[i] of a layer dataset is made on demand (an element at the point's position), so code
// that reads an element by index (keyboard marks, labels, highlight rings) works unchanged; the
// hovered or keyboard-selected marks are drawn over the bitmap with their hover style.
//
//
// The bitmap is drawn in slices of about SLICE_MS (a task each, so a drag or a load never waits on
// 100,000 marks at once): a new bitmap fills in over a few frames; one that follows a zoom or pan
// is finished off screen while the last one is shown mapped, and swapped in when complete. A hit
// test while the only bitmap is still filling finishes it first.
//
//   registerMeasuredLayer()   once, before the first chart (Chart.js loaded)
//   layerInfo(chart)          { active, points, datasets, builds, buildMs (the last one's main-
//                             thread time), slices, pending (a bitmap still filling) } — for
//                             tests and the benchmark

/* global Chart */
import { SLICE_MS } from './record-pack.js'; // the page's one slice of main-thread time per task

export const LAYER_TYPE = 'rlMeasuredLayer';
export const LAYER_MIN_POINTS = 2000;
export const MAX_HITS = 10;
const CELL = 16; // CSS pixels per grid cell
const CHECK_EVERY = 256; // marks drawn between looks at the clock

const states = new WeakMap(); // chart → { key, canvas, grid, points, builds, ms }
let registered = false;

export function registerMeasuredLayer() {
  if (registered || typeof Chart === 'undefined') return;
  registered = true;
  Chart.register(layerController(), layerPlugin);
  const point = Chart.Interaction.modes.point;
  Chart.Interaction.modes.point = (chart, e, options, useFinalPosition) => {
    if (!hasLayer(chart)) return point(chart, e, options, useFinalPosition);
    const items = withoutLayer(chart, () => point(chart, e, options, useFinalPosition));
    return items.concat(layerHits(chart, Chart.helpers.getRelativePosition(e, chart)));
  };
}

export function layerInfo(chart) {
  const s = states.get(chart);
  const metas = layerMetas(chart);
  return {
    active: metas.length > 0, datasets: metas.length, points: s && metas.length ? s.points : 0,
    builds: s ? s.builds : 0, buildMs: s ? s.ms : 0, slices: s ? s.slices : 0, pending: !!(s && s.job),
    mapped: !!(s && s.view && s.view.map), // the bitmap shown is an older one mapped onto moved axes
  };
}

const isLayer = (meta) => meta.type === LAYER_TYPE;
const hasLayer = (chart) => chart.data.datasets.some((d) => d.type === LAYER_TYPE);
// Visible layer metas in Chart.js's drawing order reversed (the last one is drawn first).
const layerMetas = (chart) => Chart.prototype.getSortedVisibleDatasetMetas.call(chart).filter(isLayer);

// Runs fn with the layer's datasets hidden from Chart.js's own element search.
function withoutLayer(chart, fn) {
  const own = Object.prototype.hasOwnProperty.call(chart, 'getSortedVisibleDatasetMetas');
  const saved = chart.getSortedVisibleDatasetMetas;
  chart.getSortedVisibleDatasetMetas = function visible() { return saved.call(this).filter((m) => !isLayer(m)); };
  try {
    return fn();
  } finally {
    if (own) chart.getSortedVisibleDatasetMetas = saved;
    else delete chart.getSortedVisibleDatasetMetas;
  }
}

// Before each update: the measured point datasets go to the layer when there are enough points
// (all of them or none, so their drawing order stays as Chart.js's).
const layerPlugin = {
  id: 'rlMeasuredLayer',
  beforeUpdate(chart) {
    const sets = chart.data.datasets.filter((d) => d.rlKind === 'measured' && !d.showLine);
    const n = sets.reduce((s, d) => s + d.data.length, 0);
    for (const d of sets) {
      if (n >= LAYER_MIN_POINTS) d.type = LAYER_TYPE;
      else if (d.type === LAYER_TYPE) delete d.type;
    }
  },
};

// ---------------------------------------------------------------------------------------------
// The controller: no elements kept, nothing updated per point; draw() blits the bitmap.

function layerController() {
  const Base = Chart.ScatterController;
  return class MeasuredLayerController extends Base {
    static id = LAYER_TYPE;
    static defaults = { ...Base.defaults };
    static overrides = Base.overrides;

    initialize() {
      this.enableOptionSharing = true; // shared options say the marks all look alike
      this.rlCache = new Map(); // index → element made on demand
      this.rlActive = new Set(); // elements with the hover style on
      super.initialize();
      this._cachedMeta.data = lazyElements(this);
    }

    _resyncElements() {
      this._syncList = [];
      if (this._data.length) this.parse(0, this._data.length);
    }

    update() {
      for (const [i, el] of this.rlCache) if (!el.active) this.rlCache.delete(i);
    }

    getMaxOverflow() {
      const o = this.resolveDataElementOptions(0);
      return (Math.max(o.radius, o.radius && o.hoverRadius) + (o.radius && o.borderWidth)) / 2 || false;
    }

    setHoverStyle(element, datasetIndex, index) {
      super.setHoverStyle(element, datasetIndex, index);
      this.rlActive.add(element);
    }

    removeHoverStyle(element, datasetIndex, index) {
      super.removeHoverStyle(element, datasetIndex, index);
      this.rlActive.delete(element);
    }

    draw() {
      const chart = this.chart;
      const metas = layerMetas(chart);
      if (metas[metas.length - 1] === this._cachedMeta) {
        const v = ensureLayer(chart, metas).view;
        const m = v.map || { kx: 1, ky: 1, ox: 0, oy: 0 };
        if (v.canvas && v.canvas.width && v.canvas.height) chart.ctx.drawImage(v.canvas, m.ox, m.oy, chart.width * m.kx, chart.height * m.ky);
      }
      for (const el of this.rlActive) {
        if (!el.active) { this.rlActive.delete(el); continue; }
        placeElement(this, el, el.rlIndex);
        el.draw(chart.ctx, chart.chartArea);
      }
    }
  };
}

// meta.data of a layer dataset: its length is the data's; element i is made when read.
function lazyElements(ctrl) {
  return new Proxy([], {
    get(target, prop, receiver) {
      if (prop === 'length') return ctrl._data ? ctrl._data.length : 0;
      if (typeof prop === 'string' && prop.charCodeAt(0) >= 48 && prop.charCodeAt(0) <= 57) return elementAt(ctrl, Number(prop));
      return Reflect.get(target, prop, receiver);
    },
    set() { return true; }, // Chart.js keeps no elements here
  });
}

function elementAt(ctrl, i) {
  if (!(i >= 0 && i < ctrl._data.length)) return undefined;
  let el = ctrl.rlCache.get(i);
  if (!el) {
    const Point = Chart.registry.getElement('point');
    el = new Point();
    el.rlIndex = i;
    el.options = ctrl.resolveDataElementOptions(i, 'default');
    ctrl.rlCache.set(i, el);
  }
  placeElement(ctrl, el, i);
  return el;
}

function placeElement(ctrl, el, i) {
  const { xScale, yScale } = ctrl._cachedMeta;
  const p = ctrl._data[i];
  el.x = xScale.getPixelForValue(p.x);
  el.y = yScale.getPixelForValue(p.y);
  el.skip = !(Number.isFinite(el.x) && Number.isFinite(el.y));
}

// ---------------------------------------------------------------------------------------------
// The bitmap and the grid index

const ids = new WeakMap();
let nextId = 1;
const idOf = (o) => {
  if (!o || typeof o !== 'object') return String(o);
  if (!ids.has(o)) ids.set(o, nextId++);
  return `#${ids.get(o)}`;
};
const styleKey = (o) => [typeof o.pointStyle === 'object' ? idOf(o.pointStyle) : o.pointStyle,
  o.radius, o.rotation, o.borderWidth, o.borderColor, o.backgroundColor, o.hitRadius].join(',');

// What the bitmap shows: the axis ranges, and the rest (size, plot area, data, styles).
function layerKey(chart, metas) {
  const { x, y } = chart.scales;
  const a = chart.chartArea;
  const parts = [chart.width, chart.height, chart.currentDevicePixelRatio, a.left, a.top, a.right, a.bottom];
  for (const m of metas) {
    const o = m.controller.resolveDataElementOptions(0);
    parts.push(`${idOf(m.controller._data)}:${m.controller._data.length}:${o.$shared ? styleKey(o) : idOf(m._dataset)}`);
  }
  return { base: parts.join('|'), axes: [x.min, x.max, y.min, y.max].join('|') };
}

// While only the axes move (a pan or a zoom, one step per pointer move or wheel tick) the bitmap
// drawn last is shown mapped onto the new axes (on log axes a pan or zoom is an affine map of the
// pixels) and drawn again once the axes rest for SETTLE_MS.
const SETTLE_MS = 150;

// What to show now (s.view: { canvas, map }), a new bitmap started where needed: the finished
// bitmap when it shows these axes and data; mapped when only the axes moved (a new one after
// SETTLE_MS); else the bitmap being drawn for these data (mapped if its axes were others): a job
// for the same data is never restarted for a move of the axes, so it ends even while N is dragged.
function ensureLayer(chart, metas = layerMetas(chart)) {
  let s = states.get(chart);
  if (!s) states.set(chart, (s = { base: '', axes: '', canvas: null, grid: null, points: 0, builds: 0, ms: 0, slices: 0, map: null, job: null, view: null }));
  const k = layerKey(chart, metas);
  if (s.job && s.job.k.base !== k.base) stopJob(s);
  if (s.canvas && k.base === s.base && k.axes === s.axes) {
    if (s.job) stopJob(s); // a redraw for axes that have moved back
    s.map = null;
  } else if (s.canvas && k.base === s.base && (s.map = axisMap(chart, s.ref))) {
    if (s.mapAxes !== k.axes) {
      s.mapAxes = k.axes;
      clearTimeout(s.timer);
      s.timer = setTimeout(() => {
        if (s.job) stopJob(s);
        if (chart.ctx) startJob(chart, s, layerMetas(chart), undefined, true);
      }, SETTLE_MS);
    }
  } else {
    s.map = null;
    if (!s.job) startJob(chart, s, metas, k);
    if (s.job) {
      s.view = { canvas: s.job.canvas, map: s.job.k.axes === k.axes ? null : axisMap(chart, s.job.ref) };
      return s;
    }
  }
  s.view = { canvas: s.canvas, map: s.map };
  return s;
}

// p_new = o + k · p_old on each axis, from where the values at the old plot's edges are now.
function axisMap(chart, ref) {
  const { x, y } = chart.scales;
  const q = [x.getPixelForValue(ref.x[0]), x.getPixelForValue(ref.x[1]), y.getPixelForValue(ref.y[0]), y.getPixelForValue(ref.y[1])];
  const kx = (q[1] - q[0]) / (ref.right - ref.left);
  const ky = (q[3] - q[2]) / (ref.bottom - ref.top);
  if (!(kx > 0 && ky > 0 && q.every(Number.isFinite))) return null;
  return { kx, ky, ox: q[0] - kx * ref.left, oy: q[2] - ky * ref.top };
}

// A bitmap for the chart as it is now (key k), drawn into a canvas of its own a slice at a time,
// each in a task of its own (the first at once when started from a timer; started within a chart
// draw, which has enough to do, none there), swapped in when complete and the chart drawn again.
function startJob(chart, s, metas, k = layerKey(chart, metas), redraw = false) {
  clearTimeout(s.timer);
  const canvas = document.createElement('canvas');
  canvas.width = chart.canvas.width;
  canvas.height = chart.canvas.height;
  // The axes and the plot area as they are now: a later update changes the chart's, not these.
  const snap = (scale) => Object.assign(Object.create(Object.getPrototypeOf(scale)), scale);
  const view = { x: snap(chart.scales.x), y: snap(chart.scales.y), area: { ...chart.chartArea } };
  const { x, y, area: a } = view;
  const ref = { x: [x.getValueForPixel(a.left), x.getValueForPixel(a.right)], y: [y.getValueForPixel(a.top), y.getValueForPixel(a.bottom)], left: a.left, right: a.right, top: a.top, bottom: a.bottom };
  const job = { k, canvas, ref, steps: buildSteps(chart, metas, canvas, view), ms: 0, slices: 0 };
  s.job = job;
  if (redraw) advance(chart, s, job, SLICE_MS, true);
  else job.timer = setTimeout(() => advance(chart, s, job, SLICE_MS, true), 0); // within a draw: all later
}

// Runs the job for about `budget` ms (Infinity: to its end); finished, it becomes the bitmap.
function advance(chart, s, job, budget, redraw) {
  if (s.job !== job) return;
  if (!chart.ctx) { // the chart was destroyed meanwhile
    s.job = null;
    return;
  }
  const t0 = performance.now();
  let r;
  do r = job.steps.next(); while (!r.done && performance.now() - t0 < budget);
  job.ms += performance.now() - t0;
  job.slices++;
  if (!r.done) {
    job.timer = setTimeout(() => advance(chart, s, job, SLICE_MS, true), 0);
    return;
  }
  s.job = null;
  Object.assign(s, r.value, { base: job.k.base, axes: job.k.axes, canvas: job.canvas, ref: job.ref, map: null, mapAxes: '', ms: job.ms, slices: job.slices });
  s.builds++;
  if (redraw && chart.ctx) chart.draw(); // a task of its own: the finished bitmap shown
}

function stopJob(s) {
  clearTimeout(s.job.timer);
  s.job = null;
}

// The drawing, CHECK_EVERY marks a step, on the axes of `view` (startJob's snapshot): returns
// { grid, points }.
function* buildSteps(chart, metas, canvas, view) {
  const dpr = chart.currentDevicePixelRatio;
  const ctx = canvas.getContext('2d');
  const total = metas.reduce((n, m) => n + m.controller._data.length, 0);
  const grid = newGrid(chart, total);
  for (let k = metas.length - 1; k >= 0; k--) yield* drawMeta(ctx, metas[k], grid, view, dpr);
  return { grid: finishGrid(grid), points: grid.n };
}

// One dataset's marks: a sprite per look (drawn once with Chart.js's drawPoint), copied to each
// mark's device pixel, once per pixel and look (a mark drawn again on itself changes nothing you
// could see); marks outside the plot area (and its overflow) are skipped.
function* drawMeta(ctx, meta, grid, { x: xScale, y: yScale, area: a }, dpr) {
  const ctrl = meta.controller;
  const data = ctrl._data;
  const first = ctrl.resolveDataElementOptions(0);
  const shared = first.$shared ? first : null;
  const sprites = new Map();
  const pad = (shared ? first.radius + first.borderWidth : 12) + 1;
  const W = ctx.canvas.width;
  for (let i = 0; i < data.length; i++) {
    if (i % CHECK_EVERY === CHECK_EVERY - 1) yield;
    const p = data[i];
    const px = xScale.getPixelForValue(p.x);
    const py = yScale.getPixelForValue(p.y);
    if (!(px >= a.left - pad && px <= a.right + pad && py >= a.top - pad && py <= a.bottom + pad)) continue;
    const o = shared || ctrl.resolveDataElementOptions(i);
    const sk = shared ? '' : styleKey(o);
    let sp = sprites.get(sk);
    if (!sp) sprites.set(sk, (sp = sprite(o, dpr, ctx.canvas)));
    const dx = Math.round(px * dpr);
    const dy = Math.round(py * dpr);
    const at = dy * W + dx;
    if (sp && dx >= 0 && dx < W && dy >= 0 && dy < ctx.canvas.height && !sp.drawn[at]) {
      sp.drawn[at] = 1;
      ctx.drawImage(sp.canvas, dx - sp.half, dy - sp.half);
    }
    if (px >= a.left && px <= a.right && py >= a.top && py <= a.bottom) addToGrid(grid, px, py, meta.index, i, o.radius + o.hitRadius);
  }
}

function sprite(o, dpr, target) {
  if (!(o.radius > 0)) return null;
  const half = Math.ceil((o.radius + o.borderWidth + 2) * dpr);
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 2 * half;
  const ctx = canvas.getContext('2d');
  ctx.scale(dpr, dpr);
  ctx.strokeStyle = o.borderColor;
  ctx.lineWidth = o.borderWidth;
  ctx.fillStyle = o.backgroundColor;
  Chart.helpers.drawPoint(ctx, o, half / dpr, half / dpr);
  return { canvas, half, drawn: new Uint8Array(target.width * target.height) };
}

function newGrid(chart, capacity) {
  const cols = Math.max(1, Math.ceil(chart.width / CELL));
  const rows = Math.max(1, Math.ceil(chart.height / CELL));
  return {
    cols, rows, n: 0, maxReach: 0,
    xs: new Float32Array(capacity), ys: new Float32Array(capacity), reach: new Float32Array(capacity),
    ds: new Int32Array(capacity), idx: new Int32Array(capacity), cell: new Int32Array(capacity),
  };
}

function addToGrid(g, x, y, ds, i, reach) {
  const k = g.n++;
  g.xs[k] = x; g.ys[k] = y; g.ds[k] = ds; g.idx[k] = i; g.reach[k] = reach;
  const cx = Math.min(g.cols - 1, Math.max(0, Math.floor(x / CELL)));
  const cy = Math.min(g.rows - 1, Math.max(0, Math.floor(y / CELL)));
  g.cell[k] = cy * g.cols + cx;
  if (reach > g.maxReach) g.maxReach = reach;
}

// Counting sort of the marks by cell: start[c] … start[c + 1] index `order`.
function finishGrid(g) {
  const cells = g.cols * g.rows;
  const start = new Int32Array(cells + 1);
  for (let k = 0; k < g.n; k++) start[g.cell[k] + 1]++;
  for (let c = 0; c < cells; c++) start[c + 1] += start[c];
  const fill = start.slice(0, cells);
  const order = new Int32Array(g.n);
  for (let k = 0; k < g.n; k++) order[fill[g.cell[k]]++] = k;
  return { ...g, start, order };
}

// The layer's marks under the pointer (within radius + hitRadius, as Chart.js's 'point' mode),
// in Chart.js's order (dataset, then index), at most MAX_HITS.
function layerHits(chart, pos) {
  const a = chart.chartArea;
  if (!(pos.x >= a.left && pos.x <= a.right && pos.y >= a.top && pos.y <= a.bottom)) return [];
  const metas = layerMetas(chart);
  if (!metas.length) return [];
  let s = ensureLayer(chart, metas);
  if (s.view.canvas !== s.canvas) { // the only bitmap for these data is still being drawn: finished now
    advance(chart, s, s.job, Infinity, false);
    s = ensureLayer(chart, metas);
  }
  const g = s.grid;
  const map = s.view.canvas === s.canvas ? s.view.map : null;
  if (map) pos = { x: (pos.x - map.ox) / map.kx, y: (pos.y - map.oy) / map.ky }; // the bitmap's pixels
  const rank = new Map(metas.map((m, r) => [m.index, r]));
  const found = [];
  const c0 = Math.max(0, Math.floor((pos.x - g.maxReach) / CELL));
  const c1 = Math.min(g.cols - 1, Math.floor((pos.x + g.maxReach) / CELL));
  const r0 = Math.max(0, Math.floor((pos.y - g.maxReach) / CELL));
  const r1 = Math.min(g.rows - 1, Math.floor((pos.y + g.maxReach) / CELL));
  for (let r = r0; r <= r1; r++) {
    for (let c = c0; c <= c1; c++) {
      const cell = r * g.cols + c;
      for (let j = g.start[cell]; j < g.start[cell + 1]; j++) {
        const k = g.order[j];
        if ((pos.x - g.xs[k]) ** 2 + (pos.y - g.ys[k]) ** 2 < g.reach[k] ** 2) keepFirst(found, rank.get(g.ds[k]), g.ds[k], g.idx[k]);
      }
    }
  }
  return found.map(([, datasetIndex, index]) => ({ datasetIndex, index, element: elementAt(chart.getDatasetMeta(datasetIndex).controller, index) }));
}

// Keeps the MAX_HITS first [rank, dataset, index] in order.
function keepFirst(list, rank, ds, i) {
  const before = (x) => x[0] < rank || (x[0] === rank && x[2] < i);
  if (list.length === MAX_HITS && before(list[MAX_HITS - 1])) return;
  let at = list.length;
  while (at > 0 && !before(list[at - 1])) at--;
  list.splice(at, 0, [rank, ds, i]);
  if (list.length > MAX_HITS) list.pop();
}
