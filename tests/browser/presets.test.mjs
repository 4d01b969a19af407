// The hardware presets on the page (issue 18's Blackwell, RTX 5090, H20, MI325X, MI355X among
// them): the preset select lists exactly `rooflab hw --json`'s ids in its order (core is the one
// source), each new preset's shown bandwidth, peak and ridge equal `rooflab eval --json` for the
// same state, and the fp6/fp4 ceilings appear where the preset has them and lift the y axis to
// them. Screenshot of B200 with its fp4 ceiling in test-artifacts/presets-b200-fp4.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { openPage, ARTIFACTS, pageEnv } from './harness.mjs';
import { nativeCli, nativeEval } from '../wasm/load.mjs';

const env = pageEnv();
const HW = JSON.parse(execFileSync(nativeCli(), ['hw', '--json'], { encoding: 'utf8' }));
const NEW = ['b200', 'gb200', 'b300', 'gb300', 'rtx5090', 'h20', 'mi325x', 'mi355x'];
const STATE = 'seq=8192&heads=32&kv-heads=8&head-dim=128&dtype=bf16&causal=1';
const FLAGS = ['--seq', '8192', '--heads', '32', '--kv-heads', '8', '--head-dim', '128', '--dtype', 'bf16', '--causal'];

async function shown(page) {
  await page.evaluate(() => window.rooflab.flush());
  return page.$$eval('[data-testid][data-value]', (els) => Object.fromEntries(els.map((e) => [e.dataset.testid, e.dataset.value])));
}

const close = (a, b, what) => assert.ok(Math.abs(a - b) <= 1e-12 * Math.abs(b), `${what}: page ${a} vs native ${b}`);

test('the preset select is core\'s list; each new preset shows the native figures', async () => {
  const page = await openPage(env.browser.context, `${env.server.url}#${STATE}&hw=b200`);
  const options = await page.$$eval('[data-testid=input-hw] option', (os) => os.map((o) => o.value));
  assert.deepEqual(options, HW.map((h) => h.id));
  for (const id of NEW) assert.ok(options.includes(id), id);
  for (const id of NEW) {
    await page.selectOption('[data-testid=input-hw]', id);
    const v = await shown(page);
    const n = nativeEval([...FLAGS, '--hw', id]);
    close(Number(v.bandwidth_bytes_per_s), n.bandwidth_bytes_per_s, `${id} bandwidth`);
    close(Number(v.peak_flops_per_s), n.peak_flops_per_s, `${id} peak`);
    close(Number(v.ridge_flop_per_byte), n.ridge_flop_per_byte, `${id} ridge`);
  }
  // Hand-copied datasheet figures behind two of them: B200 bf16 dense 36 PF / 8 GPUs / 2
  // (sparse) = 2.25 PFLOP/s on 64 TB/s / 8 = 8 TB/s → ridge 281.25 FLOP/B; H20 148 TFLOP/s on
  // 4.0 TB/s → 37 FLOP/B.
  await page.selectOption('[data-testid=input-hw]', 'b200');
  assert.equal(Number((await shown(page)).ridge_flop_per_byte), 2.25e15 / 8e12);
  await page.selectOption('[data-testid=input-hw]', 'h20');
  assert.equal(Number((await shown(page)).ridge_flop_per_byte), 37);
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('fp6/fp4 ceilings: offered where the preset has them, drawn inside the y axis', async () => {
  const page = await openPage(env.browser.context, `${env.server.url}#${STATE}&hw=b200`);
  const b200 = HW.find((h) => h.id === 'b200');
  assert.equal(b200.peak_flops_per_s.fp4_tensor, 9e15); // 144 PF sparse / 8 GPUs / 2
  await page.check('[data-testid=input-ceilings-fp4_tensor]');
  await page.evaluate(() => window.rooflab.flush());
  const yMax = await page.evaluate(() => window.rooflab.chart('roofline', { points: false }).scales.y.max);
  assert.ok(yMax >= 9e15, `yMax ${yMax} below the fp4 ceiling`);
  const labels = await page.evaluate(() => window.rooflab.chart('roofline').datasets.map((d) => d.label));
  assert.ok(labels.some((l) => /fp4/.test(l)), labels.join(' | '));
  assert.match(await page.evaluate(() => location.hash), /ceilings=[^&]*fp4_tensor/);
  await page.locator('#chart').screenshot({ path: join(ARTIFACTS, 'presets-b200-fp4.png') });
  // H100 has no fp4: its checkbox is absent or disabled, never a zero ceiling.
  await page.selectOption('[data-testid=input-hw]', 'h100-sxm');
  await page.evaluate(() => window.rooflab.flush());
  const fp4 = page.locator('[data-testid=input-ceilings-fp4_tensor]');
  assert.ok((await fp4.count()) === 0 || (await fp4.isDisabled()) || !(await fp4.isVisible()), 'fp4 offered on H100');
  const after = await page.evaluate(() => window.rooflab.chart('roofline').datasets.map((d) => d.label));
  assert.ok(!after.some((l) => /fp4/.test(l)), after.join(' | '));
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});
