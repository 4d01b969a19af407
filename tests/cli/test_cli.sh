#!/usr/bin/env bash
# The command line end to end: contracts of CONTRACTS.md (flags, JSON keys, exit codes, one-line
# errors naming the flag), then a bounded argv fuzz: no input may crash it.
set -u
R=${ROOFLAB:?set ROOFLAB to the rooflab binary}
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }

# expect_exit CODE ARGS... : exit status
expect_exit() {
  local want=$1; shift
  "$R" "$@" >/tmp/rl_out.$$ 2>/tmp/rl_err.$$; local got=$?
  if [ "$got" = "$want" ]; then ok; else bad "rooflab $* exited $got, expected $want: $(cat /tmp/rl_err.$$)"; fi
}
# expect_err SUBSTRING ARGS... : exit 2 and exactly one stderr line containing SUBSTRING
expect_err() {
  local want=$1; shift
  "$R" "$@" >/tmp/rl_out.$$ 2>/tmp/rl_err.$$; local got=$?
  local lines; lines=$(wc -l </tmp/rl_err.$$)
  if [ "$got" = 2 ] && [ "$lines" = 1 ] && grep -qF -- "$want" /tmp/rl_err.$$; then ok
  else bad "rooflab $*: exit $got, $lines lines, stderr: $(cat /tmp/rl_err.$$) (wanted: $want)"; fi
}
# json_eq ARGS... -- PY_EXPR : evaluate a python expression on the parsed JSON (j)
json_check() {
  local expr=$1; shift
  "$R" eval --json "$@" >/tmp/rl_out.$$ 2>/tmp/rl_err.$$ || { bad "eval $* failed: $(cat /tmp/rl_err.$$)"; return; }
  if python3 -c "import json,sys; j=json.load(open('/tmp/rl_out.$$')); sys.exit(0 if ($expr) else 1)"; then ok
  else bad "eval $*: JSON check failed: $expr"; fi
}

# Reference values of MODEL.md, through the CLI.
json_check 'j["flops"] == 549755813888 and abs(j["models"]["tiled"]["bytes"] - 8623489024) == 0 and j["models"]["naive"]["bytes"] == 17246978048' --heads 8 --seq 16384 --head-dim 64
json_check 'j["flops"] == 67108864 and j["models"]["compulsory"]["bytes"] == 16793600 and abs(j["models"]["compulsory"]["intensity_flop_per_byte"] - 3.996) < 1e-3 and j["models"]["compulsory"]["bound"] == "memory"' --heads 32 --kv-heads 8 --seq 1 --kv-len 4096 --head-dim 128
json_check 'j["flops"] == 2338609692672' --batch 4 --heads 16 --seq 8448 --head-dim 128
json_check 'abs(j["ridge_flop_per_byte"] - 312/2.039) < 1e-9' --hw a100-sxm4-80gb
json_check 'abs(j["ridge_flop_per_byte"] - 989/3.35) < 1e-9'
json_check 'j["bandwidth_bytes_per_s"] == 4.8e12 and j["peak_flops_per_s"] == 989e12' --hw h200-sxm --bandwidth "4.8 TB/s"
json_check 'j["peak_flops_per_s"] == 19.5e12' --hw a100-sxm4-80gb --dtype fp32
json_check 'j["sram"]["total_bytes"] == 57856 and j["sram"]["fits_default"] is False' --block-m 64 --block-n 64 --head-dim 64
json_check 'j["models"]["tiled"] is not None and j["models"]["naive"] is None and j["flops"] == 2.5*4*8*64*4096*4096' --pass bwd
json_check 'j["pairs"] == 4096*4097//2' --causal
json_check 'set(j) >= {"flops","softmax_flops","pairs","bandwidth_bytes_per_s","peak_flops_per_s","ridge_flop_per_byte","models"} and set(j["models"]["tiled"]) >= {"bytes","intensity_flop_per_byte","attainable_flops_per_s","time_s","bound"}'
json_check 'j["bandwidth_bytes_per_s"] == 2039e9 and j["peak_flops_per_s"] == 312e12' --hw custom --bandwidth "2039 GB/s" --peak "312 TFLOPS"
json_check 'j["problem"]["seq"] == 100' --seq=100

# Errors: one line naming the flag and what was expected; exit 2.
expect_err '--bandwidth: "312 TFLOPS" is a compute rate, expected bytes per second' eval --bandwidth "312 TFLOPS"
expect_err '--peak: "2 TB/s" is a bandwidth, expected FLOP per second' eval --peak "2 TB/s"
expect_err '--kv-heads: heads (32) must be a multiple of kv-heads (5)' eval --heads 32 --kv-heads 5
expect_err '--head-dim: expected a positive integer (1 to 65536), got "-64"' eval --head-dim -64
expect_err '--seq: expected a positive integer (1 to' eval --seq 0
expect_err '--seq: expected a positive integer' eval --seq 12abc
expect_err '--batch: expected a positive integer' eval --batch 99999999999999999999999
expect_err '--hw: unknown preset "h100"' eval --hw h100
expect_err '--dtype: expected one of fp32' eval --dtype int4
expect_err '--pass: expected fwd or bwd' eval --pass sideways
expect_err '--kv-len: causal attention needs seq <= kv-len' eval --causal --seq 4096 --kv-len 100
expect_err '--bandwidth: preset custom has no bandwidth' eval --hw custom
expect_err '--peak: preset a100-sxm4-80gb has no fp8 tensor peak' eval --hw a100-sxm4-80gb --dtype fp8
expect_err '--seq: missing value' eval --seq
expect_err 'unknown argument "--frobnicate"' eval --frobnicate
expect_err '--bandwidth: "-1 TB/s" is negative' eval --bandwidth "-1 TB/s"
expect_err '--bandwidth: "NaN" is not finite' eval --bandwidth NaN
expect_err 'unknown command "evaluate"' evaluate
expect_err 'quantity: "abc" does not start with a number' units abc
expect_err '--param: expected one of seq' sweep --param nope
expect_err '--to: expected a value >= --from' sweep --from 100 --to 10
expect_exit 2
expect_exit 0 --help
expect_exit 0 eval --help
expect_exit 0 hw --help
expect_exit 0 sweep --help
expect_exit 0 units --help
expect_exit 0 eval
expect_exit 0 hw
expect_exit 0 hw h100-sxm

# hw --json lists every preset id of CONTRACTS.md
"$R" hw --json >/tmp/rl_out.$$ && python3 -c "
import json; ids={h['id'] for h in json.load(open('/tmp/rl_out.$$'))}
need={'v100-sxm2','a100-sxm4-40gb','a100-sxm4-80gb','h100-sxm','h100-pcie','h200-sxm','l4','rtx3060','rtx4090','mi300x','b200','gb200','b300','gb300','rtx5090','h20','mi325x','mi355x','custom'}
assert need <= ids, need - ids" && ok || bad "hw --json ids"

# Every preset but custom predicts without --kernel (issue 17): prefill and decode at d 64, 128,
# 256; the default tile fits the preset's opt-in shared memory (V100 and MI300X at d = 128 take a
# smaller one and say so: tile.fitted_to_shared_memory).
ids=$("$R" hw --json | python3 -c "import json,sys; print(' '.join(h['id'] for h in json.load(sys.stdin) if h['id'] != 'custom'))")
[ "$(echo "$ids" | wc -w)" -ge 10 ] && ok || bad "hw --json lists fewer than 10 presets: $ids"
for id in $ids; do
  for d in 64 128 256; do
    json_check 'j["predicted"] is not None and j["predicted"]["time_s"] > 0 and j["predicted"]["kernel"] == "generic"' \
      --hw "$id" --head-dim "$d" --heads 16 --seq 2048
    json_check 'j["predicted"] is not None and j["predicted"]["time_s"] > 0' \
      --hw "$id" --head-dim "$d" --heads 32 --kv-heads 8 --seq 1 --kv-len 16384 --batch 8
  done
done
json_check 'j["predicted"]["tile"]["fitted_to_shared_memory"] is True and j["predicted"]["tile"]["block_m"] == 64 and j["predicted"]["tile"]["block_n"] == 32' \
  --hw v100-sxm2 --head-dim 128 --seq 2048
json_check 'j["predicted"]["tile"]["fitted_to_shared_memory"] is False' --hw h100-sxm --head-dim 128 --seq 2048
"$R" eval --hw v100-sxm2 --head-dim 128 --seq 2048 >/tmp/rl_out.$$ 2>&1 &&
  grep -q "the problem's 64x64 needs 98816 B of shared memory, over v100-sxm2's 98304 B" /tmp/rl_out.$$ && ok ||
  bad "eval on v100-sxm2 d=128 names the fitted tile: $(cat /tmp/rl_out.$$)"

# hw --device: the preset of a driver's device name (core's rl_hw_match_device; the Python
# recorder asks it): exact names only, none → [] with --json, exit 1 without
"$R" hw --device "NVIDIA H200" --json >/tmp/rl_out.$$ && python3 -c "
import json; j=json.load(open('/tmp/rl_out.$$')); assert [h['id'] for h in j] == ['h200-sxm'], j" && ok || bad "hw --device 'NVIDIA H200'"
"$R" hw --device="NVIDIA H100 80GB HBM3" --json >/tmp/rl_out.$$ && python3 -c "
import json; j=json.load(open('/tmp/rl_out.$$')); assert [h['id'] for h in j] == ['h100-sxm'], j" && ok || bad "hw --device= H100 SXM"
"$R" hw --device "NVIDIA A100" --json >/tmp/rl_out.$$ && python3 -c "
import json; assert json.load(open('/tmp/rl_out.$$')) == []" && ok || bad "hw --device 'NVIDIA A100' (size not said) is not []"
expect_exit 1 hw --device "AMD EPYC"
grep -q 'no preset: the device name "AMD EPYC"' /tmp/rl_out.$$ && ok || bad "hw --device 'AMD EPYC': $(cat /tmp/rl_out.$$)"
expect_err '--device: missing value' hw --device
expect_err '--device: expected either a preset id or --device' hw h100-sxm --device "NVIDIA H200"

# units: 2039 GB/s in B/s, GiB/s and bit/s
"$R" units "2039 GB/s" >/tmp/rl_out.$$ && grep -q "2039000000000 B/s" /tmp/rl_out.$$ && grep -q "1.85446 TiB/s" /tmp/rl_out.$$ \
  && grep -q "16.312 Tbit/s" /tmp/rl_out.$$ && ok || bad "units 2039 GB/s: $(cat /tmp/rl_out.$$)"

# sweep: CSV header and row count; JSON parses; seq values log-spaced 128 … 1048576
"$R" sweep --points 14 >/tmp/rl_out.$$ && [ "$(wc -l </tmp/rl_out.$$)" = 15 ] && head -1 /tmp/rl_out.$$ | grep -q '^seq,flops,bytes_compulsory' \
  && grep -q '^1048576,' /tmp/rl_out.$$ && grep -q '^16384,549755813888,' /tmp/rl_out.$$ && ok || bad "sweep csv: $(head -3 /tmp/rl_out.$$)"
"$R" sweep --format json --param kv-len --seq 1 --from 1024 --to 131072 --points 8 --heads 32 --kv-heads 8 >/tmp/rl_out.$$ \
  && python3 -c "import json; j=json.load(open('/tmp/rl_out.$$')); assert len(j['rows'])==8 and j['rows'][0]['kv-len']==1024" && ok || bad "sweep json"

# Inputs that teach units (issue 11): a bare number, a case slip, operations, commas, whitespace.
expect_err '--bandwidth: 2039 — a bandwidth needs a unit: did you mean "2039 GB/s"?' eval --bandwidth 2039
expect_err '--peak: 989 — a compute rate needs a unit: did you mean "989 TFLOP/s"?' eval --peak 989
expect_err 'did you mean "3.35 TB/s"?' eval --bandwidth "3.35 tb/s"
expect_err 'OP and TOPS count operations' eval --peak "312 TOPS"
expect_err 'decimal commas are not accepted: did you mean "2.5 TB/s"?' eval --bandwidth "2,5 TB/s"
expect_err 'has a space or tab before or after it' eval --bandwidth " 4 TB/s"
expect_err 'has a space or tab before or after it' eval --bandwidth $'\t4 TB/s'
expect_err '--splits: expected an integer from 1 to 128' eval --splits $'\t4'
expect_err '--splits: expected an integer from 1 to 128' eval --splits ' 4'
json_check 'j["bandwidth_bytes_per_s"] == 2039e9' --hw custom --bandwidth "2,039 GB/s" --peak "312 TFLOP/s"
"$R" units 2039 >/tmp/rl_out.$$ && grep -q "2039 is a plain number" /tmp/rl_out.$$ && ok || bad "units 2039 (a plain number): $(cat /tmp/rl_out.$$)"

# Model shapes: --model fills heads, kv-heads, head-dim; an explicit flag wins in either order.
json_check 'j["problem"]["heads"] == 64 and j["problem"]["kv_heads"] == 8 and j["problem"]["head_dim"] == 128' --model llama-3.1-70b
json_check 'j["problem"]["heads"] == 16 and j["problem"]["kv_heads"] == 8' --heads 16 --model llama-3.1-70b
json_check 'j["problem"]["heads"] == 16 and j["problem"]["kv_heads"] == 8' --model llama-3.1-70b --heads 16
json_check 'j["problem"]["head_dim"] == 64 and j["problem"]["heads"] == 32' --model mistral-7b-v0.1 --head-dim 64
expect_err '--model: unknown model "llama3"; expected one of' eval --model llama3
expect_err '--model: qwen3-next-80b-a3b cannot be described here: linear attention' eval --model qwen3-next-80b-a3b
# DeepSeek-V3.2 decode: top-k 2048 of L = 65536: F = 2·128·(576 + 512)·2048 = 570,425,344
json_check 'j["flops"] == 570425344 and j["problem"]["topk"] == 2048' --model deepseek-v3.2 --seq 1 --kv-len 65536
# MLA shapes: decode (seq 1 … 16) in the absorbed form, in either flag order; prefill in the MHA form.
# Absorbed decode at B = 64, L = 4096, bf16: 73014444032 FLOP over 319815680 B = 228.30 FLOP/B.
json_check 'j["problem"]["kv_lora_rank"] == 512 and j["problem"]["head_dim"] == 576 and j["problem"]["kv_heads"] == 1 and j["flops"] == 73014444032 and j["models"]["compulsory"]["bytes"] == 319815680' --model deepseek-v3 --batch 64 --seq 1 --kv-len 4096 --dtype bf16
json_check 'j["problem"]["kv_lora_rank"] == 512 and j["problem"]["heads"] == 64' --seq 1 --model kimi-k2 --kv-len 4096
json_check 'j["problem"]["kv_lora_rank"] == 0 and j["problem"]["head_dim"] == 192 and j["problem"]["head_dim_v"] == 128 and j["problem"]["kv_heads"] == 128' --model deepseek-v3 --seq 4096 --causal
json_check 'j["problem"]["heads"] == 64 and j["problem"]["kv_heads"] == 8 and j["problem"]["head_dim"] == 64' --model gpt-oss-120b
json_check 'j["model_note"].startswith("llama-4-scout: chunked attention (8192-key chunks) not applied")' --model llama-4-scout --seq 1 --kv-len 32768
expect_err '--model: missing value' eval --model
expect_exit 0 models
json_check 'j["model_note"].startswith("mistral-7b-v0.1: sliding window 4096 not applied; L = 32768")' --model mistral-7b-v0.1 --seq 1 --kv-len 32768
json_check '"model_note" not in j' --model mistral-7b-v0.1 --seq 1 --kv-len 4096
expect_exit 0 models --help
expect_exit 2 models --frobnicate
"$R" models --json >/tmp/rl_out.$$ && python3 -c "
import json; m={x['id']: x for x in json.load(open('/tmp/rl_out.$$'))}
assert (m['llama-3.1-405b']['heads'], m['llama-3.1-405b']['kv_heads'], m['llama-3.1-405b']['head_dim']) == (128, 8, 128)
assert m['mistral-7b-v0.1']['sliding_window'] == 4096 and m['qwen3-next-80b-a3b']['unsupported'] and not m['deepseek-v3.2']['unsupported'] and m['deepseek-v3.2']['topk'] == 2048 and m['deepseek-v3']['topk'] is None
assert m['gemma-3-27b']['layer_kinds'] == [{'kind': 'local', 'layers': 52, 'window': 1024, 'chunk': None, 'rope': True}, {'kind': 'global', 'layers': 10, 'window': None, 'chunk': None, 'rope': True}]
assert [k['layers'] for k in m['llama-4-scout']['layer_kinds']] == [36, 12] and m['llama-4-scout']['layer_kinds'][0]['chunk'] == 8192 and m['llama-4-scout']['layer_kinds'][1]['rope'] is False
assert (m['deepseek-v3']['kv_lora_rank'], m['deepseek-v3']['rope_dim'], m['deepseek-v3']['head_dim'], m['deepseek-v3']['head_dim_v']) == (512, 64, 192, 128)
assert m['gpt-oss-20b']['sink_logit'] is True and m['llama-3.1-8b']['layer_kinds'] == [{'kind': 'global', 'layers': 32, 'window': None, 'chunk': None, 'rope': True}]
assert all(x['source'] for x in m.values())" && ok || bad "models --json"
"$R" sweep --model llama-3.1-8b --points 3 >/dev/null && "$R" tune --model llama-3.1-8b --seq 1 --kv-len 4096 >/dev/null && ok || bad "sweep/tune --model"

# Predictions (issue 17): the contract predicted{kernel,time_s,flops_per_s,bound,terms} with
# interval_s = time × the band's factors (core/src/intervals.c), null without a band; kernels that
# do not exist exit 2 naming --kernel and the source.
json_check 'set(["kernel","time_s","flops_per_s","bound","terms","interval_s","limit"]) <= set(j["predicted"]) and j["predicted"]["interval_band"] == "fa3" and j["predicted"]["interval_points"] >= 5 and j["predicted"]["interval_s"][0] < j["predicted"]["interval_s"][1] and abs(sum(j["predicted"]["terms"].values()) - j["predicted"]["time_s"]) < 1e-12' --seq 8192 --head-dim 128 --kernel fa3
json_check 'j["predicted"]["interval_s"] is None and j["predicted"]["interval_band"] == "generic" and j["predicted"]["interval_points"] == 0' --seq 4096 --head-dim 128
json_check 'j["predicted"]["kernel"] == "generic" and j["predicted"]["tile"]["gqa_packed"] and j["predicted"]["tile"]["splits"] > 1 and j["predicted"]["bound"] == "memory" and j["predicted"]["interval_band"] == "default"' --seq 1 --kv-len 4096 --heads 32 --kv-heads 8 --head-dim 128
json_check 'j["predicted"]["bound"] == "memory" and j["predicted"]["limit"] != "compute"' --seq 1 --kv-len 4096 --heads 32 --kv-heads 8 --head-dim 128 --kernel fa3
json_check 'j["predicted"]["kernel"] == "standard" and j["predicted"]["time_s"] > 0' --seq 2048 --head-dim 128 --pass bwd --kernel standard
expect_err '--kernel fa2: no such fp8 kernel: FlashAttention-2 runs fp16 and bf16 only' eval --kernel fa2 --dtype fp8
expect_err '--kernel fa2: no such fp32 kernel' eval --kernel fa2 --dtype fp32
expect_err '--kernel fa3: no such tf32 kernel' eval --kernel fa3 --dtype tf32
expect_err '--kernel fa3: no such fp8 kernel: FlashAttention-3 has no fp8 backward' eval --kernel fa3 --dtype fp8 --pass bwd
expect_err '--kernel flash-decoding is a decode kernel: it needs --seq 16 or less' eval --kernel flash-decoding --seq 17
"$R" eval --seq 8192 --head-dim 128 --kernel fa3 >/tmp/rl_out.$$ && grep -q "(likely .*: fa3's held-out error on [0-9]* points)" /tmp/rl_out.$$ && ok || bad "eval fa3: no likely range line: $(grep predicted /tmp/rl_out.$$)"

# argv fuzz: random flags and values (bounded: 3000 runs); a crash is a signal exit (>= 128).
# Issue 18's variants, end to end (hand values: tests/unit/test_workload.c).
# MLA prefill, MHA mode: F = 2·128·4096²·(192+128) = 1,374,389,534,720; K 2·128·4096·192, V and O with 128
json_check 'j["flops"] == 1374389534720 and j["problem"]["head_dim_v"] == 128 and j["models"]["compulsory"]["bytes"] == 671088640' --heads 128 --seq 4096 --head-dim 192 --head-dim-v 128 --dtype bf16
# absorbed MLA decode, B=64 H=128 L=4096 bf16: F = 64·278528·4096, bytes 64·(147456+131072+1152·4096) → 228.3 FLOP/B
json_check 'j["flops"] == 73014444032 and j["models"]["compulsory"]["bytes"] == 319815680 and abs(j["models"]["compulsory"]["intensity_flop_per_byte"] - 228.30) < 0.01 and j["problem"]["kv_heads"] == 1 and j["problem"]["head_dim"] == 576 and j["problem"]["kv_lora_rank"] == 512' --batch 64 --heads 128 --seq 1 --kv-len 4096 --kv-lora-rank 512 --rope-dim 64 --dtype bf16
# FlashMLA fp8 cache: 512 + 4·4 + 64·2 = 656 B per token
json_check 'j["kv_token_bytes"] == 656 and j["models"]["compulsory"]["bytes"] == 2*128*576 + 2*128*512 + 656*4096' --heads 128 --seq 1 --kv-len 4096 --kv-lora-rank 512 --rope-dim 64 --dtype bf16 --kv-dtype fp8
# window: 128·129/2 + 3968·128 = 516,160 pairs; + 4 sinks: 532,026; 189 tiles of 64 rows per head
json_check 'j["pairs"] == 516160 and j["problem"]["window"] == 128 and j["models"]["tiled"]["kv_reload_factor"] == 189*64/4096' --seq 4096 --causal --window 128
json_check 'j["pairs"] == 532026 and j["problem"]["sinks"] == 4' --seq 4096 --causal --window 128 --sinks 4
# nvfp4 KV: 72 B per 128-element row (8 groups of 8 B + a 1 B scale); K = V = 8·4096·72
json_check 'j["models"]["compulsory"]["bytes"] == 2*8*128*2 + 2*8*4096*72' --seq 1 --kv-len 4096 --head-dim 128 --kv-dtype nvfp4
# paged MLA fp8 decode at P=1: 656 B rows move 672 B (gcd 16: 21 sectors), 4 B of page table a page
json_check 'j["models"]["compulsory"]["terms_bytes"]["gather_waste"] == 16*4096 and j["models"]["compulsory"]["terms_bytes"]["page_table"] == 4*4096 and j["problem"]["page_size"] == 1' --heads 128 --seq 1 --kv-len 4096 --kv-lora-rank 512 --rope-dim 64 --dtype bf16 --kv-dtype fp8 --page-size 1
# ragged 512,4096,32768: B = 3, L = 32768, F = 4·8·128·37376 = 153,092,096; tail 32768/(37376/3)
json_check 'j["flops"] == 153092096 and j["problem"]["batch"] == 3 and j["problem"]["kv_len"] == 32768 and j["problem"]["kv_lens"] == [[512, 1], [4096, 1], [32768, 1]] and abs(j["tail_ratio"] - 98304/37376) < 1e-12 and j["sequences"][2]["kv_tiles"] == 512' --heads 8 --kv-heads 2 --seq 1 --head-dim 128 --kv-lens 512,4096,32768
# DSA decode: 2048 of 65536 keys; the indexer 2·64·128·65536 FLOP over 65536·132 + 8448 + 524288 + 8192 B
# and the attention reads its int32 index list, 4·2048 B, with or without pages (FlashMLA: no block table)
json_check 'j["pairs"] == 2048 and j["indexer"]["flops"] == 1073741824 and j["indexer"]["bytes"] == 65536*132 + 8448 + 524288 + 8192 and j["models"]["compulsory"]["terms_bytes"]["page_table"] == 4*2048' --heads 128 --seq 1 --kv-len 65536 --kv-lora-rank 512 --rope-dim 64 --dtype bf16 --kv-dtype fp8 --topk 2048
json_check 'j["models"]["compulsory"]["terms_bytes"]["page_table"] == 4*2048 and j["models"]["compulsory"]["terms_bytes"]["gather_waste"] == 16*2048' --heads 128 --seq 1 --kv-len 65536 --kv-lora-rank 512 --rope-dim 64 --dtype bf16 --kv-dtype fp8 --topk 2048 --page-size 64
expect_err '--kv-lens: item 2: expected LEN or LENxCOUNT' eval --seq 1 --kv-lens 512,,4096
expect_err '--batch: --kv-lens sets the batch to the sum of its counts, 2, got --batch 4' eval --seq 1 --kv-lens 512,4096 --batch 4
expect_err '--topk: --topk selects keys from all of them; it does not combine with --window' eval --causal --window 128 --topk 2048
expect_err 'page-size: --kernel fa2 does not model a paged KV cache (--kernel flashinfer, fa3 and generic do, flashmla with page size 64)' eval --seq 1 --page-size 16 --kernel fa2
expect_err '--dtype: --dtype mxfp8: preset h100-sxm has no block-scaled tensor cores' eval --dtype mxfp8
expect_err '--kv-lora-rank: --kv-lora-rank needs --rope-dim' eval --kv-lora-rank 512
expect_err '--rope-dim: --rope-dim is the RoPE part of an MLA latent and needs --kv-lora-rank' eval --rope-dim 64
expect_err '--kv-heads: absorbed MLA forces kv-heads 1' eval --kv-lora-rank 512 --rope-dim 64 --kv-heads 8
expect_err '--head-dim: absorbed MLA sets the head dim to kv-lora-rank + rope-dim = 576' eval --kv-lora-rank 512 --rope-dim 64 --head-dim 128
expect_err '--window: a sliding window is causal here' eval --window 128
expect_err '--window: expected a positive integer (1 to 16777216), got "0"' eval --causal --window 0
expect_err '--sinks: sink tokens matter only with a sliding window' eval --causal --sinks 4
expect_err '--head-dim-v: expected a positive integer (1 to 65536), got "-1"' eval --head-dim-v -1
expect_err '--dtype: --dtype nvfp4: preset h100-sxm has no block-scaled tensor cores' eval --dtype nvfp4
# fa2 runs the window: 128 x 64 tiles, block 0 reads 2, blocks 1..31 4 (keys 128i - 127 .. 128i + 127): 126 per head
json_check 'j["predicted"]["kernel"] == "fa2" and j["predicted"]["computed_pairs"] == 16*126*128*64' --seq 4096 --heads 16 --head-dim 128 --causal --window 128 --kernel fa2 --hw h100-sxm
expect_err 'sinks: --kernel fa3 has no sink tokens: its mask takes a left and right window only; --kernel generic models them' eval --seq 4096 --causal --window 128 --sinks 4 --kernel fa3
# generic loads the sink tile: 128 x 128 tiles, block 0 reads 1, block 1 2, blocks 2..31 2 + the sink tile 0: 93 per head
json_check 'j["predicted"]["kernel"] == "generic" and j["predicted"]["computed_pairs"] == 16*93*128*128 and j["pairs"] == 532026' --seq 4096 --heads 16 --causal --window 128 --sinks 4 --block-m 128 --block-n 128 --kernel generic --hw h100-sxm
expect_err 'window: --kernel flashmla has no sliding window' eval --heads 128 --seq 1 --kv-len 4096 --kv-lora-rank 512 --rope-dim 64 --dtype bf16 --causal --window 128 --kernel flashmla --hw h100-sxm
expect_err 'kv-dtype: no kernel profile models mxfp8 yet' eval --seq 1 --kv-len 4096 --kv-dtype mxfp8 --kernel fa2

# One number format in the text output (issue 20): grouped by three, never e-notation. H = 32,
# N = L = 65536, d = 128, fp16: compulsory I = 4·65536² / (8·65536) = 32,768 FLOP/B (by hand).
"$R" eval --seq 65536 --heads 32 --head-dim 128 --kernel fa3 >/tmp/rl_out.$$ 2>&1
if grep -q "32,768 FLOP/B" /tmp/rl_out.$$ && ! grep -qE "[0-9]e[+-][0-9]" /tmp/rl_out.$$; then ok
else bad "eval text: expected 32,768 FLOP/B and no e-notation: $(cat /tmp/rl_out.$$)"; fi
# The H100's exp rate: 16 × 132 SMs × 1.83 GHz = 3.865 × 10¹² /s, written 3.865 T exp/s.
"$R" hw h100-sxm >/tmp/rl_out.$$ 2>&1
if grep -q "^exp     3.865 T exp/s" /tmp/rl_out.$$ && ! grep -qE "[0-9]e[+-][0-9]" /tmp/rl_out.$$; then ok
else bad "hw text: expected 3.865 T exp/s and no e-notation: $(cat /tmp/rl_out.$$)"; fi
# Issue 18's profiles through the CLI: each predicts on the presets it runs on, with the variant
# flags it models. MLA decode (H = 128, B = 64, L = 4096): F = 2*64*128*4096*1088 per query row;
# the latent read once, 1152 B per token.
MLA="--batch 64 --heads 128 --kv-len 4096 --kv-lora-rank 512 --rope-dim 64 --dtype bf16"
json_check 'j["predicted"]["kernel"] == "flashmla" and j["flops"] == 2*64*128*4096*1088 and j["predicted"]["tile"]["block_m"] == 64' $MLA --seq 1 --kernel flashmla --hw h200-sxm
json_check 'j["predicted"]["kernel"] == "flashmla" and j["predicted"]["limit"] == "compute"' $MLA --seq 2 --causal --page-size 64 --kernel flashmla --hw h20
json_check 'j["predicted"]["kernel"] == "fa4" and j["flops"] == 2*16*8192*8192*320 and j["predicted"]["tile"]["block_m"] == 256' --heads 16 --seq 8192 --head-dim 192 --head-dim-v 128 --dtype bf16 --kernel fa4 --hw b200
json_check 'j["predicted"]["kernel"] == "fa4"' --heads 16 --seq 8192 --head-dim 128 --dtype bf16 --causal --kernel fa4 --hw gb300
json_check 'j["predicted"]["kernel"] == "cudnn" and j["predicted"]["limit"] == "compute"' --heads 16 --seq 8192 --head-dim 128 --dtype bf16 --kernel cudnn --hw gb200
# cudnn runs MLA prefill in MHA mode (d_qk 192 / d_v 128) on Blackwell: F = 2·B·H·N²·(192 + 128)
json_check 'j["predicted"]["kernel"] == "cudnn" and j["flops"] == 2*2*128*8192*8192*320 and j["predicted"]["tile"]["block_m"] == 256' --batch 2 --heads 128 --seq 8192 --head-dim 192 --head-dim-v 128 --dtype bf16 --kernel cudnn --hw gb300
json_check 'j["predicted"]["kernel"] == "cudnn" and j["predicted"]["kernels"] == 3' --heads 16 --seq 8192 --head-dim 128 --pass bwd --kernel cudnn --hw h200-sxm
json_check 'j["predicted"]["kernel"] == "fa3"' --batch 2 --heads 16 --seq 2048 --head-dim 128 --kernel fa3 --hw h20
json_check 'j["predicted"]["kernel"] == "fa2"' --heads 16 --seq 4096 --head-dim 128 --kernel fa2 --hw h200-sxm
json_check 'j["predicted"]["kernel"] == "flashinfer"' --heads 32 --kv-heads 8 --seq 1 --kv-len 8192 --head-dim 128 --kernel flashinfer --hw h200-sxm
json_check 'j["predicted"]["kernel"] == "flashmla" and j["flops"] == 2*64*128*1088*2048' --batch 64 --heads 128 --seq 1 --kv-len 32768 --topk 2048 --kv-lora-rank 512 --rope-dim 64 --dtype bf16 --kv-dtype fp8 --kernel flashmla --hw h200-sxm
expect_err "kernel: --kernel fa4 is FlashAttention-4's Blackwell datacenter kernel" eval --kernel fa4 --hw h20
expect_err 'kernel: --kernel flashmla models FlashMLA'"'"'s dense decode, an sm_90 kernel' eval $MLA --seq 1 --kernel flashmla --hw b200
expect_err 'kv-lora-rank: --kernel fa2 does not model absorbed MLA; --kernel flashmla and fa3 do' eval $MLA --seq 1 --kernel fa2 --hw h20
json_check 'j["predicted"]["kernel"] == "fa3" and j["predicted"]["tile"]["block_m"] == 64' $MLA --seq 1 --kernel fa3 --hw h20
expect_err 'page-size: --kernel flashmla reads a paged cache of 64-token blocks' eval $MLA --seq 1 --page-size 16 --kernel flashmla --hw h20
expect_err 'head-dim-v: --kernel fa2 does not model a value head dim different from --head-dim' eval --seq 4096 --head-dim 192 --head-dim-v 128 --kernel fa2
json_check 'j["predicted"]["kernel"] == "fa3" and j["predicted"]["tile"]["block_n"] == 128' --seq 4096 --head-dim 192 --head-dim-v 128 --kernel fa3
expect_err 'kernel: --kernel cudnn models cuDNN'"'"'s decode (N = 1) on Blackwell only' eval --seq 1 --kv-len 4096 --kernel cudnn --hw h100-sxm
# cuDNN's decode on Blackwell: the group packed into 8-row head tiles, memory-bound; s_q = 1 only
json_check 'j["predicted"]["kernel"] == "cudnn" and j["predicted"]["limit"] == "memory" and j["predicted"]["tile"]["gqa_packed"] and j["predicted"]["tile"]["block_m"] == 8' --batch 64 --heads 32 --kv-heads 8 --seq 1 --kv-len 8192 --head-dim 128 --dtype bf16 --kernel cudnn --hw b200
expect_err 'seq: --kernel cudnn models cuDNN'"'"'s decode-only mode, s_q = 1' eval --seq 4 --kv-len 4096 --dtype bf16 --kernel cudnn --hw b200

python3 "$(dirname "$0")/fuzz_argv.py" "$R" 3000 1234 && ok || bad "argv fuzz found a crash"

rm -f /tmp/rl_out.$$ /tmp/rl_err.$$
echo "test_cli: $pass passed, $fail failed"
[ "$fail" = 0 ]
