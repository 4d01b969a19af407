// chart-identity.js — which mark is which on the roofline (issue 20, "identity"): the caption of
// the controls' ★ (the prediction for the problem the controls set, not for any measured point),
// the thin line joining each measured × to its own ☆ with core's prediction error in %, and, while
// a measured point is hovered or stepped to, a drop-line to its own roof with "58 % of its roof".
// Drawing and wording only: every figure is core's (the point's derived prediction_error,
// efficiency and attainable throughput, carried by record-marks.js's marks); what was drawn last is
// kept in the plugin's options as the chart holds them (chart.options.plugins.ID.drawn, not the
// resolved copy a hook is handed) for the test hook.
import { esc, drawLabelBox } from './chart-plugins.js';

// "prediction for B1 H8 N4096 d64 fp16 — the controls" (the records list's shape notation: L, Hkv
// and causal named where they differ from N, H and off). r: model.evaluate's result.
export function controlsCaption(model, r) {
  const n = (k) => r[`problem.${k}`];
  const dtype = model.dtypes[n('dtype')] ? model.dtypes[n('dtype')].name : '';
  const parts = [`B${n('batch')}`, `H${n('heads')}`, ...(n('kv_heads') !== n('heads') ? [`Hkv${n('kv_heads')}`] : []),
    `N${n('seq')}`, ...(n('kv_len') !== n('seq') ? [`L${n('kv_len')}`] : []), `d${n('head_dim')}`, dtype, ...(n('causal') ? ['causal'] : [])];
  return `prediction for ${parts.filter(Boolean).join(' ')} — the controls`;
}

// Core's prediction error ((predicted − measured) / measured time) in %, as the tooltip says it.
export function errorText(err) {
  const pct = (100 * err).toFixed(1);
  return `${err > 0 ? '+' : ''}${pct} %`;
}
// A point's efficiency (core's achieved / attainable on its own roof) in words.
export const ownRoofText = (eff) => `${(100 * eff).toFixed(0)} % of its roof`;

// The lines × → ☆ are drawn while the shown measured points number at most PAIR_MAX (past that
// the many-points layer draws the marks from a bitmap and the lines would be a tangle); at most
// PAIR_LABELS of them carry their error in words, none over another, and only on a line long
// enough to be told from its marks (PAIR_LABEL_PX).
export const PAIR_MAX = 2000;
const PAIR_LABELS = 60;
const PAIR_LABEL_PX = 10;
const measuredMarks = (chart, ds, i) => ds.rlKind === 'measured' && !ds.showLine && ds.pointStyle !== 'star' && chart.isDatasetVisible(i);

export const pairPlugin = {
  id: 'rlPairs',
  beforeDatasetsDraw(chart) {
    const opts = chart.options.plugins.rlPairs; // (written where the test hook reads it)
    opts.drawn = [];
    opts.boxes = []; // the error labels written (canvas pixels): the ★'s caption keeps off them
    opts.skipped = 0;
    const sets = chart.data.datasets.filter((ds, i) => measuredMarks(chart, ds, i) && !ds.rlOwnRoof);
    const total = sets.reduce((n, ds) => n + ds.data.length, 0);
    if (!sets.length) return;
    if (total > PAIR_MAX) { opts.skipped = total; return; }
    const { ctx, chartArea: a, scales: { x, y } } = chart;
    const placed = [];
    ctx.save();
    ctx.beginPath();
    ctx.rect(a.left, a.top, a.right - a.left, a.bottom - a.top);
    ctx.clip();
    ctx.font = '10px system-ui, sans-serif';
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'left';
    for (const ds of sets) {
      ctx.strokeStyle = ds.borderColor;
      ctx.fillStyle = ds.borderColor;
      for (const p of ds.data) {
        if (!(p.predY > 0 && p.x > 0 && p.y > 0) || p.err === undefined) continue;
        const px = x.getPixelForValue(p.x);
        const y0 = y.getPixelForValue(p.y);
        const y1 = y.getPixelForValue(p.predY);
        const text = errorText(p.err);
        const out = { x: p.x, y: p.y, predY: p.predY, text, labelled: false };
        opts.drawn.push(out);
        if (px < a.left || px > a.right) continue;
        ctx.globalAlpha = 0.7;
        ctx.lineWidth = 1;
        ctx.beginPath();
        ctx.moveTo(px, y0);
        ctx.lineTo(px, y1);
        ctx.stroke();
        ctx.globalAlpha = 1;
        // the error beside the line's middle, unless it would cover another label
        const w = ctx.measureText(text).width;
        const my = (y0 + y1) / 2;
        const box = { x0: px + 4, x1: px + 6 + w, y0: my - 6, y1: my + 6 };
        if (placed.length >= PAIR_LABELS || Math.abs(y1 - y0) < PAIR_LABEL_PX || box.x1 > a.right || placed.some((r) => box.x0 < r.x1 && box.x1 > r.x0 && box.y0 < r.y1 && box.y1 > r.y0)) continue;
        placed.push(box);
        opts.boxes.push(box);
        out.labelled = true;
        ctx.fillText(text, px + 5, my);
      }
    }
    ctx.restore();
  },
};

// The hovered (or keyboard-stepped) measured point's drop-line to its own roof: straight up (or
// down) to the attainable throughput at its intensity on its own hardware's roof, dashed, with
// "58 % of its roof". In the own-roof view that roof is the 100 % line (y = 1).
export const dropPlugin = {
  id: 'rlDrop',
  afterDraw(chart) {
    const opts = chart.options.plugins.rlDrop;
    opts.drawn = null;
    const { ctx, chartArea: a, scales: { x, y } } = chart;
    for (const act of chart.getActiveElements()) {
      const ds = chart.data.datasets[act.datasetIndex];
      if (!ds || !measuredMarks(chart, ds, act.datasetIndex)) continue;
      const p = ds.data[act.index];
      const roofY = ds.rlOwnRoof ? 1 : p.roofY;
      const eff = ds.rlOwnRoof ? p.y : p.eff;
      if (!(roofY > 0 && eff > 0)) continue;
      const px = x.getPixelForValue(p.x);
      const y0 = y.getPixelForValue(p.y);
      const y1 = Math.max(a.top, Math.min(a.bottom, y.getPixelForValue(roofY)));
      const text = esc(ownRoofText(eff));
      ctx.save();
      ctx.strokeStyle = ds.borderColor;
      ctx.lineWidth = 1.5;
      ctx.setLineDash([4, 3]);
      ctx.beginPath();
      ctx.moveTo(px, y0);
      ctx.lineTo(px, y1);
      ctx.stroke();
      ctx.setLineDash([]);
      ctx.beginPath();
      ctx.moveTo(px - 6, y1);
      ctx.lineTo(px + 6, y1);
      ctx.stroke();
      ctx.font = 'bold 11px system-ui, sans-serif';
      const w = ctx.measureText(text).width + 8;
      // left of the line (the tooltip opens to its right), unless that leaves the plot
      const left = px - 8 - w < a.left ? px + 8 : px - 8 - w;
      const top = Math.min(Math.max(y1 - 8, a.top), a.bottom - 16);
      drawLabelBox(ctx, text, { left, top, w }, { background: opts.background, color: ds.borderColor });
      ctx.restore();
      opts.drawn = { x: p.x, y: p.y, roofY, text };
      return;
    }
  },
};

// The controls' ★ captioned beside it ("★ prediction for B1 H8 N4096 d64 fp16 — the controls")
// while measured points are shown (plugins.rlStar.show), so it is not read as one of theirs. It
// moves with N: the backdrop's paint draws it (backdrop.js), in every draw, fast or full. It is
// placed where it covers no other mark and no label already drawn (starObstacles): beside the
// star just under its centre where that is free (as before), else in the nearest free row above
// or below it (STAR_ROWS), in the full wording where it fits, else the short one; where no row is
// free (a crowded phone chart) it is left out, as the star's tooltip and legend entry say it too.
// The ridge's label is placed after it (drawRidgeLabel: it has the whole ridge line to choose from).
// What was drawn: plugins.rlStar.drawn (the text) and .box (canvas pixels), for the test hook.
const STAR_GAP = 14; // from the star's centre to the caption's near edge (its radius 11 + 3)
const STAR_H = 16;
// rows, nearest first: [top relative to the star's centre, beside it (left or right of the star)
// or over / under it (centred on it, or ending or starting at its edge, kept in the plot)]
const STAR_ROWS = [[4, true], [-20, true], [STAR_GAP, false], [-STAR_GAP - STAR_H, false],
  ...[1, 2, 3, 4].flatMap((k) => [[STAR_GAP + k * STAR_H, false], [-STAR_GAP - (k + 1) * STAR_H, false]])];

// Boxes the ★'s caption and the ridge's label must not cover: every drawn mark (working, level,
// measured points and the star itself, by their radius and border) and the labels the page placed
// before them (line labels, the × → ☆ errors, the names beside the marks, the band's note, and for
// the ridge's label the ★'s caption placed just before it). Measured marks past PAIR_MAX (a bitmap cloud) are not listed: no
// place beside the star would be free of them.
export function starObstacles(chart) {
  const { scales: { x, y } } = chart;
  const out = [];
  const kinds = ['point', 'predicted', 'level', 'measured'];
  const sets = chart.data.datasets.map((ds, i) => [ds, i]).filter(([ds, i]) => kinds.includes(ds.rlKind) && !ds.showLine && chart.isDatasetVisible(i));
  const measured = sets.reduce((n, [ds]) => n + (ds.rlKind === 'measured' ? ds.data.length : 0), 0);
  for (const [ds] of sets) {
    if (ds.rlKind === 'measured' && measured > PAIR_MAX) continue;
    const r = (typeof ds.pointRadius === 'number' ? ds.pointRadius : 8) + (typeof ds.borderWidth === 'number' ? ds.borderWidth : 2);
    for (const p of ds.data) {
      if (!(p.x > 0 && p.y > 0)) continue;
      const px = x.getPixelForValue(p.x);
      const py = y.getPixelForValue(p.y);
      out.push({ x0: px - r, x1: px + r, y0: py - r, y1: py + r, what: ds.rlKind });
    }
  }
  const o = chart.options.plugins;
  for (const b of o.rlLineLabels?.drawn || []) out.push({ ...b, what: 'line label' });
  for (const b of o.rlPairs?.boxes || []) out.push({ ...b, what: 'error label' });
  for (const b of o.rlPointLabels?.drawn || []) out.push({ ...b, what: 'point name' });
  if (o.rlBand?.noteBox) out.push({ ...o.rlBand.noteBox, what: 'band note' });
  if (o.rlStar?.box) out.push({ ...o.rlStar.box, what: 'star caption' });
  return out;
}
const overlaps = (b, r) => b.x0 < r.x1 && b.x1 > r.x0 && b.y0 < r.y1 && b.y1 > r.y0;

// The ridge's label ("ridge I* = π/β = 295.2 FLOP/B", plugins.rlRidge: { value, text, short },
// set by charts.js; the dashed line itself is the annotation plugin's) placed as the ★'s caption
// is: where it covers no mark and no label drawn before it (starObstacles), on the ridge line,
// nearest first: centred on it just above the x axis (where it always was), then beside it (left,
// right) in that row, then row by row up the line; the full wording anywhere it fits, else the
// short one ("I* = 295.2 FLOP/B"); where no spot is free it is left out (the ridge card and the
// legend under the chart say it). Drawn from the backdrop's paint (it keeps off the working marks
// as N moves them) after the ★'s caption, which it keeps off too (the caption has only the rows
// near its star). What was drawn: plugins.rlRidge.drawn (the text) and .box (canvas pixels), for
// the test hook.
const RIDGE_H = 16;
const RIDGE_GAP = 4; // from the line to a label beside it, and from the x axis to the lowest row
export function drawRidgeLabel(chart) {
  const opts = chart.options.plugins.rlRidge;
  if (!opts) return;
  opts.drawn = '';
  opts.box = null; // (not an obstacle to its own placing)
  if (!(opts.value > 0) || !opts.text) return;
  const { ctx, chartArea: a, scales: { x } } = chart;
  const px = x.getPixelForValue(opts.value);
  if (!(px >= a.left && px <= a.right)) return;
  ctx.save();
  ctx.font = 'bold 11px system-ui, sans-serif';
  ctx.textAlign = 'left';
  const obstacles = starObstacles(chart);
  const texts = [esc(opts.text), esc(opts.short)].filter(Boolean);
  let place = null;
  for (const text of texts) {
    const w = ctx.measureText(text).width + 8;
    if (w > a.right - a.left) continue;
    const inPlot = (v) => Math.min(Math.max(v, a.left), a.right - w);
    for (let top = a.bottom - RIDGE_GAP - RIDGE_H; top >= a.top && !place; top -= RIDGE_H) {
      for (const left of [inPlot(px - w / 2), px - RIDGE_GAP - w, px + RIDGE_GAP]) {
        const box = { x0: left, x1: left + w, y0: top, y1: top + RIDGE_H };
        if (box.x0 < a.left || box.x1 > a.right) continue;
        if (obstacles.some((r) => overlaps(box, r))) continue;
        place = { text, left, top, w, box };
        break;
      }
    }
    if (place) break;
  }
  if (place) {
    drawLabelBox(ctx, place.text, { left: place.left, top: place.top, w: place.w, h: RIDGE_H }, { background: opts.background, color: opts.color });
    opts.drawn = place.text;
    opts.box = place.box;
  }
  ctx.restore();
}

export function drawStarCaption(chart) {
  const opts = chart.options.plugins.rlStar;
  if (!opts) return;
  opts.drawn = '';
  opts.box = null;
  if (!opts.show) return;
  const i = chart.data.datasets.findIndex((d) => d.rlKind === 'predicted');
  if (i < 0 || !chart.isDatasetVisible(i)) return;
  const p = chart.data.datasets[i].data[0];
  if (!p || !p.caption) return;
  const { ctx, chartArea: a, scales: { x, y } } = chart;
  const px = x.getPixelForValue(p.x);
  const py = y.getPixelForValue(p.y);
  if (px < a.left || px > a.right || py < a.top || py > a.bottom) return;
  ctx.save();
  ctx.font = '11px system-ui, sans-serif';
  const obstacles = starObstacles(chart);
  // the full caption where the plot is wide enough for it, then the short form
  const full = esc(`★ ${p.caption}`);
  const texts = [...(ctx.measureText(full).width + 8 <= a.right - a.left ? [full] : []), '★ prediction for the controls’ problem'];
  const widths = texts.map((t) => ctx.measureText(t).width + 8);
  const inPlot = (v, w) => Math.min(Math.max(v, a.left), a.right - w);
  let place = null;
  for (const [dy, beside] of STAR_ROWS) {
    const top = py + dy;
    for (let k = 0; k < texts.length && !place; k++) {
      const w = widths[k];
      const xs = beside ? [px - STAR_GAP - w, px + STAR_GAP] : [inPlot(px - w / 2, w), inPlot(px + STAR_GAP - w, w), inPlot(px - STAR_GAP, w)];
      for (const left of xs) {
        const box = { x0: left, x1: left + w, y0: top, y1: top + STAR_H };
        if (box.x0 < a.left || box.x1 > a.right || box.y0 < a.top || box.y1 > a.bottom) continue;
        if (obstacles.some((r) => overlaps(box, r))) continue;
        place = { text: texts[k], left, top, w, box };
        break;
      }
    }
    if (place) break;
  }
  if (place) {
    drawLabelBox(ctx, place.text, { left: place.left, top: place.top, w: place.w, h: STAR_H }, { background: opts.background, color: opts.color, alpha: 0.85 });
    opts.drawn = place.text;
    opts.box = place.box;
  }
  ctx.restore();
}
