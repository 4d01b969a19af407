// The published measurements on the page (issue 8): data/published's records are in the examples
// menu, and every point that names a kernel profile is drawn with its own prediction — a hollow
// star at the point's intensity, y = F / predicted time — from core's derived figures (the same
// rl_rec_point_predict that `rooflab check-model` uses), checked here against `rooflab eval
// --kernel PROFILE --json` for one point and against check-model's count for the whole file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { openPage, ARTIFACTS, ROOT, pageEnv, clearStored, recordsIdle } from './harness.mjs';
import { nativeCli } from '../wasm/load.mjs';

const CLI = nativeCli(); // absolute, whatever ROOFLAB holds
const cli = (...args) => JSON.parse(execFileSync(CLI, args, { encoding: 'utf8' }));
const env = pageEnv();

const idle = recordsIdle;

test('the FA3 paper set loads from the examples menu, each point against its own prediction', async () => {
  const page = await openPage(env.browser.context, env.server.url);
  await clearStored(page);
  await page.reload();
  await page.waitForSelector('html[data-ready="1"]');
  await idle(page);
  const files = await page.$$eval('[data-testid="input-example"] option', (o) => o.map((x) => x.value));
  for (const f of ['fa3-paper-h100.json', 'flash-decoding-blog-a100.json', 'fa-issue-1572-h100.json', 'pytorch-benchmark-ff65cb6.json'])
    assert.ok(files.includes(f), `${f} in the examples menu`);
  await page.selectOption('[data-testid="input-example"]', 'fa3-paper-h100.json');
  await page.click('[data-testid="action-load-example"]');
  await page.waitForFunction(() => document.querySelectorAll('#records-list > li').length === 1);
  await idle(page);
  const stars = await page.evaluate(() => {
    // one ☆ series per kernel of the record (identity.test): all of them together
    const ds = window.rooflab.chart('roofline').datasets.filter((d) => d.rlKind === 'measured' && d.label.includes('predicted, each point'));
    return ds.length ? ds.flatMap((d) => d.data.map((p) => ({ x: p.x, y: p.y, text: p.text }))) : null;
  });
  assert.ok(stars, 'a predicted dataset is drawn');
  // check-model predicts the same points: its count for this file.
  const cm = cli('check-model', '--json', join(ROOT, 'data/published/fa3-paper-h100.json'));
  assert.equal(stars.length, cm.predicted);
  // FA3, H100 SXM, d = 128, B = 32, H = 16, N = 512, fp16, non-causal (Fig. 5(c)).
  const ev = cli('eval', '--kernel', 'fa3', '--hw', 'h100-sxm', '--batch', '32', '--heads', '16', '--seq', '512', '--head-dim', '128', '--json');
  const want = ev.predicted.flops_per_s;
  // the cuDNN bar of the same shape is predicted by cudnn, which on Hopper takes FA3's mechanism
  // (the same time): the FA3 point is the one predicted by profile fa3
  const hit = stars.filter((s) => Math.abs(s.y - want) / want < 1e-9 && s.text[0].startsWith('predicted by profile fa3 ') &&
    s.text.some((l) => l.includes('Fig.5(c), x-label 512')));
  assert.equal(hit.length, 1, `one star at ${want} FLOP/s for Fig. 5(c) N = 512`);
  assert.ok(Math.abs(hit[0].x - ev.models.compulsory.intensity_flop_per_byte) / hit[0].x < 1e-9, 'at the point’s (compulsory) intensity');
  assert.match(hit[0].text[0], /^predicted by profile fa3 on h100-sxm: /);
  assert.match(hit[0].text[1], /error \(predicted − measured\) \/ measured = [+-]?\d+\.\d %/);
  await page.locator('[data-testid="chart-roofline"]').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(ARTIFACTS, 'published-fa3-1280x800.png') });
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});
