// The whole-layer step through WASM (model.js → wasm/layer_wasm.c) against the native
// `rooflab layer --json`: the same operators with the same numbers, the same step and crossover,
// and errors naming the same field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { loadWasmModel, nativeCli } from './load.mjs';

const model = await loadWasmModel();
const native = (args) => JSON.parse(execFileSync(nativeCli(), ['layer', ...args, '--json'], { encoding: 'utf8' }));
const dtype = (name) => model.dtypes.find((d) => d.name === name).index;

const CASES = [
  [['--model', 'llama-3.1-8b', '--phase', 'decode', '--batch', '1', '--kv-len', '8192'], 'llama-3.1-8b', { phase: 0, batch: 1, kv_len: 8192 }],
  [['--model', 'llama-3.1-8b', '--phase', 'prefill', '--seq', '1000', '--tp', '2'], 'llama-3.1-8b', { phase: 1, seq: 1000, tp: 2 }],
  [['--model', 'qwen3-30b-a3b', '--phase', 'decode', '--batch', '8', '--kv-len', '4096', '--weight-dtype', 'fp8'], 'qwen3-30b-a3b', { phase: 0, batch: 8, kv_len: 4096, weight_dtype: 4 }],
  [['--model', 'gemma-2-9b', '--kv-len', '16384', '--kv-dtype', 'fp8'], 'gemma-2-9b', { phase: 0, kv_len: 16384, kv_dtype: 'fp8' }],
  // Layer kinds: a window (Gemma 3), a chunk (Llama 4, prefill across chunks), MLA (absorbed decode).
  [['--model', 'gemma-3-27b', '--phase', 'decode', '--kv-len', '32768'], 'gemma-3-27b', { phase: 0, kv_len: 32768 }],
  [['--model', 'llama-4-scout', '--phase', 'prefill', '--seq', '20000'], 'llama-4-scout', { phase: 1, seq: 20000 }],
  [['--model', 'deepseek-v3', '--phase', 'decode', '--batch', '64', '--kv-len', '4096'], 'deepseek-v3', { phase: 0, batch: 64, kv_len: 4096 }],
];

test('the WASM step equals the native one, operator by operator', () => {
  for (const [args, id, inputs] of CASES) {
    const n = native([...args, '--hw', 'h100-sxm']);
    const roof = model.resolveRoof({ hw: 'h100-sxm', dtype: dtype('bf16') });
    const slots = { ...inputs, dtype: dtype('bf16'), bandwidth_bytes_per_s: roof.bandwidth, peak_flops_per_s: roof.peak };
    if (slots.kv_dtype) slots.kv_dtype = dtype(slots.kv_dtype);
    const w = model.layerStep(id, 'h100-sxm', slots);
    assert.equal(w.ok, true, w.message);
    assert.deepEqual(w.ops.map((o) => o.name), n.operators.map((o) => o.name), id);
    w.ops.forEach((o, i) => {
      const no = n.operators[i];
      for (const k of ['flops', 'tile_flops', 'bytes', 'weight_bytes', 'kv_bytes', 'intensity_flop_per_byte', 'time_s', 'share', 'count']) {
        assert.equal(o[k], no[k], `${id} ${o.name} ${k}`);
      }
      assert.equal(o.bound, no.bound);
    });
    for (const k of ['time_s', 'attention_share', 'weights_share', 'weight_bytes', 'kv_bytes', 'activation_bytes', 'experts_touched']) {
      assert.equal(w.step[k], n.step[k], `${id} step ${k}`);
    }
    assert.equal(w.step.layers, n.step.layers);
    assert.equal(Boolean(w.step.crossover_found), n.crossover.found);
    if (n.crossover.found) assert.equal(w.step.crossover_value, n.crossover.value);
  }
  assert.deepEqual(model.weightDtypes, ['default', 'fp32', 'fp16', 'bf16', 'fp8', 'fp4']);
});

test('errors name the field, as the CLI names the flag', () => {
  const roof = model.resolveRoof({ hw: 'h100-sxm', dtype: dtype('bf16') });
  const base = { bandwidth_bytes_per_s: roof.bandwidth, peak_flops_per_s: roof.peak };
  let e = model.layerStep('llama-3.1-8b', 'h100-sxm', { ...base, tp: 3 });
  assert.equal(e.ok, false);
  assert.equal(e.field, 'tp');
  assert.match(e.message, /^tp: 3 does not divide llama-3\.1-8b's 32 query heads/);
  e = model.layerStep('qwen3-next-80b-a3b', 'h100-sxm', base);
  assert.equal(e.field, 'model');
  assert.match(e.message, /linear attention/);
  e = model.layerStep('llama-3.1-8b', 'h100-sxm', { ...base, phase: 1, seq: 4096, kv_len: 100 });
  assert.equal(e.field, 'kv-len');
});

// The shape columns the page's selector reads (wasm/models_wasm.c), against the config values:
// deepseek-ai/DeepSeek-V3 v_head_dim 128, kv_lora_rank 512, qk_rope_head_dim 64; Llama 4 Scout
// attention_chunk_size 8192 on 36 of 48 layers; Gemma 3 27B sliding_window 1024 on 52 of 62;
// gpt-oss-120b a learned sink logit per head.
test('the shape columns carry the MLA latent, the chunk, the window and the layer mix', () => {
  const index = (id) => model.shapes.findIndex((s) => s.id === id);
  const sn = model.slots('model_shape_num');
  const num = (id, which) => model.M._rlw_model_shape_num(index(id), sn[which]);
  const cols = (id, names) => names.map((w) => num(id, w));
  assert.deepEqual(cols('deepseek-v3', ['head_dim_v', 'kv_lora_rank', 'rope_dim']), [128, 512, 64]);
  assert.deepEqual(cols('llama-4-scout', ['sliding_window', 'chunk', 'local_layers', 'layers']), [0, 8192, 36, 48]);
  assert.deepEqual(cols('gemma-3-27b', ['sliding_window', 'chunk', 'local_layers', 'layers']), [1024, 0, 52, 62]);
  assert.deepEqual(cols('gpt-oss-120b', ['sliding_window', 'sink_logit']), [128, 1]);
  assert.deepEqual(cols('llama-3.1-8b', ['head_dim_v', 'kv_lora_rank', 'sink_logit']), [0, 0, 0]);
});
