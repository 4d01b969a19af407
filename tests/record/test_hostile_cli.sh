#!/usr/bin/env bash
# test_hostile_cli.sh — the command line against hostile and clumsy input (issue 12): every error
# one line of valid UTF-8 with control characters escaped, whatever argv or a record holds;
# --json output that parses; --out checked before any work; the roof's rate range; importers'
# refusals. Every input is generated here. Needs ROOFLAB (the binary) and python3.
set -u
R=${ROOFLAB:?ROOFLAB must name the rooflab binary}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }

# FILE holds at most one line, of valid UTF-8, without control characters but the final newline.
one_line() {
  python3 - "$1" <<'PY' || return 1
import sys
b = open(sys.argv[1], 'rb').read()
t = b.decode('utf-8')  # raises on invalid UTF-8
lines = t.split('\n')
assert len(lines) <= 2 and (len(lines) == 1 or lines[1] == ''), 'more than one line: %r' % t
assert not any(ord(c) < 0x20 or ord(c) == 0x7f or 0x80 <= ord(c) <= 0x9f for c in lines[0]), 'control character: %r' % t
PY
}
# every line of FILE is valid UTF-8 without control characters
clean_lines() {
  python3 - "$1" <<'PY' || return 1
import sys
t = open(sys.argv[1], 'rb').read().decode('utf-8')
for line in t.split('\n'):
    assert not any(ord(c) < 0x20 or ord(c) == 0x7f for c in line), 'control character: %r' % line
PY
}
json_ok() { python3 -c 'import json,sys; json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))' "$1"; }

# expect_err NAME RC CMD...: exit status RC and a one-line error on stderr
expect_err() {
  local name=$1 want=$2; shift 2
  "$@" >"$T/out" 2>"$T/err"; local rc=$?
  if [ "$rc" != "$want" ]; then bad "$name: exit $rc, expected $want ($(head -c 300 "$T/err"))"; return; fi
  if one_line "$T/err" 2>"$T/why"; then ok; else bad "$name: stderr not one clean line: $(cat "$T/why" | tail -1)"; fi
}

NL=$'a\nb' CR=$'a\rb' ESC=$'\x1b[31mred\x1b[0m' BADU=$'\xff\xfe' EMOJI=$(printf 'x%.0s' $(seq 38))$'\xf0\x9f\x98\x80tail'
for v in "$NL" "$CR" "$ESC" "$BADU" "$EMOJI"; do
  expect_err "eval --batch hostile" 2 "$R" eval --batch "$v"
  expect_err "eval unknown flag hostile" 2 "$R" eval "--$v"
  expect_err "validate unknown flag" 2 "$R" validate "--$v"
  expect_err "import unknown format" 2 "$R" import "$v" x.json
  expect_err "import --traffic-model" 2 "$R" import ert x.json --traffic-model "$v"
  expect_err "hw unknown preset" 2 "$R" hw "$v"
  expect_err "sweep unknown argument" 2 "$R" sweep "$v"
  expect_err "validate missing file" 1 "$R" validate "$T/$v"
done

# a 4-byte character across the 40- and 64-byte quote limits: clipped before it, never through it
# (no "\x" escape of half a character in the message)
E40=$(printf 'x%.0s' $(seq 38))$'\xf0\x9f\x98\x80tail' E64=$(printf 'x%.0s' $(seq 62))$'\xf0\x9f\x98\x80tail'
expect_clip() {
  local name=$1; shift
  "$@" >"$T/out" 2>"$T/err"
  if one_line "$T/err" 2>/dev/null && ! grep -q '\\x' "$T/err"; then ok; else bad "$name: $(cat -v "$T/err")"; fi
}
expect_clip "unknown command" "$R" "$E64"
expect_clip "eval --gqa-pack" "$R" eval --gqa-pack "$E40"
expect_clip "eval unknown argument" "$R" eval "$E64"
expect_clip "hw two ids" "$R" hw "$E40" "$E40"
expect_clip "units unknown flag" "$R" units "--$E64"
expect_clip "tune unknown argument" "$R" tune "$E64"
expect_clip "models unknown argument" "$R" models "$E64"
expect_clip "sweep --format" "$R" sweep --format "$E40"
expect_clip "bench --backend" "$R" bench --backend "$E64"
expect_clip "quiz unknown argument" "$R" quiz "$E64"
E48=$(printf 'x%.0s' $(seq 46))$'\xf0\x9f\x98\x80tail'
expect_clip "eval --dtype (core)" "$R" eval --dtype "$E48"
expect_clip "eval --hw (core)" "$R" eval --hw "$E48"
expect_clip "eval --model (core)" "$R" eval --model "$E40"
expect_clip "eval --kernel (core)" "$R" eval --kernel "$E40"
expect_clip "quiz --kind (core)" "$R" quiz --kind "$E40"

# a record whose strings carry newlines, ESC and a forged "valid record" line
cat > "$T/forged.json" <<'J'
{"schema": "rooflab-record", "schema_version": 1, "provenance": {"kind": "measured"},
 "hardware": {"name": "x\nforged.json: valid record: 99 points\u001b[2J"},
 "software": {"kernel_version": "1\r\u009b31m", "kernel": "k\u2028\u202e"},
 "points": [{"problem": {"seq": 128, "dtype": "fp32"}, "timing": {"median_s": 0.001}, "flops": 33554432}]}
J
"$R" validate "$T/forged.json" >"$T/out" 2>"$T/err"
if [ $? = 0 ] && one_line "$T/out" && clean_lines "$T/err"; then ok; else bad "validate: a record's strings printed raw: $(cat -v "$T/out")"; fi
grep -q 'forged.json: valid record: 1 point' "$T/out" && ok || bad "validate line"
"$R" validate --json "$T/forged.json" >"$T/out" 2>/dev/null
json_ok "$T/out" && ok || bad "validate --json on control characters is not JSON"
# the record inside the report keeps U+2028 and U+202E as \u escapes (the same value), never raw
RLO=$'\u202e'; LS=$'\u2028'
grep -qF 'k\u2028\u202e' "$T/out" && ! grep -qF "$RLO" "$T/out" && ! grep -qF "$LS" "$T/out" && ok ||
  bad "validate --json writes the record's direction/separator characters raw: $(cat -v "$T/out")"

# a record with an unknown key holding control characters and a 4-byte character at the clip
python3 - "$T/badkey.json" <<'PY'
import json, sys
key = 'k' * 37 + '\U0001F600' + '\n\x1b[2J'
rec = {"schema": "rooflab-record", "schema_version": 1, "provenance": {"kind": "measured", key: 1},
       "hardware": {"name": "n"}, "software": {"kernel_version": "1"}, "points": []}
open(sys.argv[1], 'w').write(json.dumps(rec))
PY
"$R" validate "$T/badkey.json" >"$T/out" 2>"$T/err"
[ $? = 1 ] && clean_lines "$T/err" && [ "$(wc -l <"$T/err")" = 1 ] && ok || bad "validate: unknown key error not one clean line: $(cat -v "$T/err")"
"$R" validate --json "$T/badkey.json" >"$T/out" 2>/dev/null
json_ok "$T/out" && ok || bad "validate --json with a clipped key is not JSON"

# file names that are not UTF-8, with newlines: --json stays JSON
BADNAME="$T/bad"$'\xff\n'"name.json"
cp "$T/forged.json" "$BADNAME"
"$R" validate --json "$BADNAME" "$T/missing"$'\xfe'".json" >"$T/out" 2>"$T/err"
json_ok "$T/out" && ok || bad "validate --json with invalid UTF-8 file names is not JSON: $(cat -v "$T/out" | head -c 300)"
clean_lines "$T/err" && ok || bad "validate: file names printed raw"
"$R" check-model --json "$BADNAME" >"$T/out" 2>"$T/err"
json_ok "$T/out" && ok || bad "check-model --json with an invalid UTF-8 file name is not JSON"
# the one JSON writer (cli/json_out.c) in validate and check-model: a name's bad byte is U+FFFD
# and a right-to-left override (U+202E, which reorders a terminal line) is escaped, not raw
RLO=$'\xe2\x80\xae'
cp "$ROOT/data/published/fa3-paper-h100.json" "$T/rl${RLO}o"$'\xfe'".json"
for cmd in validate check-model; do
  "$R" $cmd --json "$T/rl${RLO}o"$'\xfe'".json" >"$T/out" 2>/dev/null
  grep -qF 'rl\u202eo\ufffd.json"' "$T/out" && ! grep -qF "$RLO" "$T/out" && ok ||
    bad "$cmd --json: file name not escaped by the writer: $(head -c 300 "$T/out" | cat -v)"
done

# --json of every command parses, and with hostile argv it is either JSON or empty (the error on
# stderr)
for cmd in "eval --json" "hw --json" "tune --json" "sweep --format json --param seq --from 128 --to 512" \
           "validate --json $ROOT/data/examples/cpu-bench-quick.json"; do
  for extra in "" "--batch=$NL" "--hw=$ESC" "--head-dim=$BADU"; do
    # shellcheck disable=SC2086
    "$R" $cmd ${extra:+"$extra"} >"$T/out" 2>"$T/err"
    if [ ! -s "$T/out" ] || json_ok "$T/out"; then ok; else bad "$cmd $extra: stdout is not JSON"; fi
    clean_lines "$T/err" && ok || bad "$cmd $extra: stderr not clean"
  done
done

# --out checked before any work
expect_err "import --out in a missing folder" 2 "$R" import ncu-csv "$T/not-read.csv" --out "$T/no/such/dir/r.json"
grep -q 'the folder' "$T/err" && ! grep -q 'not-read' "$T/err" && ok || bad "import --out: checked after reading: $(cat "$T/err")"
expect_err "import --out is a folder" 2 "$R" import ncu-csv "$T/not-read.csv" --out "$T"
start=$(date +%s)
expect_err "bench --out in a missing folder" 2 "$R" bench --backend cpu --out "$T/no/such/dir/r.json"
[ $(( $(date +%s) - start )) -le 5 ] && ok || bad "bench --out: the benchmark ran first"
grep -q 'out: cannot write' "$T/err" && ok || bad "bench --out message: $(cat "$T/err")"

# the roof's rate range (CLI through rl_roof_check)
expect_err "eval --bandwidth 1e-300 B/s" 2 "$R" eval --bandwidth "1e-300 B/s"
grep -q 'bandwidth' "$T/err" && ok || bad "bandwidth not named: $(cat "$T/err")"
expect_err "eval --peak 1e300 FLOP/s" 2 "$R" eval --peak "1e300 FLOP/s"
grep -q 'peak' "$T/err" && ok || bad "peak not named: $(cat "$T/err")"

# importers: refusals are one line each and name the cause
H='"ID","Kernel Name","gpu__time_duration.sum","dram__bytes_read.sum","dram__bytes_write.sum","sm__sass_thread_inst_executed_op_ffma_pred_on.sum"'
printf '%s\n"","","usecond","Mbyte","Mbyte","inst"\n"0","k","1.571,20","312","67","1000000"\n' "$H" > "$T/comma.csv"
"$R" import ncu-csv "$T/comma.csv" >/dev/null 2>"$T/err"; rc=$?
[ $rc = 1 ] && grep -q 'row 3, column gpu__time_duration.sum: got "1.571,20": a decimal comma' "$T/err" && ok || bad "decimal comma: rc $rc $(cat "$T/err")"
printf '\xef\xbb\xbf%s\n"","","usecond","Mbyte","Mbyte","inst"\n"0","k","1,571.20","312","67","1000000"\n' "$H" > "$T/bom.csv"
"$R" import ncu-csv "$T/bom.csv" --batch 1 --heads 16 --seq 4096 --head-dim 128 --out "$T/bom.json" 2>/dev/null && "$R" validate --quiet "$T/bom.json" && ok || bad "BOM-prefixed ncu CSV refused"
printf '{"benchmarks": [{"name": "BM_x_stddev", "run_name": "BM_x", "run_type": "aggregate", "aggregate_name": "stddev", "real_time": 5, "time_unit": "us"}]}' > "$T/agg.json"
"$R" import gbench "$T/agg.json" >/dev/null 2>"$T/err"; rc=$?
[ $rc = 1 ] && grep -q 'only aggregates' "$T/err" && ok || bad "gbench aggregates only: rc $rc $(cat "$T/err")"
printf '{"benchmarks": [{"name": "BM_x", "error_occurred": true, "error_message": "no GPU\\n\\u001b[2Jgone"}]}' > "$T/err.json"
"$R" import gbench "$T/err.json" >/dev/null 2>"$T/err"; rc=$?
[ $rc = 1 ] && clean_lines "$T/err" && grep -q 'every benchmark failed' "$T/err" && ok || bad "gbench errors only: rc $rc $(cat -v "$T/err")"

# ---- issue 21: every echo escaped the same way, invisible and direction characters named ----
# FILE is one line (or empty) with no character a reader cannot see: no control (Cc), format
# (Cf: LRM, RLM, ALM, ZWSP, RLO, isolates, BOM, tags), separator (Zl, Zp) or space other than
# U+0020 (Zs: no-break, narrow no-break, thin ...), by Unicode's own categories (unicodedata).
visible_line() {
  python3 - "$1" <<'PY' || return 1
import sys, unicodedata
t = open(sys.argv[1], 'rb').read().decode('utf-8')
lines = t.split('\n')
assert len(lines) <= 2 and (len(lines) == 1 or lines[1] == ''), 'more than one line: %r' % t
for c in lines[0]:
    cat = unicodedata.category(c)
    assert not (cat in ('Cc', 'Cf', 'Zl', 'Zp') or (cat == 'Zs' and c != ' ')), 'U+%04X (%s) raw in %r' % (ord(c), cat, t)
PY
}
# expect_named NAME WANT RC CMD...: exit RC, one visible line naming WANT. The outputs are checked
# together by one python run (check_named), not one per case.
mkdir -p "$T/named"; named_n=0
expect_named() {
  local name=$1 want=$2 rc_want=$3; shift 3
  named_n=$((named_n + 1))
  "$@" >/dev/null 2>"$T/named/$named_n.err"
  printf '%s\n%s\n%s\n%s\n' "$?" "$rc_want" "$want" "$name" >"$T/named/$named_n.want"
}
check_named() {
  local res
  res=$(python3 - "$T/named" <<'PY'
import os, sys, unicodedata
d = sys.argv[1]
good = bad = 0
for f in sorted(os.listdir(d)):
    if not f.endswith('.want'):
        continue
    rc, rc_want, want, name = open(os.path.join(d, f), encoding='utf-8').read().split('\n')[:4]
    t = open(os.path.join(d, f[:-5] + '.err'), 'rb').read().decode('utf-8', 'replace')
    lines = t.split('\n')
    why = None
    if rc != rc_want: why = 'exit %s, expected %s' % (rc, rc_want)
    elif not (len(lines) == 2 and lines[1] == ''): why = 'not one line'
    elif want not in lines[0]: why = 'expected %r' % want
    else:
        for c in lines[0]:
            cat = unicodedata.category(c)
            if cat in ('Cc', 'Cf', 'Zl', 'Zp') or (cat == 'Zs' and c != ' '):
                why = 'U+%04X (%s) raw' % (ord(c), cat)
    if why:
        bad += 1
        print('FAIL: %s: %s: %r' % (name, why, t[:300]), file=sys.stderr)
    else:
        good += 1
print(good, bad)
PY
)
  local g=${res% *} b=${res#* }
  pass=$((pass + g)); fail=$((fail + b))
  [ "$g" -gt 0 ] || bad "check_named: nothing checked"
}
declare -A NAMED=(
  [$'\u200e']='<U+200E LEFT-TO-RIGHT MARK>' [$'\u200f']='<U+200F RIGHT-TO-LEFT MARK>'
  [$'\u061c']='<U+061C ARABIC LETTER MARK>' [$'\u200b']='<U+200B ZERO WIDTH SPACE>'
  [$'\u00a0']='<U+00A0 NO-BREAK SPACE>' [$'\u202f']='<U+202F NARROW NO-BREAK SPACE>'
  [$'\u2009']='<U+2009 THIN SPACE>' [$'\u202e']='<U+202E RIGHT-TO-LEFT OVERRIDE>'
  [$'\u2067']='<U+2067 RIGHT-TO-LEFT ISOLATE>' [$'\u009b']='<U+009B C1 CONTROL>'
  [$'\ufeff']='<U+FEFF ZERO WIDTH NO-BREAK SPACE>' [$'\u2028']='<U+2028 LINE SEPARATOR>'
)
for ch in "${!NAMED[@]}"; do
  w=${NAMED[$ch]} v="x${ch}y"
  expect_named "eval --seq (argv value)" "$w" 2 "$R" eval --seq "$v"
  expect_named "eval unknown argument" "$w" 2 "$R" eval "--$v"
  expect_named "sweep --format" "$w" 2 "$R" sweep --format "$v"
  expect_named "tune unknown argument" "$w" 2 "$R" tune "$v"
  expect_named "hw unknown preset" "$w" 2 "$R" hw "$v"
  expect_named "import unknown format" "$w" 2 "$R" import "$v" x.json
  expect_named "import --traffic-model" "$w" 2 "$R" import ert x.json --traffic-model "$v"
  expect_named "quiz --kind" "$w" 2 "$R" quiz --kind "$v"
  expect_named "quiz --answer (regime)" "$w" 2 "$R" quiz --seed 1 --answer "memory$ch"
  expect_named "quiz --answer --json" "$w" 2 "$R" quiz --seed 1 --json --answer "memory$ch"
  expect_named "units (value)" "${w:1:${#w}-2}" 2 "$R" units "2039${ch}GB/s"
  expect_named "eval --bandwidth (unit string)" "${w:1:${#w}-2}" 2 "$R" eval --bandwidth "2039 GB/s$ch"
  expect_named "bench --backend" "$w" 2 "$R" bench --backend "$v"
  expect_named "validate unknown flag" "$w" 2 "$R" validate "--$v"
  expect_named "check-model --except" "$w" 2 "$R" check-model --except "$v" "$ROOT/data/published/fa3-paper-h100.json"
  # file names echoed in errors: exit 1 (unreadable), the name escaped
  expect_named "validate missing file" "$w" 1 "$R" validate "$T/missing$ch.json"
  expect_named "import missing file" "$w" 1 "$R" import ert "$T/missing$ch.json"
done
check_named
# units: the no-break space is refused and called what it is, in words
"$R" units $'2039\u00a0GB/s' >/dev/null 2>"$T/err"
grep -q 'character 5 is U+00A0 NO-BREAK SPACE, which looks like a space but is not one' "$T/err" && ok || bad "units NBSP: $(cat "$T/err")"

# quiz --answer: a newline, ESC/OSC and RLO in an unreadable answer -> ONE stderr line, escaped,
# exit 2; with --json stdout is JSON carrying no raw control or direction character
Q=$'mem\nory\x1b]0;title\x07\x1b[31m\u202e'
for json in "" --json; do
  "$R" quiz --seed 1 $json --answer "$Q" >"$T/out" 2>"$T/err"; rc=$?
  [ $rc = 2 ] && [ "$(wc -l <"$T/err")" = 1 ] && visible_line "$T/err" && ok || bad "quiz $json unreadable answer: rc $rc $(cat -v "$T/err")"
  grep -qF 'mem\nory\x1b]0;title\x07\x1b[31m<U+202E RIGHT-TO-LEFT OVERRIDE>' "$T/err" && ok || bad "quiz $json answer escaping: $(cat -v "$T/err")"
done
"$R" quiz --seed 1 --json --answer "$Q" >"$T/out" 2>/dev/null
json_ok "$T/out" && ok || bad "quiz --json: not JSON"
python3 -c '
import sys
t = open(sys.argv[1], "rb").read().decode("utf-8")
assert not any(ord(c) < 0x20 and c != "\n" or c == "\x7f" or c in "\u202e\u200e\u00a0" for c in t), repr(t)' "$T/out" && ok || bad "quiz --json carries raw control/direction characters"
# a 100,000-character answer is called by its real length
"$R" quiz --seed 2 --kind flops --answer "$(printf '1%.0s' $(seq 100000))" >/dev/null 2>"$T/err"
grep -q '100000 characters' "$T/err" && ok || bad "long answer length: $(head -c 200 "$T/err")"

# bench --out: a name whose temporary name is too long, a folder that cannot be written, a
# pseudo-file system: refused up front (exit 2 at once), never after the benchmark
for out in "$T/$(printf 'a%.0s' $(seq 248)).json" /proc/rooflab-test.json "$T/ro/r.json"; do
  mkdir -p "$T/ro" && chmod 555 "$T/ro"
  # (root writes into a 555 folder: that case is left out when run as root)
  if [ "$out" = "$T/ro/r.json" ] && [ "$(id -u)" = 0 ]; then continue; fi
  start=$(date +%s)
  "$R" bench --backend cpu --quick --out "$out" >/dev/null 2>"$T/err"; rc=$?
  [ $rc = 2 ] && [ $(( $(date +%s) - start )) -le 5 ] && grep -q 'out: cannot write' "$T/err" && ok || bad "bench --out $out: rc $rc $(cat "$T/err")"
done
chmod 755 "$T/ro" 2>/dev/null
# the up-front check leaves nothing behind
"$R" import ncu-csv "$ROOT/data/examples/ncu-raw-flash-fwd-h100.csv" --batch 4 --heads 16 --seq 4096 \
  --head-dim 128 --out "$T/left.json" >/dev/null 2>&1
[ -s "$T/left.json" ] && [ -z "$(ls "$T" | grep 'left.json.tmp')" ] && ok || bad "import --out left a temporary file: $(ls "$T")"

echo "test_hostile_cli: $pass passed, $fail failed"
[ "$fail" = 0 ]
