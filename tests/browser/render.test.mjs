// Every point on its own roof (compare mode) and the roofline's rendering defects of issue 10, in
// headless Chromium: three devices (V100 ERT ceilings, H100 ncu, A100 flash-decoding) each drawn
// and judged against its own roof (the roofs' slopes and levels checked against `rooflab hw
// --json`), labels on hierarchical ceilings, the mixing warning of "use as bandwidth", legend
// swatches in the series' colours, the roof over the whole x axis, the y axis taking in a ceiling,
// a compact tooltip with a details panel, palettes apart from the model's, the labels toggle, the
// kernels list, duplicate loads and an undoable "Clear all" (across tabs). Screenshots at 1280x800
// and 390x844, light and dark, in test-artifacts/render-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, copyFile, rm } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { serve, launch, openPage, ARTIFACTS, ROOT, hoverMark, clearStored, recordsIdle } from './harness.mjs';
import { nativeCli } from '../wasm/load.mjs';

const EX = join(ROOT, 'data', 'examples');
const CLI = nativeCli(); // absolute, whatever ROOFLAB holds
let server;
let browser;
let tmp;
let HW;
before(async () => {
  await mkdir(ARTIFACTS, { recursive: true });
  tmp = join(tmpdir(), `rooflab-render-${process.pid}`);
  await mkdir(tmp, { recursive: true });
  HW = Object.fromEntries(JSON.parse(execFileSync(CLI, ['hw', '--json'], { encoding: 'utf8' })).map((p) => [p.id, p]));
  server = await serve();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

const idle = recordsIdle;
const count = (page) => page.$eval('[data-testid="measured-count"]', (e) => Number(e.dataset.value));
const close = (a, b, rel = 1e-9) => Math.abs(a - b) <= rel * Math.max(Math.abs(a), Math.abs(b));

async function fresh(opts = {}) {
  const page = await openPage(browser.context, server.url, opts);
  await clearStored(page);
  await page.reload();
  await page.waitForSelector('html[data-ready="1"]');
  await idle(page);
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

const datasets = (page) => page.evaluate(() => window.rooflab.chart('roofline').datasets.map((d) => ({
  label: d.label, kind: d.rlKind, id: d.rlId || '', device: d.rlDevice || '', color: d.borderColor, style: d.pointStyle,
  radius: d.pointRadius, width: d.borderWidth, line: !!d.showLine, label2: d.rlLabel ? d.rlLabel.text : '', own: !!d.rlOwnRoof,
  data: d.data.map((p) => ({ x: p.x, y: p.y, kernel: p.kernel, name: p.name, eff: p.eff, own: p.own, device: p.device })),
})));
const scales = (page) => page.evaluate(() => {
  const s = window.rooflab.chart('roofline', { points: false }).scales;
  return { xMin: s.x.min, xMax: s.x.max, yMin: s.y.min, yMax: s.y.max };
});
const THREE = ['ert-roofline-v100.record.json', 'ncu-raw-flash-fwd-h100.record.json', 'flash-decoding-blog-a100.json'];

test('compare mode is in the link: a reload, a pasted link and back restore it; a scenario keeps it', async () => {
  const page = await fresh();
  await loadExamples(page, THREE);
  await page.check('[data-testid="compare-toggle"]');
  await page.selectOption('[data-testid="compare-preset-3"]', 'preset:v100-sxm2');
  await page.check('[data-testid="view-own-roof"]');
  const picked = await page.$$eval('[data-testid^="compare-preset-"]', (s) => s.map((x) => x.value));
  await page.waitForFunction(() => /own-roof=1/.test(location.hash));
  const q = new URLSearchParams((await page.evaluate(() => location.hash)).slice(1));
  // presets by their id, the ERT record's measured ceilings by their key, in the selects' order
  assert.equal(q.get('compare'), [picked[0], 'h100-sxm', 'a100-sxm4-80gb', 'v100-sxm2'].join(','));
  assert.equal(q.get('own-roof'), '1');
  // a reload (the records come back from storage, the ceilings' device with them)
  await page.reload();
  await page.waitForSelector('html[data-ready="1"]');
  await idle(page);
  await page.waitForFunction((want) => [...document.querySelectorAll('[data-testid^="compare-preset-"]')].map((x) => x.value).join() === want, picked.join());
  assert.equal(await page.isChecked('[data-testid="compare-toggle"]'), true);
  assert.equal(await page.isChecked('[data-testid="view-own-roof"]'), true);
  assert.ok((await datasets(page)).some((d) => d.id === 'own-roof'), 'the own-roof view drawn');
  // a scenario (a whole new problem) keeps compare mode
  await page.click('#scenario-buttons button >> nth=0');
  await page.waitForTimeout(200);
  assert.equal(await page.isChecked('[data-testid="compare-toggle"]'), true);
  assert.match(await page.evaluate(() => location.hash), /compare=/);
  // a pasted link: two presets, no own-roof; one unknown preset is named in the notes
  await page.evaluate(() => { location.hash = 'seq=2048&compare=a100-sxm4-80gb%2Ch100-sxm%2Cnot-a-gpu'; });
  await page.waitForFunction(() => document.querySelector('[data-testid="compare-preset-0"]').value === 'preset:a100-sxm4-80gb');
  assert.deepEqual(await page.$$eval('[data-testid^="compare-preset-"]', (s) => s.map((x) => x.value)), ['preset:a100-sxm4-80gb', 'preset:h100-sxm', '', '']);
  assert.equal(await page.isChecked('[data-testid="view-own-roof"]'), false);
  assert.match(await page.textContent('#compare-notes'), /the link's device "not-a-gpu" is not a preset/);
  assert.equal((await datasets(page)).filter((d) => d.kind === 'roof').length, 2);
  // back: the previous link's four devices and the own-roof view again
  await page.goBack();
  await page.waitForFunction(() => document.querySelector('[data-testid="view-own-roof"]').checked);
  assert.equal(await page.$eval('[data-testid="compare-preset-3"]', (s) => s.value), 'preset:v100-sxm2');
  // off by hand: the link drops it
  await page.uncheck('[data-testid="compare-toggle"]');
  await page.waitForFunction(() => !/compare=/.test(location.hash));
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('compare mode: V100 (ERT ceilings), H100 and A100 each drawn and judged against its own roof', async () => {
  const page = await fresh();
  await loadExamples(page, THREE);
  await page.check('[data-testid="compare-toggle"]');
  // the devices of the shown records, picked for us: the ERT record by its measured ceilings
  const picked = await page.$$eval('[data-testid^="compare-preset-"]', (s) => s.map((x) => x.value));
  assert.deepEqual(picked, ['ceilings:' + picked[0].slice(9), 'preset:h100-sxm', 'preset:a100-sxm4-80gb', '']);
  await page.selectOption('[data-testid="compare-preset-3"]', 'preset:v100-sxm2');
  const ds = await datasets(page);
  const roofs = ds.filter((d) => d.kind === 'roof');
  assert.equal(roofs.length, 4, roofs.map((r) => r.label).join(' | '));
  const colors = await page.evaluate(() => window.rooflab.colors().devices);
  const slope = (r) => r.data[0].y / r.data[0].x; // left of every ridge: attainable = β·I
  const level = (r) => r.data[r.data.length - 1].y;
  // V100 from its ERT ceilings: the DRAM slope and the FP64 level the record states
  assert.ok(close(slope(roofs[0]), 828.8e9) && close(level(roofs[0]), 7.0689e12), `${slope(roofs[0])} ${level(roofs[0])}`);
  // presets: rooflab hw --json's bandwidth and fp16 tensor peak (the points' dtype)
  for (const [i, id] of [[1, 'h100-sxm'], [2, 'a100-sxm4-80gb'], [3, 'v100-sxm2']]) {
    assert.ok(close(slope(roofs[i]), HW[id].bandwidth_bytes_per_s), `${id} slope ${slope(roofs[i])}`);
    assert.ok(close(level(roofs[i]), HW[id].peak_flops_per_s.fp16_tensor), `${id} level ${level(roofs[i])}`);
    assert.match(roofs[i].label2, new RegExp(HW[id].name.replace(/^NVIDIA /, '').split(' ')[0]), 'labelled on the line with the device');
  }
  roofs.forEach((r, i) => assert.equal(r.color, colors[i], 'each roof in its device colour'));
  assert.match(roofs[0].label2, /V100-SXM2-16GB \(measured\)/);
  // points coloured by device: the H100 point in the H100 colour, the A100 points in the A100's
  const pts = ds.filter((d) => d.kind === 'measured' && !d.line && d.style !== 'star');
  const h100 = pts.filter((d) => d.device === '' && d.data.some((p) => p.device.preset === 'h100-sxm'));
  const a100 = pts.filter((d) => d.data.some((p) => p.device.preset === 'a100-sxm4-80gb'));
  assert.ok(h100.length && a100.length);
  for (const d of h100) assert.equal(d.color, colors[1]);
  for (const d of a100) assert.equal(d.color, colors[2]);
  const legend = await page.$$eval('#roofline-legend dt .swatch.device', (s) => s.map((x) => getComputedStyle(x).backgroundColor));
  assert.equal(legend.length, 4);
  await page.locator('#chart').screenshot({ path: join(ARTIFACTS, 'render-compare-1280-light.png') });

  // "% of own roof": y = achieved / attainable on the point's own hardware, a flat 100 % line
  await page.check('[data-testid="view-own-roof"]');
  const own = await datasets(page);
  const line = own.find((d) => d.id === 'own-roof');
  assert.ok(line && line.data.every((p) => p.y === 1));
  const a = HW['a100-sxm4-80gb'];
  let n = 0;
  for (const d of own.filter((x) => x.own)) {
    assert.match(d.label, /— (A100|H100)/);
    for (const p of d.data) {
      const hw = HW[p.device.preset];
      const attainable = Math.min(hw.peak_flops_per_s.fp16_tensor, hw.bandwidth_bytes_per_s * p.x);
      assert.ok(close(p.y, p.own / attainable, 1e-6), `${p.name}: ${p.y} vs ${p.own / attainable}`);
      n++;
    }
  }
  assert.equal(n, 31, 'the H100 point and the 30 A100 points');
  assert.ok(a.bandwidth_bytes_per_s > 0);
  assert.match(await page.evaluate(() => window.rooflab.chart('roofline', { points: false }).scales.y.title), /% of its own roof/);
  const units = await page.evaluate(() => [...new Set(window.rooflab.csvRows('roofline').map((r) => r[5]))]);
  assert.deepEqual(units, ['fraction of own roof'], 'the exported CSV says what y is');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForTimeout(200);
  await page.locator('#chart').screenshot({ path: join(ARTIFACTS, 'render-own-roof-390-dark.png') });
  await page.uncheck('[data-testid="view-own-roof"]');
  await page.waitForTimeout(100);
  await page.locator('#chart').screenshot({ path: join(ARTIFACTS, 'render-compare-390-dark.png') });
  // off again: the page's one roof and its working points
  await page.uncheck('[data-testid="compare-toggle"]');
  assert.ok((await datasets(page)).some((d) => d.kind === 'point'));
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('hierarchical ceilings labelled on the line; using another device\'s ceiling warns what it mixes', async () => {
  const page = await fresh();
  await loadExamples(page, ['ert-roofline-v100.record.json']);
  const lines = (await datasets(page)).filter((d) => d.kind === 'measured' && d.line);
  assert.equal(lines.length, 6);
  for (const [name, re] of [['L1', /V100-SXM2-16GB L1 14\.02 TB\/s/], ['L2', /V100-SXM2-16GB L2 2\.996 TB\/s/], ['DRAM', /V100-SXM2-16GB DRAM 828\.8 GB\/s/]]) {
    assert.ok(lines.some((l) => re.test(l.label2)), `${name} labelled: ${lines.map((l) => l.label2).join(' | ')}`);
  }
  // the preset's L2 roof too
  await page.check('[data-testid=input-roofs-l2]');
  assert.match((await datasets(page)).find((d) => d.id === 'l2-roof').label2, /^L2 /);
  // the V100's DRAM ceiling as β on the H100 preset
  const dram = await page.$$eval('[data-testid^="use-ceiling-0-"]', (b) => b.findIndex((x) => x.closest('li').textContent.startsWith('DRAM:')));
  await page.click(`[data-testid="use-ceiling-0-${dram}"]`);
  await page.click('[data-testid="ceiling-confirm-yes"]'); // another device's ceiling: asked first (identity.test)
  await page.waitForFunction(() => /mixes/.test(document.querySelector('[data-testid="records-status"]').textContent));
  const status = await page.textContent('[data-testid="records-status"]');
  assert.match(status, /this mixes the V100-SXM2-16GB’s 828\.8 GB\/s bandwidth ceiling with the H100 SXM5 80GB’s 989 TFLOP\/s peak/);
  await page.locator('#chart').screenshot({ path: join(ARTIFACTS, 'render-ert-1280-light.png') });
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('legend swatches in the series colours; the roof spans the x axis; the y axis takes in a ceiling', async () => {
  const page = await fresh();
  await loadExamples(page, ['ert-roofline-v100.record.json', 'cpu-bench-quick.json', 'fa3-paper-h100.json']);
  await page.check('[data-testid=input-ceilings-fp32]');
  const ds = await datasets(page);
  const rgb = (c) => page.evaluate((col) => { const e = document.createElement('i'); e.style.color = col; document.body.append(e); const v = getComputedStyle(e).color; e.remove(); return v; }, c);
  const sw = await page.$$eval('#roofline-legend dt .swatch', (s) => s.map((x) => ({ cls: x.className, bg: getComputedStyle(x).backgroundColor, border: getComputedStyle(x).borderTopColor })));
  const measured = ds.filter((d) => d.kind === 'measured');
  const msw = sw.filter((x) => x.cls.includes('measured'));
  assert.equal(msw.length, measured.length);
  for (let i = 0; i < measured.length; i++) {
    const want = await rgb(measured[i].color);
    assert.ok(msw[i].bg === want || msw[i].border === want, `${measured[i].label}: ${JSON.stringify(msw[i])} vs ${want}`);
  }
  const ceil = ds.find((d) => d.kind === 'ceiling');
  assert.equal(sw.find((x) => x.cls === 'swatch ceiling').bg, await rgb(ceil.color));
  assert.ok(new Set(msw.map((x) => x.bg)).size > 2, 'not all one navy');
  // the roof over the whole axis, also zoomed out
  for (const zoom of [false, true]) {
    if (zoom) {
      const x0 = (await scales(page)).xMin;
      await page.click('[data-testid=action-zoom-out]'); await page.click('[data-testid=action-zoom-out]');
      await page.waitForFunction((x) => window.rooflab.chart('roofline', { points: false }).scales.x.min < x, x0); // the plugin fetched on first need
    }
    const s = await scales(page);
    for (const r of (await datasets(page)).filter((d) => d.kind === 'roof' || d.kind === 'ceiling' || (d.kind === 'measured' && d.line))) {
      const xs = r.data.map((p) => p.x);
      assert.ok(Math.min(...xs) <= s.xMin && Math.max(...xs) >= s.xMax, `${r.label}: ${Math.min(...xs)}…${Math.max(...xs)} vs axis ${s.xMin}…${s.xMax}`);
    }
  }
  await page.click('[data-testid=action-zoom-reset]');
  // fp8 ceiling (1979 TFLOP/s, above the fp16 roof) inside the y axis
  await page.check('[data-testid=input-ceilings-fp8_tensor]');
  const s = await scales(page);
  assert.ok(s.yMax >= HW['h100-sxm'].peak_flops_per_s.fp8_tensor * 1.2, `yMax ${s.yMax}`);
  // the measured points' records listed under the chart, none in Chart.js's legend
  const top = await page.evaluate(() => window.rooflab.chart('roofline', { points: false }).legend);
  assert.ok(!top.some((t) => /\.json/.test(t)), top.join(' | '));
  await page.locator('#chart').screenshot({ path: join(ARTIFACTS, 'render-legend-1280-light.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForTimeout(200);
  await page.locator('#chart').screenshot({ path: join(ARTIFACTS, 'render-legend-1280-dark.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(200);
  await page.locator('#chart').screenshot({ path: join(ARTIFACTS, 'render-legend-390-dark.png') });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.waitForTimeout(200);
  await page.locator('#chart').screenshot({ path: join(ARTIFACTS, 'render-legend-390-light.png') });
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('compact tooltip (at most four lines) and the details panel on click', async () => {
  for (const [w, h, scheme] of [[1280, 800, 'light'], [390, 844, 'light']]) {
    const page = await fresh({ width: w, height: h, colorScheme: scheme });
    await loadExamples(page, ['ncu-raw-flash-fwd-h100.record.json']);
    // another problem on the controls: the model's marks away from the measured point
    await page.evaluate(() => { location.hash = '#seq=256&kv-len=256'; });
    await page.waitForFunction(() => window.rooflab.state.seq === 256 || window.rooflab.state.seq === '256');
    const full = await page.evaluate(() => window.rooflab.chart('roofline').datasets.find((d) => d.rlKind === 'measured' && !d.showLine).data[0].text.length);
    assert.ok(full > 4, 'the full text is long');
    await page.locator('[data-testid="chart-roofline"]').scrollIntoViewIfNeeded();
    const p2 = await hoverMark(page, { kind: 'measured' });
    const tip = await page.evaluate(() => {
      const t = window.rooflab.chart('roofline', { points: false }).tooltip;
      return { lines: t.lines, x: t.x, w: t.width, cw: t.chartWidth };
    });
    assert.ok(tip.lines.length <= 4, tip.lines.join(' | '));
    assert.ok(tip.x >= 0 && tip.x + tip.w <= tip.cw + 1, `tooltip inside the canvas: ${tip.x}+${tip.w} of ${tip.cw}`);
    assert.match(tip.lines.join(' | '), /click the mark/);
    await page.mouse.click(p2.x, p2.y);
    await page.waitForSelector('[data-testid="point-details"]:not([hidden])');
    const details = await page.$$eval('[data-testid="point-details-lines"] li', (l) => l.map((x) => x.textContent));
    assert.ok(details.length > 4 && details.some((l) => l.startsWith('efficiency:')), details.join(' | '));
    await page.locator('#chart').screenshot({ path: join(ARTIFACTS, `render-tooltip-${w}-${scheme}.png`) });
    // the open panel follows the keyboard's steps through the marks
    await page.focus('[data-testid="chart-roofline"]');
    await page.keyboard.press('ArrowRight');
    const said = await page.textContent('[data-testid="roofline-announce"]');
    const first = await page.$eval('[data-testid="point-details-lines"] li', (e) => e.textContent);
    assert.ok(said.startsWith(first), `${said} / ${first}`);
    await page.click('[data-testid="point-details-close"]');
    assert.ok(await page.$eval('[data-testid="point-details"]', (e) => e.hidden));
    assert.deepEqual(page.rlErrors, []);
    await page.close();
  }
});

test('palettes: records and devices never reuse the model\'s colours; predicted stars differ from crosses', async () => {
  const page = await fresh();
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    const c = await page.evaluate(() => {
      const cs = getComputedStyle(document.documentElement);
      const v = (n) => cs.getPropertyValue(n).trim();
      const model = ['--roof', '--compulsory', '--tiled', '--naive', '--ceiling1', '--ceiling2', '--predicted', '--l2roof', '--exproof', '--ridge'].map(v);
      return { model, series: [1, 2, 3, 4, 5, 6, 7, 8].map((i) => v(`--rec${i}`)).concat([1, 2, 3, 4].map((i) => v(`--dev${i}`))) };
    });
    const rgb = (h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));
    const dist = (a, b) => { // "redmean" colour distance
      const [x, y] = [rgb(a), rgb(b)];
      const r = (x[0] + y[0]) / 2;
      return Math.sqrt((2 + r / 256) * (x[0] - y[0]) ** 2 + 4 * (x[1] - y[1]) ** 2 + (2 + (255 - r) / 256) * (x[2] - y[2]) ** 2);
    };
    for (const s of c.series) for (const m of c.model) assert.ok(dist(s, m) > 120, `${scheme}: ${s} too near the model's ${m}`);
    assert.equal(new Set(c.series).size, c.series.length);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await loadExamples(page, ['fa3-paper-h100.json']);
  const ds = (await datasets(page)).filter((d) => d.kind === 'measured');
  const cross = ds.find((d) => d.style === 'crossRot');
  const star = ds.find((d) => d.style === 'star');
  assert.ok(cross && star);
  assert.ok(star.radius > cross.radius && star.width < cross.width, 'a star is larger and thinner than a cross');
  const model = await page.evaluate(() => Object.values(window.rooflab.colors()).flat());
  assert.ok(!model.slice(0, -12).includes(cross.color), 'a record colour is none of the model colours');
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('labels toggle; kernels list highlights and isolates', async () => {
  const page = await fresh();
  await loadExamples(page, ['flash-decoding-blog-a100.json']);
  assert.equal(await count(page), 30);
  await page.check('[data-testid="labels-toggle"]');
  assert.equal(await page.evaluate(() => window.rooflab.chart('roofline', { points: false }).plugins.pointLabels), true);
  const names = (await datasets(page)).filter((d) => d.kind === 'measured').flatMap((d) => d.data.map((p) => p.name));
  assert.ok(names.every(Boolean));
  await page.locator('#chart').screenshot({ path: join(ARTIFACTS, 'render-labels-1280-light.png') });
  const kernels = await page.$$eval('[data-testid="kernels-list"] button', (b) => b.map((x) => x.dataset.kernel));
  assert.deepEqual(kernels.sort(), ['flash-attention v2.0.9', 'flash-decoding', 'pytorch-eager']);
  await page.focus('[data-testid="kernels-list"] button[data-kernel="flash-decoding"]');
  assert.equal(await page.evaluate(() => window.rooflab.chart('roofline', { points: false }).plugins.highlight), 'flash-decoding');
  await page.click('[data-testid="kernels-list"] button[data-kernel="flash-decoding"]');
  assert.equal(await count(page), 10);
  const left = (await datasets(page)).filter((d) => d.kind === 'measured').flatMap((d) => d.data.map((p) => p.kernel));
  assert.ok(left.every((k) => k === 'flash-decoding'));
  assert.equal(await page.getAttribute('[data-testid="kernels-list"] button[data-kernel="flash-decoding"]', 'aria-pressed'), 'true');
  await page.click('[data-testid="kernels-list"] button[data-kernel="flash-decoding"]');
  assert.equal(await count(page), 30);
  await page.mouse.move(5, 5);
  assert.equal(await page.evaluate(() => window.rooflab.chart('roofline', { points: false }).plugins.highlight), '');
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('duplicate loads are said and not added; Clear all is undoable, in every tab', async () => {
  const a = await fresh();
  const NCU = join(EX, 'ncu-raw-flash-fwd-h100.record.json');
  const copy = join(tmp, 'renamed-copy.json');
  await copyFile(NCU, copy);
  await a.setInputFiles('[data-testid="input-upload"]', [NCU]);
  await a.waitForFunction(() => document.querySelectorAll('#records-list > li[data-value="ok"]').length === 1);
  await idle(a);
  await a.setInputFiles('[data-testid="input-upload"]', [copy]);
  await a.waitForFunction(() => /the same content as/.test(document.querySelector('[data-testid="records-status"]').textContent));
  await idle(a);
  assert.equal(await a.$$eval('#records-list > li', (e) => e.length), 1);
  assert.match(await a.textContent('[data-testid="records-status"]'), /^renamed-copy\.json: the same content as ncu-raw-flash-fwd-h100\.record\.json, already loaded; not added again\.$/);
  // the same content from the examples menu too
  await a.selectOption('[data-testid="input-example"]', 'ncu-raw-flash-fwd-h100.record.json');
  await a.click('[data-testid="action-load-example"]');
  await a.waitForFunction(() => /the same content as/.test(document.querySelector('[data-testid="records-status"]').textContent));
  await idle(a);
  assert.equal(await count(a), 1);
  // a tool's output (ERT's roofline.json) twice, under two names: imported once
  const ERT = join(EX, 'ert-roofline-v100.json');
  const ertCopy = join(tmp, 'ert-again.json');
  await copyFile(ERT, ertCopy);
  await a.setInputFiles('[data-testid="input-upload"]', [ERT]);
  // ERT asks which device it ran on (identity.test): added as it is, none said
  await a.click('[data-testid="record-1"] [data-testid="import-confirm"]:not([disabled])');
  await a.waitForFunction(() => document.querySelectorAll('#records-list > li[data-value="ok"]').length === 2);
  await idle(a);
  await a.setInputFiles('[data-testid="input-upload"]', [ertCopy]);
  await a.waitForFunction(() => /^ert-again\.json: the same content as ert-roofline-v100\.json/.test(document.querySelector('[data-testid="records-status"]').textContent));
  await idle(a);
  assert.equal(await a.$$eval('#records-list > li', (e) => e.length), 2);
  await a.click('[data-testid="record-remove-1"]');
  await loadExamples(a, ['flash-decoding-blog-a100.json']);
  assert.equal(await count(a), 31);
  // a second tab sees the clear and the undo
  const b = await openPage(browser.context, server.url);
  await idle(b);
  assert.equal(await count(b), 31);
  await a.click('[data-testid="action-records-clear"]');
  assert.equal(await count(a), 0);
  await b.waitForFunction(() => Number(document.querySelector('[data-testid="measured-count"]').dataset.value) === 0);
  assert.ok(await a.isVisible('[data-testid="records-undo"]'));
  await a.click('[data-testid="records-undo"]');
  assert.equal(await count(a), 31);
  assert.match(await a.textContent('[data-testid="records-status"]'), /Clear undone: 2 records back/);
  await b.waitForFunction(() => Number(document.querySelector('[data-testid="measured-count"]').dataset.value) === 31);
  await idle(b);
  assert.ok(!(await a.isVisible('[data-testid="records-undo"]')));
  await a.reload();
  await a.waitForSelector('html[data-ready="1"]');
  await idle(a);
  assert.equal(await count(a), 31, 'kept in storage again');
  assert.deepEqual(a.rlErrors, []);
  assert.deepEqual(b.rlErrors, []);
  await a.close();
  await b.close();
});

test('pure parts: compact tooltip lines, device matching and short names', async () => {
  const { compactTooltip, TOOLTIP_LINES, TOOLTIP_CHARS } = await import('../../web/js/chart-data.js');
  const { deviceIndex, shortName } = await import('../../web/js/compare.js');
  const long = ['ncu-raw-flash-fwd-h100.record.json: flash-attn 2.6.3: I = 1461.93 FLOP/B, 353.312 TFLOP/s',
    'kernel: void flash::flash_fwd_kernel<…>', 'hardware: NVIDIA H100', 'problem: B=4', 'time: 1.571 ms',
    'efficiency: 35.7 % of its roof at I = 1462 FLOP/B (989 TFLOP/s from 3.35 TB/s, 989 TFLOP/s)'];
  const c = compactTooltip(long);
  assert.equal(c.length, TOOLTIP_LINES);
  assert.ok(c.every((l) => l.length <= TOOLTIP_CHARS));
  assert.equal(c[0], 'I = 1461.93 FLOP/B, 353.312 TFLOP/s', 'the numbers first');
  assert.match(c[1], /^ncu-raw-flash-fwd-h100\.record\.json/);
  assert.match(c[2], /^efficiency: 35\.7 %/);
  assert.deepEqual(compactTooltip(['tiled: I = 1 FLOP/B, 2 FLOP/s', 'bytes 3 B']), ['tiled: I = 1 FLOP/B, 2 FLOP/s', 'bytes 3 B']);
  const devices = [{ key: 'ceilings:x', preset: 'v100-sxm2', name: 'NVIDIA V100-SXM2-16GB' }, { key: 'preset:h100-sxm', preset: 'h100-sxm', name: 'NVIDIA H100 SXM5 80GB' },
    { key: 'ceilings:cpu', preset: '', name: 'AMD EPYC 7763' }];
  assert.equal(deviceIndex(devices, { preset: 'h100-sxm', name: 'NVIDIA H100 80GB HBM3' }), 1, 'by preset');
  assert.equal(deviceIndex(devices, { preset: '', name: 'AMD EPYC 7763' }), 2, 'by name when no preset');
  assert.equal(deviceIndex(devices, { preset: 'a100-sxm4-80gb', name: 'A100' }), -1);
  assert.equal(shortName('NVIDIA V100-SXM2-16GB (NERSC Cori GPU node)'), 'V100-SXM2-16GB');
  assert.equal(shortName('AMD Instinct MI300X'), 'Instinct MI300X');
});
