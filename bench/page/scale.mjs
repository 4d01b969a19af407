// The page at scale (issue 10, item 5): 0, 10,000 and 100,000 measured points loaded, then 200
// moves of the N slider, one per animation frame as a drag makes them (see drag()), with every
// long task ('longtask', > 50 ms) and long animation frame ('long-animation-frame') while
// dragging. Also the load itself: file chosen → points drawn, and its main-thread long tasks.
// The point files are generated here (benchRecord), never committed.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openPage } from '../../tests/browser/harness.mjs';

// A record of n points spread over the plot (seq, heads, head_dim, bytes and time scattered;
// every point valid and below its roof, no warnings), from a fixed seed.
export function benchRecord(n, seed = 1) {
  let s = seed >>> 0;
  const rnd = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  const pts = new Array(n);
  for (let i = 0; i < n; i++) {
    const seq = 64 << Math.floor(rnd() * 9);
    const heads = [8, 16, 32][Math.floor(rnd() * 3)];
    const d = [64, 128][Math.floor(rnd() * 2)];
    const flops = 4 * heads * seq * seq * d;
    const bytes = 8 * heads * seq * d * (1 + 7 * rnd() ** 2);
    const time = Math.max(bytes / 3.0e12, flops / 8e14) * (1.1 + 6 * rnd());
    pts[i] = `{"problem":{"seq":${seq},"heads":${heads},"head_dim":${d},"dtype":"fp16"},"timing":{"median_s":${time.toPrecision(6)}},"flops":${flops},"measured_bytes":${Math.round(bytes)}}`;
  }
  return `{"schema":"rooflab-record","schema_version":1,"provenance":{"kind":"measured"},"hardware":{"name":"bench","preset":"h100-sxm"},"software":{"kernel":"bench","kernel_version":"1"},"points":[${pts.join(',')}]}`;
}

export function median(xs) { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; }
export function pct(xs, p) { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)]; }

// Long tasks and long animation frames from now on, in window.__rlLong.
function observeLong() {
  window.__rlLong = { tasks: [], frames: [] };
  const watch = (type, into) => {
    try {
      new PerformanceObserver((l) => { for (const e of l.getEntries()) into.push(e.duration); }).observe({ type });
    } catch (_) { /* not supported */ }
  };
  watch('longtask', window.__rlLong.tasks);
  watch('long-animation-frame', window.__rlLong.frames);
}

// 200 moves of the N slider, one per frame, each at the start of a frame as the browser delivers a
// drag's pointer moves (rAF-aligned). Per move: `work`, the input event's own time (evaluate,
// sweep, both charts drawn: synchronous); `painted`, from the input until that frame's rendering
// is done on the main thread (the event, rAF, style, layout, paint: a message posted in the frame
// runs after it) — within one 60 Hz frame (16.7 ms) the move shows in the next frame; `next`, from
// the input to the following frame's start (the measure of 0.1.0's figures: a frame interval or
// more, so never under 16.7 ms).
async function drag() {
  const range = document.querySelector('[data-testid=input-seq-range]');
  const raf = () => new Promise((ok) => requestAnimationFrame(() => ok(performance.now())));
  const afterFrame = () => new Promise((ok) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => ok(performance.now());
    ch.port2.postMessage(0);
  });
  await raf();
  await raf();
  window.__rlLong.tasks.length = 0;
  window.__rlLong.frames.length = 0;
  const work = [];
  const painted = [];
  const next = [];
  let t0 = 0;
  for (let i = 0; i <= 200; i++) {
    const start = await raf();
    if (i > 0) next.push(start - t0);
    if (i === 200) break;
    range.value = String(7 + (13 * ((i * 37) % 200)) / 200); // N from 128 to 1M, scattered
    t0 = performance.now();
    range.dispatchEvent(new Event('input', { bubbles: true }));
    work.push(performance.now() - t0);
    painted.push((await afterFrame()) - t0);
  }
  await new Promise((ok) => setTimeout(ok, 300)); // the observers' last entries
  return { work, painted, next, long: window.__rlLong };
}

const summary = (xs) => ({ median: median(xs), p95: pct(xs, 0.95), max: Math.max(...xs) });

// One case: a fresh page, `n` points loaded (none for 0), then the drag.
export async function scaleCase(context, url, n, dir) {
  const page = await openPage(context, url);
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await page.waitForSelector('html[data-ready="1"]');
  const out = { points: n };
  if (n > 0) {
    const file = join(dir, `bench-points-${n}.json`);
    writeFileSync(file, benchRecord(n));
    await page.evaluate(observeLong);
    const t0 = Date.now();
    await page.setInputFiles('[data-testid="input-upload"]', [file]);
    await page.waitForFunction((want) => Number(document.querySelector('[data-testid="measured-count"]').dataset.value) === want, n, { timeout: 180000, polling: 50 });
    await page.waitForSelector('[data-testid="records-status"][data-value="idle"]', { state: 'attached', timeout: 180000 });
    // the points' bitmap finished (measured-layer.js draws it in slices)
    await page.waitForFunction(() => (({ active, pending, builds }) => active && !pending && builds > 0)(window.rooflab.measuredLayer()), null, { timeout: 180000, polling: 50 });
    out.load_s = (Date.now() - t0) / 1000;
    const long = await page.evaluate(() => window.__rlLong.tasks);
    out.load_long_tasks = { count: long.length, max_ms: long.length ? Math.max(...long) : 0 };
    // the measured points' bitmap (measured-layer.js): how long drawing it took
    out.layer = await page.evaluate(async () => window.rooflab.measuredLayer());
  } else {
    await page.evaluate(observeLong);
  }
  const r = await page.evaluate(drag);
  out.input_work_ms = summary(r.work);
  out.input_to_painted_ms = summary(r.painted);
  out.next_frame_ms = summary(r.next);
  out.long_tasks = { count: r.long.tasks.length, max_ms: r.long.tasks.length ? Math.max(...r.long.tasks) : 0 };
  out.long_frames = { count: r.long.frames.length, max_ms: r.long.frames.length ? Math.max(...r.long.frames) : 0 };
  // how the charts were drawn (backdrop.js): blits from the static copy, builds of it, ordinary draws
  out.backdrop = await page.evaluate(() => ({ roofline: window.rooflab.backdrop('roofline'), sweep: window.rooflab.backdrop('sweep') }));
  out.console_errors = page.rlErrors;
  await page.evaluate(() => localStorage.clear());
  await page.close();
  return out;
}

export function scaleLine(c) {
  const f = (x) => x.toFixed(1);
  return `${c.points.toLocaleString('en-US').padStart(7)} points: input work median ${f(c.input_work_ms.median)} ms, p95 ${f(c.input_work_ms.p95)} ms; input → frame painted median ${f(c.input_to_painted_ms.median)} ms, p95 ${f(c.input_to_painted_ms.p95)} ms; next frame median ${f(c.next_frame_ms.median)} ms, p95 ${f(c.next_frame_ms.p95)} ms; long tasks ${c.long_tasks.count} (max ${f(c.long_tasks.max_ms)} ms), long frames ${c.long_frames.count} (max ${f(c.long_frames.max_ms)} ms)${c.load_s !== undefined ? `; load ${c.load_s.toFixed(1)} s (main-thread long tasks ${c.load_long_tasks.count}, max ${f(c.load_long_tasks.max_ms)} ms; the points' bitmap drawn in ${f(c.layer.buildMs)} ms)` : ''}`;
}
