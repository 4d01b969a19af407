// The page benchmark (prints figures; not a test):
//   - model evaluations per second: native (C), node (WASM), Chromium (WASM) — same binding;
//   - slider `input` event → chart drawn, median and p95 over 200 moves, 256-point sweep per model;
//   - the page's transfer size (as served, and gzip -9 as a compressing server would send it);
//   - the page at scale (scale.mjs): 0, 10,000 and 100,000 measured points loaded, a drag of the N
//     slider: main-thread work per input, input → frame painted, long tasks (point files generated);
//   - many records (many.mjs): 250 and 1,000 small records kept in the browser restored on load,
//     100 and 400 files uploaded at once: time and the longest main-thread task of each (the
//     figures tests/browser/scale.test.mjs no longer asserts), with the work counted (checks, list
//     items made, list and chart renders) and how far the records had come when a slider move
//     made during the work was handled;
//   - first start (first-start.mjs, issue 20): bytes on the wire for one cold page load from
//     `make run`'s server (gzip), navigation → first model number painted (median of
//     ROOFLAB_BENCH_FIRST_RUNS, default 7), and `make run` from a fresh clone until the page is
//     served (median of ROOFLAB_BENCH_SERVED_RUNS, default 3; 0 skips it; each is a clean build).
// Usage: node bench/page/bench.mjs  (after `make native web`; `make bench-page` does both)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { loadWasmModel, ROOT } from '../../tests/wasm/load.mjs';
import { serve, launch, openPage, WEB, sliderMoveCalls } from '../../tests/browser/harness.mjs';
import { scaleCase, scaleLine } from './scale.mjs';
import { restoreCase, uploadCase, manyLine } from './many.mjs';
import { startServe, coldLoad, timeToServed, median as med } from './first-start.mjs';
import { loadavg } from 'node:os';

// core/ is two static libraries (rooflab_core is an INTERFACE target over them): the record
// library first, then the model it uses. ROOFLAB_CORE_LIB: a ':'-separated list to use instead.
const NATIVE_LIBS = process.env.ROOFLAB_CORE_LIB
  ? process.env.ROOFLAB_CORE_LIB.split(':')
  : ['librooflab_record.a', 'librooflab_model.a'].map((f) => join(ROOT, 'build/native/core', f));

function median(xs) { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; }
function pct(xs, p) { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)]; }

// The timing loop shared by node and Chromium: writes N into the input slot, calls rlw_report (the
// bounds and the fa3 profile's predicted time).
function wasmRateSource() {
  return `(model) => {
    const M = model.raw;
    model.writeParams(model.benchParams);
    const seq = (model.inPtr >> 3) + model.inKeys.indexOf('seq');
    let best = 0, sink = 0;
    for (let rep = 0; rep < 5; rep++) {
      let n = 0; const t0 = performance.now(); let t;
      do {
        for (let i = 0; i < 1000; i++, n++) {
          M.HEAPF64[seq] = 128 + (n & 4095);
          if (M._rlw_report(model.inPtr, model.outPtr, model.errPtr, model.predErrPtr) !== 0) throw new Error('eval failed');
          sink += M.HEAPF64[model.outPtr >> 3];
        }
      } while ((t = performance.now() - t0) < 400);
      best = Math.max(best, n / (t / 1000));
    }
    return best;
  }`;
}

function benchParams(model) {
  const hw = model.presetIndex('h100-sxm');
  const kernel = model.kernels.findIndex((k) => k.name === 'fa3'); // the predicted time on, as in eval_rate.c
  return { hw, bandwidth: 3.35e12, peak: 989e12, dtype: model.parseDtype('fp16').index, causal: 1, kernel };
}

async function main() {
  const out = {};
  // Native
  const dir = mkdtempSync(join(tmpdir(), 'rooflab-bench-'));
  const exe = join(dir, 'eval_rate');
  execFileSync('cc', ['-O2', '-std=c11', `-I${join(ROOT, 'core/include')}`, `-I${join(ROOT, 'wasm')}`, join(ROOT, 'bench/page/eval_rate.c'),
    join(ROOT, 'wasm/rooflab_wasm.c'), ...NATIVE_LIBS, '-lcjson', '-lm', '-o', exe]);
  out.native_evals_per_s = JSON.parse(execFileSync(exe, { encoding: 'utf8' })).native_evals_per_s;

  // Node (WASM)
  const model = await loadWasmModel();
  model.benchParams = benchParams(model);
  // eslint-disable-next-line no-eval
  out.node_wasm_evals_per_s = (0, eval)(wasmRateSource())(model);

  // Chromium: evaluations, slider latency, transfer size
  const server = await serve();
  const browser = await launch();
  try {
    server.resetBytes();
    // The predicted model on: a kernel profile, the L2 and exp roofs and the per-level points drawn.
    const page = await openPage(browser.context, `${server.url}#seq=4096&causal=1&kernel=fa3&roofs=l2%2Cexp&levels=1`);
    out.page_transfer_bytes = server.bytesServed();
    out.chromium_wasm_evals_per_s = await page.evaluate(`(() => {
      const model = window.rooflab.model;
      model.benchParams = (${benchParams.toString()})(model);
      return (${wasmRateSource()})(model);
    })()`);
    const lat = await page.evaluate(async () => {
      const range = document.querySelector('[data-testid=input-seq-range]');
      const drawn = [];
      const frame = [];
      const raf = () => new Promise((ok) => requestAnimationFrame(() => ok(performance.now())));
      await raf();
      for (let i = 0; i < 200; i++) {
        range.value = String(7 + (13 * ((i * 37) % 200)) / 200); // N from 128 to 1M, scattered
        const t0 = performance.now();
        range.dispatchEvent(new Event('input', { bubbles: true }));
        drawn.push(performance.now() - t0); // evaluate + 256-point sweep + both charts drawn (sync)
        frame.push((await raf()) - t0);     // until the next animation frame (the paint)
      }
      return { drawn, frame, sweepPoints: window.rooflab.sweepPoints() };
    });
    out.slider_to_chart_drawn_ms = { median: median(lat.drawn), p95: pct(lat.drawn, 0.95), moves: 200, sweep_points_per_model: lat.sweepPoints };
    out.slider_to_next_frame_ms = { median: median(lat.frame), p95: pct(lat.frame, 0.95) };
    out.console_errors = page.rlErrors;
    // Calls into WASM per slider move (a count): the worked calculation on screen; then with a model
    // chosen, which adds the whole-layer view.
    await page.locator('[data-testid=worked]').scrollIntoViewIfNeeded();
    await page.waitForTimeout(300);
    out.wasm_calls_per_move = { worked_open: await sliderMoveCalls(page, 'seq') };
    const withModel = await openPage(browser.context, `${server.url}#seq=4096&causal=1&kernel=fa3&roofs=l2%2Cexp&levels=1&model=llama-3.1-8b`);
    await withModel.locator('[data-testid=worked]').scrollIntoViewIfNeeded();
    await withModel.waitForTimeout(300);
    out.wasm_calls_per_move.layer_view_too = await sliderMoveCalls(withModel, 'seq');
    await withModel.close();
    // The page at scale: 0, 10,000 and 100,000 measured points (ROOFLAB_BENCH_POINTS=list to change).
    const counts = (process.env.ROOFLAB_BENCH_POINTS || '0,10000,100000').split(',').map(Number);
    out.scale = [];
    for (const n of counts) out.scale.push(await scaleCase(browser.context, `${server.url}#seq=4096&causal=1&kernel=fa3&roofs=l2%2Cexp&levels=1`, n, dir));
    // Many records: N kept ones restored, N files uploaded (ROOFLAB_BENCH_RESTORE / _UPLOAD: lists).
    const list = (v, d) => (v || d).split(',').map(Number);
    out.many = { restore: [], upload: [] };
    for (const n of list(process.env.ROOFLAB_BENCH_RESTORE, '250,1000')) out.many.restore.push(await restoreCase(browser.context, server.url, n));
    for (const n of list(process.env.ROOFLAB_BENCH_UPLOAD, '100,400')) out.many.upload.push(await uploadCase(browser.context, server.url, n, dir));
    // First start: a cold load from make run's server, several times (the first one warms Chromium).
    const served = await startServe(WEB);
    try {
      const runs = Number(process.env.ROOFLAB_BENCH_FIRST_RUNS || 7);
      const loads = [];
      for (let i = 0; i <= runs; i++) loads.push(await coldLoad(browser.context, served.url));
      loads.shift();
      out.first_start = {
        runs,
        wire_bytes: med(loads.map((l) => l.wireBytes)),
        decoded_bytes: med(loads.map((l) => l.bodyBytes)),
        requests: med(loads.map((l) => l.requests)),
        first_number_ms: { median: med(loads.map((l) => l.firstNumberMs)), min: Math.min(...loads.map((l) => l.firstNumberMs)), max: Math.max(...loads.map((l) => l.firstNumberMs)) },
        ready_ms: med(loads.map((l) => l.readyMs)),
        load_average: loadavg()[0],
      };
    } finally {
      await served.stop();
    }
  } finally {
    await browser.close();
    await server.close();
  }
  const servedRuns = Number(process.env.ROOFLAB_BENCH_SERVED_RUNS ?? 3);
  if (servedRuns > 0) {
    const t = await timeToServed(servedRuns);
    out.first_start.make_run_to_served_s = { median: med(t.map((r) => r.seconds)), runs: t.map((r) => r.seconds), url_printed_last: t.every((r) => r.lastLineIsUrl), load_average: loadavg()[0] };
  }
  // build/web: its files, and their gzip -9 copies.
  let raw = 0;
  let gz = 0;
  const walk = (d) => {
    for (const f of readdirSync(d)) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.endsWith('.gz')) gz += statSync(p).size; // build-web.sh's gzip -9 copies
      else raw += statSync(p).size;
    }
  };
  walk(WEB);
  out.build_web_bytes = raw;
  out.build_web_gzip_bytes = gz;
  out.wasm_vs_native = {
    node: out.native_evals_per_s / out.node_wasm_evals_per_s,
    chromium: out.native_evals_per_s / out.chromium_wasm_evals_per_s,
  };
  console.log(JSON.stringify(out, null, 2));
  console.log(`native ${Math.round(out.native_evals_per_s).toLocaleString('en-US')} evals/s; node WASM ${Math.round(out.node_wasm_evals_per_s).toLocaleString('en-US')} (native/WASM ${out.wasm_vs_native.node.toFixed(2)}×); Chromium WASM ${Math.round(out.chromium_wasm_evals_per_s).toLocaleString('en-US')} (${out.wasm_vs_native.chromium.toFixed(2)}×)`);
  const calls = (c) => `${c.total} (${Object.entries(c.byName).map(([k, v]) => `${k.replace(/^_rlw_|^_/, '')} ${v}`).join(', ')})`;
  console.log(`calls into WASM per move of N: ${calls(out.wasm_calls_per_move.worked_open)} with the worked calculation shown; ${calls(out.wasm_calls_per_move.layer_view_too)} with a model's whole-layer view too`);
  console.log(`slider input → charts drawn: median ${out.slider_to_chart_drawn_ms.median.toFixed(2)} ms, p95 ${out.slider_to_chart_drawn_ms.p95.toFixed(2)} ms (200 moves, ${out.slider_to_chart_drawn_ms.sweep_points_per_model} sweep points per model); to next frame: median ${out.slider_to_next_frame_ms.median.toFixed(2)} ms, p95 ${out.slider_to_next_frame_ms.p95.toFixed(2)} ms`);
  for (const c of out.scale) console.log(scaleLine(c));
  for (const [what, cases] of [['restore kept records', out.many.restore], ['upload files', out.many.upload]]) {
    const ratio = cases.length > 1 ? `; ${cases.at(-1).n / cases[0].n}× the records: ${(cases.at(-1).ms / cases[0].ms).toFixed(2)}× the time` : '';
    console.log(`${cases.map((c) => manyLine(what, c)).join('; ')}${ratio}`);
  }
  console.log(`build/web: ${out.build_web_bytes.toLocaleString('en-US')} bytes, ${out.build_web_gzip_bytes.toLocaleString('en-US')} in gzip copies; the tests' server (uncompressed) sent ${out.page_transfer_bytes.toLocaleString('en-US')} bytes for a load`);
  const fs = out.first_start;
  const kB = (b) => `${(b / 1000).toFixed(1)} kB`;
  console.log(`page transfer (make run's server, gzip): ${kB(fs.wire_bytes)} on the wire (${kB(fs.decoded_bytes)} decoded, ${fs.requests} requests); budget 400 kB`);
  console.log(`first number: median ${fs.first_number_ms.median.toFixed(0)} ms from navigation (min ${fs.first_number_ms.min.toFixed(0)}, max ${fs.first_number_ms.max.toFixed(0)}, ${fs.runs} cold loads; page ready ${fs.ready_ms.toFixed(0)} ms; load average ${fs.load_average.toFixed(1)}); budget 500 ms`);
  if (fs.make_run_to_served_s) {
    const t = fs.make_run_to_served_s;
    console.log(`make run, fresh clone → page served: median ${t.median.toFixed(1)} s (${t.runs.map((x) => x.toFixed(1)).join(', ')} s; URL the last line: ${t.url_printed_last}; load average ${t.load_average.toFixed(1)}); budget 60 s`);
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
