// charts.js — owns the two Chart.js charts (roofline, and time/intensity against N): creates them,
// puts what chart-data.js prepared into chart.data in place and calls chart.update('none'), and
// handles pan/zoom and colour-scheme changes. No numbers are computed here.
//
// roofline.setMeasured([{ label, hollow, color, pointStyle, line, points: [{ x, y, text }] }])
// draws extra point datasets (measured records; `line: true` a dotted ceiling line).

/* global Chart */
import {
  RANK, MOVING, SPAN, isDecade, decadeLabel, rooflineDatasets, rooflineAnnotations, ridgeLabel, rooflineAxes, rooflineTooltip,
  sweepDatasets, sweepAxisTitle, sweepMarkerLabel, rooflineCsvRows, sweepCsvRows, compactTooltip, TOOLTIP_CHARS,
} from './chart-data.js';
import { registerMeasuredLayer } from './measured-layer.js';
import { backdropPlugin, fastDraw } from './backdrop.js';
import {
  esc, escAll, fitText, setEscape, cssColors, backgroundPlugin, drawBand, lineLabelPlugin, pointLabelPlugin, highlightPlugin, drawMarker,
} from './chart-plugins.js';
import { pairPlugin, dropPlugin, drawRidgeLabel, drawStarCaption } from './chart-identity.js';

export { cssColors }; // the layer view's colours are the charts'
import { compareDatasets, compareAxes } from './compare.js';

export class RooflineChart {
  // options.announce(text): where the mark stepped to from the keyboard is read out (a live region).
  constructor(canvas, model, options = {}) {
    setEscape((t, maxBytes) => model.escapeText(t, maxBytes));
    registerMeasuredLayer(); // many measured points: drawn from a cached bitmap (measured-layer.js)
    this.model = model;
    this.announce = options.announce || (() => {});
    this.measured = [];
    this.view = null;
    const fmt = (v, unit) => model.format(v, unit);
    this.colors = cssColors();
    const c = this.colors;
    this.bindKeys(canvas);
    const close = document.getElementById('point-details-close');
    if (close) close.addEventListener('click', () => { document.getElementById('point-details').hidden = true; });
    this.chart = new Chart(canvas, {
      type: 'scatter',
      data: { datasets: [] },
      // the backdrop last: it draws the band and the moving marks over everything static
      plugins: [backgroundPlugin, pairPlugin, lineLabelPlugin, pointLabelPlugin, highlightPlugin, dropPlugin,
        backdropPlugin({ dynamic: (ds) => MOVING.includes(ds.rlKind), paint: (chart) => { drawBand(chart); drawStarCaption(chart); drawRidgeLabel(chart); } })],
      options: {
        animation: false,
        parsing: false,
        normalized: true,
        responsive: true,
        maintainAspectRatio: false,
        interaction: { mode: 'point', intersect: true },
        onClick: (e) => this.showDetails(e),
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
            // own roof: the top (150 % or 200 %) labelled too
            ticks: { color: c.muted, callback: (v, i, all) => (this.ownRoof && (isDecade(v) || i === all.length - 1) ? `${model.format(100 * v, '')} %` : !isDecade(v) ? '' : fmt(v, 'FLOP/s')) },
            grid: { color: c.grid },
          },
        },
        plugins: {
          rlBackground: { color: c.bg },
          rlBand: { band: null, color: c.band, textColor: c.muted },
          rlLineLabels: { background: c.bg },
          rlPointLabels: { show: false },
          rlHighlight: { kernel: '', color: c.fg },
          rlPairs: {}, rlDrop: { background: c.bg }, rlStar: { show: false, color: c.fg, background: c.bg },
          rlRidge: { value: 0, color: c.fg, background: c.bg },
          legend: {
            labels: {
              color: c.fg, usePointStyle: true, boxHeight: 8,
              generateLabels: (chart) => Chart.defaults.plugins.legend.labels.generateLabels(chart)
                .map((item) => ({ ...item, text: esc(item.text) })),
              // On a phone only the marks are keyed here (the list under the chart has the rest):
              // the legend's rows would leave the plot no height.
              filter: (item, data) => !data.datasets[item.datasetIndex].rlHideInLegend &&
                (!this.chart || this.chart.width >= 600 || RANK[data.datasets[item.datasetIndex].rlKind] === 0),
            },
          },
          tooltip: {
            // One mark's compact tooltip (at most four lines; a click pins all of them in the
            // details panel): the first of the highest rank under the pointer, so a working or
            // measured point hides the trail beneath it.
            filter: (item, _i, items) => item === items.reduce((b, o) => (RANK[o.dataset.rlKind] < RANK[b.dataset.rlKind] ? o : b)),
            itemSort: (a, b) => RANK[a.dataset.rlKind] - RANK[b.dataset.rlKind],
            callbacks: {
              label: (ctx) => this.tooltip(ctx),
            },
          },
          annotation: { annotations: {} },
          zoom: {
            limits: { x: { min: SPAN.xMin, max: SPAN.xMax }, y: { min: 1e-6, max: 1e19 } },
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

  // The marks a keyboard can step through (working, predicted, level and measured points), left to
  // right: [{ datasetIndex, index, x }].
  keyMarks() {
    const out = [];
    this.chart.data.datasets.forEach((d, di) => {
      if (!['point', 'predicted', 'level', 'measured'].includes(d.rlKind) || d.showLine) return;
      if (!this.chart.isDatasetVisible(di)) return;
      d.data.forEach((p, i) => { if (p.x > 0 && p.y > 0) out.push({ datasetIndex: di, index: i, x: p.x, y: p.y }); });
    });
    return out.sort((a, b) => a.x - b.x || b.y - a.y);
  }

  // Steps the keyboard focus to the next (+1) or previous (-1) mark and shows its tooltip.
  stepMark(dir) {
    const marks = this.keyMarks();
    if (!marks.length) return;
    const cur = this.keyMark ? marks.findIndex((m) => m.datasetIndex === this.keyMark.datasetIndex && m.index === this.keyMark.index) : -1;
    const next = marks[cur < 0 ? (dir > 0 ? 0 : marks.length - 1) : (cur + dir + marks.length) % marks.length];
    this.keyMark = next;
    const el = this.chart.getDatasetMeta(next.datasetIndex).data[next.index];
    const active = [{ datasetIndex: next.datasetIndex, index: next.index }];
    this.chart.setActiveElements(active);
    this.chart.tooltip.setActiveElements(active, { x: el ? el.x : 0, y: el ? el.y : 0 });
    this.chart.update('none');
    const ds = this.chart.data.datasets[next.datasetIndex];
    this.announce(esc([].concat(rooflineTooltip(ds, ds.data[next.index], this.view.sweptKey, this.model)).join('; ')));
    // an open details panel follows the keyboard
    const box = document.getElementById('point-details');
    if (box && !box.hidden) this.fillDetails(ds, ds.data[next.index]);
  }

  clearKeyMark() {
    if (!this.keyMark) return;
    this.keyMark = null;
    this.chart.setActiveElements([]);
    this.chart.tooltip.setActiveElements([], { x: 0, y: 0 });
    this.chart.update('none');
  }

  // Pointer drag pans; keyboard: arrows step through the marks (their tooltip shown), Shift+arrows
  // pan, + and - zoom, 0 resets, Escape hides the tooltip (the canvas is focusable).
  bindKeys(canvas) {
    canvas.tabIndex = 0;
    // the zoom plugin is fetched once the pointer or the focus comes near the chart (zoomPlugin)
    const box = canvas.closest('section') || canvas.parentElement;
    for (const ev of ['pointerover', 'focusin', 'touchstart']) box.addEventListener(ev, () => this.zoomPlugin(), { once: true, passive: true });
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
    canvas.addEventListener('blur', () => this.clearKeyMark());
    canvas.addEventListener('keydown', (e) => {
      const step = 40;
      const pan = { ArrowLeft: [step, 0], ArrowRight: [-step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] }[e.key];
      if (pan && e.shiftKey) this.panBy(pan[0], pan[1]);
      else if (pan) this.stepMark(e.key === 'ArrowRight' || e.key === 'ArrowUp' ? 1 : -1);
      else if (e.key === 'Escape') this.clearKeyMark();
      else if (e.key === '+' || e.key === '=') this.zoom(1.25);
      else if (e.key === '-') this.zoom(0.8);
      else if (e.key === '0') this.resetZoom();
      else return;
      e.preventDefault();
    });
  }

  // escaped, then cut by core: TOOLTIP_CHARS bytes of what is shown, however long the raw name
  tooltip(ctx) {
    return compactTooltip(escAll(rooflineTooltip(ctx.dataset, ctx.raw, this.view.sweptKey, this.model)), (l) => esc(l, TOOLTIP_CHARS));
  }

  // A click on a mark pins all its lines in the details panel (data-testid="point-details"); a
  // click beside the marks closes it.
  showDetails(e) {
    const box = document.getElementById('point-details');
    if (!box) return;
    const hits = this.chart.getElementsAtEventForMode(e, 'point', { intersect: true }, true)
      .filter((h) => RANK[this.chart.data.datasets[h.datasetIndex].rlKind] <= RANK.measured)
      .sort((a, b) => RANK[this.chart.data.datasets[a.datasetIndex].rlKind] - RANK[this.chart.data.datasets[b.datasetIndex].rlKind]);
    if (!hits.length) { box.hidden = true; return; }
    const ds = this.chart.data.datasets[hits[0].datasetIndex];
    this.fillDetails(ds, ds.data[hits[0].index]);
    box.hidden = false;
  }

  // A measured point's details end with "Adopt this problem" (its problem and preset become the
  // page's; records.js adopt), beside the point rather than only in the records list.
  fillDetails(ds, p) {
    const lines = [].concat(rooflineTooltip(ds, p, this.view.sweptKey, this.model));
    const list = document.getElementById('point-details-lines');
    list.replaceChildren(...lines.map((t) => Object.assign(document.createElement('li'), { textContent: esc(t) })));
    const box = document.getElementById('point-details-actions');
    if (!box) return;
    const adopt = ds.rlKind === 'measured' && !ds.showLine && p && typeof p.adopt === 'function';
    box.replaceChildren(...(adopt ? [Object.assign(document.createElement('button'), { type: 'button', textContent: 'Adopt this problem' })] : []));
    if (adopt) {
      const b = box.firstChild;
      b.dataset.testid = 'point-details-adopt';
      b.title = 'set the controls to this point’s problem and hardware (the ★ then predicts this point)';
      b.addEventListener('click', () => p.adopt());
    }
    box.hidden = !adopt;
  }

  // Moving only N leaves the roof, the ceilings and the trails as they were (view.staticKey):
  // then the working points are moved in place and the chart redrawn, without a full update.
  update(view) {
    // Compare mode draws the devices' roofs and the records, nothing of the model's view: moving a
    // control changes nothing drawn.
    const cmp = this.measured.compare;
    if (this.view && cmp && cmp.on && !this.overlay) { this.view = view; return; }
    // (an overlay — tour.js's ghost and rings — is placed from the view: always a full update)
    if (this.view && !this.overlay && view.staticKey === this.view.staticKey && this.movePoints(view)) {
      this.view = view;
      this.chart.options.plugins.rlBand.band = view.band;
      fastDraw(this.chart); // the static parts from the backdrop's copy (backdrop.js)
      return;
    }
    this.view = view;
    this.fullUpdate(view);
  }

  // The marks that move with N, as [identity, points] in dataset order: the working points, the
  // predicted point, the per-level points.
  static movingSets(view) {
    const out = view.points.map((p) => [`point:${p.model}`, [p]]);
    if (view.predicted) out.push(['predicted', [view.predicted]]);
    for (const lv of ['dram', 'l2']) if (view.levels[lv].length) out.push([`level-${lv}`, view.levels[lv]]);
    return out;
  }

  movePoints(view) {
    const chart = this.chart;
    const { x, y } = chart.scales;
    const sets = chart.data.datasets.filter((d) => MOVING.includes(d.rlKind));
    const want = RooflineChart.movingSets(view);
    if (sets.length !== want.length) return false;
    for (let i = 0; i < sets.length; i++) {
      const id = sets[i].rlKind === 'point' ? `point:${sets[i].label}` : sets[i].rlId;
      if (id !== want[i][0] || sets[i].data.length !== want[i][1].length) return false;
      for (const p of want[i][1]) if (!(p.x >= x.min && p.x <= x.max && p.y >= y.min && p.y <= y.max)) return false;
    }
    sets.forEach((ds, i) => {
      const meta = chart.getDatasetMeta(chart.data.datasets.indexOf(ds));
      want[i][1].forEach((p, j) => {
        ds.data[j] = p;
        const el = meta.data[j];
        if (el) { el.x = x.getPixelForValue(p.x); el.y = y.getPixelForValue(p.y); }
      });
    });
    return true;
  }

  fullUpdate(view) {
    this.keyMark = null; // the datasets are rebuilt: a stepped-to mark's index no longer holds
    const fmt = (v, u) => this.model.format(v, u);
    const o = this.chart.options;
    // this.overlay(view, colors) → { datasets, annotations, points }: tour.js's ghost and rings.
    const extra = this.overlay ? this.overlay(view, this.colors) : { datasets: [], annotations: {}, points: [] };
    const cmp = this.measured.compare;
    this.ownRoof = !!(cmp && cmp.on && cmp.ownRoof);
    o.plugins.rlPointLabels.show = !!this.measured.labels;
    o.plugins.rlHighlight.kernel = this.measured.highlight || '';
    o.plugins.rlHighlight.color = this.colors.fg;
    // the controls' ★ is captioned while measured points are drawn beside it (chart-identity.js)
    o.plugins.rlStar.show = this.measured.some((m) => !m.line && m.points.length > 0);
    o.scales.y.title.text = this.ownRoof ? '% of its own roof' : 'attainable throughput (FLOP/s)';
    if (cmp && cmp.on) return this.compareUpdate(view, cmp, fmt);
    o.plugins.annotation.annotations = { ...rooflineAnnotations(view, this.colors), ...extra.annotations };
    Object.assign(o.plugins.rlRidge, ridgeLabel(view, fmt));
    o.plugins.rlBand.band = view.band;
    o.plugins.rlBand.quiet = !!view.l2Line || view.expLines.length > 0;
    o.plugins.rlBand.noNote = this.measured.some((m) => m.line);
    if (!this.zoomed) {
      const a = rooflineAxes(view, [...this.measured, { points: extra.points }]);
      o.scales.x.min = a.xMin; o.scales.x.max = a.xMax;
      o.scales.y.min = a.yMin; o.scales.y.max = a.yMax;
    }
    this.chart.data.datasets = [...rooflineDatasets(view, this.measured, this.colors, fmt), ...extra.datasets];
    this.chart.update('none');
  }

  // Compare mode (compare.js): every device's roof and every point against its own roof; the
  // model's marks for the page's one preset are not drawn.
  compareUpdate(view, cmp, fmt) {
    const o = this.chart.options;
    o.plugins.annotation.annotations = {};
    o.plugins.rlRidge.value = 0; // no page ridge drawn: each device has its own roof
    o.plugins.rlBand.band = null;
    const ds = compareDatasets(this.model, cmp, this.measured, this.colors, fmt);
    if (!this.zoomed) {
      const a = compareAxes(view, cmp, ds);
      o.scales.x.min = a.xMin; o.scales.x.max = a.xMax;
      o.scales.y.min = a.yMin; o.scales.y.max = a.yMax;
    }
    this.chart.data.datasets = ds;
    this.chart.update('none');
  }

  // list: records.js's measured series; list.compare (compare.js's config), list.labels (names
  // beside the marks), list.highlight (a kernel ringed). list.redrawOnly: only the highlight
  // changed — redrawn without an update.
  setMeasured(list) {
    if (list.redrawOnly && list === this.measured) {
      list.redrawOnly = false;
      this.chart.options.plugins.rlHighlight.kernel = list.highlight || '';
      this.chart.draw();
      return;
    }
    this.measured = list;
    if (this.view) this.fullUpdate(this.view);
  }

  // chartjs-plugin-zoom (wheel and pinch zoom, chart.zoom) and Hammer (its pinch), fetched on
  // first need rather than with the page (issue 20: 13 kB of the first load's transfer): when the
  // pointer or the focus enters the chart's section or a finger touches it (bindKeys), or a zoom
  // key or button is used. The plugin registers itself with Chart.js on load; an update then starts
  // it on this chart (its wheel and touch listeners, chart.zoom / resetZoom). A promise, once.
  zoomPlugin() {
    if (!this.zoomLoad) {
      const script = (src) => new Promise((ok, fail) => {
        const s = document.createElement('script');
        s.src = src;
        s.onload = ok;
        s.onerror = () => fail(new Error(`${src} did not load`));
        document.head.append(s);
      });
      this.zoomLoad = script('vendor/hammer.min.js').then(() => script('vendor/chartjs-plugin-zoom.min.js')).then(() => this.chart.update('none'));
    }
    return this.zoomLoad;
  }

  // Zoom helpers for the keyboard buttons (the plugin fetched first when it is not yet here).
  zoom(factor) {
    this.zoomed = true;
    if (this.chart.zoom) this.chart.zoom(factor);
    else this.zoomPlugin().then(() => this.chart.zoom(factor));
  }
  resetZoom() {
    if (this.chart.resetZoom) this.chart.resetZoom('none'); // may call onZoomComplete: clear the flag after it
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
    o.plugins.rlLineLabels.background = this.colors.bg;
    o.plugins.rlDrop.background = this.colors.bg;
    Object.assign(o.plugins.rlStar, { color: this.colors.fg, background: this.colors.bg });
    Object.assign(o.plugins.rlRidge, { color: this.colors.fg, background: this.colors.bg });
    if (this.view) this.fullUpdate(this.view);
  }

  csvRows() { return rooflineCsvRows(this.chart.data.datasets).map((r) => [r[0], esc(r[1]), ...r.slice(2)]); }
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
      plugins: [backgroundPlugin, backdropPlugin({ paint: drawMarker })],
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
                return esc(`${ctx.dataset.label}: ${model.format(ctx.raw.y, unit, { sig: 6 })} at ${this.sweptKey} = ${ctx.raw.x.toLocaleString('en-US')}`);
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
    marker.label = sweepMarkerLabel(view);
    if (same) {
      fastDraw(this.chart); // only the marker moved: the rest from the backdrop's copy (backdrop.js)
      return;
    }
    this.chart.options.scales.x.title.text = sweepAxisTitle(view.sweptKey);
    this.chart.data.datasets = sweepDatasets(view, this.colors);
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

  csvRows() { return sweepCsvRows(this.chart.data.datasets, this.sweptKey).map((r) => [r[0], esc(r[1]), ...r.slice(2)]); }
}

// The chart as a PNG with a caption under it (lines of text: the problem, the hardware, the date,
// the link), in the page's colours, so a figure carries what it shows.
export function chartPng(chart, caption = []) {
  const src = chart.canvas;
  const scale = src.width / (src.clientWidth || src.width) || 1;
  const lineH = Math.round(15 * scale);
  const out = document.createElement('canvas');
  out.width = src.width;
  out.height = src.height + (caption.length ? Math.round(10 * scale) + lineH * caption.length : 0);
  const ctx = out.getContext('2d');
  const c = cssColors();
  ctx.fillStyle = c.bg || '#fff';
  ctx.fillRect(0, 0, out.width, out.height);
  ctx.drawImage(src, 0, 0);
  ctx.fillStyle = c.fg || '#000';
  ctx.font = `${Math.round(11 * scale)}px system-ui, sans-serif`;
  ctx.textBaseline = 'top';
  caption.forEach((line, i) => {
    const text = fitText(ctx, line, out.width - 16 * scale); // the link may carry a typed kernel or record name
    ctx.fillText(text, 8 * scale, src.height + Math.round(4 * scale) + i * lineH);
  });
  return new Promise((resolve) => out.toBlob(resolve, 'image/png'));
}
