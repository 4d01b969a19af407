// The roofline on a phone (issue 20, item 8) in headless Chromium at 390×844: every guided tour's
// ring labels (tour.js: the names beside the ringed marks) lie inside the chart area, and so inside
// the canvas, at every step; the "% of own roof" view's y axis ends at 150 % or 200 %, never at a
// decade of % (it went to 1000 %), with a point above 200 % of its own roof drawn at 200 % as a
// triangle in a series named for it while its tooltip and CSV row keep the true value.
// Screenshots: test-artifacts/phone-tour-ring-*.png, phone-own-roof-390.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, mkdir, writeFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { serve, launch, openPage, ARTIFACTS, ROOT, clearStored, recordsIdle } from './harness.mjs';
import { SCENARIOS } from '../../web/js/scenarios.js';

let server;
let browser;
let tmp;
before(async () => {
  await mkdir(ARTIFACTS, { recursive: true });
  tmp = join(tmpdir(), `rooflab-phone-chart-${process.pid}`);
  await mkdir(tmp, { recursive: true });
  server = await serve();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

const PHONE = { width: 390, height: 844 };
const idle = recordsIdle;

async function fresh(opts) {
  const page = await openPage(browser.context, server.url, opts);
  await clearStored(page);
  await page.reload();
  await page.waitForSelector('html[data-ready="1"]');
  await idle(page);
  return page;
}

// The tour's ring labels as drawn: each label element's box (canvas pixels), the chart area and
// the canvas's size (CSS pixels, the units Chart.js lays out in).
const ringLabels = (page) => page.evaluate(() => {
  const c = window.Chart.getChart('roofline');
  const els = window['chartjs-plugin-annotation'].getAnnotations(c);
  const a = c.chartArea;
  return {
    area: { left: a.left, right: a.right, top: a.top, bottom: a.bottom }, width: c.width, height: c.height,
    labels: els.filter((e) => String(e.options.id).startsWith('tourLabel-')).map((e) => ({
      id: e.options.id, x: e.x, y: e.y, x2: e.x2, y2: e.y2, text: String(e.options.content),
    })),
    rings: els.filter((e) => String(e.options.id).startsWith('tourMark-')).map((e) => ({ id: e.options.id, x: e.centerX, y: e.centerY })),
  };
});

test('phone: every tour step’s ring labels lie inside the chart area and the canvas', async () => {
  const page = await fresh({ ...PHONE, colorScheme: 'light' });
  let checked = 0;
  let moved = null; // a step where a label had to be flipped or pulled in (its screenshot)
  for (const s of SCENARIOS) {
    await page.click(`[data-testid=scenario-${s.id}]`);
    for (let i = 0; i < s.steps.length; i++) {
      await page.waitForFunction((v) => document.querySelector('[data-testid=tour-panel]').dataset.value === v, `${s.id}:${i + 1}`);
      const r = await ringLabels(page);
      const marks = (s.steps[i].look && s.steps[i].look.marks) || [];
      const drawn = r.rings.map((x) => x.id.slice('tourMark-'.length));
      assert.deepEqual(r.labels.map((l) => l.id.slice('tourLabel-'.length)).sort(), [...drawn].sort(), `${s.id} step ${i + 1}: a label per ring`);
      assert.ok(drawn.every((m) => marks.includes(m)), `${s.id} step ${i + 1}: rings ${drawn} of ${marks}`);
      for (const l of r.labels) {
        const where = `${s.id} step ${i + 1} ${l.id} ${JSON.stringify(l)} in ${JSON.stringify(r.area)}`;
        assert.ok(l.x2 > l.x && l.y2 > l.y && l.x2 - l.x < 200, `${where}: a label box`);
        assert.ok(l.x >= r.area.left - 0.5 && l.x2 <= r.area.right + 0.5, `${where}: inside the chart area across`);
        assert.ok(l.y >= r.area.top - 0.5 && l.y2 <= r.area.bottom + 0.5, `${where}: inside the chart area down`);
        assert.ok(l.x >= 0 && l.x2 <= r.width && l.y >= 0 && l.y2 <= r.height, `${where}: inside the canvas (${r.width}×${r.height})`);
        const ring = r.rings.find((x) => x.id === `tourMark-${l.id.slice('tourLabel-'.length)}`);
        const cx = (l.x + l.x2) / 2;
        const cy = (l.y + l.y2) / 2;
        // placed 30 px above or below its ring unless the chart's edge pulled it in
        if (!moved && (Math.abs(Math.abs(cy - ring.y) - 30) > 1 || Math.abs(cx - ring.x) > 1)) moved = `${s.id}-${i + 1}`;
        checked++;
      }
      if (moved === `${s.id}-${i + 1}`) await page.locator('#chart').screenshot({ path: join(ARTIFACTS, 'phone-tour-ring-moved.png') });
      if (i + 1 < s.steps.length) await page.click('[data-testid=tour-next]');
    }
    await page.click('[data-testid=tour-close]');
  }
  assert.ok(checked >= 36, `${checked} ring labels checked (36 steps ring a mark)`);
  assert.ok(moved, 'at 390 px some label is pulled in from the chart’s edge (the case this guards)');
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

// The H100 record of ncu-raw-flash-fwd-h100 with its kernel ten times faster: 555124523008 FLOP in
// 0.15712 ms = 3.5331e15 FLOP/s at I = 555124523008 / 379720000 = 1461.9 FLOP/B, right of the
// H100's ridge (989e12 / 3.35e12 = 295.2 FLOP/B), so its own roof is 989 TFLOP/s and it is at
// 3.5331e15 / 989e12 = 357.2 % of it (the original: 35.72 %).
async function tooFast() {
  const rec = JSON.parse(await readFile(join(ROOT, 'data/examples/ncu-raw-flash-fwd-h100.record.json'), 'utf8'));
  const p = rec.points[0];
  for (const k of ['median_s', 'min_s', 'max_s', 'mean_s', 'stddev_s']) p.timing[k] /= 10;
  p.kernel = 'flash_fwd ten times too fast';
  delete p.derived;
  rec.provenance.source = 'too-fast.csv';
  const file = join(tmp, 'too-fast.record.json');
  await writeFile(file, JSON.stringify(rec));
  return file;
}

test('phone: the % of own roof axis ends at 150 % or 200 %; a point above 200 % is drawn at the cap and flagged', async () => {
  const page = await fresh({ ...PHONE, colorScheme: 'light' });
  const load = async (file) => {
    const before = await page.$$eval('#records-list > li', (e) => e.length);
    if (file.endsWith('.json') && !file.includes('/')) {
      await page.selectOption('[data-testid="input-example"]', file);
      await page.click('[data-testid="action-load-example"]');
    } else {
      await page.setInputFiles('[data-testid="input-upload"]', file);
    }
    await page.waitForFunction((n) => document.querySelectorAll('#records-list > li[data-value="ok"]').length > n, before);
    await idle(page);
  };
  const axis = () => page.evaluate(() => {
    const c = window.Chart.getChart('roofline');
    const y = c.scales.y;
    return { max: y.max, min: y.min, ticks: y.ticks.map((t) => t.label).filter((t) => t !== '') };
  });
  const own = () => page.evaluate(() => window.rooflab.chart('roofline').datasets.filter((d) => d.rlOwnRoof).map((d) => ({
    label: d.label, style: d.pointStyle, data: d.data.map((p) => ({ y: p.y, eff: p.eff, capped: !!p.capped, kernel: p.kernel })),
  })));
  await load('ncu-raw-flash-fwd-h100.record.json');
  await page.check('[data-testid="compare-toggle"]');
  await page.check('[data-testid="view-own-roof"]');
  // one point at 35.72 % of its roof (the record's own efficiency): the axis ends at 150 %
  let a = await axis();
  let ds = await own();
  assert.equal(ds.length, 1);
  assert.ok(Math.abs(ds[0].data[0].y - 0.35724211425476571) < 1e-9, `${ds[0].data[0].y}`);
  assert.equal(a.max, 1.5, `axis max ${a.max}`);
  assert.equal(a.ticks.at(-1), '150 %', `the top labelled: ${a.ticks}`);
  assert.ok(a.ticks.includes('100 %'), `${a.ticks}`);
  assert.ok(!a.ticks.some((t) => /\d{4} %|1,000/.test(t)), `no thousands of %: ${a.ticks}`);
  await page.locator('#chart').screenshot({ path: join(ARTIFACTS, 'phone-own-roof-390.png') });

  // the too-fast point: 357.2 % drawn at 200 %, a triangle, in a series that says so
  await load(await tooFast());
  a = await axis();
  ds = await own();
  assert.equal(a.max, 2, `axis max ${a.max}`);
  assert.equal(a.ticks.at(-1), '200 %', `${a.ticks}`);
  assert.ok(!a.ticks.some((t) => /\d{4} %|1,000/.test(t)), `no thousands of %: ${a.ticks}`);
  const capped = ds.filter((d) => d.data.some((p) => p.capped));
  assert.equal(capped.length, 1, JSON.stringify(ds));
  assert.match(capped[0].label, /above 200 % of own roof, drawn at it/);
  assert.equal(capped[0].style, 'triangle');
  const p = capped[0].data[0];
  assert.equal(p.y, 2);
  const eff = (555124523008 / 0.00015712) / 989e12; // 3.5724…
  assert.ok(Math.abs(p.eff - eff) < 1e-6 * eff, `${p.eff} vs ${eff}`);
  const kept = ds.filter((d) => !d.data.some((q) => q.capped));
  assert.ok(kept.length >= 1 && kept.every((d) => d.data.every((q) => q.y < 1.5 && q.y === q.eff)), 'the honest point as it is');
  // its tooltip and CSV row carry the true value
  const tip = await page.evaluate(() => {
    const c = window.Chart.getChart('roofline');
    const di = c.data.datasets.findIndex((d) => d.data.some((q) => q.capped));
    return c.options.plugins.tooltip.callbacks.label({ dataset: c.data.datasets[di], raw: c.data.datasets[di].data[0], datasetIndex: di, dataIndex: 0, chart: c });
  });
  assert.match([tip].flat().join(' '), /357\.2 % of its own roof/);
  const rows = await page.evaluate(() => window.rooflab.csvRows('roofline').filter((r) => /drawn at it/.test(r[1])));
  assert.equal(rows.length, 1);
  assert.ok(Math.abs(rows[0][3] - eff) < 1e-6 * eff, `CSV y ${rows[0][3]}`);
  await page.locator('#chart').screenshot({ path: join(ARTIFACTS, 'phone-own-roof-capped-390.png') });
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});
