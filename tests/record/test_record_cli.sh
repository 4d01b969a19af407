#!/usr/bin/env bash
# rooflab validate / import end to end: exit codes, the error format (one line per issue with the
# JSON path), --json, --strict, stdin, unreadable files, and import of each sample format.
set -u
R=${ROOFLAB:?set ROOFLAB to the rooflab binary}
ROOT=${ROOT:?set ROOT to the repository root}
C=$ROOT/tests/record/cases
E=$ROOT/data/examples
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
expect_rc() { # want, description, command...
  local want=$1 what=$2; shift 2
  "$@" >"$T/out" 2>"$T/err"; local rc=$?
  if [ "$rc" = "$want" ]; then ok; else bad "$what: exit $rc, expected $want; stderr: $(head -c 300 "$T/err")"; fi
}
contains() { # file, text, description
  if grep -qF -- "$2" "$1"; then ok; else bad "$3: expected \"$2\" in: $(head -c 400 "$1")"; fi
}

expect_rc 0 "valid examples" "$R" validate "$E"/historical-v0.4.0-seed-table.json "$E"/*.record.json "$C"/valid/*.json
contains "$T/out" "historical-v0.4.0-seed-table.json: valid record: 12 points, historical-unaudited" "summary line"
contains "$T/err" "warning: points[0].flops: 2.15 GFLOP is the non-causal count" "historical warnings on stderr"

expect_rc 1 "one invalid file among valid ones" "$R" validate "$C"/valid/minimal.json "$C"/invalid/negative-head-dim.json
contains "$T/err" "rooflab validate: $C/invalid/negative-head-dim.json: points[3].problem.head_dim: expected a positive integer, got -64" "error line with the JSON path"
contains "$T/out" "minimal.json: valid record" "the valid file is still reported"

for f in "$C"/invalid/*.json "$C"/semantic/*.json; do
  expect_rc 1 "$(basename "$f")" "$R" validate "$f"
  want=$(head -n1 "${f%.json}.expect")
  contains "$T/err" "$want" "$(basename "$f") message"
done

expect_rc 2 "no file" "$R" validate
contains "$T/err" "rooflab validate: FILE: expected at least one record file" "usage message"
expect_rc 2 "unknown flag" "$R" validate --frobnicate x.json
expect_rc 1 "missing file" "$R" validate "$T/does-not-exist.json"
contains "$T/err" "does-not-exist.json: cannot open" "unreadable file message"
expect_rc 1 "--strict fails on warnings" "$R" validate --strict "$C"/valid/above-roof.json
expect_rc 0 "above the roof is a warning" "$R" validate "$C"/valid/above-roof.json
contains "$T/err" "warning: points[0]: above its own roof" "roof warning"
expect_rc 0 "stdin" sh -c "\"$R\" validate - < \"$C/valid/minimal.json\""
expect_rc 1 "--json" "$R" validate --json "$C"/valid/minimal.json "$C"/invalid/not-an-object.json
if node -e 'const d=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8")); if(d.files.length!==2||d.files[0].report.ok!==true||d.files[1].report.ok!==false||!d.files[1].report.issues[0].message.startsWith("valid JSON, not a record"))process.exit(1)' "$T/out"; then ok; else bad "--json report shape: $(head -c 300 "$T/out")"; fi
head -c 17000000 /dev/zero | tr '\0' ' ' > "$T/big.json"
expect_rc 1 "over 16 MiB" "$R" validate "$T/big.json"
contains "$T/err" "larger than the limit of 16777216 bytes" "size limit message"

# import: each sample format, written as a record that validates
expect_rc 0 "import ncu-csv" "$R" import ncu-csv "$E/ncu-raw-flash-fwd-h100.csv" --hw h100-sxm --batch 4 --heads 16 --seq 4096 --head-dim 128 --kernel-version "flash-attn 2.6.3" --out "$T/ncu.json"
expect_rc 0 "imported ncu record validates" "$R" validate "$T/ncu.json"
expect_rc 1 "import ncu-csv without the problem" "$R" import ncu-csv "$E/ncu-raw-flash-fwd-h100.csv" --hw h100-sxm --heads 16 --seq 4096
contains "$T/err" 'problem: the ncu export does not say which problem the kernel ran; give --batch, --heads, --seq, --head-dim (missing: --batch, --head-dim)' "ncu needs the problem flags"
# a flag typed at its default counts as given: --pass fwd over a family named ...Backward...
printf '{"benchmarks":[{"name":"BM_FlashBackward/1/1024/8/64","real_time":1,"time_unit":"ms","TFLOP/s":1}]}' > "$T/bwd.json"
expect_rc 0 "gbench pass from the family name" "$R" import gbench "$T/bwd.json"
contains "$T/out" '"pass":	"bwd"' "Backward family is a backward pass"
expect_rc 0 "gbench --pass fwd typed" "$R" import gbench "$T/bwd.json" --pass fwd
contains "$T/out" '"pass":	"fwd"' "--pass fwd wins over the family name"
# the ncu command line: core's, printed by --help, copied into docs/GUIDE.md as it is
expect_rc 0 "import --help" "$R" import --help
NCU_CMD=$(grep '^  ncu --csv --page raw' "$T/out" | sed 's/^  //')
[ -n "$NCU_CMD" ] && ok || bad "import --help prints no ncu command line"
[ -n "$NCU_CMD" ] && contains "$ROOT/docs/GUIDE.md" "$NCU_CMD" "docs/GUIDE.md's ncu command is core's"
contains "$T/ncu.json" '"measured_bytes":	379720000' "counter bytes in the record"
expect_rc 0 "import gbench to stdout" "$R" import gbench "$E/gbench-flash-attn-h100.json" --hw h100-sxm
contains "$T/out" '"seq":	8448' "problem from the benchmark name"
expect_rc 0 "import gbench --args" "$R" import gbench "$E/gbench-flash-attn-h100.json" --args "batch,_,heads,head_dim" --seq 512
contains "$T/out" '"seq":	512' "--args overrides the mapping"
expect_rc 0 "import ert" "$R" import ert "$E/ert-roofline-v100.json" --out "$T/ert.json"
expect_rc 0 "imported ert validates" "$R" validate "$T/ert.json"
contains "$T/ert.json" '"name":	"DRAM"' "ERT ceiling"
expect_rc 2 "import unknown format" "$R" import csv x
contains "$T/err" 'FORMAT: unknown format "csv"; expected one of ert, ncu-csv, gbench' "format message"
expect_rc 1 "import wrong format" "$R" import ert "$E/ncu-raw-flash-fwd-h100.csv"
contains "$T/err" "not an ERT roofline.json" "wrong-format message"
expect_rc 2 "import --bandwidth refused" "$R" import ert "$E/ert-roofline-v100.json" --bandwidth "1 TB/s"

# check-model: figures per family, the exit codes, one line naming the flag on bad input
P=$ROOT/data/published
expect_rc 0 "check-model on the published records" "$R" check-model "$P"/*.json
contains "$T/out" "fa3/h100-sxm/prefill " "fa3 prefill family"
contains "$T/out" "fa3/h100-sxm/prefill/fp8" "fp8 family"
contains "$T/out" "not predicted: " "not-predicted count"
contains "$T/out" "no preset: 6 (Hopper GPU" "no preset reason"
contains "$T/out" "below the compulsory bound: none" "no point below its bound"
# One flash-decoding point 43 % off its prediction (cases/valid/published-profile.json): a family
# that misses its target, and the same with the family excepted.
M="$C"/valid/published-profile.json
expect_rc 0 "check-model --json" "$R" check-model --json "$M"
contains "$T/out" '"family": "flash-decoding/a100-sxm4-80gb/decode"' "json family"
contains "$T/out" '"below_compulsory": []' "json bound flags"
expect_rc 1 "check-model --targets missed" "$R" check-model --targets "$M"
contains "$T/out" "targets: MISSED" "targets line"
expect_rc 0 "check-model --targets with the family excepted" "$R" check-model --targets \
  --except flash-decoding/a100-sxm4-80gb/decode "$M"
expect_rc 2 "check-model --except of no family" "$R" check-model --except nope/x/decode "$M"
contains "$T/err" '--except: no family "nope/x/decode"' "except message"
expect_rc 2 "check-model unknown flag" "$R" check-model --bogus "$M"
expect_rc 0 "check-model: a profile-less point is counted with its reason" "$R" check-model "$P"/tileops-pr2132-h200.json
contains "$T/out" "no profile: 8 (tileops-dense-gqa-decode 4; flash-attention-3 fp8 decode" "no-profile reason"
# The decode family issue 17 leaves open (FA3's fp8 decode timed as a complete-op envelope;
# tests/record/CMakeLists.txt says why) is excepted; every other family, the A100 defaults and
# FA3's paged decode on the H100 PCIe included, is held to its target.
expect_rc 0 "check-model --targets holds every published family" "$R" check-model --targets \
    --except default/h200-sxm/decode/fp8 "$P"/*.json
contains "$T/out" "targets: met" "published targets met"
# MLA prefill in MHA mode (d_qk 192 / d_v 128: the cuDNN frontend's dsv3 and kimiK26 rows) is a family
# of its own, forward and backward, beside the d = 128 one.
contains "$T/out" "cudnn/gb200/prefill/mla" "MLA prefill family"
contains "$T/out" "cudnn/gb300/backward/mla" "MLA backward family"
# Without the exception the fp8 family misses (it is excepted for a reason, not by habit).
expect_rc 1 "check-model --targets: the fp8 decode family still misses" "$R" check-model --targets "$P"/*.json
if grep -qE '^default/h200-sxm/decode/fp8 .*MISSED' "$T/out" && [ "$(grep -c 'MISSED' "$T/out")" = 2 ]; then ok
else bad "check-model --targets without --except: expected only the fp8 decode family (and the total) MISSED"; fi
expect_rc 2 "check-model without files" "$R" check-model
expect_rc 1 "check-model on an invalid record" "$R" check-model "$C"/invalid/profile-unknown.json
contains "$T/err" 'points[0].profile: expected one of generic' "invalid profile message"
expect_rc 1 "check-model on a missing file" "$R" check-model "$T/none.json"
sed 's/"median_s": 5.7e-05/"median_s": 1e-06/' "$C"/valid/published-profile.json > "$T/fast.json"
expect_rc 1 "check-model --targets: a measured time below its compulsory bound" "$R" check-model --targets "$T/fast.json"
contains "$T/out" "below the compulsory bound: 1" "bound flag count"
contains "$T/out" "measured 1 µs < bound" "bound flag line"

# Fit and held-out apart (cases/valid/published-split.json): seven points of ONE problem, so every
# prediction is the same t, and each error is t / measured - 1; one point is "set": "fit". The
# figures are recomputed here by hand from t and the seven printed times (quantiles: linear
# between order statistics, position q (n - 1)), not taken from the tool.
S="$C"/valid/published-split.json
expect_rc 0 "check-model --json on the split fixture" "$R" check-model --json "$S"
if node -e '
const d = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
const near = (a, b) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));
const q = (v, p) => { const pos = p * (v.length - 1), lo = Math.floor(pos);
  return lo + 1 >= v.length ? v[v.length - 1] : v[lo] + (pos - lo) * (v[lo + 1] - v[lo]); };
const fails = [];
for (const name of ["flash-decoding/a100-sxm4-80gb/decode", "default/a100-sxm4-80gb/decode"]) {
  const f = d.families.find((x) => x.family === name);
  if (!f) { fails.push("no family " + name); continue; }
  const t = f.worst[0].predicted_s;                     /* one problem: one prediction */
  const held = [20, 40, 60, 80, 100, 120].map((us) => t / (us * 1e-6) - 1);   /* 6 held out */
  const fit = t / 57e-6 - 1;                            /* the fit point, 57 us */
  const abs = held.map(Math.abs).sort((a, b) => a - b);
  const mean = abs.reduce((a, b) => a + b) / 6, median = (abs[2] + abs[3]) / 2;
  const bias = held.reduce((a, b) => a + b) / 6, sorted = [...held].sort((a, b) => a - b);
  const h = f.held_out, b = f.band;
  if (f.points !== 7 || h.points !== 6 || f.fit.points !== 1) fails.push(name + " counts");
  if (!near(h.mean_abs_error, mean) || !near(h.median_abs_error, median) ||
      !near(h.max_abs_error, abs[5]) || !near(h.bias, bias)) fails.push(name + " held-out figures");
  if (!near(f.fit.mean_abs_error, Math.abs(fit)) || !near(f.fit.bias, fit)) fails.push(name + " fit");
  if (h.within_20_percent !== abs.filter((a) => a <= 0.2).length) fails.push(name + " within");
  if (!b.has_band || b.points !== 6 || !near(b.p10, q(sorted, 0.1)) || !near(b.p50, q(sorted, 0.5)) ||
      !near(b.p90, q(sorted, 0.9)) || !near(b.min, sorted[0]) || !near(b.max, sorted[5]) ||
      !near(b.time_factor_low, 1 / (1 + q(sorted, 0.9))) ||
      !near(b.time_factor_high, 1 / (1 + q(sorted, 0.1)))) fails.push(name + " band");
  if (b.errors.length !== 6 || b.errors.some((e, i) => !near(e, sorted[i]))) fails.push(name + " errors");
  if (f.worst.some((w) => w.set !== "held-out")) fails.push(name + " worst from the fit set");
}
const pf = d.bands["flash-decoding"], dflt = d.bands["default"];
if (!pf || pf.points !== 6 || !dflt || dflt.points !== 6) fails.push("profile bands");
if (d.predicted !== 7 || d.default_predicted !== 7) fails.push("predicted counts");
if (fails.length) { console.error(fails.join("; ")); process.exit(1); }
' "$T/out"; then ok; else bad "check-model split figures: $(head -c 300 "$T/out")"; fi
expect_rc 0 "check-model --bands" "$R" check-model --bands "$S"
contains "$T/out" "held-out error bands" "bands heading"
contains "$T/out" "flash-decoding/a100-sxm4-80gb/decode held-out      6" "held-out row"
expect_rc 0 "check-model --bands with one held-out point" "$R" check-model --bands "$M"
contains "$T/out" "too few held-out points (< 5): no band" "no band under 5 points"
# A family with only fit points is not checked, and a run that checks nothing misses the targets.
expect_rc 1 "check-model --targets with nothing held out" "$R" check-model --targets \
  "$C"/valid/published-fit-only.json
contains "$T/out" "not checked (no held-out points)" "fit-only family not checked"
contains "$T/out" "targets: MISSED (no held-out point was predicted: nothing checked)" "nothing checked"
expect_rc 1 "check-model --targets with nothing predicted" "$R" check-model --targets \
  "$P"/pytorch-benchmark-ff65cb6.json
contains "$T/out" "nothing checked" "nothing predicted: targets missed"
expect_rc 1 "check-model --targets without the fa3 prefill family" "$R" check-model --targets "$M"
contains "$T/out" "fa3/h100-sxm/prefill (mean <= 10 %, all <= 25 %): no held-out points in these files, not checked" "absent gated family said"
# A kernel name with control characters, in the "not predicted" reasons: one escaped line.
sed -e 's/"profile": "flash-decoding",/"kernel": "evil\\u001b[2J\\nname",/' "$C"/valid/published-profile.json > "$T/evil.json"
expect_rc 0 "check-model: a kernel name with control characters" "$R" check-model "$T/evil.json"
contains "$T/out" 'no profile: 1 (evil\x1b[2J\nname 1)' "kernel name escaped in the reasons"

echo "test_record_cli: $pass passed, $fail failed"
[ "$fail" = 0 ]
