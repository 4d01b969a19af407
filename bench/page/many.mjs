// Many records at once (issue 21, items 2 and 3): N small records kept in the browser and restored
// on load, and N files uploaded in one go; each case timed by the page's own clock, with every
// main-thread long task ('longtask', > 50 ms) in its window, the work the page did counted
// (window.rooflab.recordWork(): checks, list items made, list and chart renders), and a move of
// the N slider made as soon as the work has begun: whether the page handled it while the records
// were still coming (event order, no clock). tests/browser/scale.test.mjs asserts the counts and
// the order, never a time (a loaded machine made time bounds flaky); `make bench-page` prints the
// times and the longest task.
// The records are generated here (benchRecord with its own seed each: distinct content), never
// committed.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { benchRecord } from './scale.mjs';
import { clearStored, openPage } from '../../tests/browser/harness.mjs';

export const smallRecord = (i) => benchRecord(2, 1000 + i); // 2 points, about 0.6 kB

const idle = (page, timeout) => page.waitForSelector('[data-testid="records-status"][data-value="idle"]', { state: 'attached', timeout });

// Long tasks from the page's start (buffered), as { start, duration }, in window.__rlTasks.
function watchTasks() {
  window.__rlTasks = [];
  try {
    new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__rlTasks.push({ start: e.startTime, duration: e.duration }); })
      .observe({ type: 'longtask', buffered: true });
  } catch (_) { /* not supported: no tasks listed */ }
}

const longestIn = (page, from, to) => page.evaluate(([a, b]) => window.__rlTasks
  .filter((t) => t.start + t.duration >= a && t.start <= b).reduce((m, t) => Math.max(m, t.duration), 0), [from, to]);

// Once the first record is listed as loaded, a move of the N slider (half a step of its log scale),
// then the page's state at the frame that shows it handled: { seq, restoring (the status line's
// data-restoring, or null once restored), shown (list items), ok (files loaded) }.
async function moveWhileBusy(page) {
  await page.waitForSelector('#records-list > li[data-value="ok"]', { timeout: 600000 });
  const before = await page.evaluate(() => {
    const range = document.querySelector('[data-testid=input-seq-range]');
    const seq = window.rooflab.state.seq;
    range.value = String(Number(range.value) + 0.5);
    range.dispatchEvent(new Event('input', { bubbles: true }));
    return String(seq);
  });
  const at = await page.waitForFunction((b) => String(window.rooflab.state.seq) !== b && {
    seq: Number(window.rooflab.state.seq),
    restoring: document.querySelector('[data-testid="records-status"]').dataset.restoring ?? null,
    shown: document.querySelectorAll('#records-list > li').length,
    ok: document.querySelectorAll('#records-list > li[data-value="ok"]').length,
  }, before, { timeout: 600000 });
  return at.jsonValue();
}

async function emptyPage(context, url) {
  const page = await openPage(context, url);
  await page.addInitScript(watchTasks);
  await clearStored(page);
  await page.reload();
  await page.waitForSelector('html[data-ready="1"]', { timeout: 60000 });
  await idle(page, 60000);
  return page;
}

// n small records put straight into the page's IndexedDB (as the page keeps them), then a reload:
// { n, ms: the page's restore time (its own figure), longestTaskMs from its start to the frame
// after it, restoringAtReady (the page was ready, and said it was restoring, before the records
// were back), shown }.
export async function restoreCase(context, url, n) {
  const page = await emptyPage(context, url);
  const texts = Array.from({ length: n }, (_, i) => smallRecord(i));
  await page.evaluate(async (all) => {
    const { RecordDb } = await import('./js/record-db.js');
    const { recordId } = await import('./js/record-store.js');
    const list = all.map((text, i) => {
      const e = { name: `small-${i}.json`, source: 'upload', visible: true, added: i, text };
      return { storeId: recordId(e), ...e };
    });
    await new RecordDb().putMany(list, { tell: false });
  }, texts);
  await page.reload();
  await page.waitForSelector('html[data-ready="1"]', { timeout: 60000 });
  const atReady = await page.$eval('[data-testid="records-status"]', (s) => ({ restoring: s.dataset.restoring || null, text: s.textContent }));
  const moved = await moveWhileBusy(page);
  await idle(page, 600000);
  await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0)))); // its frame painted
  const timing = await page.evaluate(() => window.rooflab.keeperTiming());
  const shown = await page.$$eval('#records-list > li', (els) => els.length);
  const longestTaskMs = await longestIn(page, timing.start, await page.evaluate(() => performance.now()));
  const work = await page.evaluate(() => window.rooflab.recordWork()); // a fresh page: all of it the restore's
  await clearStored(page);
  await page.close();
  return { n, ms: timing.end - timing.start, longestTaskMs, restoringAtReady: atReady, shown, moved, work };
}

// n distinct small record files chosen at once: { n, ms: from the choice to every file listed as
// loaded and the status idle (the page's clock), longestTaskMs: the page's longest task from the
// change event on, inputTaskMs: the task that delivered the event (the browser making the list of
// n files, and the page's handler, which only schedules: records.js's addFiles), loaded }.
export async function uploadCase(context, url, n, dir) {
  const files = [];
  for (let i = 0; i < n; i++) {
    const f = join(dir, `upload-${i}.record.json`);
    await writeFile(f, smallRecord(i));
    files.push(f);
  }
  const page = await emptyPage(context, url);
  const work0 = await page.evaluate(() => window.rooflab.recordWork());
  const t0 = await page.evaluate(() => {
    window.addEventListener('change', () => { window.__rlChange = performance.now(); }, { capture: true, once: true });
    return performance.now();
  });
  await page.setInputFiles('[data-testid="input-upload"]', files);
  const moved = await moveWhileBusy(page);
  await page.waitForFunction((k) => document.querySelectorAll('#records-list > li[data-value="ok"]').length === k, n, { timeout: 600000, polling: 250 });
  await idle(page, 600000);
  await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0)))); // its frame painted
  const t1 = await page.evaluate(() => performance.now());
  const change = await page.evaluate(() => window.__rlChange);
  const longestTaskMs = await page.evaluate(([a, b]) => window.__rlTasks.filter((t) => t.start >= a && t.start <= b).reduce((m, t) => Math.max(m, t.duration), 0), [change, t1]);
  const inputTaskMs = await page.evaluate((c) => window.__rlTasks.filter((t) => t.start < c && t.start + t.duration >= c).reduce((m, t) => Math.max(m, t.duration), 0), change);
  const loaded = await page.$$eval('#records-list > li[data-value="ok"]', (els) => els.length);
  const work1 = await page.evaluate(() => window.rooflab.recordWork());
  const work = Object.fromEntries(Object.keys(work1).map((k) => [k, work1[k] - work0[k]]));
  await clearStored(page);
  await page.close();
  return { n, ms: t1 - t0, longestTaskMs, inputTaskMs, loaded, moved, work };
}

export const manyLine = (what, c) => `${what} ${c.n.toLocaleString('en-US')}: ${(c.ms / 1000).toFixed(2)} s, longest main-thread task ${Math.round(c.longestTaskMs)} ms${c.inputTaskMs !== undefined ? ` (the browser's task delivering the file list: ${Math.round(c.inputTaskMs)} ms)` : ''}` +
  `, ${c.work.checks} checks, ${c.work.itemsMade} list items made, ${c.work.listRenders} list and ${c.work.chartRenders} chart renders; a slider move handled with ${c.moved.ok.toLocaleString('en-US')} loaded`;
