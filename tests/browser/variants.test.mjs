// The attention variants on the page (issue 18, part 5) in headless Chromium: the closed
// "attention variant" group and each of its controls through the URL and back, with the page's
// numbers equal to `rooflab eval --json` and to hand calculations; a bad ragged list named by its
// field with the last good state kept; MLA decode at the ridge (H = 128, N = 1, bf16) and twice as
// far with two query rows; prefill with a cached prefix (L free in prefill); the model selector
// filling the variant fields; the two variant tours run to their questions; screenshots
// (test-artifacts/variants-*.png) at 1280×800 and 390×844.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openPage, clearStored, ARTIFACTS, pageEnv } from './harness.mjs';
import { nativeEval } from '../wasm/load.mjs';
import { SCENARIOS } from '../../web/js/scenarios.js';

const env = pageEnv();
const shown = (page, id) => page.$eval(`[data-testid="${id}"]`, (e) => Number(e.dataset.value));
const fragment = (page) => page.evaluate(() => { window.rooflab.flush(); return location.hash.replace(/^#/, ''); });
const marks = (page) => page.evaluate(() => Object.fromEntries(window.rooflab.chart('roofline').datasets
  .filter((d) => d.rlKind === 'point' || d.rlKind === 'predicted').map((d) => [d.rlKind === 'predicted' ? 'predicted' : d.label, d.data[0]])));
const near = (a, b, rel, what) => assert.ok(Math.abs(a - b) <= rel * Math.abs(b), `${what}: ${a} vs ${b}`);

// A fresh page with nothing kept from earlier tests.
async function fresh(hash = '', size = {}) {
  const page = await openPage(env.browser.context, env.server.url, size);
  await clearStored(page);
  await page.goto(`${env.server.url}#${hash}`);
  await page.reload();
  await page.waitForSelector('html[data-ready="1"]');
  // The reload may cut off the first load's favicon request; nothing else is let through.
  page.rlErrors = page.rlErrors.filter((e) => !/^requestfailed: \S+\/favicon\.svg$/.test(e));
  return page;
}

// The fragment's keys as CLI flags (page-only keys dropped).
function flags(frag) {
  const out = [];
  for (const [k, v] of new URLSearchParams(frag)) {
    if (['phase', 'ceilings', 'roofs', 'levels', 'model'].includes(k)) continue;
    if (k === 'causal') { if (v === '1') out.push('--causal'); continue; }
    out.push(`--${k}`, v);
  }
  return out;
}

test('variant-group-closed: the variant group is closed for a beginner and opens for a link that sets a variant', async () => {
  const page = await fresh();
  assert.equal(await page.$eval('[data-testid=variants]', (e) => e.open), false, 'closed by default');
  assert.equal(await page.isVisible('[data-testid=input-window]'), false, 'its fields out of the way');
  assert.equal(await fragment(page), '', 'no variant key in a default link');
  await page.goto(`${env.server.url}#window=128&causal=1`);
  await page.waitForFunction(() => document.querySelector('[data-testid=variants]').open);
  assert.equal(await page.inputValue('[data-testid=input-window]'), '128');
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

// Each control: typed on the page, written to the link, read back by a fresh page, and the numbers
// the page shows are the CLI's for that link. `hand`: F and compulsory bytes by hand.
const CONTROLS = [
  // d_v = 128 with d = 192 (MLA prefill's MHA form), N = L = 4096, H = 8: F = 2·B·H·P·(d + d_v) =
  // 2·1·8·4096²·(192 + 128) = 85,899,345,920 FLOP.
  { key: 'head-dim-v', value: '128', before: { 'head-dim': '192' }, hand: { flops: 2 * 8 * 4096 * 4096 * 320 } },
  // Absorbed MLA decode, H = 128, L = 8192, R = 512, d_R = 64 (either typed first; the other one
  // alone is refused by core): F = 2·H·N·L·(d_qk + d_v) = 2·128·1·8192·(576 + 512) = 2,281,701,376.
  { key: 'kv-lora-rank', value: '512', before: { phase: 'decode', 'kv-len': '8192', heads: '128', 'rope-dim': '64' }, hand: { flops: 2 * 128 * 8192 * 1088 } },
  { key: 'rope-dim', value: '64', before: { phase: 'decode', 'kv-len': '8192', heads: '128', 'kv-lora-rank': '512' }, hand: { flops: 2 * 128 * 8192 * 1088 } },
  // Paged decode, 16 rows per page, L = 8192: the page table is 8192/16 = 512 int32 = 2048 B.
  { key: 'page-size', value: '16', before: { phase: 'decode', 'kv-len': '8192' } },
  // Sliding window W = 128, causal, N = L = 4096: query i sees min(i + 1, 128) keys:
  // P = 128·129/2 + (4096 − 128)·128 = 8,256 + 507,904 = 516,160 pairs.
  { key: 'window', value: '128', before: { causal: true }, hand: { pairs: 516160 } },
  // Sinks S = 4 with W = 128: the pairs are the CLI's (counted by a literal loop in
  // tests/unit/test_workload.c, window_pairs_loop).
  { key: 'sinks', value: '4', before: { causal: true, window: '128' } },
  // Sparse top-k decode: K = 2048 of L = 8192 keys; F = 4·B·H·d·P = 4·1·8·64·2048 = 4,194,304.
  { key: 'topk', value: '2048', before: { phase: 'decode', 'kv-len': '8192' }, hand: { flops: 4 * 8 * 64 * 2048 } },
  // A ragged decode batch: 512 + 3 × 4096 keys, B = 4: P = 512 + 3·4096 = 12,800 pairs over the
  // batch, F = 4·H·d·P = 4·8·64·12800 = 26,214,400 FLOP (the CLI's text above: 26.21 MFLOP).
  { key: 'kv-lens', value: '512,4096x3', before: { phase: 'decode' }, hand: { flops: 26214400 }, text: true },
  // nvfp4 K/V in decode, L = 8192, H = Hkv = 8, d = 64: K and V are 2·8·8192·64 = 8,388,608
  // elements of 0.5625 B (4-bit values and one 8-bit scale per 16) = 4,718,592 B; Q and O fp16
  // 2·8·64 = 1,024 B each: 4,720,640 B.
  { key: 'kv-dtype', value: 'nvfp4', before: { phase: 'decode', 'kv-len': '8192' }, hand: { 'models-compulsory-bytes': 4720640 }, select: true },
  { key: 'kv-dtype', value: 'mxfp4', before: { phase: 'decode', 'kv-len': '8192' }, select: true },
  { key: 'kv-dtype', value: 'mxfp8', before: { phase: 'decode', 'kv-len': '8192' }, select: true },
];

async function setControl(page, key, value) {
  const el = `[data-testid=input-${key}]`;
  const tag = await page.$eval(el, (e) => (e.tagName === 'SELECT' ? 'select' : e.type));
  if (tag === 'select') await page.selectOption(el, String(value));
  else if (tag === 'checkbox') await page.setChecked(el, !!value);
  else if (tag === 'text') { await page.fill(el, String(value)); await page.press(el, 'Enter'); } else await page.fill(el, String(value));
}

test('variant-controls-url: each variant control round-trips through the URL and the numbers are the CLI\'s', async () => {
  for (const c of CONTROLS) {
    const page = await fresh();
    await page.click('[data-testid=variants] summary');
    for (const [k, v] of Object.entries(c.before)) await setControl(page, k, v);
    await setControl(page, c.key, c.value);
    const frag = await fragment(page);
    assert.equal(new URLSearchParams(frag).get(c.key), c.value, `${c.key}: in the link (${frag})`);
    assert.equal(await page.textContent('[data-testid=status]'), 'Ready', c.key);
    // A fresh page from the link shows the control's value, and the same numbers.
    const back = await openPage(env.browser.context, `${env.server.url}#${frag}`);
    assert.equal(await back.inputValue(`[data-testid=input-${c.key}]`), c.value, `${c.key}: read back`);
    assert.equal(await fragment(back), frag, `${c.key}: the same link`);
    if (!c.select) assert.equal(await back.$eval('[data-testid=variants]', (e) => e.open), true, `${c.key}: the group opens`);
    const n = nativeEval(flags(frag));
    for (const p of [page, back]) {
      assert.equal(await shown(p, 'flops'), n.flops, `${c.key} flops`);
      assert.equal(await shown(p, 'pairs'), n.pairs, `${c.key} pairs`);
      assert.equal(await shown(p, 'models-compulsory-bytes'), n.models.compulsory.bytes, `${c.key} compulsory bytes`);
    }
    for (const [id, v] of Object.entries(c.hand || {})) assert.equal(await shown(back, id), v, `${c.key}: ${id} by hand`);
    assert.deepEqual(page.rlErrors, [], c.key);
    assert.deepEqual(back.rlErrors, [], c.key);
    await page.close();
    await back.close();
  }
});

test('variant-kvlens-error: a bad ragged list is named by its field and the chart keeps the last good state', async () => {
  const page = await fresh('phase=decode&kv-len=8192');
  const flops = await shown(page, 'flops');
  await page.click('[data-testid=variants] summary');
  await page.fill('[data-testid=input-kv-lens]', '512,abc');
  await page.press('[data-testid=input-kv-lens]', 'Enter');
  const err = await page.textContent('[data-testid=error-kv-lens]');
  assert.match(err, /^kv-lens: item 2: expected LEN or LENxCOUNT/, err);
  assert.match(await page.textContent('[data-testid=status]'), /last good state/);
  assert.equal(await shown(page, 'flops'), flops, 'the chart still shows the last good state');
  // The ragged batch fixes B and L (core's): both fields are disabled and show its values.
  await page.fill('[data-testid=input-kv-lens]', '512,4096x3');
  await page.press('[data-testid=input-kv-lens]', 'Enter');
  assert.equal(await page.isDisabled('[data-testid=input-batch]'), true);
  assert.equal(await page.inputValue('[data-testid=input-batch]'), '4', 'B = 1 + 3');
  assert.equal(await page.inputValue('[data-testid=input-kv-len]'), '4096', 'L = the longest');
  await page.fill('[data-testid=input-kv-lens]', '');
  await page.press('[data-testid=input-kv-lens]', 'Enter');
  assert.equal(await page.isDisabled('[data-testid=input-batch]'), false);
  assert.equal(await page.inputValue('[data-testid=input-kv-len]'), '8192', 'the typed L again');
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

// Absorbed MLA (DeepSeek-V3: R = 512, d_R = 64, H = 128) in bf16: d_qk = 576, d_v = 512, one latent
// of 576·2 = 1152 B per token; F = 2·H·N·L·(576 + 512) = 278528·N·L; the intensity tends to
// 2·H·N·(d_qk + d_v)/(d_qk·b) = 278528/1152 = 241.78 FLOP/B for N = 1, 483.56 for N = 2. The H200's
// ridge: 989 TFLOP/s / 4.8 TB/s = 206.04 FLOP/B.
test('variant-mla-ridge: MLA decode sits at the ridge at H = 128 and twice as far right with two query rows', async () => {
  const L = 1048576;
  const limit1 = (2 * 128 * 1 * (576 + 512)) / (576 * 2);
  const ridge = 989e12 / 4.8e12;
  const base = `kv-len=${L}&heads=128&kv-lora-rank=512&rope-dim=64&dtype=bf16&hw=h200-sxm&kernel=flashmla`;
  const page = await fresh(`phase=decode&${base}`);
  const one = await marks(page);
  // Q and O (2·128·576 + 2·128·512 = 278,528 B) beside the 1152·L cache: 241.72 at L = 2^20.
  near(one.compulsory.x, 278528 * L / (1152 * L + 278528), 1e-12, 'compulsory ● by hand');
  near(one.compulsory.x, limit1, 5e-4, 'compulsory ● at the large-L limit');
  assert.ok(one.predicted, 'FlashMLA predicts a star');
  near(one.predicted.x, limit1, 0.05, '★ near 242 FLOP/B (its split partials add a few % of bytes)');
  near(await shown(page, 'ridge_flop_per_byte'), ridge, 1e-12, 'the ridge');
  assert.ok(one.compulsory.x > ridge && one.compulsory.x < 1.25 * ridge, 'at the ridge (within 25 %)');
  // The worked calculation's MLA step, with its numbers.
  await page.evaluate(() => window.rooflab.flush());
  near(await shown(page, 'calc-mla_intensity_limit_flop_per_byte'), limit1, 1e-12, 'the MLA step\'s limit');
  assert.equal(await shown(page, 'calc-kv_token_bytes'), 1152);
  const row = await page.textContent('#worked li[data-row=mla]');
  assert.match(row, /2·H·N·\(d_qk \+ d_v\) \/ \(d_qk·b\) = 2 · 128 · 1 · \(576 \+ 512\) \/ 1,152 B/);
  // The latent fixes d, d_v and Hkv: the fields are disabled and show core's values.
  assert.equal(await page.inputValue('[data-testid=input-head-dim]'), '576');
  assert.equal(await page.inputValue('[data-testid=input-head-dim-v]'), '512');
  assert.equal(await page.inputValue('[data-testid=input-kv-heads]'), '1');
  assert.equal(await page.isDisabled('[data-testid=input-head-dim]'), true);
  // Two query rows (MTP) on the same cache: N = 2 in prefill with L free.
  await page.selectOption('[data-testid=input-phase]', 'prefill');
  await page.fill('[data-testid=input-kv-len]', String(L));
  await page.fill('[data-testid=input-seq]', '2');
  const two = await marks(page);
  near(two.compulsory.x / one.compulsory.x, 2, 1e-3, 'N = 2 doubles the ●');
  near(two.predicted.x / one.predicted.x, 2, 0.01, 'and the ★');
  assert.ok(two.predicted.x > 2 * ridge, '★ well past the ridge');
  await page.evaluate(() => window.rooflab.flush()); // the worked calculation, written now
  near(await shown(page, 'calc-mla_intensity_limit_flop_per_byte'), 2 * limit1, 1e-12, 'the limit doubles');
  const frag = await fragment(page);
  const n = nativeEval(flags(frag));
  near(two.compulsory.x, n.models.compulsory.intensity_flop_per_byte, 1e-12, 'the CLI\'s');
  near(two.predicted.x, n.predicted.levels.dram.intensity_flop_per_byte, 1e-12, 'the CLI\'s ★');
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

// Chunked prefill: N = 1024 new rows on L = 8192 keys (a cached prefix of 7168).
// Non-causal P = N·L = 8,388,608; causal P = N·L − N(N−1)/2 = 8,388,608 − 523,776 = 7,864,832.
test('variant-chunked-prefill: L is free in prefill (a cached prefix), tied to N until typed', async () => {
  const page = await fresh();
  assert.equal(await page.isDisabled('[data-testid=input-kv-len]'), false, 'L is a field in prefill');
  await page.fill('[data-testid=input-seq]', '1024');
  assert.equal(await page.inputValue('[data-testid=input-kv-len]'), '1024', 'tied: L shows N');
  assert.equal(new URLSearchParams(await fragment(page)).has('kv-len'), false, 'a tied L is not in the link');
  await page.fill('[data-testid=input-kv-len]', '8192');
  assert.equal(await shown(page, 'pairs'), 8388608);
  await page.setChecked('[data-testid=input-causal]', true);
  assert.equal(await shown(page, 'pairs'), 7864832);
  const frag = await fragment(page);
  assert.equal(new URLSearchParams(frag).get('kv-len'), '8192');
  assert.equal(new URLSearchParams(frag).get('seq'), '1024');
  const n = nativeEval(flags(frag));
  assert.equal(await shown(page, 'flops'), n.flops);
  assert.equal(await shown(page, 'models-tiled-bytes'), n.models.tiled.bytes);
  // The causal sweep stops at L (core refuses N > L when causal).
  const xs = await page.evaluate(() => window.rooflab.chart('sweep').datasets.flatMap((d) => d.data.map((p) => p.x)).filter(Number.isFinite));
  assert.ok(Math.max(...xs) <= 8192 && xs.length > 10, `swept N up to L: ${Math.max(...xs)}`);
  // A fresh page from the link; the phase switched by hand ties L to N again.
  const back = await openPage(env.browser.context, `${env.server.url}#${frag}`);
  assert.equal(await back.inputValue('[data-testid=input-kv-len]'), '8192');
  assert.equal(await shown(back, 'pairs'), 7864832);
  await back.selectOption('[data-testid=input-phase]', 'decode');
  await back.selectOption('[data-testid=input-phase]', 'prefill');
  assert.equal(await back.inputValue('[data-testid=input-kv-len]'), '1024', 'back in prefill: L = N');
  assert.deepEqual(page.rlErrors, []);
  assert.deepEqual(back.rlErrors, []);
  await page.close();
  await back.close();
});

test('variant-model-fill: the model selector fills the variant fields (MLA latent, MHA form, layer kind)', async () => {
  const page = await fresh('phase=decode&kv-len=32768&dtype=bf16');
  await page.selectOption('[data-testid=model-select]', 'deepseek-v3');
  // DeepSeek-V3's config.json: kv_lora_rank 512, qk_rope_head_dim 64, 128 heads; decode → absorbed.
  assert.equal(await page.inputValue('[data-testid=input-kv-lora-rank]'), '512');
  assert.equal(await page.inputValue('[data-testid=input-rope-dim]'), '64');
  assert.equal(await page.inputValue('[data-testid=input-heads]'), '128');
  assert.equal(await page.inputValue('[data-testid=input-head-dim]'), '576', 'core: R + d_R');
  assert.equal(await page.$eval('[data-testid=variants]', (e) => e.open), true, 'the group opens');
  let frag = await fragment(page);
  assert.equal(new URLSearchParams(frag).get('model'), 'deepseek-v3');
  assert.equal(new URLSearchParams(frag).has('kv-lora-rank'), false, 'the model says it');
  const back = await openPage(env.browser.context, `${env.server.url}#${frag}`);
  assert.equal(await back.inputValue('[data-testid=input-kv-lora-rank]'), '512', 'a model link restores its latent');
  assert.equal(await shown(back, 'flops'), await shown(page, 'flops'));
  await back.close();
  // Prefill runs MLA's MHA form (qk_nope 128 + rope 64 = 192, v_head_dim 128, 128 KV heads).
  await page.selectOption('[data-testid=input-phase]', 'prefill');
  assert.equal(await page.inputValue('[data-testid=input-kv-lora-rank]'), '');
  assert.equal(await page.inputValue('[data-testid=input-head-dim]'), '192');
  assert.equal(await page.inputValue('[data-testid=input-head-dim-v]'), '128');
  assert.equal(await page.inputValue('[data-testid=input-kv-heads]'), '128');
  // gpt-oss-120b: alternating sliding-window (128) and global layers: the layer kind is offered.
  assert.equal(await page.isVisible('[data-testid=input-layer-kind]'), false, 'no window layers: no layer kind');
  await page.selectOption('[data-testid=model-select]', 'gpt-oss-120b');
  assert.equal(await page.isVisible('[data-testid=input-layer-kind]'), true);
  assert.equal(await page.inputValue('[data-testid=input-layer-kind]'), 'global');
  assert.equal(await page.inputValue('[data-testid=input-head-dim-v]'), '64', 'tied to d = 64 again');
  await page.selectOption('[data-testid=input-layer-kind]', 'local');
  assert.equal(await page.inputValue('[data-testid=input-window]'), '128');
  assert.equal(await page.isChecked('[data-testid=input-causal]'), true, 'core\'s window is causal');
  frag = await fragment(page);
  assert.equal(new URLSearchParams(frag).get('window'), '128');
  assert.equal(await shown(page, 'pairs'), nativeEval(flags(frag)).pairs);
  await page.selectOption('[data-testid=input-layer-kind]', 'global');
  assert.equal(await page.inputValue('[data-testid=input-window]'), '');
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

for (const [id, size] of [['mla-decode', { width: 1280, height: 800 }], ['sliding-window', { width: 390, height: 844 }]]) {
  test(`variant-tour-${id}: the tour runs to its closing question (${size.width}×${size.height})`, async () => {
    const s = SCENARIOS.find((x) => x.id === id);
    const page = await fresh('', size);
    await page.click(`[data-testid=scenario-${id}]`);
    for (let i = 0; i < s.steps.length; i++) {
      assert.equal(await page.textContent('[data-testid=tour-counter]'), `${i + 1} / ${s.steps.length}`);
      assert.equal(await page.textContent('[data-testid=status]'), 'Ready', `step ${i + 1}`);
      if (i + 1 < s.steps.length) await page.click('[data-testid=tour-next]');
    }
    const q = s.steps.at(-1).question;
    assert.ok((await page.textContent('[data-testid=tour-question]')).includes(q.text), 'the closing question is shown');
    // "Show the answer": core's evaluation at the question's state, the CLI's for that state.
    await page.click('[data-testid=tour-reveal]');
    const answer = await page.$eval('[data-testid=tour-feedback]', (e) => ({ outcome: e.dataset.outcome, value: Number(e.dataset.value) }));
    assert.equal(answer.outcome, 'shown');
    const at = new URLSearchParams(await fragment(page));
    for (const [k, v] of Object.entries(q.at)) at.set(k, String(v));
    const n = nativeEval(flags(at.toString()));
    near(answer.value, q.key.split('.').reduce((o, k) => o[k], { ...n, compulsory: n.models.compulsory, tiled: n.models.tiled }), 1e-12, 'the answer is the CLI\'s');
    if (id === 'mla-decode') {
      // The last step: two query rows, both marks past the ridge.
      const m = await marks(page);
      const ridge = await shown(page, 'ridge_flop_per_byte');
      assert.ok(m.compulsory.x > 2 * ridge && m.predicted.x > ridge, `past the ridge: ${m.compulsory.x}, ${m.predicted.x} vs ${ridge}`);
    } else {
      // W = 128 at N = 65536: left of the ridge.
      const m = await marks(page);
      assert.ok(m.compulsory.x < await shown(page, 'ridge_flop_per_byte'), 'a windowed layer is memory-bound');
    }
    await page.evaluate(() => { for (const el of document.querySelectorAll('section, .results > *')) el.style.contentVisibility = 'visible'; });
    await page.screenshot({ path: join(ARTIFACTS, `variants-tour-${id}-${size.width}.png`), fullPage: false });
    assert.deepEqual(page.rlErrors, []);
    await page.close();
  });
}

test('variant-screens: the open variant group at 1280×800 and 390×844', async () => {
  for (const size of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    const page = await fresh('phase=decode&kv-len=131072&heads=128&kv-lora-rank=512&rope-dim=64&dtype=bf16&hw=h200-sxm&kernel=flashmla', size);
    await page.locator('[data-testid=variants]').scrollIntoViewIfNeeded();
    const box = await page.locator('[data-testid=variants]').boundingBox();
    assert.ok(box.width <= size.width, `the group fits the width (${box.width} at ${size.width})`);
    await page.screenshot({ path: join(ARTIFACTS, `variants-group-${size.width}.png`) });
    assert.deepEqual(page.rlErrors, []);
    await page.close();
  }
});
