// Issue 21, item 6 on the page: every text that comes from a file or the user is shown as the CLI
// prints it (core's one escaper, rl_text_escape through model.escapeText): a Google Benchmark JSON
// whose file name, executable (the record's kernel) and benchmark name (the point's label) carry
// U+202E RIGHT-TO-LEFT OVERRIDE, U+200B ZERO WIDTH SPACE and ESC is uploaded; the import form's
// preview and its refusal of a bad answer, the legend under the chart, the chart's own legend and
// tooltip, the names beside the marks and the CSV export name those characters exactly as
// `rooflab import` and `rooflab validate` print them, and never carry them raw. A tour answer with
// an RLO is named in its feedback.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { openPage, ARTIFACTS, ROOT, pageEnv, clearStored, answerForm, recordsIdle } from './harness.mjs';
import { nativeCli } from '../wasm/load.mjs';
import { SCENARIOS } from '../../web/js/scenarios.js';

const CLI = nativeCli();
const env = pageEnv({ scratch: 'escape' });
// The raw characters themselves are what the test looks for (ESC among them).
// eslint-disable-next-line no-control-regex
const RAW = /[\u202e\u200b\u001b]/; // never on the page, in the chart or in the export
const RLO = '<U+202E RIGHT-TO-LEFT OVERRIDE>';
const ZWSP = '<U+200B ZERO WIDTH SPACE>';
// hand-written: what the escaper must make of the names below (one line, ESC as \x1b)
const KERNEL = `./fl${RLO}ash${ZWSP}\\x1b[31m-bench`;
const LABEL = `BM_fl${RLO}ash${ZWSP}\\x1b[31m/4/2048/16/128/manual_time`;
const FILE_SHOWN = `evil${RLO}gb.json`;

let file;
before(async () => {
  const gb = JSON.parse(await readFile(join(ROOT, 'data', 'examples', 'gbench-flash-attn-h100.json'), 'utf8'));
  const name = 'BM_fl\u202eash\u200b\u001b[31m/4/2048/16/128/manual_time';
  gb.context.executable = './fl\u202eash\u200b\u001b[31m-bench';
  gb.benchmarks = [{ ...gb.benchmarks[0], name, run_name: name }];
  file = join(env.tmp, 'evil\u202egb.json');
  await writeFile(file, JSON.stringify(gb));
});

const idle = recordsIdle;
const item = (testid) => `[data-testid="record-0"] [data-testid="${testid}"]`;

test('a gbench file with RLO, ZWSP and ESC in its names: preview, legend, tooltip and CSV as the CLI prints them', async () => {
  // the CLI's own words for the same file: the refused date, and validate's kernel
  const bad = spawnSync(CLI, ['import', 'gbench', file, '--hw', 'h100-sxm', '--date', '2026\u202e'], { encoding: 'utf8' });
  assert.equal(bad.status, 1);
  const cliDateError = `provenance.date: expected an ISO 8601 date (YYYY-MM-DD...), got "2026${RLO}"`;
  assert.ok(bad.stderr.includes(cliDateError), bad.stderr);
  const badFlag = spawnSync(CLI, ['import', 'gbench', file, '--hw', 'h100-sxm', '--kv-heads', '4\u001b'], { encoding: 'utf8' });
  assert.equal(badFlag.status, 2);
  const cliFlagError = '--kv-heads: expected a positive integer (1 to 16777216), got "4\\x1b"';
  assert.ok(badFlag.stderr.includes(cliFlagError), badFlag.stderr);
  const rec = execFileSync(CLI, ['import', 'gbench', file, '--hw', 'h100-sxm'], { encoding: 'utf8' });
  const recFile = join(env.tmp, 'evil.record.json');
  await writeFile(recFile, rec);
  const validated = execFileSync(CLI, ['validate', recFile], { encoding: 'utf8' });
  assert.ok(validated.includes(`kernel "${KERNEL}"`), validated);

  const page = await openPage(env.browser.context, env.server.url);
  await clearStored(page);
  await page.reload();
  await page.waitForSelector('html[data-ready="1"]');
  await idle(page);
  await page.setInputFiles('[data-testid="input-upload"]', [file]);
  await page.waitForSelector('[data-testid="record-0"][data-value="asking"]');
  await page.selectOption(item('import-causal'), 'false'); // the one answer the names lack
  await page.selectOption(item('import-hw'), 'h100-sxm');
  await page.waitForSelector(`${item('import-preview')}[data-value="1"]`);
  const preview = await page.textContent(item('import-preview'));
  assert.ok(preview.includes(LABEL), preview);
  assert.doesNotMatch(preview, RAW);
  assert.equal(await page.textContent('[data-testid="record-name-0"]'), FILE_SHOWN);
  // a refused answer: core's message, which quotes it, named as `rooflab import` prints it
  await page.fill(item('import-date'), '2026\u202e');
  await page.waitForSelector(`${item('import-preview')}[data-value="refused"]`);
  const refusal = await page.textContent('[data-testid="record-0"]');
  assert.ok(refusal.includes(cliDateError), refusal);
  assert.doesNotMatch(refusal.replace(/\n/g, ''), RAW);
  await page.fill(item('import-date'), '');
  await page.waitForSelector(`${item('import-preview')}[data-value="1"]`);
  // an answer core refuses by its flag: the form's own error line
  await page.fill(item('import-kv-heads'), '4\u001b');
  await page.waitForSelector(`${item('import-preview')}[data-value="refused"]`, { state: 'attached' });
  const flagError = await page.textContent(item('import-error'));
  // (the page names the field "kv-heads", the CLI its flag "--kv-heads": the rest is the same)
  assert.ok(flagError.includes(cliFlagError.slice(2)), JSON.stringify(flagError));
  assert.doesNotMatch(flagError, RAW);
  await page.fill(item('import-kv-heads'), '');
  await page.waitForSelector(`${item('import-preview')}[data-value="1"]`);
  await page.locator('[data-testid="record-0"]').screenshot({ path: join(ARTIFACTS, 'escape-import-preview.png') });
  await page.click(item('import-confirm'));
  await page.waitForSelector('[data-testid="record-0"][data-value="ok"]');
  await idle(page);
  await page.check('[data-testid="labels-toggle"]'); // the names beside the marks
  await page.waitForFunction(() => window.rooflab.chart('roofline', { points: false }).plugins.pointLabels);
  // every text drawn on the chart's canvas (roof and ceiling labels, the names beside the marks)
  const drawn = await page.evaluate(() => {
    const texts = [];
    const fill = CanvasRenderingContext2D.prototype.fillText;
    CanvasRenderingContext2D.prototype.fillText = function (t, ...rest) { texts.push(String(t)); return fill.call(this, t, ...rest); };
    try { window.rooflab.redraw('roofline'); } finally { CanvasRenderingContext2D.prototype.fillText = fill; }
    return texts;
  });
  // the mark's name (its kernel here), escaped and cut by core at 40 bytes: "./fl" (4) and the
  // RLO's named form (31) make 35, "as" 37, the most that leaves room for "..." (40 − 3)
  assert.ok(drawn.includes(`./fl${RLO}as...`), JSON.stringify(drawn));
  for (const t of drawn) assert.doesNotMatch(t, RAW, t);

  // the legend under the chart: the series is the file and the kernel, as validate prints it
  const legend = await page.textContent('[data-testid="roofline-legend"]');
  assert.ok(legend.includes(`${FILE_SHOWN}: ${KERNEL}`), legend);
  assert.doesNotMatch(legend, RAW);
  // the chart's own legend items and the tooltip of the measured point (Chart.js callbacks)
  const chartTexts = await page.evaluate(() => {
    const t = window.rooflab.pointTexts({ kind: 'measured', index: 0 });
    return { legendItems: window.rooflab.legendLabels(), tip: t.tooltip, details: t.details, label: t.label };
  });
  const tip = chartTexts.tip.join('\n');
  assert.ok(tip.includes(LABEL) || chartTexts.details.includes(LABEL), JSON.stringify(chartTexts));
  assert.ok(chartTexts.details.includes(`label: ${LABEL}`), chartTexts.details);
  for (const t of [...chartTexts.legendItems, tip, chartTexts.details, chartTexts.label]) assert.doesNotMatch(t, RAW, t);
  await page.locator('#roofline').screenshot({ path: join(ARTIFACTS, 'escape-chart.png') }).catch(() => page.screenshot({ path: join(ARTIFACTS, 'escape-chart.png') }));

  // the live region the keyboard's steps through the marks speak in: every mark said escaped
  await page.focus('[data-testid="chart-roofline"]');
  const said = [];
  for (let k = 0; k < 8; k++) {
    await page.keyboard.press('ArrowRight');
    said.push(await page.textContent('[data-testid="roofline-announce"]'));
  }
  assert.ok(said.some((t) => t.includes(LABEL)), JSON.stringify(said));
  for (const t of said) assert.doesNotMatch(t, RAW, t);

  // the CSV export: the series cell names the characters; no raw one anywhere in the file
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=action-export-csv]')]);
  const csv = await readFile(await dl.path(), 'utf8');
  assert.ok(csv.includes(`"${FILE_SHOWN}: measured",`), csv.slice(-2000));
  assert.ok(csv.includes(`,"${FILE_SHOWN}","${KERNEL}","${LABEL}",`), csv.slice(-2000)); // record, kernel, label columns
  assert.doesNotMatch(csv, RAW);
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('an ncu CSV whose kernel name carries RLO, ZWSP and ESC: hints, preview and warnings as rooflab import prints them', async () => {
  const csv = (await readFile(join(ROOT, 'data', 'examples', 'ncu-raw-flash-fwd-h100.csv'), 'utf8'))
    .replaceAll('flash_fwd_kernel', 'fl\u202eash\u200b\u001b_fwd_kernel');
  const ncu = join(env.tmp, 'evil-ncu.csv');
  await writeFile(ncu, csv);
  const flags = ['--batch', '4', '--heads', '16', '--seq', '4096', '--head-dim', '128', '--dtype', 'fp16', '--hw', 'h100-sxm'];
  const cli = spawnSync(CLI, ['import', 'ncu-csv', ncu, ...flags], { encoding: 'utf8' });
  assert.equal(cli.status, 0, cli.stderr);
  const kernel = `void flash::fl${RLO}ash${ZWSP}\\x1b_fwd_kernel<Flash_fwd_kernel_traits<`;
  const warning = `kernel "${kernel}" (its FLOP counters: sm__sass_* and sm__ops_path_tensor_*): 555.1 GFLOP differs from the model's F = 549.8 GFLOP`;
  assert.ok(cli.stderr.includes(warning), cli.stderr);

  const page = await openPage(env.browser.context, env.server.url);
  await clearStored(page);
  await page.reload();
  await page.waitForSelector('html[data-ready="1"]');
  await idle(page);
  await page.setInputFiles('[data-testid="input-upload"]', [ncu]);
  await page.waitForSelector('[data-testid="record-0"][data-value="asking"]');
  const answers = { causal: 'false', pass: 'fwd' };
  for (let k = 0; k < flags.length; k += 2) answers[flags[k].slice(2)] = flags[k + 1];
  await answerForm(page, '[data-testid="record-0"]', answers); // head dim and dtype: the kernel name's, locked
  await page.waitForSelector(`${item('import-preview')}[data-value="1"]`);
  const hints = await page.textContent(item('import-hints'));
  const preview = await page.textContent(item('import-preview'));
  assert.ok(preview.includes(kernel.replace(/<Flash.*$/, '')), preview);
  for (const t of [hints, preview]) assert.doesNotMatch(t, RAW, t);
  await page.click(item('import-confirm'));
  await page.waitForSelector('[data-testid="record-0"][data-value="ok"]');
  await idle(page);
  const shown = await page.textContent('[data-testid="record-0"]');
  assert.ok(shown.includes(warning), shown);
  assert.doesNotMatch(shown, RAW);
  await page.locator('[data-testid="record-0"]').screenshot({ path: join(ARTIFACTS, 'escape-ncu.png') });
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('a tour answer with an RLO is named in its feedback, never rendered', async () => {
  const s = SCENARIOS.find((x) => x.steps.at(-1).question);
  const page = await openPage(env.browser.context, `${env.server.url}?tour=${s.id}&step=${s.steps.length}`);
  await page.waitForSelector('html[data-ready="1"]');
  // core refuses an invisible character by name; a control it echoes is written as the CLI does
  for (const [answer, want] of [['12\u202e GB', 'U+202E RIGHT-TO-LEFT OVERRIDE'], ['12 G\u001bB', '\\x1b']]) {
    await page.fill('[data-testid=tour-answer]', answer);
    await page.press('[data-testid=tour-answer]', 'Enter');
    const text = await page.textContent('[data-testid=tour-feedback]');
    assert.ok(text.includes(want), text);
    assert.doesNotMatch(text, RAW, text);
  }
  await page.locator('[data-testid=tour-feedback]').screenshot({ path: join(ARTIFACTS, 'escape-tour.png') }).catch(() => {});
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});
