// chart-data.js — what the two charts draw, prepared from model output: pure functions, no
// Chart.js and no DOM, so they can be tested in node. charts.js owns the Chart.js objects and puts
// these datasets, axis ranges and annotations into them. Every number is a value the WASM model
// returned (points, trails, the roof and ceilings through core's attainable/ridge); the only
// arithmetic here chooses axis ranges for display.

import { controlsCaption } from './chart-identity.js';

export const MODELS = ['compulsory', 'tiled', 'naive'];
export const RANK = { point: 0, predicted: 0, level: 1, measured: 1, roof: 2, ceiling: 3, trail: 4 };
export const MOVING = ['point', 'predicted', 'level']; // kinds whose marks move with N in place
export const LEVELS = ['dram', 'l2'];
const POINT_STYLE = { compulsory: 'circle', tiled: 'triangle', naive: 'rectRot' };
// The intensities roof and ceiling lines are drawn over: the roofline's zoom limits (charts.js),
// wider than any axis range the chart shows.
export const SPAN = { xMin: 1e-4, xMax: 1e8 };
// A predicted time's verdict (core's rl_limit name): compute, memory "…-bound", else "…-limited".
export const limitText = (limit) => (limit === 'compute' || limit === 'memory' ? `${limit}-bound` : `${limit}-limited`);

// A CSS colour (#rrggbb, spaces around it allowed) with an alpha; other forms returned as they are.
export function withAlpha(color, alpha) {
  const m = /^#([0-9a-f]{6})$/i.exec(String(color).trim());
  if (!m) return color;
  const n = parseInt(m[1], 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
}

// Tick labels (ticks.js), exported here too for charts.js.
export { isDecade, decadeLabel, plainTick } from './ticks.js';

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
  // The predicted time where the kernel profile can predict the row (0 elsewhere: not drawn).
  series.predicted = rows.filter((row) => row['predicted.time_s'] > 0).map((row) => ({ x: row.x, y: row['predicted.time_s'] }));
  v = { id: ++rowsSerial, trails, series, lo, hi };
  fromRows.set(rows, v);
  return v;
}

// The predicted point (at its DRAM intensity, y = F / predicted time) or null; caption: whose
// problem it is (the controls', not a measured point's: issue 20).
function predictedPoint(model, r, kernel) {
  if (!Number.isFinite(r['predicted.time_s'])) return null;
  return {
    id: 'predicted', kernel, caption: controlsCaption(model, r), x: r['predicted.levels.dram.intensity_flop_per_byte'], y: r['predicted.flops_per_s'],
    time: r['predicted.time_s'], bound: r['predicted.bound'], dram: r['predicted.levels.dram.bytes'], l2: r['predicted.levels.l2.bytes'],
    l2x: r['predicted.levels.l2.intensity_flop_per_byte'], limit: r['predicted.limit'],
    // the likely range (the profile's held-out band) as core gives it in FLOP/s; 0 from core = none
    lo: r['predicted.interval_flops_per_s.0'] > 0 ? r['predicted.interval_flops_per_s.0'] : null,
    hi: r['predicted.interval_flops_per_s.1'] > 0 ? r['predicted.interval_flops_per_s.1'] : null,
    points: r['predicted.interval_points'],
  };
}

// One point per memory level for each traffic model (Nsight Compute's hierarchical roofline):
// { dram: [points], l2: [points] }, each at that level's intensity against that level's roof.
function levelPoints(r) {
  const out = { dram: [], l2: [] };
  if (!r.levels_known) return out;
  for (const m of MODELS) {
    if (!Number.isFinite(r[`models.${m}.bytes`])) continue;
    for (const lv of LEVELS) {
      out[lv].push({
        model: m, level: lv, x: r[`models.${m}.levels.${lv}.intensity_flop_per_byte`], y: r[`models.${m}.levels.${lv}.attainable_flops_per_s`],
        bytes: r[`models.${m}.levels.${lv}.bytes`], hit: r[`models.${m}.levels.kv_hit_fraction`],
      });
    }
  }
  return out;
}

// Two models' marks closer than this share of each axis's span (in decades) would hide one
// another (a mark is ~16 px wide; a phone's plot ~230 px): the one drawn underneath (later in
// MODELS) is drawn as a ring around the other (p.overlap = true).
export const OVERLAP_SHARE = 0.04;
function markOverlaps(points, xDecades, yDecades) {
  const near = (a, b) => Math.abs(Math.log10(a.x / b.x)) < OVERLAP_SHARE * xDecades &&
    Math.abs(Math.log10(a.y / b.y)) < OVERLAP_SHARE * yDecades;
  points.forEach((p, i) => { p.overlap = points.slice(0, i).some((q) => near(p, q)); });
}

// Whether a trail is drawn visibly: it spans more than a hundredth of a decade (in decode the
// intensity hardly moves with L, and the trail collapses under its mark).
function trailVisible(trail) {
  if (trail.length < 2) return false;
  const xs = trail.map((p) => p.x);
  const ys = trail.map((p) => p.y);
  return Math.log10(Math.max(...xs) / Math.min(...xs)) > 0.01 || Math.log10(Math.max(...ys) / Math.min(...ys)) > 0.01;
}

// result: model.evaluate(...).r; rows: model.sweep(...).rows; roof: { bandwidth, peak, peakName };
// ceilings: [{ id, name, peak }] extra compute ceilings to draw; sweptKey/currentX: the swept
// length (URL key) and its value now; extras: { roofs: ['l2', 'exp'] drawn, levels: per-level
// points drawn, kernel: the profile's name }.
export function buildViews(model, result, rows, roof, ceilings, sweptKey, currentX, extras = {}) {
  const roofs = new Set(extras.roofs || []);
  const points = [];
  for (const m of MODELS) {
    if (Number.isFinite(result[`models.${m}.bytes`])) {
      points.push({
        model: m, x: result[`models.${m}.intensity_flop_per_byte`], y: result[`models.${m}.attainable_flops_per_s`],
        bytes: result[`models.${m}.bytes`], time: result[`models.${m}.time_s`], bound: model.bounds[result[`models.${m}.bound`]],
      });
    }
  }
  const rv = rowsViews(rows);
  const ridge = result.ridge_flop_per_byte;
  const predicted = predictedPoint(model, result, extras.kernel || '');
  const levels = extras.levels ? levelPoints(result) : { dram: [], l2: [] };
  const marks = [...points, ...(predicted ? [predicted] : []), ...levels.dram, ...levels.l2];
  const l2bw = roofs.has('l2') ? result['roofs.l2_bandwidth_bytes_per_s'] : 0;
  const l2Ridge = l2bw > 0 ? model.ridge(l2bw, roof.peak) : 0;
  const xs = [ridge, ...marks.map((p) => p.x)];
  if (rv.hi > 0) xs.push(rv.lo, rv.hi);
  const xMin = 10 ** Math.floor(Math.log10(Math.min(...xs) / 2));
  const xMax = 10 ** Math.ceil(Math.log10(Math.max(...xs) * 2));
  const line = (peak, xAt) => ({ x: xAt, y: model.attainable(roof.bandwidth, peak, xAt) });
  // Roof and ceiling lines run over the whole range the chart can show (SPAN), so no axis range,
  // zoom or pan leaves a point where no roof is drawn.
  const spanLine = (peak) => {
    const r = model.ridge(roof.bandwidth, peak);
    return [line(peak, SPAN.xMin), ...(r > SPAN.xMin && r < SPAN.xMax ? [line(peak, r)] : []), line(peak, SPAN.xMax)];
  };
  const roofLine = spanLine(roof.peak);
  const ceilingLines = ceilings.map((c) => ({ ...c, points: spanLine(c.peak) }));
  // Extra roofs: the L2 slope up to where it meets the peak; the exp roofs (exp alone, and the
  // MMA and the exp serialised) as ceilings under the same bandwidth slope.
  const l2Line = l2bw > 0 && l2Ridge > xMin
    ? { bandwidth: l2bw, ridge: l2Ridge, points: [{ x: SPAN.xMin, y: model.attainable(l2bw, roof.peak, SPAN.xMin) }, { x: l2Ridge, y: roof.peak }] }
    : null;
  const expLines = [];
  if (roofs.has('exp')) {
    for (const [id, key] of [['exp', 'roofs.exp_flops_per_s'], ['mma-exp', 'roofs.mma_exp_flops_per_s']]) {
      const peak = result[key];
      if (!(peak > 0)) continue;
      expLines.push({ id, peak, points: spanLine(peak) });
    }
  }
  // Every shown ceiling's level is taken in (an fp8 ceiling above the roof's peak too).
  const ys = [roof.peak, line(roof.peak, xMin).y, ...ceilingLines.map((c) => c.peak), ...expLines.map((e) => e.peak),
    ...marks.map((p) => p.y)].filter((y) => y > 0);
  const yMin = 10 ** Math.floor(Math.log10(Math.min(...ys)));
  const yMax = 10 ** Math.ceil(Math.log10(Math.max(...ys) * 1.5));
  markOverlaps(points, Math.log10(xMax / xMin), Math.log10(yMax / yMin));
  const band = Number.isFinite(result['models.tiled.bytes']) && Number.isFinite(result['models.compulsory.bytes'])
    ? { xMin: result['models.tiled.intensity_flop_per_byte'], xMax: result['models.compulsory.intensity_flop_per_byte'] }
    : null;
  const staticKey = [rv.id, roof.bandwidth, roof.peak, roof.peakName, ...ceilings.map((c) => `${c.id}:${c.peak}`),
    // The exp roofs are F / exp time: the same roof for every N, up to the last bit (12 digits here,
    // so moving N moves the marks in place instead of rebuilding the chart).
    l2Line ? `l2:${l2bw}` : '', ...expLines.map((e) => `${e.id}:${e.peak.toPrecision(12)}`), predicted ? `p:${predicted.kernel}` : 'p:-',
    `lv:${levels.dram.length}`, `ov:${points.map((p) => (p.overlap ? 1 : 0)).join('')}`].join('|');
  return {
    roofline: {
      roof, ridge, points, predicted, levels, trails: rv.trails, roofLine, ceilingLines, l2Line, expLines, band,
      xMin, xMax, yMin, yMax, sweptKey, staticKey,
    },
    sweep: { series: rv.series, sweptKey, currentX, kernel: extras.kernel || '' },
  };
}

// The roofline's datasets: roof, ceilings, trails, working points, then measured records
// ([{ label, hollow, color, pointStyle, line, points: [{ x, y, text }] }]). colors: cssColors().
export function rooflineDatasets(view, measured, colors, format) {
  const c = colors;
  const ds = [{
    label: `roof: ${format(view.roof.bandwidth, 'B/s')} · I, ${format(view.roof.peak, 'FLOP/s')} ${view.roof.peakName}`,
    rlKind: 'roof', data: view.roofLine, showLine: true, borderColor: c.roof, backgroundColor: c.roof,
    borderWidth: 2, pointRadius: 0, pointHitRadius: 4, order: 1,
  }];
  view.ceilingLines.forEach((cl, i) => ds.push({
    label: `ceiling: ${cl.name} ${format(cl.peak, 'FLOP/s')}`, rlKind: 'ceiling', data: cl.points, showLine: true,
    borderColor: c.ceilings[i], backgroundColor: c.ceilings[i], borderDash: [6, 4], borderWidth: 1.5,
    pointRadius: 0, pointHitRadius: 4, order: 2,
  }));
  if (view.l2Line) {
    const text = `L2 ${format(view.l2Line.bandwidth, 'B/s')}`;
    ds.push({
      label: `L2 roof: ${format(view.l2Line.bandwidth, 'B/s')} · I`, rlKind: 'ceiling', rlId: 'l2-roof', data: view.l2Line.points,
      showLine: true, borderColor: c.l2, backgroundColor: c.l2, borderWidth: 2, borderDash: [10, 4],
      pointRadius: 0, pointHitRadius: 4, order: 2, rlLabel: { text, at: view.l2Line.points[1], align: 'right', color: c.l2 },
    });
  }
  for (const e of view.expLines) {
    const name = e.id === 'exp' ? 'exp roof' : 'MMA + exp roof';
    ds.push({
      label: `${name}: ${format(e.peak, 'FLOP/s')}`, rlKind: 'ceiling', rlId: `${e.id}-roof`, data: e.points, showLine: true,
      borderColor: c.exp, backgroundColor: c.exp, borderWidth: 1.5, borderDash: e.id === 'exp' ? [2, 3] : [8, 3, 2, 3],
      pointRadius: 0, pointHitRadius: 4, order: 2,
      rlLabel: { text: `${e.id === 'exp' ? 'exp' : 'MMA + exp'} ${format(e.peak, 'FLOP/s')}`, at: e.points[e.points.length - 1], align: 'right', color: c.exp, below: e.id !== 'exp' },
    });
  }
  for (const m of MODELS) {
    ds.push({
      label: `${m} trail`, rlKind: 'trail', rlHideInLegend: true, data: view.trails[m], showLine: true,
      borderColor: withAlpha(c[m], 0.28), backgroundColor: withAlpha(c[m], 0.28), borderWidth: 7,
      pointRadius: 0, pointHitRadius: 3, order: 5,
    });
  }
  for (const p of view.points) {
    // A mark on top of another's is drawn as a larger ring in its colour, so both stay visible.
    ds.push({
      label: `${p.model}`, rlKind: 'point', data: [p], pointStyle: POINT_STYLE[p.model],
      pointRadius: p.overlap ? 13 : 8, pointHoverRadius: p.overlap ? 15 : 10, borderColor: p.overlap ? c[p.model] : c.fg,
      borderWidth: p.overlap ? 3 : 1.5, backgroundColor: p.overlap ? 'rgba(0,0,0,0)' : c[p.model], order: 0,
    });
  }
  if (view.predicted) {
    ds.push({
      label: `predicted (${view.predicted.kernel})`, rlKind: 'predicted', rlId: 'predicted', data: [view.predicted],
      pointStyle: 'star', pointRadius: 11, pointHoverRadius: 13, borderColor: c.predicted, borderWidth: 3,
      backgroundColor: c.predicted, order: 0,
    });
    const p = view.predicted;
    if (p.lo > 0 && p.hi > 0) {
      // the likely range around the star: a vertical bar from F / high time to F / low time
      ds.push({
        label: `likely range (${p.kernel}): ${format(p.lo, 'FLOP/s')} – ${format(p.hi, 'FLOP/s')}`, rlKind: 'ceiling',
        rlId: 'predicted-band', rlHideInLegend: true, data: [{ x: p.x, y: p.lo }, { x: p.x, y: p.hi }], showLine: true,
        borderColor: withAlpha(c.predicted, 0.45), backgroundColor: withAlpha(c.predicted, 0.45), borderWidth: 9,
        borderCapStyle: 'round', pointRadius: 0, pointHitRadius: 4, order: 1,
      });
    }
  }
  for (const lv of LEVELS) {
    const pts = view.levels[lv];
    if (!pts.length) continue;
    ds.push({
      label: `${lv === 'dram' ? 'DRAM' : 'L2'} level points`, rlKind: 'level', rlId: `level-${lv}`, data: pts,
      pointStyle: pts.map((p) => POINT_STYLE[p.model]), pointRadius: lv === 'dram' ? 7 : 6, pointHoverRadius: 9,
      borderColor: pts.map((p) => c[p.model]), borderWidth: 2,
      backgroundColor: lv === 'dram' ? 'rgba(0,0,0,0)' : pts.map((p) => withAlpha(c[p.model], 0.35)), order: 0,
    });
  }
  for (const m of measured) ds.push(measuredDataset(m, c));
  return ds;
}

// A measured series' colour: a record's palette entry (--rec1 …, chosen apart from the model's
// colours in both schemes) or a device's (--dev1 …) by index, else the colour it carries.
export const seriesColorVar = (m) => (m.deviceIndex >= 0 ? `var(--dev${m.deviceIndex + 1})`
  : m.colorIndex >= 0 ? `var(--rec${m.colorIndex + 1})` : (m.color || ''));
export const seriesColor = (m, c) => (m.deviceIndex >= 0 ? c.devices[m.deviceIndex]
  : m.colorIndex >= 0 ? c.records[m.colorIndex] : (m.color || c.fg));

// One measured dataset. Records are listed under the chart (legendItems), never in Chart.js's
// legend, where long names were clipped. A record's ceiling line carries its name on the line
// (m.lineLabel); a predicted star is larger and thinner than a measured cross, dashed-free.
export function measuredDataset(m, c) {
  const color = (c.records ? seriesColor(m, c) : m.color) || c.fg;
  const star = m.pointStyle === 'star';
  return {
    label: m.label, rlKind: 'measured', data: m.points, pointStyle: m.pointStyle || 'crossRot', pointRotation: m.rotation || 0,
    pointRadius: m.line ? 0 : (star ? 9 : 6), pointHoverRadius: star ? 11 : 8, pointHitRadius: m.line ? 4 : 1,
    borderWidth: m.line ? 1.5 : (star ? 1.25 : 2),
    borderColor: color, showLine: !!m.line, borderDash: m.line ? (m.dash || [2, 3]) : [], rlHideInLegend: true,
    backgroundColor: m.hollow ? 'rgba(0,0,0,0)' : color, order: 0, rlDevice: m.device ? m.device.key : '',
    ...(m.line && m.lineLabel ? { rlLabel: { text: m.lineLabel, short: m.lineShort, at: m.points[m.points.length - 1], align: 'right', color } } : {}),
  };
}

// The ridge marker (chartjs-plugin-annotation): the dashed line. Its label is placed apart from
// the marks and the other labels (chart-identity.js drawRidgeLabel, with ridgeLabel's texts).
export function rooflineAnnotations(view, colors) {
  return {
    ridge: { type: 'line', xMin: view.ridge, xMax: view.ridge, borderColor: colors.ridge, borderWidth: 1, borderDash: [3, 3] },
  };
}
// The ridge's label, in full and short (a crowded or narrow plot): { value, text, short }.
export const ridgeLabel = (view, format) => ({
  value: view.ridge, text: `ridge I* = π/β = ${format(view.ridge, 'FLOP/B')}`, short: `I* = ${format(view.ridge, 'FLOP/B')}`,
});

// Axis ranges: the view's, widened to whole decades that take in the measured points (not the
// measured ceiling lines).
export function rooflineAxes(view, measured) {
  let { xMin, xMax, yMin, yMax } = view;
  for (const m of measured) {
    // A record's compute ceiling is a level line: the y axis takes it in (a slope spans anyway).
    if (m.line && m.peak > 0) {
      yMin = Math.min(yMin, 10 ** Math.floor(Math.log10(m.peak)));
      yMax = Math.max(yMax, 10 ** Math.ceil(Math.log10(m.peak * 1.5)));
    }
    if (m.line) continue;
    const e = extremes(m.points);
    if (!e) continue;
    if (e.xLo < xMin) xMin = 10 ** Math.floor(Math.log10(e.xLo));
    if (e.xHi > xMax) xMax = 10 ** Math.ceil(Math.log10(e.xHi));
    if (e.yLo < yMin) yMin = 10 ** Math.floor(Math.log10(e.yLo));
    if (e.yHi > yMax) yMax = 10 ** Math.ceil(Math.log10(e.yHi));
  }
  return { xMin, xMax, yMin, yMax };
}

// The smallest and largest positive x and y of a series' points, found once per points array (a
// record's marks are made once: a slider move that needs new axes does not scan 100,000 points
// again); null when none is drawable.
const EXTREMES = new WeakMap();
function extremes(points) {
  if (EXTREMES.has(points)) return EXTREMES.get(points);
  let e = null;
  for (const p of points) {
    if (!(p.x > 0 && p.y > 0)) continue;
    if (!e) e = { xLo: p.x, xHi: p.x, yLo: p.y, yHi: p.y };
    if (p.x < e.xLo) e.xLo = p.x;
    if (p.x > e.xHi) e.xHi = p.x;
    if (p.y < e.yLo) e.yLo = p.y;
    if (p.y > e.yHi) e.yHi = p.y;
  }
  EXTREMES.set(points, e);
  return e;
}

// Tooltip lines of a roofline mark (dataset `ds`, point `p`).
export function rooflineTooltip(ds, p, sweptKey, model) {
  const f = (v, u, o = {}) => model.format(v, u, { sig: 6, ...o });
  const head = ds.rlOwnRoof
    ? `${ds.label}: I = ${f(p.x, 'FLOP/B')}, ${f(100 * (p.eff ?? p.y), '', { sig: 4 })} % of its own roof (${f(p.own, 'FLOP/s')})`
    : `${ds.label}: I = ${f(p.x, 'FLOP/B')}, ${f(p.y, 'FLOP/s')}`;
  if (ds.rlKind === 'point') {
    return [head, `bytes ${f(p.bytes, 'B')} (${f(p.bytes, 'B', { iec: true })}), F / bytes`,
      `bound time ${f(p.time, 's')}, ${p.bound}-bound`];
  }
  if (ds.rlKind === 'predicted') {
    return [`predicted (${p.kernel}): ${f(p.time, 's')}, ${f(p.y, 'FLOP/s')}, ${limitText(model.limits[p.limit])}`, `★ ${p.caption}`,
      p.lo > 0 ? `likely ${f(p.lo, 'FLOP/s', { sig: 3 })} – ${f(p.hi, 'FLOP/s', { sig: 3 })}: the profile’s held-out error on ${p.points} published points`
        : `no likely range: ${p.points} held-out published point${p.points === 1 ? '' : 's'} for this profile`,
      `at its DRAM intensity I = ${f(p.x, 'FLOP/B')} (DRAM ${f(p.dram, 'B')}; L2 ${f(p.l2, 'B')}, I = ${f(p.l2x, 'FLOP/B')})`,
      'y = F / predicted time; the ledger below splits the time'];
  }
  if (ds.rlKind === 'level') {
    return [`${p.model} at ${p.level === 'dram' ? 'DRAM' : 'L2'}: I = ${f(p.x, 'FLOP/B')}, ${f(p.y, 'FLOP/s')}`,
      `${p.level === 'dram' ? 'DRAM' : 'L2'} bytes ${f(p.bytes, 'B')} (${f(p.bytes, 'B', { iec: true })}), against the ${p.level === 'dram' ? 'DRAM' : 'L2'} roof`,
      ...(p.level === 'dram' && p.model === 'tiled' ? [`K/V re-reads served by L2: ${f(p.hit, '', { sig: 4 })}`] : [])];
  }
  if (ds.rlKind === 'trail') return `${head} at ${sweptKey} = ${p.n.toLocaleString('en-US')}`;
  if (ds.rlKind === 'measured' && p.text) return [head, ...[].concat(p.text)];
  return head;
}

// A tooltip of at most TOOLTIP_LINES lines: the first line, the kernel and the efficiency where
// the full text has them, and a pointer to the details panel (a click pins every line there).
// Each line is cut to TOOLTIP_CHARS (a phone's chart is ~50 characters wide): a long series name
// goes after the numbers. cut(line): the page passes core's cut of the escaped line (charts.js:
// lines are escaped first, then cut, so a name of invisible characters cannot grow past it); the
// default cuts at TOOLTIP_CHARS code points (never inside a surrogate pair).
export const TOOLTIP_LINES = 4;
export const TOOLTIP_CHARS = 50;
const cutChars = (l) => { const c = [...l]; return c.length > TOOLTIP_CHARS ? `${c.slice(0, TOOLTIP_CHARS - 1).join('')}…` : l; };
export function compactTooltip(lines, cut = cutChars) {
  let all = [].concat(lines);
  const m = /^(.{24,}): (I = .*)$/.exec(all[0]);
  if (m) all = [m[2], m[1], ...all.slice(1)];
  if (all.length <= TOOLTIP_LINES) return all.map(cut);
  const pick = (re) => all.slice(1).find((l) => re.test(l));
  // the series' name (moved after the numbers) or else the kernel; the efficiency
  const keep = [all[0], (m ? all[1] : pick(/^kernel: /)) || all[1], pick(/^efficiency: /) || all[2]].filter((l, i, a) => a.indexOf(l) === i);
  return [...keep.slice(0, TOOLTIP_LINES - 1).map(cut), 'click the mark for all its details'];
}

// The time/intensity chart's datasets and x-axis title.
export function sweepDatasets(view, colors) {
  const c = colors;
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
  if (view.series.predicted.length) {
    ds.push({
      label: `predicted time (${view.kernel})`, data: view.series.predicted, yAxisID: 'yTime', showLine: true,
      borderColor: c.predicted, backgroundColor: c.predicted, borderWidth: 3, pointRadius: 0, pointHitRadius: 3,
    });
  }
  return ds;
}
export function sweepAxisTitle(sweptKey) {
  return sweptKey === 'kv-len' ? 'KV length L (decode context)' : 'sequence length N';
}
export function sweepMarkerLabel(view) {
  return `${view.sweptKey} = ${Number(view.currentX).toLocaleString('en-US')}`;
}

// CSV rows (chart, series, x, y, x_unit, y_unit, swept_value) of the drawn datasets.
export function rooflineCsvRows(datasets) {
  const rows = [];
  for (const d of datasets) {
    // the "% of own roof" view's y is a fraction of the point's own roof (the 100 % line: 1)
    const yUnit = d.rlOwnRoof || d.rlId === 'own-roof' ? 'fraction of own roof' : 'FLOP/s';
    for (const p of d.data) rows.push(['roofline', d.label, p.x, p.eff ?? p.y, 'FLOP/B', yUnit, p.n ?? '']); // eff: a capped point's true value
  }
  return rows;
}
export function sweepCsvRows(datasets, sweptKey) {
  const rows = [];
  for (const d of datasets) {
    const yUnit = d.yAxisID === 'yTime' ? 's' : 'FLOP/B';
    for (const p of d.data) rows.push(['sweep', d.label, p.x, p.y, sweptKey, yUnit, p.x]);
  }
  return rows;
}

// The legend under the roofline: [[swatch class, text]] (text is plain, escaped by the view).
// sweepRange: [lo, hi] of the swept length (core's range for the field).
// The third element of an item is the swatch's colour when the series has one of its own
// (ceilings, records: a CSS colour or var(), so it follows the colour scheme), '' otherwise.
export function legendItems(view, measured, model, sweepRange) {
  const f = (v, u) => model.format(v, u);
  const [lo, hi] = sweepRange.map((x) => x.toLocaleString('en-US'));
  const drawn = (m) => view.points.some((p) => p.model === m);
  const ringed = view.points.filter((p) => p.overlap).map((p) => p.model);
  const trails = MODELS.some((m) => trailVisible(view.trails[m] || []));
  const band = view.band && Math.log10(view.band.xMax / view.band.xMin) > 0.01;
  const items = [
    ['roof', `Roof: the bandwidth slope β·I (${f(view.roof.bandwidth, 'B/s')}) up to the ridge, then the compute roof π (${f(view.roof.peak, 'FLOP/s')}, ${view.roof.peakName}).`],
    ['ridge', `Ridge I* = π/β = ${f(view.ridge, 'FLOP/B')}: left of it a kernel waits on memory, right of it on arithmetic.`],
    ...[['compulsory', 'Compulsory (●): every tensor moved once — the lower bound of any kernel’s traffic, the highest intensity it can reach.'],
      ['tiled', 'Tiled (▲): FlashAttention-1/2 forward, K and V re-streamed once per query block — an upper bound of a real kernel (no L2 or GQA reuse).'],
      ['naive', 'Naive (◆): S and P written to and read back from device memory.']].filter(([m]) => drawn(m)),
    ...(ringed.length ? [['ring', `Ring: ${ringed.join(' and ')} — so close to another model’s mark that it would be hidden, drawn as a ring around it; the traffic table has the exact values.`]] : []),
    ...(band ? [['band', 'Shaded band: between tiled and compulsory — what caches, larger tiles and head grouping could still win.']] : []),
    ...(trails ? [['trail', `Faint trails: where each model’s point travels as ${view.sweptKey === 'kv-len' ? 'the KV length L' : 'N'} sweeps ${lo} … ${hi}; the regime changes where a trail crosses the ridge.`]] : []),
  ];
  if (view.predicted) {
    items.push(['predicted', `Predicted (★, ${view.predicted.kernel}): the ${view.predicted.caption}: F / the profile’s predicted time at its DRAM intensity; the bar: its likely range (held-out error); the ledger splits it.`]);
  }
  if (view.levels.dram.length) {
    items.push(['level-dram', 'Hollow marks: each traffic model’s DRAM bytes (after the L2 reuse rule), against the DRAM roof.']);
    items.push(['level-l2', 'Tinted marks: each model’s bytes through L2 (as counted), against the L2 roof — Nsight Compute’s hierarchical roofline.']);
  }
  if (view.l2Line) items.push(['l2', `Dashed slope: the L2 roof (${f(view.l2Line.bandwidth, 'B/s')}); it meets the compute roof at I = ${f(view.l2Line.ridge, 'FLOP/B')}.`]);
  for (const e of view.expLines) {
    items.push(['exp', e.id === 'exp'
      ? `Dotted: the exp roof (${f(e.peak, 'FLOP/s')}) — the throughput if the softmax exponentials alone limited it.`
      : `Dash-dot: the MMA + exp roof (${f(e.peak, 'FLOP/s')}) — the MMA and the exponentials serialised, as FA2/FA3 run them.`]);
  }
  view.ceilingLines.forEach((c, i) => items.push(['ceiling', `Dashed: the ${c.name} ceiling (${f(c.peak, 'FLOP/s')}), for kernels that do not use the main compute unit.`, `var(--ceiling${(i % 2) + 1})`]));
  const cmp = measured.compare;
  if (cmp && cmp.on) {
    // Compare mode: the devices' roofs, each in its colour; the points take their device's colour.
    items.length = 0;
    cmp.devices.forEach((d, i) => items.push(['device', `${d.name}${d.from === 'ceilings' ? ' (measured ceilings, dashed)' : ''}: roof ${f(d.bandwidth, 'B/s')} · I up to ${f(d.peak, 'FLOP/s')}${d.dtype ? ` (${d.dtype})` : ''}; its points in the same colour.`, `var(--dev${i + 1})`]));
    items.push(['measured cross', cmp.ownRoof
      ? 'Each point at its efficiency: achieved / attainable on its own hardware’s roof (core’s figure); the line is 100 %.'
      : 'Each point drawn against its own device’s roof; grey: a device not among the compared ones.', '']);
    return items;
  }
  // Each record (and each of its ceilings) in its own colour and mark, never the roof's navy.
  for (const x of measured) {
    const kind = x.line ? 'line' : x.pointStyle === 'star' ? 'star' : x.hollow ? 'hollow' : x.pointStyle && x.pointStyle !== 'crossRot' ? `shape-${x.pointStyle}${x.rotation ? `-r${x.rotation}` : ''}` : 'cross';
    items.push([`measured ${kind}`, `${x.label}${x.hollow && !x.line && kind !== 'star' ? ' (hollow: historical, unaudited — not evidence)' : ''}`, seriesColorVar(x)]);
  }
  return items;
}
