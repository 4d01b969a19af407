#!/usr/bin/env bash
# test_import_traces_cli.sh — `rooflab import torch-trace|nsys-csv|triton-csv` (issue 23): a
# gzip'd trace decompressed by the CLI (zlib) gives the same record as the plain one; a broken
# gzip file and a CPU-only trace are refused with their messages; --match and --unit reach core.
set -u
R=${ROOFLAB:?} I=${ROOT:?}/tests/record/imports
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
check() { if eval "$2"; then :; else echo "FAIL: $1" >&2; fail=1; fi; }

P=(--batch 4 --heads 16 --seq 4096 --traffic-model compulsory)
"$R" import torch-trace "$I/torch-gpu-flash-h100.json" "${P[@]}" --out "$T/plain.json" 2>/dev/null
check "plain trace imports" '[ $? -eq 0 ]'
"$R" import torch-trace "$I/torch-gpu-flash-h100.json.gz" "${P[@]}" --out "$T/gz.json" 2>/dev/null
check "gzip'd trace imports" '[ $? -eq 0 ]'
# the same record but for provenance.source (the file name)
check "gzip'd and plain give the same points" \
  '[ "$(grep -v "\"source\"" "$T/plain.json")" = "$(grep -v "\"source\"" "$T/gz.json")" ]'
check "median of the forward kernel: 1 ms" 'grep -Eq "\"median_s\":[[:space:]]+0.001," "$T/gz.json"'
"$R" validate "$T/gz.json" >/dev/null 2>&1
check "the imported record validates" '[ $? -eq 0 ]'

# a gzip file cut short, and bytes that only start like gzip
head -c 700 "$I/torch-gpu-flash-h100.json.gz" > "$T/cut.json.gz"
out=$("$R" import torch-trace "$T/cut.json.gz" "${P[@]}" 2>&1)
check "cut gzip refused (exit 1)" '[ $? -eq 1 ]'
check "cut gzip message" 'grep -q "cut.json.gz: not a valid gzip file (zlib: .*); cut short?" <<<"$out"'
printf '\037\213garbage' > "$T/bad.gz"
out=$("$R" import torch-trace "$T/bad.gz" "${P[@]}" 2>&1)
check "bad gzip refused" 'grep -q "bad.gz: not a valid gzip file" <<<"$out"'

# a small file that inflates past the 16 MiB limit: stopped while it inflates
head -c 17000000 /dev/zero | gzip -c > "$T/bomb.json.gz"
out=$("$R" import torch-trace "$T/bomb.json.gz" "${P[@]}" 2>&1)
check "gzip over the limit refused" 'grep -q "bomb.json.gz: decompressed, the file is larger than the limit of 16777216 bytes (16 MiB)" <<<"$out"'

# the CPU trace of Debian's torch: refused, saying why
out=$("$R" import torch-trace "$I/torch-cpu-debian.json" "${P[@]}" --head-dim 32 2>&1)
check "CPU trace refused (exit 1)" '[ $? -eq 1 ]'
check "CPU trace message" 'grep -q "traceEvents: no GPU kernel events" <<<"$out"'

# --match reaches core: the GEMM, whose name gives no head dim
out=$("$R" import torch-trace "$I/torch-gpu-flash-h100.json" "${P[@]}" --match xmma_gemm 2>&1)
check "--match without --head-dim refused" 'grep -q "(missing: --head-dim)" <<<"$out"'
"$R" import torch-trace "$I/torch-gpu-flash-h100.json" "${P[@]}" --match xmma_gemm --head-dim 64 \
  --out "$T/gemm.json" 2>/dev/null
check "--match imports the GEMM (850.125 µs)" 'grep -Eq "\"median_s\":[[:space:]]+0.000850125," "$T/gemm.json"'

# nsys and triton through the CLI
"$R" import nsys-csv "$I/nsys-kern-sum-h100.csv" "${P[@]}" --out "$T/nsys.json" 2>/dev/null
check "nsys kern_sum imports" 'grep -Eq "\"runs\":[[:space:]]+10" "$T/nsys.json"'
out=$("$R" import triton-csv "$I/triton-fused-attention-fwd-print.txt" --batch 4 --heads 32 \
  --head-dim 64 --causal 2>&1)
check "triton without a unit refused" 'grep -q "give --unit TFLOP/s" <<<"$out"'
"$R" import triton-csv "$I/triton-fused-attention-fwd-print.txt" --batch 4 --heads 32 \
  --head-dim 64 --causal --unit TFLOPS --out "$T/triton.json" 2>/dev/null
# N = 1024 at 100 TFLOP/s: 2·4·32·64·1024² FLOP / 1e14 = 171.79869184 µs
check "triton: hand time" 'grep -Eq "\"median_s\":[[:space:]]+0.00017179869184$" "$T/triton.json"'
out=$("$R" import triton-csv "$I/triton-fused-attention-fwd-print.txt" --batch 4 --heads 32 \
  --head-dim 64 --unit furlongs 2>&1)
check "bad --unit names the flag" 'grep -q -- "--unit: unit \"furlongs\" is neither" <<<"$out"'
# a grid dimension beyond any CUDA launch (found by fuzzing: the cast to an integer was undefined)
sed 's/"120","32","4","16"/"120","1e30","4","16"/' "$I/nsys-gpu-trace-h100.csv" > "$T/grid.csv"
out=$("$R" import nsys-csv "$T/grid.csv" "${P[@]}" 2>&1)
check "nsys: a huge grid refused (exit 1)" '[ $? -eq 1 ]'
check "nsys: a huge grid named" 'grep -q "line 3, column GrdX: expected a whole number from 0 to 2147483647, got \"1e30\"" <<<"$out"'

# a cell that holds the wrong value is quoted as it is (not as empty)
sed 's/"401300000","1000000"/"401300000","0"/' "$I/nsys-gpu-trace-h100.csv" > "$T/zero.csv"
out=$("$R" import nsys-csv "$T/zero.csv" "${P[@]}" 2>&1)
check "nsys: a zero duration quoted" 'grep -q "line 3, column Duration (ns): expected a positive duration, got \"0\"" <<<"$out"'
# an --args key is echoed through the one escaper (ESC named, not sent to the terminal)
out=$("$R" import triton-csv "$I/triton-fused-attention-fwd-print.txt" --batch 4 --heads 32 \
  --head-dim 64 --causal --unit TFLOPS --args $'se\x1bq' 2>&1)
check "triton: an unknown --args key escaped" 'grep -qF "unknown key \"se\\x1bq\"" <<<"$out"'

"$R" import --help | grep -q "torch-trace  a PyTorch profiler trace"
check "--help lists torch-trace" '[ $? -eq 0 ]'

[ $fail -eq 0 ] && echo "test_import_traces_cli: all passed"
exit $fail
