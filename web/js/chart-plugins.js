// chart-plugins.js — what the two charts draw beside Chart.js's own datasets: the canvas
// background, the memory-bound band, the roof and ceiling labels, the names beside the marks, the
// kernel highlight and the sweep's marker; the theme's colours; and the one escaper every drawn
// text passes (set by charts.js from the model). Drawing only: no numbers are computed here.

// Every text from a record or the user that a chart draws or lists (legend, tooltips, names
// beside the marks, line labels, the details panel) goes through core's escaper (model.escapeText,
// the CLI's rl_text_escape): invisible and direction characters named, never rendered. It is
// idempotent (its output is printable), so a text escaped before (records.js) is unchanged.
// esc(s, maxBytes): at most maxBytes bytes of the escaped text, cut by core on a whole character
// or named form and ending "..." (a 300-character file name never spans the chart).
export let esc = (s) => s;
export const setEscape = (fn) => { esc = fn; };
export const escAll = (t) => (Array.isArray(t) ? t.map((l) => esc(l)) : esc(t));

// A text for the canvas at most maxPx wide in ctx's font: escaped, and where too wide cut by core
// (esc's maxBytes) to the longest cut that fits, found by halving (each cut asked of core once:
// the model remembers it).
export function fitText(ctx, s, maxPx) {
  const whole = esc(s);
  if (ctx.measureText(whole).width <= maxPx) return whole;
  let lo = 4; // "..." alone
  let hi = new TextEncoder().encode(whole).length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (ctx.measureText(esc(whole, mid)).width <= maxPx) lo = mid; else hi = mid - 1;
  }
  return esc(whole, lo);
}

// A label's box on the canvas: the background at `alpha`, then the text in `color`, 4 px in,
// vertically centred ({ left, top, w, h } in canvas pixels).
export function drawLabelBox(ctx, text, { left, top, w, h = 16 }, { background, color, alpha = 0.9 }) {
  ctx.fillStyle = background;
  ctx.globalAlpha = alpha;
  ctx.fillRect(left, top, w, h);
  ctx.globalAlpha = 1;
  ctx.fillStyle = color;
  ctx.textBaseline = 'middle';
  ctx.fillText(text, left + 4, top + h / 2);
}

export function cssColors() {
  const cs = getComputedStyle(document.documentElement);
  const v = (n) => cs.getPropertyValue(n).trim();
  return {
    bg: v('--bg'), fg: v('--fg'), muted: v('--muted'), grid: v('--grid'), roof: v('--roof'),
    compulsory: v('--compulsory'), tiled: v('--tiled'), naive: v('--naive'),
    ceilings: [v('--ceiling1'), v('--ceiling2'), v('--ceiling1'), v('--ceiling2'), v('--ceiling1')],
    band: v('--band'), ridge: v('--ridge'), predicted: v('--predicted'), l2: v('--l2roof'), exp: v('--exproof'),
    records: [1, 2, 3, 4, 5, 6, 7, 8].map((i) => v(`--rec${i}`)), devices: [1, 2, 3, 4].map((i) => v(`--dev${i}`)),
  };
}

// Paints the canvas background so exported PNGs are readable in both colour schemes.
export const backgroundPlugin = {
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

// The shaded band between the tiled and compulsory points (what reuse could still win), options in
// plugins.rlBand; it moves with N, so the backdrop plugin draws it over the static parts
// (backdrop.js), and moving N only redraws, without a full chart update.
export function drawBand(chart) {
  const opts = chart.options.plugins.rlBand;
  const band = opts.band;
  opts.noteBox = null; // the note's box as written (the ridge's and the ★'s labels keep off it)
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
  // The band's note gives way to the roof labels on a narrow chart.
  // (and to a record's ceiling labels, which end in the same top corner: opts.noNote)
  if (x1 - x0 > 60 && !(opts.quiet && chart.width < 600) && !opts.noNote) {
    const lines = ['tiled → compulsory:', 'reuse could win this'];
    lines.forEach((t, k) => ctx.fillText(t, (x0 + x1) / 2, a.top + 6 + 12 * k));
    const w = Math.max(...lines.map((t) => ctx.measureText(t).width));
    opts.noteBox = { x0: (x0 + x1 - w) / 2, x1: (x0 + x1 + w) / 2, y0: a.top + 6, y1: a.top + 30 };
  }
  ctx.restore();
}

// A label on a roof line (a dataset's rlLabel: { text, at: { x, y }, align, color }): written just
// above the line, ending at `at` (align right) and kept inside the plot area.
const LINE_LABEL_PX = 420;
export const lineLabelPlugin = {
  id: 'rlLineLabels',
  afterDatasetsDraw(chart, _args, opts) {
    const { ctx, chartArea: a } = chart;
    ctx.save();
    ctx.font = '11px system-ui, sans-serif';
    ctx.textBaseline = 'bottom';
    const placed = []; // labels already written: a later one moves down until it overlaps none
    chart.options.plugins.rlLineLabels.drawn = placed; // (the test hook reads what was placed)
    chart.data.datasets.forEach((ds, i) => {
      const l = ds.rlLabel;
      if (!l || !chart.isDatasetVisible(i)) return;
      // a phone: the short name; none wider than LINE_LABEL_PX or the plot (a record's long device
      // name is cut)
      const text = fitText(ctx, l.short && chart.width < 600 ? l.short : l.text, Math.min(LINE_LABEL_PX, a.right - a.left - 10));
      const w = ctx.measureText(text).width + 6;
      const at = labelAnchor(ds, l, chart);
      const px = Math.min(Math.max(at.x, a.left + w + 2), a.right - 2);
      // Above the line, or below it (l.below) where another label sits just above.
      let py = Math.min(Math.max(at.y + (l.below ? 17 : -3), a.top + 15), a.bottom - 2);
      const hit = (q) => placed.some((r) => px - w < r.x1 && px > r.x0 && q - 14 < r.y1 && q > r.y0);
      for (let k = 0; k < 12 && hit(py); k++) py = Math.min(py + 15, a.bottom - 2);
      placed.push({ x0: px - w, x1: px, y0: py - 14, y1: py, text });
      ctx.fillStyle = opts.background;
      ctx.globalAlpha = 0.85;
      ctx.fillRect(px - w, py - 14, w, 14);
      ctx.globalAlpha = 1;
      ctx.fillStyle = l.color;
      ctx.textAlign = 'right';
      ctx.fillText(text, px - 3, py);
    });
    ctx.restore();
  },
};

// A point's pixel position from the scales (no Chart.js element needed: measured-layer.js makes
// them on demand only).
const at = (chart, p) => ({ x: chart.scales.x.getPixelForValue(p.x), y: chart.scales.y.getPixelForValue(p.y) });

// Measured points' names on demand (the labels toggle: opts.show), beside each visible mark; at
// most MAX_LABELS (the first ones in the plot area), so a large file stays readable and fast.
const MAX_LABELS = 150;
const POINT_LABEL_BYTES = 40; // a name beside a mark: core's cut past 40 bytes (the details have it all)
export const pointLabelPlugin = {
  id: 'rlPointLabels',
  afterDatasetsDraw(chart, _args, opts) {
    const placed = [];
    chart.options.plugins.rlPointLabels.drawn = placed; // (the ★'s caption keeps off them)
    if (!opts.show) return;
    const { ctx, chartArea: a } = chart;
    let n = 0;
    ctx.save();
    ctx.font = '10px system-ui, sans-serif';
    ctx.textBaseline = 'middle';
    chart.data.datasets.forEach((ds, di) => {
      if (ds.rlKind !== 'measured' || ds.showLine || !chart.isDatasetVisible(di)) return;
      ctx.fillStyle = ds.borderColor;
      ds.data.forEach((p) => {
        if (n >= MAX_LABELS || !p.name) return;
        const el = at(chart, p);
        if (el.x < a.left || el.x > a.right || el.y < a.top || el.y > a.bottom) return;
        const text = esc(p.name, POINT_LABEL_BYTES);
        const w = ctx.measureText(text).width;
        const left = el.x + 8 + w > a.right;
        const x0 = left ? el.x - 8 - w : el.x + 8;
        const box = { x0, x1: x0 + w, y0: el.y - 12, y1: el.y };
        // a label that would cover another, or leave the plot area, is left out (the details have it)
        if (x0 < a.left || placed.some((r) => box.x0 < r.x1 && box.x1 > r.x0 && box.y0 < r.y1 && box.y1 > r.y0)) return;
        placed.push(box);
        n++;
        ctx.textAlign = 'left';
        ctx.fillText(text, x0, el.y - 6);
      });
    });
    ctx.restore();
  },
};

// The kernels list's highlight (opts.kernel): a ring around each measured mark of that kernel,
// drawn without a chart update while the pointer or the focus moves over the list.
export const highlightPlugin = {
  id: 'rlHighlight',
  afterDatasetsDraw(chart, _args, opts) {
    if (!opts.kernel) return;
    const { ctx, chartArea: a } = chart;
    ctx.save();
    ctx.strokeStyle = opts.color;
    ctx.lineWidth = 2.5;
    chart.data.datasets.forEach((ds, di) => {
      if (ds.rlKind !== 'measured' || ds.showLine || !chart.isDatasetVisible(di)) return;
      ds.data.forEach((p) => {
        if (p.kernel !== opts.kernel) return;
        const el = at(chart, p);
        if (el.x < a.left || el.x > a.right || el.y < a.top || el.y > a.bottom) return;
        ctx.beginPath();
        ctx.arc(el.x, el.y, 10, 0, 2 * Math.PI);
        ctx.stroke();
      });
    });
    ctx.restore();
  },
};

// Where a line's label ends: at l.at, or, where l.at lies outside the plot area (a roof drawn
// over the whole span), where the line's last segment leaves it (the right edge or the top: the
// line is straight in pixels on log-log axes).
function labelAnchor(ds, l, chart) {
  const { chartArea: a, scales: { x, y } } = chart;
  const px = (p) => ({ x: x.getPixelForValue(p.x), y: y.getPixelForValue(p.y) });
  const end = px(l.at);
  if (end.x <= a.right && end.y >= a.top || ds.data.length < 2) return end;
  const p0 = px(ds.data[ds.data.length - 2]);
  const p1 = px(ds.data[ds.data.length - 1]);
  let t = 1;
  if (p1.x > a.right && p1.x !== p0.x) t = Math.min(t, (a.right - p0.x) / (p1.x - p0.x));
  if (p1.y < a.top + 15 && p1.y !== p0.y) t = Math.min(t, (a.top + 15 - p0.y) / (p1.y - p0.y));
  t = Math.max(0, t);
  return { x: p0.x + t * (p1.x - p0.x), y: p0.y + t * (p1.y - p0.y) };
}

// A vertical marker at the current N (sweep chart, options in plugins.rlMarker), redrawn without a
// chart update: the backdrop plugin draws it over the static parts (backdrop.js).
export function drawMarker(chart) {
  const opts = chart.options.plugins.rlMarker;
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
  const text = esc(opts.label);
  const w = ctx.measureText(text).width + 8;
  const left = Math.min(Math.max(px - w / 2, a.left), a.right - w);
  drawLabelBox(ctx, text, { left, top: a.top + 2, w }, { background: opts.background, color: opts.color, alpha: 1 });
  ctx.restore();
}

// ---------------------------------------------------------------------------------------------
// The roofline chart
// ---------------------------------------------------------------------------------------------

