// The whole-layer view in headless Chromium: the numbers it shows are core's, equal to the native
// `rooflab layer --json` and to the hand calculation (Llama 3.1 8B decode, B = 1, L = 8192: weights
// 15,009,857,536 B, K/V 1,073,741,824 B, activations 11,577,860 B — arithmetic in
// tests/unit/test_layer.c); the bar follows the sliders; tensor parallelism and the weights' dtype
// act; an MoE model in prefill; errors name the field; screenshots (test-artifacts/layer-*.png).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { openPage, ARTIFACTS, pageEnv } from './harness.mjs';
import { nativeCli } from '../wasm/load.mjs';

const env = pageEnv();
const native = (args) => JSON.parse(execFileSync(nativeCli(), ['layer', ...args, '--json'], { encoding: 'utf8' }));
const shown = (page, id) => page.$eval(`[data-testid="${id}"]`, (e) => Number(e.dataset.value));
const rowValue = (page, op, col) => page.$eval(`[data-testid="layer-row-${op}"] [data-testid="layer-op-${op}-${col}"]`, (e) => Number(e.dataset.value));
const settle = (page) => page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => ok())));
const L8 = '#model=llama-3.1-8b&phase=decode&kv-len=8192&dtype=bf16';

test('Llama 3.1 8B decode: the bytes a hand calculation gives, the same as the CLI, and the crossover', async () => {
  const page = await openPage(env.browser.context, env.server.url + L8);
  await settle(page);
  const n = native(['--model', 'llama-3.1-8b', '--phase', 'decode', '--batch', '1', '--kv-len', '8192', '--hw', 'h100-sxm']);
  // The hint cites where the layer model is written down: MODEL.md "The layer" (not DESIGN.md).
  const hint = await page.$eval('#layer-title', (e) => e.closest('.chart-head').nextElementSibling.textContent);
  assert.match(hint, /MODEL\.md “The layer”/);
  assert.doesNotMatch(hint, /DESIGN\.md/);
  assert.equal(await shown(page, 'layer-weight-bytes'), 15009857536);
  assert.equal(await shown(page, 'layer-kv-bytes'), 1073741824);
  assert.equal(await shown(page, 'layer-act-bytes'), 11577860);
  assert.equal(await shown(page, 'layer-step-time'), n.step.time_s);
  assert.equal(await shown(page, 'layer-attention-share'), n.step.attention_share);
  assert.equal(await shown(page, 'layer-crossover'), 114545);
  assert.match(await page.textContent('[data-testid=layer-crossover]'), /attention passes the weights at L \(decode, this batch\) = 114,545/);
  // Every operator's row is the CLI's.
  for (const o of n.operators) {
    assert.equal(await rowValue(page, o.name, 'bytes'), o.bytes, o.name);
    assert.equal(await rowValue(page, o.name, 'flops'), o.flops, o.name);
    assert.equal(await rowValue(page, o.name, 'share'), o.share, o.name);
  }
  // Each operator with FLOPs is a mark on the roof; attention is drawn largest; the bar stacks every
  // operator and adds up to the step.
  const charts = await page.evaluate(() => {
    const marks = window.rooflab.chart('layer-roof').datasets.filter((d) => d.rlMark);
    return {
      marks: marks.map((d) => [d.label, d.data[0].x, d.pointRadius]),
      bar: window.rooflab.chart('layer-bar').datasets.map((d) => [d.label, d.data[0]]),
    };
  });
  const withFlops = n.operators.filter((o) => o.flops > 0);
  assert.deepEqual(charts.marks.map((m) => m[0]).sort(), withFlops.map((o) => o.name).sort());
  for (const [name, x] of charts.marks) assert.equal(x, n.operators.find((o) => o.name === name).intensity_flop_per_byte);
  const att = charts.marks.find((m) => m[0] === 'attention');
  assert.ok(charts.marks.every((m) => m[0] === 'attention' || m[2] < att[2]), 'attention is the largest mark');
  assert.equal(charts.bar.length, n.operators.length);
  const total = charts.bar.reduce((a, [, t]) => a + t, 0);
  assert.ok(Math.abs(total - n.step.time_s) <= 1e-12 * n.step.time_s, `${total} vs ${n.step.time_s}`);
  assert.match(await page.textContent('[data-testid=layer-unplotted]'), /embedding, kv_cache_write/);
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('the bar moves with the sliders; --tp and the weights dtype act; an MoE model in prefill', async () => {
  const page = await openPage(env.browser.context, env.server.url + L8);
  const attentionShare = async () => { await settle(page); return shown(page, 'layer-attention-share'); };
  const before = await attentionShare();
  await page.fill('[data-testid=input-kv-len]', '65536');
  await page.press('[data-testid=input-kv-len]', 'Enter');
  const after = await attentionShare();
  const n64 = native(['--model', 'llama-3.1-8b', '--phase', 'decode', '--kv-len', '65536']);
  assert.equal(after, n64.step.attention_share);
  assert.ok(after > before, `${after} > ${before}`);
  const barAttention = await page.evaluate(() => window.rooflab.chart('layer-bar').datasets.find((d) => d.label === 'attention').data[0]);
  assert.equal(barAttention, n64.operators.find((o) => o.name === 'attention').step_time_s);
  // Batch 16 brings the crossover in: the weights are read once for all sequences.
  await page.fill('[data-testid=input-batch]', '16');
  await page.press('[data-testid=input-batch]', 'Enter');
  await settle(page);
  assert.equal(await shown(page, 'layer-crossover'), native(['--model', 'llama-3.1-8b', '--batch', '16', '--kv-len', '65536']).crossover.value);
  // Tensor parallel 2 and fp8 weights: the CLI's figures.
  await page.selectOption('[data-testid=layer-tp]', '2');
  await page.selectOption('[data-testid=layer-weight-dtype]', { label: 'fp8' });
  await settle(page);
  const t2 = native(['--model', 'llama-3.1-8b', '--batch', '16', '--kv-len', '65536', '--tp', '2', '--weight-dtype', 'fp8']);
  assert.equal(await shown(page, 'layer-weight-bytes'), t2.step.weight_bytes);
  assert.equal(await rowValue(page, 'qkv_proj', 'bytes'), t2.operators.find((o) => o.name === 'qkv_proj').bytes);
  assert.match(await page.textContent('[data-testid=layer-summary]'), /Per rank of 2 \(16 query and 4 KV heads each\); the all-reduces .* are not timed/);
  // Qwen3-30B-A3B prefill of 2048 tokens (a new link: only the hash changes, so the view's own
  // choices, tp 2 and fp8 weights, stay): every expert touched.
  await page.goto(env.server.url + '#model=qwen3-30b-a3b&phase=prefill&seq=2048&dtype=bf16');
  await page.waitForFunction(() => window.rooflab.state.model === 'qwen3-30b-a3b');
  await settle(page);
  assert.equal(await page.inputValue('[data-testid=layer-tp]'), '2');
  const q = native(['--model', 'qwen3-30b-a3b', '--phase', 'prefill', '--seq', '2048', '--tp', '2', '--weight-dtype', 'fp8']);
  assert.equal(await shown(page, 'layer-step-time'), q.step.time_s);
  assert.equal(await rowValue(page, 'experts_gate_up', 'bytes'), q.operators.find((o) => o.name === 'experts_gate_up').bytes);
  assert.match(await page.textContent('[data-testid=layer-summary]'), /The experts: 128\.00 touched per layer/);
  assert.equal(await shown(page, 'layer-crossover'), q.crossover.value);
  assert.match(await page.textContent('[data-testid=layer-crossover]'), /N \(prefill, L = N\)/);
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('without a model it says what to do; a refused tensor-parallel split names the field', async () => {
  const page = await openPage(env.browser.context, env.server.url);
  await settle(page);
  assert.match(await page.textContent('[data-testid=layer-summary]'), /Pick a model/);
  await page.selectOption('[data-testid=model-select]', 'qwen2-0.5b');
  await page.selectOption('[data-testid=layer-tp]', '4');
  await settle(page);
  assert.equal(await page.isVisible('[data-testid=layer-error]'), true);
  assert.match(await page.textContent('[data-testid=layer-error]'), /^tp: 4 does not divide qwen2-0\.5b's 14 query heads/);
  assert.equal(await page.$eval('[data-testid=layer-error]', (e) => e.dataset.field), 'tp');
  await page.selectOption('[data-testid=layer-tp]', '2');
  await settle(page);
  assert.equal(await page.isVisible('[data-testid=layer-error]'), false);
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

// Layer kinds (hand values in tests/unit/test_layer.c): Gemma 3 27B at L = 32768 has 10 global
// layers reading 2·16·32768·128·2 B of K/V and 52 local ones (W = 1024) reading 2·16·1024·128·2 B;
// DeepSeek-V3 decode at B = 64, L = 4096 runs absorbed MLA, 319,815,680 B per layer.
test('layer kinds: both kinds as rows with their counts, the numbers the CLI gives; screenshot', async () => {
  const page = await openPage(env.browser.context, `${env.server.url}#model=gemma-3-27b&phase=decode&kv-len=32768&dtype=bf16`);
  await settle(page);
  const n = native(['--model', 'gemma-3-27b', '--phase', 'decode', '--kv-len', '32768', '--hw', 'h100-sxm']);
  const count = (op) => page.$eval(`[data-testid="layer-row-${op}"] td`, (e) => Number(e.textContent));
  assert.equal(await count('attention'), 10);
  assert.equal(await count('attention_local'), 52);
  assert.equal(await rowValue(page, 'attention', 'bytes'), 2 * 16 * 32768 * 128 * 2 + 2 * 32 * 128 * 2);
  assert.equal(await rowValue(page, 'attention_local', 'bytes'), 2 * 16 * 1024 * 128 * 2 + 2 * 32 * 128 * 2);
  assert.equal(await shown(page, 'layer-step-time'), n.step.time_s);
  const el = await page.$('[data-testid=layer-view]');
  await el.screenshot({ path: join(ARTIFACTS, 'layer-kinds-gemma-3-27b.png') });
  assert.deepEqual(page.rlErrors, []);
  await page.close();
  const mla = await openPage(env.browser.context, `${env.server.url}#model=deepseek-v3&phase=decode&batch=64&kv-len=4096&dtype=bf16`);
  await settle(mla);
  assert.equal(await rowValue(mla, 'attention', 'bytes'), 319815680);
  assert.ok(await mla.$('[data-testid="layer-row-q_absorb"]'), 'the absorbed W_UK is its own row');
  assert.deepEqual(mla.rlErrors, []);
  await mla.close();
});

test('screenshots of the whole-layer view, light and dark, and on a phone (the page never scrolls sideways)', async () => {
  for (const [scheme, width, height, name] of [['light', 1280, 800, 'light'], ['dark', 1280, 800, 'dark'], ['light', 390, 844, 'phone']]) {
    const page = await openPage(env.browser.context, env.server.url + L8, { colorScheme: scheme, width, height });
    await settle(page);
    const el = await page.$('[data-testid=layer-view]');
    await el.screenshot({ path: join(ARTIFACTS, `layer-${name}.png`) });
    const [sw, cw] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
    assert.ok(sw <= cw, `${name}: the page is ${sw} px wide in a ${cw} px window`);
    assert.deepEqual(page.rlErrors, []);
    await page.close();
  }
});

test('the tour "is attention the bottleneck?": the crossover moves in with the batch and out with an fp8 cache', async () => {
  const page = await openPage(env.browser.context, `${env.server.url}?tour=layer-attention-bottleneck&step=3`);
  await settle(page);
  const crossoverAt = async () => Number(await page.$eval('[data-testid=tour-step] [data-src=layer-crossover-at]', (e) => e.dataset.value));
  const batched = await crossoverAt();
  assert.equal(batched, native(['--model', 'llama-3.1-8b', '--phase', 'decode', '--batch', '16', '--kv-len', '8192', '--dtype', 'bf16']).crossover.value);
  await page.screenshot({ path: join(ARTIFACTS, 'layer-tour-step3.png') });
  await page.click('[data-testid=tour-next]');
  await page.click('[data-testid=tour-next]');
  await settle(page);
  const fp8 = await crossoverAt();
  assert.equal(fp8, native(['--model', 'llama-3.1-8b', '--phase', 'decode', '--batch', '16', '--kv-len', '8192', '--dtype', 'bf16', '--kv-dtype', 'fp8']).crossover.value);
  assert.ok(fp8 > batched, `an fp8 cache moves the crossover out: ${fp8} > ${batched}`);
  await page.click('[data-testid=tour-reveal]');
  // The question asks about a state the text does not give (issue 20): one layer's attention at
  // L = 16384 with this step's 16 sequences and fp8 cache, compulsory bytes by hand:
  // Q + O = 2 · (2 B · 16 · 32 · 1 · 128) = 262,144 B; K + V = 2 · (1 B · 16 · 8 · 16384 · 128) =
  // 536,870,912 B; in all 537,133,056 B = 537.1 MB.
  assert.equal(await page.textContent('[data-testid=tour-feedback]'), 'The model: 537.1 MB.');
  assert.equal(Number(await page.getAttribute('[data-testid=tour-feedback]', 'data-value')), 537133056);
  await page.$eval('[data-testid=layer-view]', (e) => e.scrollIntoView());
  await page.screenshot({ path: join(ARTIFACTS, 'layer-tour-step5.png') });
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('Practice: the operators around attention, posed and checked by core with the slip named', async () => {
  const cliQuiz = (args) => {
    try {
      return JSON.parse(execFileSync(nativeCli(), ['quiz', ...args, '--json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
    } catch (e) { return JSON.parse(e.stdout); }
  };
  const page = await openPage(env.browser.context, `${env.server.url}?practice=3&practice-kind=gemm-intensity`);
  await page.waitForSelector('html[data-practice-ready="1"]');
  assert.equal(await page.getByTestId('practice-question').textContent(), cliQuiz(['--seed', '3', '--kind', 'gemm-intensity']).question);
  const answer = async (value) => {
    await page.getByTestId('practice-answer').fill(value);
    await page.getByTestId('practice-answer').press('Enter');
    const v = page.getByTestId('practice-verdict');
    return { text: await v.textContent(), outcome: await v.getAttribute('data-outcome'), slip: await v.getAttribute('data-slip') };
  };
  // Decode B = 16, H = 32, d = 64, fp8: I = 2·16·2048² / (16·2048 + 2048² + 16·2048) = 31.51 FLOP/B.
  let v = await answer('31.5 FLOP/B');
  assert.equal(v.outcome, 'right', v.text);
  v = await answer('15.75 FLOP/B');
  assert.equal(v.slip, 'mac-vs-flop', v.text);
  v = await answer('2048 FLOP/B'); // the activations alone
  assert.equal(v.slip, 'weights', v.text);
  // The fused softmax + scale of the same seed (fp8 scores): 5 / (2·1) = 2.5 FLOP/B; the reads
  // alone give 5.
  await page.getByTestId('practice-kind').selectOption('softmax-intensity');
  v = await answer('2.5 FLOP/B');
  assert.equal(v.outcome, 'right', v.text);
  v = await answer('5 FLOP/B');
  assert.equal(v.outcome, 'wrong');
  assert.match(v.text, /the output is written back to device memory too/);
  await page.screenshot({ path: join(ARTIFACTS, 'layer-practice.png') });
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});
