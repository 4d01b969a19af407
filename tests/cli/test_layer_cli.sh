#!/usr/bin/env bash
# `rooflab layer` end to end: the JSON contract (operators[], step{}, crossover{}), the figures a
# hand calculation gives (arithmetic in the comments), the table, and errors naming the flag.
set -u
R=${ROOFLAB:?set ROOFLAB to the rooflab binary}
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
OUT=/tmp/rl_layer_out.$$
ERR=/tmp/rl_layer_err.$$
trap 'rm -f $OUT $ERR' EXIT

# layer_check PY_EXPR ARGS... : `rooflab layer --json ARGS` parsed as j, the expression must hold.
layer_check() {
  local expr=$1; shift
  "$R" layer --json "$@" >$OUT 2>$ERR || { bad "layer $* failed: $(cat $ERR)"; return; }
  if python3 -c "
import json, sys
j = json.load(open('$OUT'))
ops = {o['name']: o for o in j['operators']}
sys.exit(0 if ($expr) else 1)"; then ok; else bad "layer $*: JSON check failed: $expr"; fi
}
# expect_err SUBSTRING ARGS... : exit 2, one stderr line containing SUBSTRING
expect_err() {
  local want=$1; shift
  "$R" "$@" >$OUT 2>$ERR; local got=$?
  local lines; lines=$(wc -l <$ERR)
  if [ "$got" = 2 ] && [ "$lines" = 1 ] && grep -qF -- "$want" $ERR; then ok
  else bad "rooflab $*: exit $got, $lines lines, stderr: $(cat $ERR) (wanted: $want)"; fi
}

L8="--model llama-3.1-8b --phase decode --batch 1 --kv-len 8192 --hw h100-sxm"
# The contract: every operator has these keys; the step and the crossover are there.
layer_check 'all(set(o) >= {"name","flops","bytes","intensity_flop_per_byte","time_s","bound"} for o in j["operators"]) and set(j["step"]) >= {"time_s","attention_share","layers"} and j["step"]["layers"] == 32 and set(j["crossover"]) >= {"varied","found","value"}' $L8
# Llama 3.1 8B decode, B = 1, L = 8192, bf16. Weights: per layer QKV 4096·6144·2 = 50,331,648 +
# O 4096·4096·2 = 33,554,432 + gate/up 4096·28672·2 = 234,881,024 + down 14336·4096·2 =
# 117,440,512 + two norms' γ 16,384 = 436,224,000; × 32 + embedding row 8192 + final γ 8192 +
# LM head 4096·128256·2 = 1,050,673,152 → 15,009,857,536 B.
layer_check 'j["step"]["weight_bytes"] == 15009857536' $L8
# K/V cache: 32 layers · 2 · 8 heads · 8192 · 128 · 2 B = 1,073,741,824 B.
layer_check 'j["step"]["kv_bytes"] == 1073741824 and ops["attention"]["kv_bytes"] == 33554432 and ops["attention"]["count"] == 32' $L8
# Activations (in + out of every operator, listed in test_layer.c): 11,577,860 B.
layer_check 'j["step"]["activation_bytes"] == 11577860' $L8
# All memory-bound: the step is (15,009,857,536 + 1,073,741,824 + 11,577,860) / 3.35e12 s; the
# step is the sum of its operators' count × time; attention ≈ 6.67 % of it.
layer_check 'abs(j["step"]["time_s"] - 16095177220/3.35e12) < 1e-15 and abs(sum(o["count"]*o["time_s"] for o in j["operators"]) - j["step"]["time_s"]) < 1e-15 and abs(j["step"]["attention_share"] - 32*33570816/16095177220) < 1e-12' $L8
# The crossover: L ≥ (15,014,054,404 − 524,288) / 131,072 = 114,544.57 → 114,545.
layer_check 'j["crossover"]["found"] and j["crossover"]["varied"] == "kv-len" and j["crossover"]["value"] == 114545' $L8
# QKV: FLOPs 2·6144·4096, intensity ≈ 1 FLOP/B (50,331,648 / 50,352,128), memory-bound.
layer_check 'ops["qkv_proj"]["flops"] == 50331648 and abs(ops["qkv_proj"]["intensity_flop_per_byte"] - 50331648/50352128) < 1e-12 and ops["qkv_proj"]["bound"] == "memory"' $L8
# --tp 2: QKV columns halve (4096·3072·2), the all-reduces are bytes only.
layer_check 'ops["qkv_proj"]["weight_bytes"] == 25165824 and j["tp"] == 2 and j["step"]["allreduce_timed"] is False and j["step"]["allreduce_bytes"] == 65*8192' $L8 --tp 2
# fp8 weights: the layers' matrices halve, the LM head stays bf16.
layer_check 'ops["mlp_gate_up"]["weight_bytes"] == 117440512 and ops["lm_head"]["weight_bytes"] == 1050673152 and j["weight_dtype"] == "fp8"' $L8 --weight-dtype fp8
# Prefill N = 1000 (causal): attention F = 4·32·128·(1000·1001/2) = 8,200,192,000; QKV runs
# whole 128-row tiles (1024 rows): compute-bound.
layer_check 'ops["attention"]["flops"] == 8200192000 and ops["qkv_proj"]["tile_flops"] == 2*1024*6144*4096 and ops["qkv_proj"]["bound"] == "compute" and j["crossover"]["varied"] == "seq"' --model llama-3.1-8b --phase prefill --seq 1000
# Qwen3-30B-A3B (MoE): decode B = 1 touches k = 8 experts: gate/up 8·2048·1536·2 = 50,331,648 B.
layer_check 'j["step"]["experts_touched"] == 8 and ops["experts_gate_up"]["weight_bytes"] == 50331648 and ops["router"]["weight_bytes"] == 2048*128*2' --model qwen3-30b-a3b --phase decode --kv-len 4096
# ... B = 8, tp 2: 128·(1 − (15/16)^8) experts, each 2048·768·2 B of gate/up per rank.
layer_check 'abs(j["step"]["experts_touched"] - 128*(1-(15/16)**8)) < 1e-9 and abs(ops["experts_gate_up"]["weight_bytes"] - 128*(1-(15/16)**8)*2048*768*2) < 1e-3' --model qwen3-30b-a3b --phase decode --batch 8 --kv-len 4096 --tp 2
# ... prefill N = 2048 touches all 128; with tp 4 too.
layer_check 'abs(j["step"]["experts_touched"] - 128) < 1e-9 and ops["attention"]["flops"] == 4*32*128*2098176' --model qwen3-30b-a3b --phase prefill --seq 2048
layer_check 'abs(ops["experts_gate_up"]["weight_bytes"] - 128*2048*384*2) < 1e-3' --model qwen3-30b-a3b --phase prefill --seq 2048 --tp 4
# Gemma 2 9B decode past its window: 21 global layers and 21 local ones at 4096 keys.
layer_check 'ops["attention"]["count"] == 21 and ops["attention_local"]["count"] == 21 and ops["attention_local"]["kv_bytes"] == 2*8*4096*256*2' --model gemma-2-9b --kv-len 16384

# Layer kinds (hand values in tests/unit/test_layer.c): Gemma 3 27B, 10 global layers at L = 32768
# and 52 local ones at W = 1024 (2·16·1024·128·2 B of K/V); Llama 4 Scout, 36 chunked layers see
# ((20000 − 1) mod 8192) + 1 = 3616 keys (2·8·3616·128·2 B); DeepSeek-V3 decode absorbed, B = 64,
# L = 4096: F = 2·64·128·4096·(576 + 512), bytes 319815680.
layer_check 'ops["attention"]["count"] == 10 and ops["attention_local"]["count"] == 52 and ops["attention_local"]["kv_bytes"] == 2*16*1024*128*2' --model gemma-3-27b --kv-len 32768
layer_check 'ops["attention_chunked"]["count"] == 36 and ops["attention"]["count"] == 12 and ops["attention_chunked"]["kv_bytes"] == 2*8*3616*128*2' --model llama-4-scout --kv-len 20000
layer_check 'ops["attention"]["flops"] == 2*64*128*4096*(576+512) and ops["attention"]["bytes"] == 319815680 and ops["mlp_gate_up"]["count"] == 3 and ops["experts_gate_up"]["count"] == 58' --model deepseek-v3 --batch 64 --kv-len 4096
"$R" layer --model gemma-3-27b --kv-len 32768 >$OUT 2>$ERR && grep -q "^attention by layer kind: 10 global x .* + 52 local, window 1024 x " $OUT && ok || bad "layer kinds line: $(cat $OUT $ERR)"

# The table names the step, the bytes and the crossover.
"$R" layer $L8 >$OUT 2>$ERR && grep -q "^step: 4.805 ms (32 layers" $OUT && grep -q "15.01 GB weights, 1.074 GB K/V cache" $OUT && grep -q "crossover: attention passes the weights at kv-len = 114545" $OUT && ok || bad "layer table: $(cat $OUT $ERR)"
"$R" layer --help >$OUT && grep -q "usage: rooflab layer" $OUT && ok || bad "layer --help"
"$R" --help | grep -q "^  layer " && ok || bad "layer listed in rooflab --help"

# Errors: one line naming the flag, exit 2.
expect_err '--model: missing; expected a model id' layer --phase decode
expect_err '--model: unknown model "llama3"' layer --model llama3
expect_err '--model: qwen3-next-80b-a3b cannot be described here: linear attention' layer --model qwen3-next-80b-a3b
expect_err '--phase: expected prefill or decode, got "sideways"' layer --model gpt2 --phase sideways
expect_err '--tp: 3 does not divide llama-3.1-8b' layer --model llama-3.1-8b --tp 3
expect_err '--tp: expected an integer from 1 to 1024, got "0"' layer --model llama-3.1-8b --tp 0
expect_err '--kv-len: prefill needs kv-len (100) >= seq (4096)' layer --model llama-3.1-8b --phase prefill --seq 4096 --kv-len 100
expect_err '--weight-dtype: expected one of fp32, fp16, bf16, fp8, fp4' layer --model gpt2 --weight-dtype int4
expect_err '--batch: expected a positive integer (1 to 16777216), got "0"' layer --model gpt2 --batch 0
expect_err '--hw: unknown preset "h100"' layer --model gpt2 --hw h100
expect_err '--bandwidth: "312 TFLOPS" is a compute rate' layer --model gpt2 --bandwidth "312 TFLOPS"
expect_err '--seq: missing value' layer --model gpt2 --seq
expect_err 'unknown argument "--heads"' layer --model gpt2 --heads 8
expect_err '--seq: decode adds one token per sequence; seq 1024 is for --phase prefill' layer --model gpt2 --phase decode --seq 1024
expect_err '--dtype: expected one of fp32, tf32, fp16, bf16, fp8, nvfp4, mxfp4, mxfp8, got "int4"' layer --model gpt2 --dtype int4

echo "test_layer_cli: $pass passed, $fail failed"
[ "$fail" = 0 ]
