// backdrop.js — moving N redraws only what moves. A chart draw repaints everything (grid, ticks,
// roof lines, labels, legend, annotations, the measured points' bitmap), and the browser then
// rasterises all of it again; on a slider move only a few marks change. This plugin keeps a copy
// of the canvas with everything static drawn (the "backdrop") and, on the explicit fast path
// (fastDraw, called by charts.js where only the moving parts changed), copies it back and draws
// the moving parts on top.
//
//   backdropPlugin({ dynamic, paint })  a chart's local plugin (id 'rlBackdrop'), listed LAST in
//       its plugins: dynamic(dataset) → true for a dataset that moves (the roofline: the working,
//       predicted and level points); paint(chart) draws the other moving marks (charts.js's
//       drawBand, the tiled → compulsory band; drawMarker, the sweep chart's N marker), which are
//       drawn only from here.
//   fastDraw(chart)     instead of chart.draw() where only the moving parts changed
//   backdropInfo(chart) { valid, last, builds, blits, fallbacks } — for tests and the benchmark
//       (last: how the last draw went: 'ordinary', 'build', 'blit' or 'fallback')
//
// Drawing order, in every draw (ordinary and fast alike, so both give the same pixels): all that
// Chart.js draws up to and including the other plugins' afterDatasetsDraw (the static datasets,
// the roof line labels, the measured names and highlight rings, the ridge annotation), then
// paint() (the band, the marker), then the dynamic datasets (Chart.js's order among them), then
// the layers above the chart area (z > 0) and the afterDraw hooks (the tooltip). The z-order
// change against plain Chart.js: the band and the moving marks now sit over the line labels, the
// ridge line and its label, the measured names and rings, and the band (a 13 % tint) over the
// roof, ceiling and trail lines instead of under them. (The sweep chart's marker was drawn last
// already: no change there.)
//
// The cache is made by a fast draw that finds none: an ordinary draw that copies the canvas into
// an offscreen canvas of the same pixel size when it reaches the dynamic parts. ANY other draw
// (update(), hover, tooltip, resize, theme, zoom or pan, highlight, measured data, the measured
// layer settling) drops it. A fast draw is an ordinary one (and drops it) while the chart has
// active elements or a visible tooltip, or when the canvas's pixel size changed.
//
// Uses Chart.js's private Chart#_drawDataset(meta), Chart#_layers and Chart#_resizeBeforeDraw
// (Chart.js 4.6.1 is pinned in package-lock.json): _drawDataset clips to the dataset's area and
// sends beforeDatasetDraw and afterDatasetDraw as Chart.js's own loop does.

const states = new WeakMap(); // chart → { canvas, valid, building, painting, last, builds, blits, fallbacks }

function state(chart) {
  let s = states.get(chart);
  if (!s) states.set(chart, (s = { canvas: null, valid: false, building: false, painting: false, last: '', builds: 0, blits: 0, fallbacks: 0 }));
  return s;
}

export function backdropInfo(chart) {
  const s = state(chart);
  return { valid: s.valid, last: s.last, builds: s.builds, blits: s.blits, fallbacks: s.fallbacks };
}

export function backdropPlugin({ dynamic = () => false, paint = () => {} } = {}) {
  const moving = (chart, i) => !!chart.data.datasets[i] && dynamic(chart.data.datasets[i]);
  return {
    id: 'rlBackdrop',
    beforeDraw(chart) {
      const s = state(chart);
      if (s.building) return;
      s.valid = false; // an ordinary draw: the copy may no longer hold
      s.last = 'ordinary';
    },
    beforeDatasetDraw(chart, args) {
      // the dynamic datasets are drawn after everything static (drawDynamic)
      if (!state(chart).painting && moving(chart, args.index)) return false;
      return undefined;
    },
    afterDatasetsDraw(chart) {
      const s = state(chart);
      if (s.building) snapshot(chart, s);
      drawDynamic(chart, s, moving, paint);
    },
  };
}

function drawDynamic(chart, s, moving, paint) {
  s.painting = true;
  try {
    paint(chart);
    const metas = chart.getSortedVisibleDatasetMetas();
    for (let i = metas.length - 1; i >= 0; --i) if (moving(chart, metas[i].index)) chart._drawDataset(metas[i]);
  } finally {
    s.painting = false;
  }
}

function snapshot(chart, s) {
  const src = chart.canvas;
  if (!s.canvas) s.canvas = document.createElement('canvas');
  if (s.canvas.width !== src.width) s.canvas.width = src.width;
  if (s.canvas.height !== src.height) s.canvas.height = src.height;
  const ctx = s.canvas.getContext('2d');
  ctx.globalCompositeOperation = 'copy';
  ctx.drawImage(src, 0, 0);
  s.valid = true;
  s.builds++;
}

// Whether the copy can stand for the static parts now (no ordinary draw since it was made, and the
// canvas has the same pixel size and no resize pending).
function usable(chart, s) {
  const c = chart.canvas;
  return s.valid && s.canvas && !chart._resizeBeforeDraw && chart.width > 0 && chart.height > 0 &&
    s.canvas.width === c.width && s.canvas.height === c.height;
}

// Draws the chart where only the dynamic parts changed since its last draw.
export function fastDraw(chart) {
  const s = state(chart);
  const plugin = chart.config.plugins.find((p) => p && p.id === 'rlBackdrop');
  if (!plugin || chart.getActiveElements().length || (chart.tooltip && chart.tooltip.opacity)) {
    chart.draw();
    s.fallbacks++;
    s.last = 'fallback';
    return;
  }
  if (!usable(chart, s)) {
    s.valid = false;
    s.building = true; // an ordinary draw that keeps a copy of the static parts
    try {
      chart.draw();
    } finally {
      s.building = false;
    }
    s.last = s.valid ? 'build' : 'ordinary';
    return;
  }
  s.blits++;
  s.last = 'blit';
  const ctx = chart.ctx;
  ctx.save();
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.globalCompositeOperation = 'copy';
  ctx.drawImage(s.canvas, 0, 0);
  ctx.restore();
  plugin.afterDatasetsDraw(chart);
  // what an ordinary draw does after the datasets
  for (const layer of chart._layers) if (layer.z > 0) layer.draw(chart.chartArea);
  chart.notifyPlugins('afterDraw');
}
