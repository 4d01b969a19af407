// The backdrop (web/js/backdrop.js), functional only — its speed is reported by `make bench-page`:
// moving N copies the charts' static parts back from a cached bitmap and draws only the moving
// marks (the roofline's working, predicted and level points and the band; the sweep chart's N
// marker). After N moves on that fast path both canvases hold exactly the pixels an ordinary
// Chart.js draw of the same state gives (the backdrop draws the moving parts last in both, so the
// comparison holds in any state: here the fa3 profile with the L2 and exp roofs, level points and
// 3,000 measured points from the measured layer, light and dark, 1280x800 and 390x844); hover, a
// tooltip and the keyboard step still work after fast draws; a theme switch or a zoom after fast
// draws shows the new state (no stale copy). Screenshots in test-artifacts/backdrop-*.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openPage, ARTIFACTS, pageEnv, hoverMark, clearStored } from './harness.mjs';
import { benchRecord } from '../../bench/page/scale.mjs';

const env = pageEnv({ scratch: 'backdrop' });
const URL_STATE = '#seq=4096&causal=1&kernel=fa3&roofs=l2%2Cexp&levels=1';

async function fresh(opts) {
  const page = await openPage(env.browser.context, env.server.url + URL_STATE, opts);
  await clearStored(page);
  await page.reload();
  await page.waitForSelector('html[data-ready="1"]');
  return page;
}

async function loadPoints(page, n) {
  const file = join(env.tmp, `points-${n}.json`);
  await writeFile(file, benchRecord(n));
  await page.setInputFiles('[data-testid="input-upload"]', [file]);
  await page.waitForFunction((want) => Number(document.querySelector('[data-testid="measured-count"]').dataset.value) === want, n, { timeout: 120000 });
  await page.waitForSelector('[data-testid="records-status"][data-value="idle"]', { state: 'attached', timeout: 60000 });
  // the measured layer's bitmap finished: it is drawn in slices and, once complete, the chart is
  // drawn again (an ordinary draw), which a loaded machine could put among the moves that follow
  await page.waitForFunction(() => (({ active, pending, builds }) => !active || (!pending && builds > 0))(window.rooflab.measuredLayer()), null, { timeout: 60000 });
}

// k moves of the N slider, one per frame, back and forth by small steps (the roof, the trails and
// the axes stay: the fast path).
const moveN = (page, k = 6) => page.evaluate(async (k) => {
  const range = document.querySelector('[data-testid=input-seq-range]');
  const raf = () => new Promise((ok) => requestAnimationFrame(ok));
  for (let i = 0; i < k; i++) {
    range.value = String(Number(range.value) + (i % 3 === 2 ? -0.05 : 0.04));
    range.dispatchEvent(new Event('input', { bubbles: true }));
    await raf();
  }
}, k);

const info = (page) => page.evaluate(() => ({ roofline: window.rooflab.backdrop('roofline'), sweep: window.rooflab.backdrop('sweep') }));

// Each chart: how its last draw went, then its pixels against an ordinary chart.draw() of the same
// state (pixels that differ, the largest difference of a channel).
const compare = (page) => page.evaluate(() => {
  const hook = window.rooflab;
  const out = {};
  for (const name of ['roofline', 'sweep']) {
    const last = hook.backdrop(name).last;
    const fast = hook.pixels(name);
    hook.redraw(name);
    const full = hook.pixels(name);
    let diff = 0;
    let max = 0;
    for (let i = 0; i < fast.length; i += 4) {
      const d = Math.max(Math.abs(fast[i] - full[i]), Math.abs(fast[i + 1] - full[i + 1]), Math.abs(fast[i + 2] - full[i + 2]), Math.abs(fast[i + 3] - full[i + 3]));
      if (d) { diff++; max = Math.max(max, d); }
    }
    out[name] = { last, diff, max, bg: Array.from(full.slice(0, 3)), after: hook.backdrop(name).last };
  }
  return out;
});

function assertSame(cmp, what) {
  for (const name of ['roofline', 'sweep']) {
    assert.equal(cmp[name].last, 'blit', `${what}: the ${name} chart's last draw came from the backdrop`);
    assert.equal(cmp[name].diff, 0, `${what}: the ${name} chart's pixels equal an ordinary draw (max diff ${cmp[name].max})`);
    assert.equal(cmp[name].after, 'ordinary');
  }
}

// The page's --bg as [r, g, b].
const bgColour = (page) => page.evaluate(() => {
  const probe = document.createElement('canvas').getContext('2d');
  probe.fillStyle = getComputedStyle(document.documentElement).getPropertyValue('--bg').trim();
  probe.fillRect(0, 0, 1, 1);
  return Array.from(probe.getImageData(0, 0, 1, 1).data.slice(0, 3));
});

test('after N moves the fast path draws the same pixels as an ordinary draw (1280 and 390, light and dark)', async () => {
  for (const [w, h] of [[1280, 800], [390, 844]]) {
    for (const colorScheme of ['light', 'dark']) {
      const page = await fresh({ width: w, height: h, colorScheme });
      const what = `${w}x${h} ${colorScheme}`;
      if (w === 1280) await loadPoints(page, 3000);
      await page.locator('[data-testid="chart-roofline"]').scrollIntoViewIfNeeded();
      const before = await info(page);
      await moveN(page);
      const after = await info(page);
      for (const name of ['roofline', 'sweep']) {
        assert.ok(after[name].blits >= before[name].blits + 4, `${what}: ${name} moves blitted (${JSON.stringify(after[name])})`);
      }
      const band = await page.evaluate(() => !!window.rooflab.chart('roofline', { points: false }).plugins.band);
      assert.ok(band, 'the band is drawn in this state');
      await page.screenshot({ path: join(ARTIFACTS, `backdrop-${w}-${colorScheme}.png`) });
      assertSame(await compare(page), what);
      assert.deepEqual(page.rlErrors, []);
      await page.close();
    }
  }
});

test('hover, a tooltip and the keyboard step still work after fast draws', async () => {
  const page = await fresh();
  await loadPoints(page, 3000);
  await page.locator('[data-testid="chart-roofline"]').scrollIntoViewIfNeeded();
  await moveN(page);
  // hover the tiled working point: its tooltip (an ordinary draw)
  await hoverMark(page, { kind: 'point', label: 'tiled' });
  // the pointer on the chart fetched the zoom plugin, which updates the chart once it is there (an
  // ordinary draw): waited for, so that it cannot fall among the moves below
  await page.waitForFunction(() => !!window.Chart.registry.plugins.get('zoom'), null, { timeout: 60000 });
  const tip = await page.evaluate(() => window.rooflab.chart('roofline', { points: false }).tooltip.labels);
  assert.deepEqual(tip, ['tiled']);
  assert.equal((await info(page)).roofline.valid, false, 'the hover dropped the copy');
  // N moves under the tooltip: ordinary draws, the tooltip kept
  await moveN(page, 2);
  const under = await info(page);
  assert.equal(under.roofline.last, 'fallback');
  assert.ok(await page.evaluate(() => window.rooflab.chart('roofline', { points: false }).tooltip.opacity > 0));
  await page.screenshot({ path: join(ARTIFACTS, 'backdrop-hover-1280-light.png') });
  await page.mouse.move(1, 1);
  await page.waitForFunction(() => !window.rooflab.chart('roofline', { points: false }).tooltip.opacity);
  await moveN(page);
  assertSame(await compare(page), 'after the hover');

  // the keyboard steps through the marks after fast draws
  await page.focus('[data-testid="chart-roofline"]');
  await page.keyboard.press('ArrowRight');
  const key = await page.evaluate(() => {
    const t = window.rooflab.chart('roofline', { points: false }).tooltip;
    return { mark: !!window.rooflab.keyMark(), active: t.active, op: t.opacity, said: document.getElementById('roofline-announce').textContent };
  });
  assert.ok(key.mark && key.active === 1 && key.op > 0, JSON.stringify(key));
  assert.match(key.said, /I = /);
  await moveN(page, 2);
  assert.equal((await info(page)).roofline.last, 'fallback', 'a stepped-to mark: ordinary draws');
  await page.keyboard.press('Escape');
  await moveN(page);
  assertSame(await compare(page), 'after the keyboard');
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('a theme switch or a zoom after fast draws shows the new state (no stale copy)', async () => {
  const page = await fresh();
  await loadPoints(page, 3000);
  await page.locator('[data-testid="chart-roofline"]').scrollIntoViewIfNeeded();
  await moveN(page);
  const light = await bgColour(page);
  await page.click('[data-testid="action-theme"]');
  const dark = await bgColour(page);
  assert.notDeepEqual(dark, light);
  await moveN(page);
  let cmp = await compare(page);
  assertSame(cmp, 'after the theme switch');
  assert.deepEqual(cmp.roofline.bg, dark, 'the roofline in the new colours');
  assert.deepEqual(cmp.sweep.bg, dark, 'the sweep chart in the new colours');
  await page.screenshot({ path: join(ARTIFACTS, 'backdrop-theme-1280-dark.png') });

  const axes = () => page.evaluate(() => { const s = window.rooflab.chart('roofline', { points: false }).scales; return [s.x.min, s.x.max, s.y.min, s.y.max]; });
  const wide = await axes();
  const builds = await page.evaluate(() => window.rooflab.measuredLayer().builds);
  await page.click('[data-testid="action-zoom-in"]');
  // the zoom (its plugin fetched on first use), then the measured layer drawn again once the axes
  // rest: both waited for, not a fixed pause
  await page.waitForFunction((w) => { const s = window.rooflab.chart('roofline', { points: false }).scales; return [s.x.min, s.x.max, s.y.min, s.y.max].join() !== w; }, wide.join(), { timeout: 60000 });
  await page.waitForFunction((b) => (({ builds: n, pending }) => n > b && !pending)(window.rooflab.measuredLayer()), builds, { timeout: 60000 });
  assert.notDeepEqual(await axes(), wide);
  await moveN(page);
  cmp = await compare(page);
  assertSame(cmp, 'after the zoom');
  await page.click('[data-testid="action-zoom-reset"]');
  await moveN(page);
  assertSame(await compare(page), 'after the zoom reset');
  assert.deepEqual(await axes(), wide);
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});
