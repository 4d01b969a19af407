#!/usr/bin/env bash
# `rooflab quiz` end to end: a seed draws the same exercise, answers in any unit of the right
# dimension are right, slips are named with their step (exit 1), unreadable answers exit 2 with
# one stderr line, --json is valid JSON. Expected values computed here by hand from the problem.
set -u
R=${ROOFLAB:?set ROOFLAB to the rooflab binary}
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
out=/tmp/rl_quiz_out.$$
err=/tmp/rl_quiz_err.$$
trap 'rm -f $out $err' EXIT

# expect CODE SUBSTRING ARGS... : exit status and a substring of stdout (or stderr for exit 2)
expect() {
  local want=$1 text=$2; shift 2
  "$R" quiz "$@" >$out 2>$err; local got=$?
  local where=$out
  [ "$got" = 2 ] && where=$err
  if [ "$got" = "$want" ] && grep -qF -- "$text" $where; then ok
  else bad "rooflab quiz $*: exit $got (wanted $want), wanted \"$text\" in: $(cat $where)"; fi
}

# Seed 9 draws prefill B = 2, H = 16, Hkv = 4, N = L = 2048, d = 64, fp16 on the RTX 4090:
# F = 4·2·16·64·2048² = 34,359,738,368 FLOP; compulsory bytes = 2·2·2·16·2048·64 + 2·2·2·4·2048·64
# = 20,971,520 B; t = max(F / 165.2 TFLOP/s, bytes / 1008 GB/s) = 207.99 µs.
expect 0 "exercise 9 (time)" --seed 9
expect 0 "NVIDIA GeForce RTX 4090" --seed 9
expect 0 '`rooflab quiz --seed 9 --kind flops` draws it again' --seed 9 --kind flops
expect 0 "Right" --seed 9 --answer "208 us"
expect 0 "Right" --seed 9 --answer "0.208 ms"
expect 0 "Right" --seed 9 --answer "207990 ns"
expect 0 "Right" --seed 9 --kind flops --answer "34.36 GFLOP"
expect 0 "Right" --seed 9 --kind flops --answer "0.03436 TFLOP"
expect 0 "Right" --seed 9 --kind bytes --answer "20.97 MB"
expect 0 "Right" --seed 9 --kind bytes --answer "20 MiB"
expect 0 "Right" --seed 9 --kind regime --answer "compute-bound"
expect 1 "step 2 (FLOPs" --seed 9 --kind flops --answer "17.18 GFLOP"
expect 1 "did you count multiply-adds instead of FLOPs?" --seed 9 --kind flops --answer "17.18 GFLOP"
expect 1 "prefix" --seed 9 --kind flops --answer "34.36 MFLOP"
expect 1 "bits and bytes" --seed 9 --kind bytes --answer "20.97 Mb"
expect 1 "the larger of the two" --seed 9 --answer "20.81 us"
expect 1 "the question asks for seconds" --seed 9 --answer "20 MB"
expect 1 "step 7 (regime" --seed 9 --kind regime --answer "memory"
expect 2 'answer: 208 — a time needs a unit: did you mean "208 ms"?' --seed 9 --answer "208"
expect 2 'did you mean "34.36 GFLOP"?' --seed 9 --kind flops --answer "34.36 gflop"
expect 2 'kind: "speed" is not a question kind' --kind speed
expect 2 'seed: expected' --seed -1
expect 2 'unknown argument' --frobnicate
expect 0 "usage: rooflab quiz" --help
expect 0 "solution (208 µs)" --seed 9 --solution
# The solution is not shown for a wrong answer.
"$R" quiz --seed 9 --answer "104 us" >$out 2>&1
if grep -q "solution" $out; then bad "a wrong answer shows the solution"; else ok; fi
# Unreadable: exactly one line on stderr.
"$R" quiz --seed 9 --answer "208" >$out 2>$err
[ "$(wc -l <$err)" = 1 ] && ok || bad "unreadable answer: $(wc -l <$err) stderr lines"

# --json: valid, the seed reproduces the problem, the verdict named.
"$R" quiz --seed 9 --kind flops --answer "17.18 GFLOP" --json >$out
[ $? = 1 ] && ok || bad "quiz --json wrong answer: exit status"
python3 -c "
import json
j = json.load(open('$out'))
p = j['problem']
assert j['seed'] == 9 and j['kind'] == 'flops' and j['hw'] == 'rtx4090' and j['phase'] == 'prefill'
assert (p['batch'], p['heads'], p['kv_heads'], p['seq'], p['kv_len'], p['head_dim']) == (2, 16, 4, 2048, 2048, 64)
assert j['unit'] == 'FLOP' and j['tolerance'] == 0.02 and 'expected' not in j
v = j['verdict']
assert v['outcome'] == 'wrong' and v['slip'] == 'mac-vs-flop' and v['step'] == 2, v
" && ok || bad "quiz --json content"
"$R" quiz --seed 9 --kind time --solution --json >$out && python3 -c "
import json
j = json.load(open('$out'))
F = 4 * 2 * 16 * 64 * 2048 * 2048
b = 2*2*2*16*2048*64 + 2*2*2*4*2048*64
assert abs(j['expected'] - max(F / 165.2e12, b / 1008e9)) < 1e-15 and len(j['solution']) == 5
" && ok || bad "quiz --solution --json"
# Every seed draws valid JSON with a question.
for s in 0 1 2 3 4 5 6 7 8 4294967295; do
  "$R" quiz --seed $s --json --solution | python3 -c "import json,sys; j=json.load(sys.stdin); assert j['question'] and j['setup']" && ok || bad "quiz --seed $s --json"
done

# A bounded argv fuzz of quiz: no crash, and a usage error (exit 2) is exactly one stderr line.
python3 - "$R" <<'PY' && ok || bad "quiz argv fuzz"
import random, subprocess, sys
random.seed(11)
words = ["--seed", "--kind", "--answer", "--solution", "--json", "--help", "--seed=", "--answer=", "--",
         "0", "9", "-1", "4294967296", "1e3", "", " ", "any", "flops", "bytes", "regime", "time", "memory",
         "compute-bound", "208 us", "208", "34.36 GFLOP", "3 ms", "1e308 EFLOP", "1e-320 s", "NaN FLOP",
         "\u00b5s", "1" * 70, "%s%n", "2,039 GB/s", "2 kFLOP/B", "20 MiB", "Memory", "TOPS", "\x7f"]
bad = 0
for i in range(300):
    argv = ["quiz"] + [random.choice(words) for _ in range(random.randint(0, 6))]
    p = subprocess.run([sys.argv[1]] + argv, capture_output=True, timeout=20)
    err = p.stderr.decode(errors="replace").strip().splitlines()
    if p.returncode < 0 or p.returncode > 2 or (p.returncode == 2 and len(err) != 1):
        bad += 1
        print("quiz fuzz:", argv, p.returncode, err, file=sys.stderr)
sys.exit(1 if bad else 0)
PY

echo "test_quiz_cli: $pass passed, $fail failed"
[ "$fail" = 0 ]
