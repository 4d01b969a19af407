// A slider move patches the result panels in place (view.js: the summary cards, the traffic
// table and the ledger keep their elements; only changed text is written). Checked here: after
// many moves the patched numbers and texts are those of a fresh page for the same state and of
// the native `rooflab eval --json`; the elements are the same ones (the patch path ran); an
// error still clears on the next good move; a refused record's message is not the controls'.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openPage, ROOT, pageEnv, clearStored } from './harness.mjs';
import { nativeEval } from '../wasm/load.mjs';

const env = pageEnv();
const MODELS = ['compulsory', 'tiled', 'naive'];

// What the result panels show: every data-value, and the visible text of each panel.
async function panels(page) {
  await page.evaluate(() => window.rooflab.flush());
  return page.evaluate(() => ({
    values: Object.fromEntries([...document.querySelectorAll('.results [data-testid][data-value]')]
      .map((e) => [e.dataset.testid, e.dataset.value])),
    text: Object.fromEntries(['summary', 'model-table', 'ledger', 'best-tile', 'roofline-legend', 'model-info', 'status']
      .map((id) => [id, document.getElementById(id).textContent])),
    classes: [...document.querySelectorAll('#model-table span[class^=bound-], #ledger span[class^=bound-]')].map((e) => e.className),
    shares: [...document.querySelectorAll('#ledger .seg')].map((e) => [e.className, e.dataset.share, e.style.flexGrow, e.title]),
  }));
}

// n moves of a range slider, scattered over its range, as a drag delivers them (one per frame).
async function drag(page, key, n) {
  await page.evaluate(async ({ key, n }) => {
    const r = document.querySelector(`[data-testid=input-${key}-range]`);
    const lo = Number(r.min), hi = Number(r.max);
    for (let i = 0; i < n; i++) {
      r.value = String(lo + ((hi - lo) * ((i * 37) % n)) / n);
      r.dispatchEvent(new Event('input', { bubbles: true }));
      await new Promise((ok) => requestAnimationFrame(ok));
    }
  }, { key, n });
}

function flags(hash) {
  const out = [];
  for (const [k, v] of new URLSearchParams(hash.replace(/^#/, ''))) {
    if (['phase', 'ceilings', 'roofs', 'levels', 'model'].includes(k)) continue; // page-only keys
    if (k === 'causal') { if (v === '1') out.push('--causal'); continue; }
    out.push(`--${k}`, v);
  }
  return out;
}

function close(actual, expected, what) {
  if (expected === 0) return assert.equal(actual, 0, what);
  assert.ok(Math.abs(actual - expected) / Math.abs(expected) <= 1e-12, `${what}: page ${actual} vs native ${expected}`);
}

for (const start of ['', '#seq=4096&causal=1&kernel=fa3&roofs=l2%2Cexp&levels=1', '#phase=decode&kv-len=32768&batch=8&heads=32&kv-heads=8&head-dim=128']) {
  test(`after slider moves the patched panels equal a fresh page and rooflab eval (${start || 'defaults'})`, async () => {
    const page = await openPage(env.browser.context, env.server.url + start);
    await page.waitForSelector('html[data-ready="1"]');
    // Tag the patched elements: the same elements must be there after the moves.
    await page.evaluate(() => {
      for (const id of ['flops', 'models-tiled-bytes', 'predicted-time_s']) {
        const el = document.querySelector(`[data-testid="${id}"]`);
        if (el) el.rlTag = id;
      }
    });
    const swept = start.includes('decode') ? 'kv-len' : 'seq';
    await drag(page, swept, 40);
    // H alone only while Hkv follows it (a free Hkv of 8 refuses most H: the last good state stays).
    if (!start.includes('kv-heads')) await drag(page, 'heads', 5);
    await drag(page, 'batch', 7);
    const kept = await page.evaluate(() => ['flops', 'models-tiled-bytes', 'predicted-time_s']
      .filter((id) => document.querySelector(`[data-testid="${id}"]`)?.rlTag === id));
    assert.ok(kept.includes('flops') && kept.includes('models-tiled-bytes'), `the summary and the table patched in place: ${kept}`);

    const hash = await page.evaluate(() => { window.rooflab.flush(); return location.hash; });
    const moved = await panels(page);
    const fresh = await openPage(env.browser.context, env.server.url + hash);
    await fresh.waitForSelector('html[data-ready="1"]');
    const want = await panels(fresh);
    assert.deepEqual(moved.values, want.values, `data-value after the moves vs a fresh page (${hash})`);
    assert.deepEqual(moved.text, want.text, 'panel texts');
    assert.deepEqual(moved.classes, want.classes, 'bound classes');
    assert.deepEqual(moved.shares, want.shares, 'ledger bar');

    const native = nativeEval(flags(hash));
    const v = moved.values;
    for (const key of ['flops', 'pairs', 'softmax_flops', 'ridge_flop_per_byte']) close(Number(v[key]), native[key], key);
    for (const m of MODELS) {
      const nm = native.models[m];
      if (!nm) { assert.equal(v[`models-${m}-bytes`], '', `${m}: not modelled`); continue; }
      close(Number(v[`models-${m}-bytes`]), nm.bytes, `models-${m}-bytes`);
      close(Number(v[`models-${m}-time_s`]), nm.time_s, `models-${m}-time_s`);
      assert.equal(v[`models-${m}-bound`], nm.bound, `models-${m}-bound`);
    }
    close(Number(v['sram-total_bytes']), native.sram.total_bytes, 'sram-total_bytes');
    assert.deepEqual(page.rlErrors, []);
    assert.deepEqual(fresh.rlErrors, []);
    await page.close();
    await fresh.close();
  });
}

test('an error clears on the next good slider move; a refused record keeps its message', async () => {
  const page = await openPage(env.browser.context, env.server.url);
  await page.waitForSelector('html[data-ready="1"]');
  await clearStored(page);
  await page.setInputFiles('[data-testid="input-upload"]', [join(ROOT, 'tests', 'record', 'cases', 'invalid', 'not-an-object.json')]);
  await page.waitForSelector('[data-testid="record-errors-0"]');
  const refused = await page.textContent('#records-list');
  assert.match(refused, /valid JSON, not a record/);

  await page.fill('[data-testid=input-kv-heads]', '3');
  assert.ok(await page.isVisible('[data-testid=error-kv-heads]'));
  assert.equal(await page.getAttribute('[data-testid=input-kv-heads]', 'aria-invalid'), 'true');
  assert.equal(await page.getAttribute('[data-testid=status]', 'data-value'), 'error');
  await page.fill('[data-testid=input-kv-heads]', '8');
  await drag(page, 'seq', 5);
  assert.equal(await page.isVisible('[data-testid=error-kv-heads]'), false, 'the error cleared');
  assert.equal(await page.textContent('[data-testid=error-kv-heads]'), '');
  assert.equal(await page.getAttribute('[data-testid=input-kv-heads]', 'aria-invalid'), null);
  assert.equal(await page.textContent('[data-testid=status]'), 'Ready');
  assert.equal(await page.textContent('#records-list'), refused, 'a slider move leaves the records’ messages alone');
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});
