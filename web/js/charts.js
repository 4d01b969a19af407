// charts.js — owns the two Chart.js charts (roofline, and time/intensity against N). It mutates
// chart.data in place and calls chart.update('none'). The numbers it draws are prepared by
// buildViews() from model results; the only arithmetic here is choosing axis ranges for display.
//
// For other modules (e.g. measured records): roofline.setMeasured([{ label, hollow, points:
// [{ x: intensity, y: FLOP/s, text: 'tooltip line' }] }]) draws extra point datasets, listed in the
// legend and the CSV export; an entry with `line: true` is drawn as a dotted line (a ceiling).

/* global Chart */

const MODELS = ['compulsory', 'tiled', 'naive'];
const RANK = { point: 0, measured: 1, roof: 2, ceiling: 3, trail: 4 };
const POINT_STYLE = { compulsory: 'circle', tiled: 'triangle', naive: 'rectRot' };

export function cssColors() {
  const cs = getComputedStyle(document.documentElement);
  const v = (n) => cs.getPropertyValue(n).trim();
  return {
    bg: v('--bg'), fg: v('--fg'), muted: v('--muted'), grid: v('--grid'), roof: v('--roof'),
    compulsory: v('--compulsory'), tiled: v('--tiled'), naive: v('--naive'),
    ceilings: [v('--ceiling1'), v('--ceiling2'), v('--ceiling1'), v('--ceiling2'), v('--ceiling1')],
    band: v('--band'), ridge: v('--ridge'),
  };
}

function withAlpha(color, alpha) {
  const m = /^#([0-9a-f]{6})$/i.exec(color);
  if (!m) return color;
  const n = parseInt(m[1], 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
}

// Paints the canvas background so exported PNGs are readable in both colour schemes.
const backgroundPlugin = {
  id: 'rlBackground',
  beforeDraw(chart, _args, opts) {
    const { ctx, width, height } = chart;
    ctx.save();
    ctx.globalCompositeOperation = 'destination-over';
    ctx.fillStyle = opts.color || '#fff';
    ctx.fillRect(0, 0, width, height);
    ctx.restore();
  },
};

// The shaded band between the tiled and compulsory points (what reuse could still win), drawn
// by this small plugin so moving N only redraws, without a full chart update.
const bandPlugin = {
  id: 'rlBand',
  beforeDatasetsDraw(chart, _args, opts) {
    const band = opts.band;
    if (!band || !(band.xMax > band.xMin)) return;
    const { ctx, chartArea: a, scales: { x } } = chart;
    const x0 = Math.max(a.left, x.getPixelForValue(band.xMin));
    const x1 = Math.min(a.right, x.getPixelForValue(band.xMax));
    if (!(x1 > x0)) return;
    ctx.save();
    ctx.fillStyle = opts.color;
    ctx.fillRect(x0, a.top, x1 - x0, a.bottom - a.top);
    ctx.fillStyle = opts.textColor;
    ctx.font = '10px system-ui, sans-serif';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    if (x1 - x0 > 60) {
      ctx.fillText('tiled → compulsory:', (x0 + x1) / 2, a.top + 6);
      ctx.fillText('reuse could win this', (x0 + x1) / 2, a.top + 18);
    }
    ctx.restore();
  },
};

// A vertical marker at the current N (sweep chart), redrawn without a chart update.
const markerPlugin = {
  id: 'rlMarker',
  afterDatasetsDraw(chart, _args, opts) {
    const v = opts.value;
    if (!(v > 0)) return;
    const { ctx, chartArea: a, scales: { x } } = chart;
    const px = x.getPixelForValue(v);
    if (px < a.left || px > a.right) return;
    ctx.save();
    ctx.strokeStyle = opts.color;
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    ctx.moveTo(px, a.top);
    ctx.lineTo(px, a.bottom);
    ctx.stroke();
    ctx.font = 'bold 11px system-ui, sans-serif';
    const text = opts.label;
    const w = ctx.measureText(text).width + 8;
    const left = Math.min(Math.max(px - w / 2, a.left), a.right - w);
    ctx.fillStyle = opts.background;
    ctx.fillRect(left, a.top + 2, w, 16);
    ctx.fillStyle = opts.color;
    ctx.textBaseline = 'middle';
    ctx.fillText(text, left + 4, a.top + 10);
    ctx.restore();
  },
};

function isDecade(v) {
  const e = Math.log10(v);
  return Math.abs(e - Math.round(e)) < 1e-9;
}

// Tick label of a plain count or intensity at a decade: 0.01 … 1,000,000, then 1e7 ….
// On an axis spanning less than two decades, 2 and 5 in each decade are labelled too.
function decadeLabel(v) {
  const span = this && this.max / this.min;
  const mant = v / 10 ** Math.floor(Math.log10(v) + 1e-9);
  const whole = Math.abs(mant - Math.round(mant)) < 1e-6;
  const show = isDecade(v) || (span < 100 && whole && (mant < 2.5 ? Math.round(mant) === 2 : Math.round(mant) === 5)) ||
    (span < 10 && whole);
  if (!show) return '';
  return v >= 1e-3 && v <= 1e6 ? Number(v).toLocaleString('en-US', { maximumSignificantDigits: 1 }) : `1e${Math.round(Math.log10(v))}`;
}

// ---------------------------------------------------------------------------------------------
// View preparation: model results → chart-ready points (all values from the model).
// ---------------------------------------------------------------------------------------------

// result: model.evaluate(...).r; rows: model.sweep(...).rows; roof: { bandwidth, peak, peakName };
// ceilings: [{ id, name, peak }] extra compute ceilings to draw.
// What a sweep's rows give the charts, computed once per rows array (moving N reuses the rows).
const fromRows = new WeakMap();
let rowsSerial = 0;
function rowsViews(rows) {
  let v = fromRows.get(rows);
  if (v) return v;
  const trails = {};
  const series = {};
  let lo = Infinity;
  let hi = 0;
  for (const m of MODELS) {
    const ok = rows.filter((row) => row[`${m}.bytes`] > 0);
    trails[m] = ok.map((row) => ({ x: row[`${m}.intensity_flop_per_byte`], y: row[`${m}.attainable_flops_per_s`], n: row.x }));
    for (const p of trails[m]) { lo = Math.min(lo, p.x); hi = Math.max(hi, p.x); }
    series[m] = {
      time: ok.map((row) => ({ x: row.x, y: row[`${m}.time_s`] })),
      intensity: ok.map((row) => ({ x: row.x, y: row[`${m}.intensity_flop_per_byte`] })),
    };
  }
  v = { id: ++rowsSerial, trails, series, lo, hi };
  fromRows.set(rows, v);
  return v;
}

// result: model.evaluate(...).r; rows: model.sweep(...).rows; roof: { bandwidth, peak, peakName };
// ceilings: [{ id, name, peak }] extra compute ceilings to draw.
export function buildViews(model, result, rows, roof, ceilings, sweptKey, currentX) {
  const points = [];
  for (const m of MODELS) {
    if (result[`${m}.available`]) {
      points.push({
        model: m, x: result[`${m}.intensity_flop_per_byte`], y: result[`${m}.attainable_flops_per_s`],
        bytes: result[`${m}.bytes`], time: result[`${m}.time_s`], bound: model.bounds[result[`${m}.bound`]],
      });
    }
  }
  const rv = rowsViews(rows);
  const ridge = result.ridge_flop_per_byte;
  const xs = [ridge, ...points.map((p) => p.x)];
  if (rv.hi > 0) xs.push(rv.lo, rv.hi);
  const xMin = 10 ** Math.floor(Math.log10(Math.min(...xs) / 2));
  const xMax = 10 ** Math.ceil(Math.log10(Math.max(...xs) * 2));
  const roofLine = [
    { x: xMin, y: model.attainable(roof.bandwidth, roof.peak, xMin) },
    { x: ridge, y: model.attainable(roof.bandwidth, roof.peak, ridge) },
    { x: xMax, y: model.attainable(roof.bandwidth, roof.peak, xMax) },
  ];
  const ceilingLines = ceilings.map((c) => {
    const r = model.ridge(roof.bandwidth, c.peak);
    const pts = [{ x: xMin, y: model.attainable(roof.bandwidth, c.peak, xMin) }];
    if (r > xMin && r < xMax) pts.push({ x: r, y: model.attainable(roof.bandwidth, c.peak, r) });
    pts.push({ x: xMax, y: model.attainable(roof.bandwidth, c.peak, xMax) });
    return { ...c, points: pts };
  });
  const ys = [roof.peak, roofLine[0].y, ...ceilingLines.map((c) => c.points[0].y)];
  const yMin = 10 ** Math.floor(Math.log10(Math.min(...ys)));
  const yMax = 10 ** Math.ceil(Math.log10(Math.max(...ys) * 1.5));
  const band = result['tiled.available'] && result['compulsory.available']
    ? { xMin: result['tiled.intensity_flop_per_byte'], xMax: result['compulsory.intensity_flop_per_byte'] }
    : null;
  const staticKey = [rv.id, roof.bandwidth, roof.peak, roof.peakName, ...ceilings.map((c) => `${c.id}:${c.peak}`)].join('|');
  return {
    roofline: { roof, ridge, points, trails: rv.trails, roofLine, ceilingLines, band, xMin, xMax, yMin, yMax, sweptKey, staticKey },
    sweep: { series: rv.series, sweptKey, currentX },
  };
}

// ---------------------------------------------------------------------------------------------
// The roofline chart
// ---------------------------------------------------------------------------------------------

export class RooflineChart {
  constructor(canvas, model) {
    this.model = model;
    this.measured = [];
    this.view = null;
    const fmt = (v, unit) => model.format(v, unit);
    this.colors = cssColors();
    const c = this.colors;
    this.bindKeys(canvas);
    this.chart = new Chart(canvas, {
      type: 'scatter',
      data: { datasets: [] },
      plugins: [backgroundPlugin, bandPlugin],
      options: {
        animation: false,
        parsing: false,
        normalized: true,
        responsive: true,
        maintainAspectRatio: false,
        interaction: { mode: 'point', intersect: true },
        scales: {
          x: {
            type: 'logarithmic',
            title: { display: true, text: 'arithmetic intensity I (FLOP/byte)', color: c.fg },
            ticks: { color: c.muted, autoSkip: true, maxRotation: 0, callback: decadeLabel },
            grid: { color: c.grid },
          },
          y: {
            type: 'logarithmic',
            title: { display: true, text: 'attainable throughput (FLOP/s)', color: c.fg },
            ticks: { color: c.muted, callback: (v) => (isDecade(v) ? fmt(v, 'FLOP/s') : '') },
            grid: { color: c.grid },
          },
        },
        plugins: {
          rlBackground: { color: c.bg },
          rlBand: { band: null, color: c.band, textColor: c.muted },
          legend: {
            labels: {
              color: c.fg, usePointStyle: true, boxHeight: 8,
              filter: (item, data) => !data.datasets[item.datasetIndex].rlHideInLegend,
            },
          },
          tooltip: {
            // A working point or a measured point under the pointer hides the trail beneath it.
            filter: (item, _i, items) => item.dataset.rlKind !== 'trail' ||
              !items.some((o) => o.dataset.rlKind === 'point' || o.dataset.rlKind === 'measured'),
            itemSort: (a, b) => RANK[a.dataset.rlKind] - RANK[b.dataset.rlKind],
            callbacks: {
              label: (ctx) => this.tooltip(ctx),
            },
          },
          annotation: { annotations: {} },
          zoom: {
            limits: { x: { min: 1e-4, max: 1e8 }, y: { min: 1e6, max: 1e19 } },
            // Panning is done here (panBy): the plugin's pan keeps a linear range, which on
            // these log axes squeezes one end.
            pan: { enabled: false },
            zoom: { wheel: { enabled: true }, pinch: { enabled: true }, mode: 'xy', onZoomComplete: () => { this.zoomed = true; } },
          },
        },
      },
    });
  }

  // Pan by a pixel offset: each axis's ends move by the same number of pixels, which on a log
  // axis keeps the number of decades shown.
  panBy(dx, dy) {
    const c = this.chart;
    for (const [id, d] of [['x', dx], ['y', dy]]) {
      if (!d) continue;
      const sc = c.scales[id];
      c.options.scales[id].min = sc.getValueForPixel(sc.getPixelForValue(sc.min) - d);
      c.options.scales[id].max = sc.getValueForPixel(sc.getPixelForValue(sc.max) - d);
    }
    this.zoomed = true;
    c.update('none');
  }

  // Pointer drag pans; keyboard: arrows pan, + and - zoom, 0 resets (the canvas is focusable).
  bindKeys(canvas) {
    canvas.tabIndex = 0;
    let drag = null;
    canvas.addEventListener('pointerdown', (e) => {
      if (e.button !== 0 || e.pointerType === 'touch') return;
      drag = { x: e.clientX, y: e.clientY };
      canvas.setPointerCapture(e.pointerId);
    });
    canvas.addEventListener('pointermove', (e) => {
      if (!drag) return;
      const dx = e.clientX - drag.x;
      const dy = e.clientY - drag.y;
      if (Math.abs(dx) + Math.abs(dy) < 2) return;
      drag = { x: e.clientX, y: e.clientY };
      this.panBy(dx, dy);
    });
    const end = () => { drag = null; };
    canvas.addEventListener('pointerup', end);
    canvas.addEventListener('pointercancel', end);
    canvas.addEventListener('keydown', (e) => {
      const step = 40;
      const pan = { ArrowLeft: [step, 0], ArrowRight: [-step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] }[e.key];
      if (pan) this.panBy(pan[0], pan[1]);
      else if (e.key === '+' || e.key === '=') this.zoom(1.25);
      else if (e.key === '-') this.zoom(0.8);
      else if (e.key === '0') this.resetZoom();
      else return;
      e.preventDefault();
    });
  }

  tooltip(ctx) {
    const f = (v, u, o = {}) => this.model.format(v, u, { sig: 6, ...o });
    const ds = ctx.dataset;
    const p = ctx.raw;
    const head = `${ds.label}: I = ${f(p.x, 'FLOP/B')}, ${f(p.y, 'FLOP/s')}`;
    if (ds.rlKind === 'point') {
      return [head, `bytes ${f(p.bytes, 'B')} (${f(p.bytes, 'B', { iec: true })}), F / bytes`,
        `bound time ${f(p.time, 's')}, ${p.bound}-bound`];
    }
    if (ds.rlKind === 'trail') return `${head} at ${this.view.sweptKey} = ${p.n.toLocaleString('en-US')}`;
    if (ds.rlKind === 'measured' && p.text) return [head, ...[].concat(p.text)];
    return head;
  }

  // Moving only N leaves the roof, the ceilings and the trails as they were (view.staticKey):
  // then the working points are moved in place and the chart redrawn, without a full update.
  update(view) {
    if (this.view && view.staticKey === this.view.staticKey && this.movePoints(view)) {
      this.view = view;
      this.chart.options.plugins.rlBand.band = view.band;
      this.chart.draw();
      return;
    }
    this.view = view;
    this.fullUpdate(view);
  }

  movePoints(view) {
    const chart = this.chart;
    const { x, y } = chart.scales;
    const sets = chart.data.datasets.filter((d) => d.rlKind === 'point');
    if (sets.length !== view.points.length) return false;
    for (const p of view.points) {
      if (p.x < x.min || p.x > x.max || p.y < y.min || p.y > y.max) return false;
    }
    view.points.forEach((p, i) => {
      const ds = sets[i];
      if (ds.label !== p.model) return;
      ds.data[0] = p;
      const el = chart.getDatasetMeta(chart.data.datasets.indexOf(ds)).data[0];
      if (el) { el.x = x.getPixelForValue(p.x); el.y = y.getPixelForValue(p.y); }
    });
    return sets.every((ds, i) => ds.label === view.points[i].model);
  }

  fullUpdate(view) {
    const c = this.colors;
    const fmt = (v, u) => this.model.format(v, u);
    const ds = [];
    ds.push({
      label: `roof: ${fmt(view.roof.bandwidth, 'B/s')} · I, ${fmt(view.roof.peak, 'FLOP/s')} ${view.roof.peakName}`,
      rlKind: 'roof', data: view.roofLine, showLine: true, borderColor: c.roof, backgroundColor: c.roof,
      borderWidth: 2, pointRadius: 0, pointHitRadius: 4, order: 1,
    });
    view.ceilingLines.forEach((cl, i) => ds.push({
      label: `ceiling: ${cl.name} ${fmt(cl.peak, 'FLOP/s')}`, rlKind: 'ceiling', data: cl.points, showLine: true,
      borderColor: c.ceilings[i], backgroundColor: c.ceilings[i], borderDash: [6, 4], borderWidth: 1.5,
      pointRadius: 0, pointHitRadius: 4, order: 2,
    }));
    for (const m of MODELS) {
      ds.push({
        label: `${m} trail`, rlKind: 'trail', rlHideInLegend: true, data: view.trails[m], showLine: true,
        borderColor: withAlpha(c[m], 0.28), backgroundColor: withAlpha(c[m], 0.28), borderWidth: 7,
        pointRadius: 0, pointHitRadius: 3, order: 5,
      });
    }
    for (const p of view.points) {
      ds.push({
        label: `${p.model}`, rlKind: 'point', data: [p], pointStyle: POINT_STYLE[p.model],
        pointRadius: 8, pointHoverRadius: 10, borderColor: c.fg, borderWidth: 1.5, backgroundColor: c[p.model], order: 0,
      });
    }
    for (const m of this.measured) {
      ds.push({
        label: m.label, rlKind: 'measured', data: m.points, pointStyle: m.pointStyle || 'crossRot',
        pointRadius: m.line ? 0 : 6, pointHitRadius: m.line ? 4 : 1, borderWidth: m.line ? 1.5 : 2,
        borderColor: m.color || c.fg, showLine: !!m.line, borderDash: m.line ? [2, 3] : [], rlHideInLegend: !!m.line,
        backgroundColor: m.hollow ? 'rgba(0,0,0,0)' : (m.color || c.fg), order: 0,
      });
    }
    const anns = {
      ridge: {
        type: 'line', xMin: view.ridge, xMax: view.ridge, borderColor: c.ridge, borderWidth: 1, borderDash: [3, 3],
        label: {
          display: true, content: `ridge I* = π/β = ${fmt(view.ridge, 'FLOP/B')}`, position: 'start',
          backgroundColor: c.bg, color: c.fg, font: { size: 11 }, yAdjust: 6,
        },
      },
    };
    const o = this.chart.options;
    o.plugins.annotation.annotations = anns;
    o.plugins.rlBand.band = view.band;
    if (!this.zoomed) {
      // The axes also take in the measured points (not the ceiling lines), to whole decades.
      let { xMin, xMax, yMin, yMax } = view;
      for (const m of this.measured) {
        if (m.line) continue;
        for (const p of m.points) {
          if (!(p.x > 0 && p.y > 0)) continue;
          if (p.x < xMin) xMin = 10 ** Math.floor(Math.log10(p.x));
          if (p.x > xMax) xMax = 10 ** Math.ceil(Math.log10(p.x));
          if (p.y < yMin) yMin = 10 ** Math.floor(Math.log10(p.y));
          if (p.y > yMax) yMax = 10 ** Math.ceil(Math.log10(p.y));
        }
      }
      o.scales.x.min = xMin; o.scales.x.max = xMax;
      o.scales.y.min = yMin; o.scales.y.max = yMax;
    }
    this.chart.data.datasets = ds;
    this.chart.update('none');
  }

  setMeasured(list) {
    this.measured = list;
    if (this.view) this.fullUpdate(this.view);
  }

  // Zoom helpers for the keyboard buttons.
  zoom(factor) { this.zoomed = true; this.chart.zoom(factor); }
  resetZoom() {
    this.chart.resetZoom('none'); // may call onZoomComplete: clear the flag after it
    this.zoomed = false;
    if (this.view) this.fullUpdate(this.view);
  }

  recolor() {
    this.colors = cssColors();
    const o = this.chart.options;
    o.plugins.rlBackground.color = this.colors.bg;
    for (const axis of ['x', 'y']) {
      o.scales[axis].ticks.color = this.colors.muted;
      o.scales[axis].grid.color = this.colors.grid;
      o.scales[axis].title.color = this.colors.fg;
    }
    o.plugins.legend.labels.color = this.colors.fg;
    o.plugins.rlBand.color = this.colors.band;
    o.plugins.rlBand.textColor = this.colors.muted;
    if (this.view) this.fullUpdate(this.view);
  }

  // CSV rows: chart, series, x, y with units.
  csvRows() {
    const rows = [];
    for (const d of this.chart.data.datasets) {
      for (const p of d.data) rows.push(['roofline', d.label, p.x, p.y, 'FLOP/B', 'FLOP/s', p.n ?? '']);
    }
    return rows;
  }
}

// ---------------------------------------------------------------------------------------------
// Time and intensity against N
// ---------------------------------------------------------------------------------------------

export class SweepChart {
  constructor(canvas, model) {
    this.model = model;
    this.colors = cssColors();
    const c = this.colors;
    const fmt = (v, u) => model.format(v, u);
    this.chart = new Chart(canvas, {
      type: 'scatter',
      data: { datasets: [] },
      plugins: [backgroundPlugin, markerPlugin],
      options: {
        animation: false, parsing: false, normalized: true, responsive: true, maintainAspectRatio: false,
        interaction: { mode: 'nearest', intersect: false, axis: 'x' },
        scales: {
          x: {
            type: 'logarithmic', title: { display: true, text: 'N', color: c.fg },
            ticks: { color: c.muted, maxRotation: 0, callback: decadeLabel },
            grid: { color: c.grid },
          },
          yTime: {
            type: 'logarithmic', position: 'left', title: { display: true, text: 'bound time (solid)', color: c.fg },
            ticks: { color: c.muted, callback: (v) => (isDecade(v) ? fmt(v, 's') : '') }, grid: { color: c.grid },
          },
          yInt: {
            type: 'logarithmic', position: 'right', title: { display: true, text: 'intensity, FLOP/byte (dashed)', color: c.fg },
            ticks: { color: c.muted, callback: decadeLabel }, grid: { drawOnChartArea: false },
          },
        },
        plugins: {
          rlBackground: { color: c.bg },
          rlMarker: { value: 0, label: '', color: c.fg, background: c.bg },
          legend: { labels: { color: c.fg, boxHeight: 2 } },
          tooltip: {
            callbacks: {
              label: (ctx) => {
                const unit = ctx.dataset.yAxisID === 'yTime' ? 's' : 'FLOP/B';
                return `${ctx.dataset.label}: ${model.format(ctx.raw.y, unit, { sig: 6 })} at ${this.sweptKey} = ${ctx.raw.x.toLocaleString('en-US')}`;
              },
            },
          },
        },
      },
    });
  }

  update(view) {
    const same = this.view && this.view.series === view.series;
    this.view = view;
    this.sweptKey = view.sweptKey;
    const marker = this.chart.options.plugins.rlMarker;
    marker.value = view.currentX;
    marker.label = `${view.sweptKey} = ${Number(view.currentX).toLocaleString('en-US')}`;
    if (same) {
      this.chart.draw(); // only the marker moved
      return;
    }
    const c = this.colors;
    const ds = [];
    for (const m of MODELS) {
      ds.push({
        label: `${m} time`, data: view.series[m].time, yAxisID: 'yTime', showLine: true, borderColor: c[m],
        backgroundColor: c[m], borderWidth: 2, pointRadius: 0, pointHitRadius: 3,
      });
      ds.push({
        label: `${m} intensity`, data: view.series[m].intensity, yAxisID: 'yInt', showLine: true, borderColor: c[m],
        backgroundColor: c[m], borderWidth: 1.5, borderDash: [5, 4], pointRadius: 0, pointHitRadius: 3,
      });
    }
    const o = this.chart.options;
    o.scales.x.title.text = view.sweptKey === 'kv-len' ? 'KV length L (decode context)' : 'sequence length N (= L)';
    this.chart.data.datasets = ds;
    this.chart.update('none');
  }

  recolor() {
    this.colors = cssColors();
    const o = this.chart.options;
    o.plugins.rlBackground.color = this.colors.bg;
    for (const axis of ['x', 'yTime', 'yInt']) {
      o.scales[axis].ticks.color = this.colors.muted;
      o.scales[axis].title.color = this.colors.fg;
    }
    o.plugins.legend.labels.color = this.colors.fg;
    o.plugins.rlMarker.color = this.colors.fg;
    o.plugins.rlMarker.background = this.colors.bg;
    if (this.view) { const v = this.view; this.view = null; this.update(v); }
  }

  csvRows() {
    const rows = [];
    for (const d of this.chart.data.datasets) {
      const yUnit = d.yAxisID === 'yTime' ? 's' : 'FLOP/B';
      for (const p of d.data) rows.push(['sweep', d.label, p.x, p.y, this.sweptKey, yUnit, p.x]);
    }
    return rows;
  }
}

export function chartPng(chart) {
  return new Promise((resolve) => chart.canvas.toBlob(resolve, 'image/png'));
}
