// Other tools' raw output on the page, in headless Chromium (issue 10, item 1): an ncu CSV, a
// Google Benchmark JSON, an ERT roofline.json and a record dropped together, each recognised by
// core's rl_import_detect (data-testid="import-format"); the problem form for the exports that do
// not carry it (fields import-KEY with the CLI's flag names, import-confirm), with the resulting
// points shown before they are added; the page's record byte for byte the same as
// `rooflab import` given the same answers; malformed files refused with their line or JSON path
// while everything loaded before stays.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { join, basename } from 'node:path';
import { openPage, ARTIFACTS, ROOT, pageEnv, clearStored, answersAsFlags, cliImport, recordsIdle } from './harness.mjs';
import { nativeCli } from '../wasm/load.mjs';

const EX = join(ROOT, 'data', 'examples');
const NCU = join(EX, 'ncu-raw-flash-fwd-h100.csv');
const GBENCH = join(EX, 'gbench-flash-attn-h100.json');
const ERT = join(EX, 'ert-roofline-v100.json');
const RECORD = join(ROOT, 'tests', 'record', 'cases', 'valid', 'minimal.json');
const CLI = nativeCli(); // absolute, whatever ROOFLAB holds
const env = pageEnv({ scratch: 'import' });

const idle = recordsIdle;
const count = (page) => page.$eval('[data-testid="measured-count"]', (e) => Number(e.dataset.value));
const states = (page) => page.$$eval('#records-list > li', (els) => els.map((e) => e.dataset.value));
const item = (i, testid) => `[data-testid="record-${i}"] [data-testid="${testid}"]`;

async function fresh(opts) {
  const page = await openPage(env.browser.context, env.server.url, opts);
  await clearStored(page);
  await page.reload();
  await page.waitForSelector('html[data-ready="1"]');
  await idle(page);
  return page;
}

// Files dropped on the records zone as a person would (one DataTransfer).
async function drop(page, files) {
  const list = await Promise.all(files.map(async (f) => [basename(f), await readFile(f, 'utf8')]));
  await page.evaluate((items) => {
    const dt = new DataTransfer();
    for (const [name, text] of items) dt.items.add(new File([text], name));
    document.getElementById('records-drop').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, list);
}


const heldText = (page, name) => page.evaluate((n) => window.rooflab.recordText(n), name);

test('ncu CSV, gbench, ERT and a record dropped together: recognised, asked for, identical to rooflab import', async () => {
  const page = await fresh();
  await drop(page, [NCU, GBENCH, ERT, RECORD]);
  await page.waitForFunction(() => [...document.querySelectorAll('#records-list > li')].map((e) => e.dataset.value).join() === 'asking,asking,asking,ok', null, { timeout: 30000 });
  const formats = await page.$$eval('#records-list > li', (els) => els.map((e) => e.querySelector('[data-testid="import-format"]').dataset.value));
  assert.deepEqual(formats, ['ncu-csv', 'gbench', 'ert', 'record']);
  assert.equal(await count(page), 1); // the record's point; ERT gives ceilings only
  // ERT asks only for the device it ran on (it names its host alone), not taken from the controls
  assert.deepEqual(await page.$$eval(`[data-testid="record-2"] [data-testid^="import-"]`, (els) => els.filter((e) => e.matches('input, select'))
    .map((e) => `${e.dataset.testid}=${e.value}`)), ['import-hw=', 'import-hw-name=', 'import-date=']);
  // the ncu command line that collects what the import reads: core's, as rooflab import --help prints it
  const ncuCommand = await page.textContent('[data-testid="ncu-command"]');
  assert.match(ncuCommand, /^ncu .*--csv --page raw/);
  assert.ok(execFileSync(CLI, ['import', '--help'], { encoding: 'utf8' }).includes(ncuCommand));
  assert.equal(await page.textContent(`[data-testid="record-0"] .ncu-command code`), ncuCommand);

  // what the ncu file names unasked: its kernel, flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128,
  // 64, 4, false, false, cutlass::half_t>, …>, gives d = 128, Br × Bc = 128 × 64 and fp16 (core's
  // rl_import_hints), filled in locked and said; the gbench form names no FA2 kernel traits
  assert.equal(await page.textContent(item(0, 'import-hints')),
    'From the kernel name Flash_fwd_kernel_traits<128, 128, 64, …>: head-dim 128, block-m 128, block-n 64, dtype fp16 (shown below, locked: the file says so).');
  assert.deepEqual(await Promise.all(['head-dim', 'block-m', 'block-n', 'dtype'].map((k) => page.inputValue(item(0, `import-${k}`)))), ['128', '128', '64', 'fp16']);
  assert.equal(await page.$(item(1, 'import-hints')), null);
  // ncu: the problem of flash-attn's benchmark run (B=4, H=16, N=L=4096, d=128, fp16) on an H100
  for (const [k, v] of Object.entries({ batch: '4', heads: '16', seq: '4096' })) await page.fill(item(0, `import-${k}`), v);
  await page.selectOption(item(0, 'import-causal'), 'false');
  await page.selectOption(item(0, 'import-pass'), 'fwd');
  await page.selectOption(item(0, 'import-hw'), 'h100-sxm');
  await page.fill(item(0, 'import-kernel-version'), 'flash-attn 2.6.3');
  await page.waitForSelector(`${item(0, 'import-preview')}[data-value="1"]`);
  const row = await page.$$eval(`${item(0, 'import-points')} tbody td`, (tds) => tds.map((t) => t.textContent));
  assert.match(row[1], /flash_fwd_kernel/);
  assert.equal(row[2], 'B4 H16/16 N4096 L4096 d128 fp16');
  assert.equal(row[3], '1.571 ms'); // the median of the kernel's three launches in the CSV
  const ncuFlags = await answersAsFlags(page, 0);
  await page.click(item(0, 'import-confirm'));
  await page.waitForSelector('[data-testid="record-0"][data-value="ok"]');

  // gbench: the names carry batch, heads, seq and head-dim (and here the dtype, bf16); the form
  // asks only whether it was causal; the preview shows the three runs
  await page.selectOption(item(1, 'import-causal'), 'false');
  await page.waitForSelector(`${item(1, 'import-preview')}[data-value="3"]`);
  const gbFlags = await answersAsFlags(page, 1);
  await page.click(item(1, 'import-confirm'));
  await page.waitForSelector('[data-testid="record-1"][data-value="ok"]');
  // ERT: run on the V100 of NERSC's Cori GPU nodes (data/examples' record says so)
  await page.selectOption(item(2, 'import-hw'), 'v100-sxm2');
  await page.fill(item(2, 'import-hw-name'), 'NVIDIA V100-SXM2-16GB (NERSC Cori GPU node)');
  await page.waitForSelector(`${item(2, 'import-preview')}[data-value="0"]`);
  const ertFlags = await answersAsFlags(page, 2);
  assert.deepEqual(ertFlags, ['--hw', 'v100-sxm2', '--hw-name', 'NVIDIA V100-SXM2-16GB (NERSC Cori GPU node)']);
  await page.click(item(2, 'import-confirm'));
  await page.waitForSelector('[data-testid="record-2"][data-value="ok"]');
  await idle(page);
  assert.deepEqual(await states(page), ['ok', 'ok', 'ok', 'ok']);
  assert.equal(await count(page), 1 + 3 + 1);
  await page.locator('section.records').screenshot({ path: join(ARTIFACTS, 'import-1280.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.locator('section.records').screenshot({ path: join(ARTIFACTS, 'import-1280-dark.png') });

  // the records the page holds (and keeps in storage) are the CLI's, byte for byte
  assert.equal(await heldText(page, basename(NCU)), cliImport(CLI, 'ncu-csv', NCU, ncuFlags));
  assert.equal(await heldText(page, basename(GBENCH)), cliImport(CLI, 'gbench', GBENCH, gbFlags));
  assert.equal(await heldText(page, basename(ERT)), cliImport(CLI, 'ert', ERT, ertFlags));
  // hand values: the third run's name BM_flash_attn_fwd_bf16/4/16384/16/128 is B=4, N=16384,
  // H=16, d=128 (gbench's default argument order), its median 13.02 ms as the preview showed
  const gb = JSON.parse(await heldText(page, basename(GBENCH)));
  const pb = gb.points[2].problem;
  assert.deepEqual([pb.batch, pb.seq, pb.heads, pb.head_dim, pb.dtype], [4, 16384, 16, 128, 'bf16']);
  assert.ok(Math.abs(gb.points[2].timing.median_s - 13.02e-3) < 5e-6, String(gb.points[2].timing.median_s));
  // kept across a reload like any record
  await page.reload();
  await page.waitForSelector('html[data-ready="1"]');
  await idle(page);
  assert.equal(await count(page), 5);
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('the problem form: core refuses a bad answer naming its flag; Cancel drops the file, nothing else', async () => {
  const page = await fresh({ width: 390, height: 844, colorScheme: 'dark' });
  await page.setInputFiles('[data-testid="input-upload"]', [RECORD]);
  await page.waitForSelector('[data-testid="record-0"][data-value="ok"]');
  await page.setInputFiles('[data-testid="input-upload"]', [NCU]);
  await page.waitForSelector('[data-testid="record-1"][data-value="asking"]');
  // the file picker takes CSV and JSON (and gzip'd traces, printed tables: import-traces.test.mjs)
  assert.equal(await page.getAttribute('[data-testid="input-upload"]', 'accept'), '.json,.csv,.gz,.txt,application/json,text/csv,application/gzip');
  // the needed answers the file cannot give (head dim and dtype come from its kernel name)
  await page.fill(item(1, 'import-batch'), '4');
  await page.fill(item(1, 'import-heads'), '16');
  await page.selectOption(item(1, 'import-causal'), 'false');
  await page.selectOption(item(1, 'import-pass'), 'fwd');
  await page.fill(item(1, 'import-seq'), '4096 ');
  await page.waitForSelector(`${item(1, 'import-error')}:not([hidden])`);
  assert.match(await page.textContent(item(1, 'import-error')), /^seq: /);
  assert.equal(await page.getAttribute(item(1, 'import-seq'), 'aria-invalid'), 'true');
  assert.equal(await page.$eval(item(1, 'import-confirm'), (b) => b.disabled), true);
  await page.fill(item(1, 'import-seq'), '8192');
  await page.waitForSelector(`${item(1, 'import-preview')}[data-value="1"]`);
  assert.equal(await page.$eval(item(1, 'import-confirm'), (b) => b.disabled), false);
  await page.locator('section.records').screenshot({ path: join(ARTIFACTS, 'import-form-390-dark.png') });
  // another file finishing meanwhile redraws the list; the field being typed in keeps the focus
  await page.focus(item(1, 'import-seq'));
  await page.setInputFiles('[data-testid="input-upload"]', [join(EX, 'gbench-flash-attn-h100.record.json')]);
  await page.waitForSelector('[data-testid="record-2"][data-value="ok"]');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'import-seq');
  await page.click('[data-testid="record-cancel-1"]');
  await page.waitForFunction(() => document.querySelectorAll('#records-list > li').length === 2);
  assert.match(await page.textContent('[data-testid="records-status"]'), /ncu-raw-flash-fwd-h100\.csv: check cancelled/);
  assert.equal(await count(page), 1 + 3);
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('malformed files: refused with their line or JSON path, nothing loaded is lost', async () => {
  const page = await fresh();
  await page.setInputFiles('[data-testid="input-upload"]', [RECORD]);
  await page.waitForSelector('[data-testid="record-0"][data-value="ok"]');
  const gb = await readFile(GBENCH, 'utf8');
  const ncu = await readFile(NCU, 'utf8');
  const ert = JSON.parse(await readFile(ERT, 'utf8'));
  ert.empirical.gbytes.data[0][1] = 'fast';
  const badUnit = JSON.parse(gb);
  badUnit.benchmarks[0].time_unit = 'parsec';
  const files = {
    'truncated-gbench.json': gb.slice(0, Math.floor(gb.length / 2)),
    'bad-unit-gbench.json': JSON.stringify(badUnit),
    'no-time-column.csv': ncu.replace(/"gpu__time_duration\.sum"/, '"gpu__time_whatever"'),
    'bad-ert.json': JSON.stringify(ert),
    'notes.csv': 'name,value\na,1\n',
  };
  for (const [name, text] of Object.entries(files)) await writeFile(join(env.tmp, name), text);
  await drop(page, Object.keys(files).map((n) => join(env.tmp, n)));
  await page.waitForFunction(() => document.querySelectorAll('#records-list > li').length === 6);
  await idle(page);
  // the gbench files: asked only whether they were causal; the ncu one: its problem
  for (const i of [1, 2, 3]) await page.selectOption(item(i, 'import-causal'), 'false');
  await page.selectOption(item(3, 'import-pass'), 'fwd');
  await page.fill(item(3, 'import-batch'), '4');
  await page.fill(item(3, 'import-seq'), '4096');
  // the truncated gbench file: recognised from its first keys; its import names where it stops
  await page.waitForSelector(`${item(1, 'import-preview')}[data-value="refused"]`);
  assert.match(await page.textContent(item(1, 'import-errors')), /Google Benchmark JSON at line \d+, column \d+/);
  assert.equal(await page.$eval(item(1, 'import-confirm'), (b) => b.disabled), true);
  // an unknown time unit: the benchmark's JSON path
  await page.waitForSelector(`${item(2, 'import-preview')}[data-value="refused"]`);
  assert.match(await page.textContent(item(2, 'import-errors')), /benchmarks\[0\]/);
  // the ncu export without its time column: the column named
  await page.fill(item(3, 'import-heads'), '16');
  await page.waitForSelector(`${item(3, 'import-preview')}[data-value="refused"]`);
  assert.match(await page.textContent(item(3, 'import-errors')), /gpu__time_duration/);
  // ERT with a word for a number: its form (which asks only for the device) refuses it with the
  // JSON path, and it cannot be added
  await page.waitForSelector(`${item(4, 'import-preview')}[data-value="refused"]`);
  assert.match(await page.textContent(item(4, 'import-errors')), /empirical\.gbytes/);
  assert.equal(await page.$eval(item(4, 'import-confirm'), (b) => b.disabled), true);
  // a CSV that is no tool's: core's word on the formats it looked for
  assert.equal(await page.getAttribute('[data-testid="record-5"]', 'data-value'), 'refused');
  assert.match(await page.textContent('[data-testid="record-errors-5"]'), /not a format rooflab reads/);
  assert.equal(await count(page), 1);
  assert.equal(await page.getAttribute('[data-testid="record-0"]', 'data-value'), 'ok');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.locator('section.records').screenshot({ path: join(ARTIFACTS, 'import-malformed-390.png') });
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('an import over the time limit stops its worker and says so in the form; other files load', async () => {
  const page = await openPage(env.browser.context, env.server.url);
  await page.addInitScript(() => { window.rooflabTest = { checkLimitMs: 250 }; }); // test-only limit
  await clearStored(page);
  await page.reload();
  await page.waitForSelector('html[data-ready="1"]');
  await idle(page);
  // 15,000 runs of one benchmark family (4.6 MB; a 13.7 MB record, under the 16 MiB limit, so core
  // does not refuse it before building): recognised at once, imported in about 0.5 s natively
  const gb = JSON.parse(await readFile(GBENCH, 'utf8'));
  const run = gb.benchmarks[0];
  gb.benchmarks = Array.from({ length: 15000 }, (_, i) => ({ ...run, name: `BM_flash_attn_fwd_bf16/4/${2048 + 64 * (i % 200)}/16/128/manual_time`, run_name: `r${i}` }));
  const big = join(env.tmp, 'big-gbench.json');
  await writeFile(big, JSON.stringify(gb));
  await drop(page, [big, RECORD]);
  await page.waitForSelector('[data-testid="record-1"][data-value="ok"]');
  await page.waitForSelector('[data-testid="record-0"][data-value="asking"]');
  await page.selectOption(item(0, 'import-causal'), 'false'); // the one answer the names lack
  await page.waitForSelector(`${item(0, 'import-error')}:not([hidden])`, { timeout: 30000 });
  assert.equal(await page.textContent(item(0, 'import-error')), 'not imported within 250 ms (the time limit per file); not loaded');
  assert.equal(await page.$eval(item(0, 'import-confirm'), (b) => b.disabled), true);
  assert.equal(await count(page), 1);
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});
