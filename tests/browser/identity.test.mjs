// Identity on the chart and hardware honesty (issue 20, items 1 and 2), in headless Chromium,
// through the test hook's public chart data (window.rooflab.chart: datasets, the identity plugins'
// last draw): a record's kernels (or the field that varies) each their own mark and series name;
// each measured × joined to its own ☆ by a line carrying core's error in %; the controls' ★
// captioned as theirs; the hover drop-line with "N % of its roof"; "Adopt this problem" in a
// point's details; the banner for points of other hardware with its two actions; a foreign
// ceiling asking before it becomes β; ceiling labels named with their precision and apart; the
// compare axis taking in every ridge. Screenshots in test-artifacts/identity-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { serve, launch, openPage, ARTIFACTS, ROOT, hoverMark, clearStored, recordsIdle } from './harness.mjs';

const EX = join(ROOT, 'data', 'examples');
let server;
let browser;
let tmp;
before(async () => {
  await mkdir(ARTIFACTS, { recursive: true });
  tmp = await mkdtemp(join(tmpdir(), 'rooflab-identity-'));
  server = await serve();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

const idle = recordsIdle;
async function fresh(hash = '', opts = {}) {
  const page = await openPage(browser.context, server.url, opts);
  await clearStored(page);
  await page.reload();
  await page.waitForSelector('html[data-ready="1"]');
  await idle(page);
  if (hash) { // a link's state (a hash change loads it)
    await page.evaluate((h) => { location.hash = h; }, hash);
    await page.waitForFunction((h) => new URLSearchParams(h.slice(1)).get('hw') === window.rooflab.state.hw, hash);
  }
  return page;
}
async function loadExamples(page, files) {
  for (const f of files) {
    const before = await page.$$eval('#records-list > li', (e) => e.length);
    await page.selectOption('[data-testid="input-example"]', f);
    await page.click('[data-testid="action-load-example"]');
    await page.waitForFunction((n) => document.querySelectorAll('#records-list > li[data-value="ok"]').length > n, before);
    await idle(page);
  }
}
const toChart = (page) => page.$eval('#roofline', (e) => e.scrollIntoView({ block: 'center' }));
const chart = (page) => page.evaluate(() => window.rooflab.chart('roofline'));
const measuredSets = (c) => c.datasets.filter((d) => d.rlKind === 'measured' && !d.showLine);
const example = async (name) => JSON.parse(await readFile(join(EX, name), 'utf8'));
const webExample = async (name) => JSON.parse(await readFile(join(ROOT, 'data', 'published', name), 'utf8').catch(() => readFile(join(ROOT, 'build', 'web', 'examples', name), 'utf8')));

test('a record\'s points told apart by the field that varies: gbench\'s N = 2,048 / 8,448 / 16,384', async () => {
  const page = await fresh();
  await loadExamples(page, ['gbench-flash-attn-h100.record.json']);
  const rec = await example('gbench-flash-attn-h100.record.json');
  // the file's three points share one kernel and differ in seq only (batch 4, d 128 in all three)
  assert.deepEqual(rec.points.map((p) => p.problem.seq), [2048, 8448, 16384]);
  assert.equal(new Set(rec.points.map((p) => p.kernel || rec.software.kernel)).size, 1);
  const c = await chart(page);
  const crosses = measuredSets(c).filter((d) => d.pointStyle !== 'star');
  assert.deepEqual(crosses.map((d) => d.label), ['gbench-flash-attn-h100.record.json: N = 2,048', 'gbench-flash-attn-h100.record.json: N = 8,448',
    'gbench-flash-attn-h100.record.json: N = 16,384']);
  assert.equal(new Set(crosses.map((d) => `${d.pointStyle}|${d.pointRotation}`)).size, 3, 'three marks, one per N');
  // the labels toggle names each point by what varies (not three times the benchmark binary)
  assert.deepEqual(crosses.map((d) => d.data[0].name), ['N = 2,048', 'N = 8,448', 'N = 16,384']);
  await page.check('[data-testid="labels-toggle"]');
  await toChart(page);
  await page.screenshot({ path: join(ARTIFACTS, 'identity-gbench.png') });
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('the FA3 paper\'s ten kernels: one mark each, named by kernel; each × joined to its ☆ with the error in %', async () => {
  const page = await fresh();
  await loadExamples(page, ['fa3-paper-h100.json']);
  const rec = await webExample('fa3-paper-h100.json');
  const kernels = [...new Set(rec.points.map((p) => p.kernel || rec.software.kernel))];
  assert.equal(kernels.length, 10);
  const c = await chart(page);
  const crosses = measuredSets(c).filter((d) => d.pointStyle !== 'star');
  assert.equal(crosses.length, 10);
  assert.deepEqual(crosses.map((d) => d.label.replace(/^fa3-paper-h100\.json: /, '')).sort(), [...kernels].sort());
  assert.equal(new Set(crosses.map((d) => `${d.pointStyle}|${d.pointRotation}`)).size, 10, 'ten different marks');
  // every point is in the series of its own kernel
  for (const d of crosses) assert.ok(d.data.every((p) => d.label.endsWith(`: ${p.kernel}`)), d.label);
  assert.equal(crosses.reduce((n, d) => n + d.n, 0), rec.points.length);
  // the legend under the chart keys each with its mark
  const swatches = await page.$$eval('#roofline-legend .swatch.measured', (s) => s.map((x) => x.className));
  assert.ok(swatches.some((s) => /shape-triangle-r180/.test(s)), swatches.join());
  // the × → ☆ lines: one per predicted point, at the point's intensity, from its achieved to its
  // predicted throughput, carrying core's prediction_error ((predicted − measured) / measured time)
  const pairs = c.plugins.pairs;
  const report = await page.evaluate(() => window.rooflab.recordReport(0));
  const predicted = report.record.points.filter((p) => p.derived.predicted_time_s > 0);
  assert.ok(predicted.length > 100, `${predicted.length} predicted points`);
  assert.equal(pairs.length, predicted.length);
  for (const p of predicted) {
    const d = p.derived;
    const pair = pairs.find((q) => q.x === d.intensity_flop_per_byte && q.y === d.achieved_flops_per_s);
    assert.ok(pair, `${p.label} has its line`);
    assert.equal(pair.predY, d.predicted_flops_per_s);
    // the same time both ways: achieved / predicted throughput = predicted / measured time
    assert.ok(Math.abs(d.achieved_flops_per_s / d.predicted_flops_per_s - (1 + d.prediction_error)) < 1e-9);
    const pct = (100 * d.prediction_error).toFixed(1);
    assert.equal(pair.text, `${d.prediction_error > 0 ? '+' : ''}${pct} %`);
  }
  assert.ok(pairs.some((p) => p.labelled), 'errors written beside their lines');
  await toChart(page);
  await page.screenshot({ path: join(ARTIFACTS, 'identity-fa3.png') });
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('the controls\' ★ is captioned as theirs; a hovered point drops to its own roof; its details adopt its problem', async () => {
  const page = await fresh('#seq=4096&heads=8&head-dim=64&batch=1&dtype=fp16&hw=h100-sxm');
  let c = await chart(page);
  const star = c.datasets.find((d) => d.rlKind === 'predicted');
  assert.equal(star.data[0].caption, 'prediction for B1 H8 N4096 d64 fp16 — the controls');
  assert.equal(c.plugins.star, '', 'no caption drawn while no measured point is beside it');
  await loadExamples(page, ['gbench-flash-attn-h100.record.json']);
  c = await chart(page);
  assert.equal(c.plugins.star, '★ prediction for B1 H8 N4096 d64 fp16 — the controls');
  // moving N moves the caption with the star (the fast path draws it too)
  await page.evaluate(() => { location.hash = 'seq=8192&heads=8&head-dim=64&batch=1&dtype=fp16&hw=h100-sxm'; });
  await page.waitForFunction(() => window.rooflab.chart('roofline', { points: false }).plugins.star.includes('N8192'));
  // the predicted star's tooltip says whose problem it is
  await toChart(page);
  await hoverMark(page, { kind: 'predicted' });
  c = await chart(page);
  assert.ok(c.tooltip.lines.some((l) => l === '★ prediction for B1 H8 N8192 d64 fp16 — the controls') ||
    (await page.evaluate(() => window.rooflab.pointTexts({ kind: 'predicted' }).details)).includes('★ prediction for B1 H8 N8192 d64 fp16 — the controls'));
  // hover the N = 8,448 point: a drop-line to the attainable throughput on its own (H100) roof
  const report = await page.evaluate(() => window.rooflab.recordReport(0));
  const d = report.record.points[1].derived;
  await page.mouse.move(5, 5);
  await page.waitForFunction(() => window.rooflab.chart('roofline', { points: false }).tooltip.opacity === 0);
  await hoverMark(page, { kind: 'measured', label: 'gbench-flash-attn-h100.record.json: N = 8,448' });
  c = await chart(page);
  assert.ok(c.plugins.drop, `a drop-line drawn: ${JSON.stringify(c.tooltip)}`);
  assert.equal(c.plugins.drop.roofY, d.attainable_flops_per_s);
  assert.equal(c.plugins.drop.y, d.achieved_flops_per_s);
  assert.equal(c.plugins.drop.text, `${Math.round(100 * d.efficiency)} % of its roof`);
  await toChart(page);
  await page.screenshot({ path: join(ARTIFACTS, 'identity-drop.png') });
  await page.mouse.move(5, 5);
  await page.waitForFunction(() => window.rooflab.chart('roofline', { points: false }).plugins.drop === null);
  // click the point: its details end with "Adopt this problem"; it sets the controls to its problem
  const at = await page.evaluate(() => window.rooflab.markAt('roofline', { kind: 'measured', label: 'gbench-flash-attn-h100.record.json: N = 8,448' }));
  await page.mouse.click(at.x, at.y);
  await page.waitForSelector('[data-testid="point-details-adopt"]');
  await toChart(page);
  await page.screenshot({ path: join(ARTIFACTS, 'identity-details.png') });
  await page.click('[data-testid="point-details-adopt"]');
  await page.waitForFunction(() => window.rooflab.state.seq === 8448 || window.rooflab.state.seq === '8448');
  const s = await page.evaluate(() => window.rooflab.state);
  const pb = report.record.points[1].problem;
  assert.deepEqual([Number(s.seq), Number(s.batch), Number(s['head-dim']), s.hw], [pb.seq, pb.batch, pb.head_dim, 'h100-sxm']);
  c = await chart(page);
  assert.equal(c.datasets.find((x) => x.rlKind === 'predicted').data[0].caption,
    `prediction for B${pb.batch} H${pb.heads} N${pb.seq} d${pb.head_dim} ${pb.dtype}${pb.causal ? ' causal' : ''} — the controls`);
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('points of other hardware: the banner names them and switches the preset or compares', async () => {
  const page = await fresh('#hw=h100-sxm');
  await loadExamples(page, ['flash-decoding-blog-a100.json']);
  const rec = await webExample('flash-decoding-blog-a100.json');
  assert.equal(rec.hardware.preset, 'a100-sxm4-80gb');
  const n = rec.points.length; // 30, every one on the A100
  assert.equal(await page.isVisible('[data-testid="hw-banner"]'), true);
  assert.equal(await page.getAttribute('[data-testid="hw-banner"]', 'data-value'), String(n));
  const text = await page.textContent('[data-testid="hw-banner-text"]');
  assert.match(text, new RegExp(`^⚠ ${n} points ran on A100 SXM4 80GB, not on the H100 SXM5 80GB roof drawn: switch the preset or compare\\.$`), text);
  await toChart(page);
  await page.screenshot({ path: join(ARTIFACTS, 'identity-banner.png') });
  // a phone, dark: the banner and its two buttons above the chart
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.locator('#hw-banner').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(ARTIFACTS, 'identity-banner-390-dark.png') });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'light' });
  // compare: compare mode with the A100 and the page's H100, each point on its own roof; no banner
  await page.click('[data-testid="hw-banner-compare"]');
  await page.waitForFunction(() => document.querySelector('[data-testid="compare-toggle"]').checked);
  const picked = await page.$$eval('[data-testid^="compare-preset-"]', (s) => s.map((x) => x.value).filter(Boolean));
  assert.deepEqual(picked.sort(), ['preset:a100-sxm4-80gb', 'preset:h100-sxm']);
  assert.equal(await page.isVisible('[data-testid="hw-banner"]'), false);
  await page.uncheck('[data-testid="compare-toggle"]');
  await page.waitForSelector('[data-testid="hw-banner"]', { state: 'visible' });
  // switch: the page's preset becomes the points' own; the banner goes
  await page.click('[data-testid="hw-banner-switch"]');
  await page.waitForFunction(() => window.rooflab.state.hw === 'a100-sxm4-80gb');
  await page.waitForSelector('[data-testid="hw-banner"]', { state: 'hidden' });
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('a foreign ceiling asks before it becomes β; ceiling labels name their precision and stay apart; the compare axis takes in every ridge', async () => {
  const page = await fresh('#hw=h100-sxm');
  await loadExamples(page, ['ert-roofline-v100.record.json']);
  // the V100's ERT ceilings on the H100 page: the banner says whose they are
  assert.match(await page.textContent('[data-testid="hw-banner-text"]'), /The ceilings of ert-roofline-v100\.record\.json were measured on V100 SXM2, not on the H100 SXM5 80GB roof drawn/);
  let c = await chart(page);
  const labels = c.datasets.filter((d) => d.rlKind === 'measured' && d.showLine).map((d) => d.rlLabel.text);
  // FP64 named by the ceiling itself; the datasheet "spec GFLOPs" says it names none
  assert.ok(labels.includes('V100-SXM2-16GB FP64 GFLOPs 7.069 TFLOP/s'), labels.join(' | '));
  assert.ok(labels.includes('V100-SXM2-16GB spec GFLOPs (precision not stated) 7.8 TFLOP/s'), labels.join(' | '));
  // the line labels as placed: none over another
  const boxes = c.plugins.lineLabels;
  assert.ok(boxes.length >= 6, `${boxes.length} labels placed`);
  for (let i = 0; i < boxes.length; i++) {
    for (let j = 0; j < i; j++) {
      const a = boxes[i], b = boxes[j];
      assert.ok(!(a.x0 < b.x1 && a.x1 > b.x0 && a.y0 < b.y1 && a.y1 > b.y0), `"${a.text}" overlaps "${b.text}"`);
    }
  }
  await toChart(page);
  await page.screenshot({ path: join(ARTIFACTS, 'identity-ceilings.png') });
  // "use as bandwidth" on the V100's DRAM ceiling: asked first; "Keep the roof" keeps the H100's
  const beta = async () => page.evaluate(() => window.rooflab.state.bandwidth || '');
  // the record's third ceiling is its measured DRAM (L1, L2, DRAM, FP64 GFLOPs, spec DRAM, spec GFLOPs)
  assert.equal(await page.textContent('[data-testid="use-ceiling-0-2"]'), 'use as bandwidth β');
  const tid = 'use-ceiling-0-2';
  await page.click(`[data-testid="${tid}"]`);
  await page.waitForSelector('[data-testid="ceiling-confirm"]');
  assert.match(await page.textContent('[data-testid="ceiling-confirm"]'), /828\.8 GB\/s, as the page.s bandwidth β\? This mixes the V100-SXM2-16GB’s 828\.8 GB\/s bandwidth ceiling with the H100 SXM5 80GB’s/);
  assert.equal(await beta(), '', 'nothing changed while asked');
  await page.click('[data-testid="ceiling-confirm-no"]');
  assert.equal(await page.$('[data-testid="ceiling-confirm"]'), null);
  assert.equal(await beta(), '');
  await page.click(`[data-testid="${tid}"]`);
  await page.click('[data-testid="ceiling-confirm-yes"]');
  await page.waitForFunction(() => /828\.8/.test(window.rooflab.state.bandwidth || ''));
  // compare: the V100's measured ceilings (FP64, ridge 7.0689 TFLOP/s / 828.8 GB/s = 8.53 FLOP/B)
  // and the H100's fp16 tensor roof, each label naming its precision, both ridges on the axis
  await page.evaluate(() => { location.hash = 'hw=h100-sxm'; });
  await page.check('[data-testid="compare-toggle"]');
  await page.selectOption('[data-testid="compare-preset-1"]', 'preset:h100-sxm');
  c = await chart(page);
  const roofs = c.datasets.filter((d) => d.rlKind === 'roof');
  assert.equal(roofs.length, 2);
  assert.deepEqual([c.plugins.ridge, c.plugins.ridgeBox], ['', null], 'no page ridge labelled: each device has its own roof');
  assert.match(roofs[0].rlLabel.text, /^V100-SXM2-16GB \(measured\) 7\.069 TFLOP\/s FP64, 828\.8 GB\/s$/);
  assert.match(roofs[1].rlLabel.text, /H100 SXM5 80GB .*fp16 tensor/);
  const ridgeV100 = 7.0689e12 / 828.8e9; // 8.529 FLOP/B
  const h100 = roofs[1].data.find((p, i) => i > 0 && i < roofs[1].data.length - 1); // the ridge vertex
  assert.ok(c.scales.x.min <= ridgeV100 && c.scales.x.max >= ridgeV100, `${c.scales.x.min} … ${c.scales.x.max}`);
  assert.ok(h100 && c.scales.x.min <= h100.x && c.scales.x.max >= h100.x, 'the H100 ridge on the axis');
  await toChart(page);
  await page.screenshot({ path: join(ARTIFACTS, 'identity-compare.png') });
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('an ERT upload says which device it ran on: asked (never taken from the controls), then named on the banner', async () => {
  const page = await fresh('#hw=h100-sxm');
  await page.setInputFiles('[data-testid="input-upload"]', [join(EX, 'ert-roofline-v100.json')]);
  const field = (t) => `[data-testid="record-0"] [data-testid="${t}"]`;
  await page.waitForSelector(field('import-hw'));
  // only the device is asked, and nothing is said for it until chosen (the page shows an H100)
  assert.equal(await page.inputValue(field('import-hw')), '');
  assert.equal(await page.inputValue(field('import-hw-name')), '');
  assert.equal(await page.$(field('import-seq')), null, 'no problem fields: ERT measures a device, not a problem');
  await page.selectOption(field('import-hw'), 'v100-sxm2');
  await page.waitForSelector(`${field('import-preview')}[data-value="0"]`);
  await page.locator('[data-testid="record-0"]').screenshot({ path: join(ARTIFACTS, 'identity-ert-form.png') });
  await page.click(field('import-confirm'));
  await page.waitForSelector('[data-testid="record-0"][data-value="ok"]');
  await idle(page);
  const rec = JSON.parse(await page.evaluate(() => window.rooflab.recordText(0)));
  assert.equal(rec.hardware.preset, 'v100-sxm2');
  // its ceilings are now the V100's: the banner offers that preset
  assert.match(await page.textContent('[data-testid="hw-banner-text"]'), /The ceilings of ert-roofline-v100\.json were measured on V100 SXM2, not on the H100 SXM5 80GB roof drawn/);
  assert.equal(await page.textContent('[data-testid="hw-banner-switch"]'), 'Switch the preset to V100 SXM2');
  await page.click('[data-testid="hw-banner-switch"]');
  await page.waitForFunction(() => window.rooflab.state.hw === 'v100-sxm2');
  await page.waitForSelector('[data-testid="hw-banner"]', { state: 'hidden' });
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

// A hostile record (issue-19/20 leftovers): its device, ceilings, kernels and labels are each a
// 300-character name that opens with HTML, a RIGHT-TO-LEFT OVERRIDE, a RIGHT-TO-LEFT MARK, BEL and
// an ESC sequence. Every text the roofline's canvas draws is core's escaped form, cut by core where
// long (rl_text_escape's max_bytes through model.escapeText: on a whole character or named form,
// ending "..."); line labels and tooltips stay inside the chart; nothing of it runs as HTML.
// The raw characters are what the test looks for.
// eslint-disable-next-line no-control-regex
const RAW_HOSTILE = /[\u202e\u200f\u0007\u001b]/;
const HOSTILE = '<img src=x onerror=alert(1)>\u202eevil\u200f\u0007\u001b[31m' + 'x'.repeat(300);
function hostileRecord() {
  // two points, B 4, H 16, d 128, non-causal: F = 4·B·H·d·N² (N = L); times for ~300 TFLOP/s
  const p = (seq, i) => {
    const flops = 4 * 4 * 16 * 128 * seq * seq; // 4·B·H·d·N·L
    return { problem: { batch: 4, heads: 16, seq, head_dim: 128, dtype: 'bf16' }, timing: { median_s: flops / 3e14 }, flops, label: `${HOSTILE}${i}`, kernel: `${HOSTILE}k${i}` };
  };
  return JSON.stringify({
    schema: 'rooflab-record', schema_version: 1, provenance: { kind: 'measured' },
    hardware: { name: HOSTILE, preset: 'h100-sxm', ceilings: [{ name: HOSTILE, bytes_per_s: 3.0e12, level: 'dram', source: 'measured' }, { name: `${HOSTILE} FP16`, flops_per_s: 7.0e14, dtype: 'fp16', source: 'measured' }] },
    software: { kernel: HOSTILE, kernel_version: '1' }, points: [p(2048, 0), p(8192, 1)],
  });
}
// every text the roofline's canvas draws in one full draw
const drawnTexts = (page) => page.evaluate(() => {
  const texts = [];
  const fill = CanvasRenderingContext2D.prototype.fillText;
  CanvasRenderingContext2D.prototype.fillText = function (t, ...rest) { texts.push(String(t)); return fill.call(this, t, ...rest); };
  try { window.rooflab.redraw('roofline'); } finally { CanvasRenderingContext2D.prototype.fillText = fill; }
  return texts;
});
const utf8 = (s) => Buffer.byteLength(s, 'utf8');

test('a hostile record\'s 300-character names (HTML, RLO, RLM, BEL, ESC): escaped and cut by core on the canvas, the chart intact', async () => {
  for (const size of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    const page = await fresh('#hw=h100-sxm', size);
    let dialogs = 0;
    page.on('dialog', (d) => { dialogs++; d.dismiss(); });
    const before = await chart(page);
    const file = join(tmp, 'hostile.json');
    await writeFile(file, hostileRecord());
    await page.setInputFiles('[data-testid="input-upload"]', [file]);
    await page.waitForSelector('#records-list > li[data-value="ok"]');
    await idle(page);
    await page.check('[data-testid="labels-toggle"]');
    await toChart(page);
    const c = await chart(page);
    // the canvas keeps its size; the plot area its place
    assert.equal(c.tooltip.chartWidth, before.tooltip.chartWidth);
    const a = c.area;
    const drawn = await drawnTexts(page);
    for (const t of drawn) assert.doesNotMatch(t, RAW_HOSTILE, t);
    // the names beside the marks (each kernel's): core's cut at 40 bytes. The escaped name starts
    // "<img src=x onerror=alert(1)>" (28 bytes) and then "<U+202E RIGHT-TO-LEFT OVERRIDE>" (31
    // bytes); 28 + 31 is past the 37 bytes left before "...", so the named form is not begun:
    // (the second name would cover the first and is left out: the details have it)
    const cut = '<img src=x onerror=alert(1)>...';
    assert.ok(drawn.includes(cut), JSON.stringify(drawn));
    // the ceilings' labels: escaped, cut to the plot's width, inside the plot and apart
    const labels = c.plugins.lineLabels.filter((b) => b.text.startsWith('<img src=x onerror=alert(1)>'));
    assert.equal(labels.length, 2, JSON.stringify(c.plugins.lineLabels.map((b) => b.text)));
    for (const b of labels) {
      assert.ok(b.text.endsWith('...'), b.text);
      assert.ok(utf8(b.text) < 300, `${utf8(b.text)} bytes: cut`);
      assert.ok(b.x0 >= a.left && b.x1 <= a.right && b.y0 >= a.top - 1 && b.y1 <= a.bottom, `${JSON.stringify(b)} inside ${JSON.stringify(a)}`);
      assert.ok(drawn.includes(b.text));
    }
    // a measured mark's tooltip: escaped, then each line at most 50 bytes, and no wider than the chart
    await hoverMark(page, { kind: 'measured', index: 0 });
    const tip = (await chart(page)).tooltip;
    assert.ok(tip.opacity > 0 && tip.lines.length > 0, JSON.stringify(tip));
    for (const l of tip.lines) {
      assert.doesNotMatch(l, RAW_HOSTILE, l);
      assert.ok(utf8(l) <= 50, `${utf8(l)} bytes: ${l}`);
    }
    assert.ok(tip.width <= tip.chartWidth, `tooltip ${tip.width} px in a ${tip.chartWidth} px chart`);
    // nothing ran or was made from the names' HTML
    assert.equal(await page.$$eval('img[src="x"]', (e) => e.length), 0);
    assert.equal(dialogs, 0);
    await page.screenshot({ path: join(ARTIFACTS, `identity-hostile-${size.width}.png`) });
    assert.deepEqual(page.rlErrors, []);
    await page.close();
  }
});

// The ★'s caption and the ridge's label, at 1280×800 and on a phone (390×844), with the banner
// shown (the Flash-Decoding blog's A100 points on the H100 page): the caption used to lie over the
// tiled ▲ beside the star, and the ridge's label ("ridge I* = π/β = …", drawn at the foot of its
// line whatever was there) under the measured points' names. Every box either could cover is read
// from the hook and built here from what was drawn — each mark's canvas place and its radius plus
// border (the working points, the star, every measured mark), the line labels, the × → ☆ error
// labels, the point names as placed and the band's note — and neither label meets any of them, nor
// the other.
const meets = (b, r) => b.x0 < r.x1 && b.x1 > r.x0 && b.y0 < r.y1 && b.y1 > r.y0;
async function drawnBoxes(page, c) {
  const boxes = [];
  for (const d of c.datasets.filter((x) => ['point', 'predicted', 'level', 'measured'].includes(x.rlKind) && !x.showLine && !x.hidden)) {
    const r = d.pointRadius + d.borderWidth;
    for (let index = 0; index < d.n; index++) {
      const at = await page.evaluate(([kind, label, i]) => window.rooflab.markAt('roofline', { kind, label, index: i }), [d.rlKind, d.label, index]);
      if (at) boxes.push({ x0: at.px - r, x1: at.px + r, y0: at.py - r, y1: at.py + r, what: `${d.label} #${index}` });
    }
  }
  for (const b of [...c.plugins.lineLabels, ...c.plugins.pairBoxes, ...c.plugins.pointLabelBoxes]) boxes.push({ ...b, what: b.text || 'label' });
  if (c.plugins.bandNote) boxes.push({ ...c.plugins.bandNote, what: 'band note' });
  return boxes;
}

// The H100 SXM5's ridge on its fp16 tensor roof: π/β = 989 TFLOP/s / 3.35 TB/s = 295.22 FLOP/B.
const H100_RIDGE = 989e12 / 3.35e12;
for (const size of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
  test(`the ★'s caption and the ridge's label at ${size.width}×${size.height} with the banner shown cover no mark, no label and not each other`, async () => {
    const page = await fresh('#hw=h100-sxm', size);
    await loadExamples(page, ['flash-decoding-blog-a100.json']);
    assert.equal(await page.isVisible('[data-testid="hw-banner"]'), true);
    await toChart(page);
    const check = async (what) => {
      const c = await chart(page);
      const a = c.area;
      const inside = (b) => b.x0 >= a.left && b.x1 <= a.right && b.y0 >= a.top && b.y1 <= a.bottom;
      const box = c.plugins.starBox;
      assert.ok(box && c.plugins.star.startsWith('★ prediction for'), `${what}: a caption drawn (${JSON.stringify(c.plugins.star)})`);
      assert.ok(inside(box), `${what}: the caption inside the plot`);
      // the ridge's label: core's ridge in its words, on its line (over it or 4 px beside it)
      const ridge = c.plugins.ridgeBox;
      assert.ok(ridge && ['ridge I* = π/β = 295.2 FLOP/B', 'I* = 295.2 FLOP/B'].includes(c.plugins.ridge), `${what}: the ridge labelled (${JSON.stringify(c.plugins.ridge)})`);
      assert.ok(inside(ridge), `${what}: the ridge's label inside the plot`);
      const lg = Math.log10;
      const ridgePx = a.left + (lg(H100_RIDGE) - lg(c.scales.x.min)) / (lg(c.scales.x.max) - lg(c.scales.x.min)) * (a.right - a.left);
      assert.ok(ridge.x0 - 4.5 <= ridgePx && ridgePx <= ridge.x1 + 4.5, `${what}: the label ${JSON.stringify(ridge)} by the ridge at x = ${ridgePx}`);
      const boxes = await drawnBoxes(page, c);
      assert.ok(boxes.some((b) => b.what === 'tiled #0'), 'the tiled ▲ is among them');
      const hit = boxes.filter((b) => meets(box, b));
      assert.deepEqual(hit.map((b) => b.what), [], `${what}: the caption ${JSON.stringify(box)} covers ${JSON.stringify(hit)}`);
      const ridgeHit = boxes.filter((b) => meets(ridge, b));
      assert.deepEqual(ridgeHit.map((b) => b.what), [], `${what}: the ridge's label ${JSON.stringify(ridge)} covers ${JSON.stringify(ridgeHit)}`);
      assert.ok(!meets(box, ridge), `${what}: the caption ${JSON.stringify(box)} and the ridge's label ${JSON.stringify(ridge)} apart`);
      return c;
    };
    await check('the example');
    await page.screenshot({ path: join(ARTIFACTS, `identity-star-caption-${size.width}.png`) });
    // with the points named (on the phone the ridge's foot is under "pytorch-eager"), and after N
    // moves (a fast draw places both again)
    await page.check('[data-testid="labels-toggle"]');
    const named = await check('with the names beside the marks');
    assert.ok(named.plugins.pointLabelBoxes.length >= 4, `${named.plugins.pointLabelBoxes.length} names drawn`);
    await page.screenshot({ path: join(ARTIFACTS, `identity-star-caption-${size.width}-names.png`) });
    await page.evaluate(() => { location.hash = 'hw=h100-sxm&seq=16384'; });
    await page.waitForFunction(() => window.rooflab.state.seq === 16384 || window.rooflab.state.seq === '16384');
    await check('at N = 16,384');
    await page.screenshot({ path: join(ARTIFACTS, `identity-star-caption-${size.width}-16k.png`) });
    assert.deepEqual(page.rlErrors, []);
    await page.close();
  });
}
