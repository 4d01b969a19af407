// Traces and benchmark tables on the page, in headless Chromium (issue 23, item 1): a PyTorch
// profiler trace compressed with gzip (decompressed by the browser's DecompressionStream before
// core reads it), an Nsight Systems cuda_gpu_kern_sum CSV and a Triton perf_report table
// uploaded together: each recognised by core (import-format), asked for the problem it does not
// carry, its points' exact times in the preview (data-value of the time cells, against hand
// values), the record byte for byte what `rooflab import` writes for the same answers; broken
// files refused with their message while the records loaded before stay.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { join, basename } from 'node:path';
import { openPage, ARTIFACTS, ROOT, pageEnv, clearStored, answersAsFlags, answerForm, cliImport, recordsIdle } from './harness.mjs';
import { nativeCli } from '../wasm/load.mjs';

const IM = join(ROOT, 'tests', 'record', 'imports');
const TRACE_GZ = join(IM, 'torch-gpu-flash-h100.json.gz');
const CPU_TRACE = join(IM, 'torch-cpu-debian.json');
const NSYS = join(IM, 'nsys-kern-sum-h100.csv');
const TRITON = join(IM, 'triton-fused-attention-fwd-print.txt');
const RECORD = join(ROOT, 'tests', 'record', 'cases', 'valid', 'minimal.json');
const CLI = nativeCli();
const env = pageEnv({ scratch: 'import-traces' });

const idle = recordsIdle;
const count = (page) => page.$eval('[data-testid="measured-count"]', (e) => Number(e.dataset.value));
const states = (page) => page.$$eval('#records-list > li', (els) => els.map((e) => e.dataset.value).join());
const item = (i, testid) => `[data-testid="record-${i}"] [data-testid="${testid}"]`;
const times = (page, i) => page.$$eval(`${item(i, 'import-points')} tbody tr td:nth-child(4)`, (tds) => tds.map((t) => Number(t.dataset.value)));
const heldText = (page, name) => page.evaluate((n) => window.rooflab.recordText(n), name);

async function fresh(opts) {
  const page = await openPage(env.browser.context, env.server.url, opts);
  await clearStored(page); // localStorage and the IndexedDB records
  await page.reload();
  await page.waitForSelector('html[data-ready="1"]');
  await idle(page);
  return page;
}


const fill = (page, i, answers) => answerForm(page, `[data-testid="record-${i}"]`, answers);

test('a .json.gz PyTorch trace, an nsys kern_sum CSV and a perf_report table: recognised, exact times, identical to rooflab import', async () => {
  const page = await fresh();
  await page.setInputFiles('[data-testid="input-upload"]', [RECORD]);
  await page.waitForSelector('[data-testid="record-0"][data-value="ok"]');
  // the picker takes the compressed trace and the printed table
  assert.equal(await page.getAttribute('[data-testid="input-upload"]', 'accept'), '.json,.csv,.gz,.txt,application/json,text/csv,application/gzip');
  await page.setInputFiles('[data-testid="input-upload"]', [TRACE_GZ, NSYS, TRITON]);
  await page.waitForFunction(() => [...document.querySelectorAll('#records-list > li')].map((e) => e.dataset.value).join() === 'ok,asking,asking,asking', null, { timeout: 30000 });
  const formats = await page.$$eval('#records-list > li', (els) => els.map((e) => e.querySelector('[data-testid="import-format"]').dataset.value));
  assert.deepEqual(formats, ['record', 'torch-trace', 'nsys-csv', 'triton-csv']);
  // the form asks each format for what it reads: match for the traces, unit and args for the table
  assert.ok(await page.$(item(1, 'import-match')));
  assert.ok(await page.$(item(2, 'import-match')));
  assert.ok(await page.$(item(3, 'import-unit')) && await page.$(item(3, 'import-args')));
  assert.equal(await page.$(item(3, 'import-match')), null);

  // the trace: B=4, H=16, N=4096, d=128 (the FlashAttention-2 kernels' traits), fp16; compulsory bytes
  const problem = { batch: '4', heads: '16', seq: '4096', 'head-dim': '128', dtype: 'fp16', causal: 'false', pass: 'fwd' };
  await fill(page, 1, problem);
  await page.fill(item(1, 'import-traffic-model'), 'compulsory');
  await page.waitForSelector(`${item(1, 'import-preview')}[data-value="2"]`, { timeout: 30000 });
  // forward: launches of 1000.000, 1002.500, 998.250, 1001.000, 999.000 µs → median 1 ms;
  // backward: 2500 and 2600 µs → median 2.55 ms (Kineto's "dur" is in µs)
  assert.deepEqual(await times(page, 1), [0.001, 0.00255]);
  const traceFlags = await answersAsFlags(page, 1);

  // nsys kern_sum: the flash row's "Med (ns)" 1,000,000.0 → 1 ms (the GEMM and the fill kernel left out)
  await fill(page, 2, problem);
  await page.fill(item(2, 'import-traffic-model'), 'compulsory');
  await page.waitForSelector(`${item(2, 'import-preview')}[data-value="1"]`, { timeout: 30000 });
  assert.deepEqual(await times(page, 2), [0.001]);
  // a preview without warnings shows the table alone (no stray text after it)
  assert.equal(await page.$eval(item(2, 'import-preview'), (e) => e.lastChild.tagName), 'TABLE');
  const nsysFlags = await answersAsFlags(page, 2);

  // the perf_report table: its plot name gives B 4, H 32, d 64, fwd, causal (said above the form);
  // the unit (the plot's ylabel) is asked: without it, the importer says so
  assert.match(await page.textContent(item(3, 'import-hints')), /^From the plot name …batch4-head32-d64-fwd-causal=True: batch 4, heads 32, head-dim 64, pass fwd, causal \(shown below, locked/);
  assert.deepEqual(await Promise.all(['batch', 'heads', 'head-dim'].map((k) => page.inputValue(item(3, `import-${k}`)))), ['4', '32', '64']);
  assert.equal(await page.inputValue(item(3, 'import-causal')), 'true');
  await page.waitForSelector(`${item(3, 'import-preview')}[data-value="refused"]`, { timeout: 30000 });
  assert.match(await page.textContent(item(3, 'import-errors')), /does not state its unit.*give --unit TFLOP\/s/);
  await page.fill(item(3, 'import-unit'), 'TFLOPS');
  await page.waitForSelector(`${item(3, 'import-preview')}[data-value="5"]`, { timeout: 30000 });
  // 2·B·H·d·N² = 16,384·N² FLOP (causal: half of 4·B·H·N²·d): N = 1024 at 100 TFLOP/s
  // 171.79869184 µs, at 120 (FP8) 143.1655765… µs; N = 2048 at 200 and 240; N = 4096 at 250
  const want = [[1024, 100], [1024, 120], [2048, 200], [2048, 240], [4096, 250]].map(([n, r]) => (16384 * n * n) / (r * 1e12));
  const got = await times(page, 3);
  assert.equal(got.length, 5);
  got.forEach((t, k) => assert.ok(Math.abs(t - want[k]) <= 1e-15 * want[k] + 1e-18, `${t} vs ${want[k]}`));
  assert.equal(got[0], 0.00017179869184);
  const tritonFlags = await answersAsFlags(page, 3);
  await page.locator('section.records').screenshot({ path: join(ARTIFACTS, 'import-traces-preview-1280.png') });

  for (const i of [1, 2, 3]) {
    await page.click(item(i, 'import-confirm'));
    await page.waitForSelector(`[data-testid="record-${i}"][data-value="ok"]`, { timeout: 30000 });
  }
  await idle(page);
  assert.equal(await states(page), 'ok,ok,ok,ok');
  assert.equal(await count(page), 1 + 2 + 1 + 5);
  await page.locator('section.records').screenshot({ path: join(ARTIFACTS, 'import-traces-1280.png') });
  // the page's records are the CLI's byte for byte (the CLI decompresses the .gz with zlib)
  assert.equal(await heldText(page, basename(TRACE_GZ)), cliImport(CLI, 'torch-trace', TRACE_GZ, traceFlags));
  assert.equal(await heldText(page, basename(NSYS)), cliImport(CLI, 'nsys-csv', NSYS, nsysFlags));
  assert.equal(await heldText(page, basename(TRITON)), cliImport(CLI, 'triton-csv', TRITON, tritonFlags));
  const rec = JSON.parse(await heldText(page, basename(TRACE_GZ)));
  assert.equal(rec.hardware.preset, 'h100-sxm'); // from deviceProperties' "NVIDIA H100 80GB HBM3"
  assert.equal(rec.points[0].timing.runs, 5);
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('broken traces and tables: refused with their message, the records loaded before kept', async () => {
  const page = await fresh({ width: 390, height: 844 });
  await page.setInputFiles('[data-testid="input-upload"]', [RECORD]);
  await page.waitForSelector('[data-testid="record-0"][data-value="ok"]');
  const gz = await readFile(TRACE_GZ);
  const nsys = await readFile(NSYS, 'utf8');
  const files = {
    'cut.json.gz': gz.subarray(0, 700), // a gzip stream cut short
    'cpu.json': await readFile(CPU_TRACE), // Debian's torch on the CPU: no GPU kernel
    'comma.csv': nsys.replace('"1,000,000.0"', '"1.000.000,0"'), // another locale's decimal comma
    'bomb.json.gz': gzipSync(Buffer.alloc(17000000, 32)), // 17 kB that inflate past 16 MiB
  };
  for (const [name, bytes] of Object.entries(files)) await writeFile(join(env.tmp, name), bytes);
  await page.setInputFiles('[data-testid="input-upload"]', Object.keys(files).map((n) => join(env.tmp, n)));
  await page.waitForFunction(() => document.querySelectorAll('#records-list > li').length === 5);
  // the cut gzip file: refused at once, the browser's decompressor's word in the message
  await page.waitForSelector('[data-testid="record-1"][data-value="refused"]', { timeout: 30000 });
  assert.match(await page.textContent('[data-testid="record-errors-1"]'), /not a valid gzip file .*cut short\?/);
  // the CPU trace: recognised, then refused whatever the answers, saying why
  await page.waitForSelector(`${item(2, 'import-preview')}[data-value="refused"]`, { timeout: 30000 });
  assert.match(await page.textContent(item(2, 'import-errors')), /traceEvents: no GPU kernel events \("cat": "kernel", "ph": "X"\) among its 207 events/);
  // the decimal comma: its line and column
  await page.waitForSelector(`${item(3, 'import-preview')}[data-value="refused"]`, { timeout: 30000 });
  assert.match(await page.textContent(item(3, 'import-errors')), /line 5, column Med \(ns\): got "1\.000\.000,0": a decimal comma/);
  assert.equal(await page.$eval(item(3, 'import-confirm'), (b) => b.disabled), true);
  // the gzip bomb: stopped while it inflates, at the file limit
  await page.waitForSelector('[data-testid="record-4"][data-value="refused"]', { timeout: 30000 });
  assert.match(await page.textContent('[data-testid="record-errors-4"]'), /decompressed, the file is larger than the limit of 16777216 bytes \(16 MiB\)/);
  await idle(page);
  assert.equal(await count(page), 1);
  assert.equal(await page.getAttribute('[data-testid="record-0"]', 'data-value'), 'ok');
  await page.locator('#records-list').screenshot({ path: join(ARTIFACTS, 'import-traces-broken-390.png') });
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});
