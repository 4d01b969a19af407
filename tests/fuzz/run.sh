#!/usr/bin/env bash
# Build and run the libFuzzer target for the record reader (clang -fsanitize=fuzzer,address,undefined).
#   tests/fuzz/run.sh [--seconds N] [--out DIR] [--merge]
# --seconds: how long to fuzz (default 20: the short run inside `make test`; run it for minutes by
#            hand). The run starts from tests/fuzz/corpus (committed) plus data/examples and
#            tests/record/cases, and grows DIR/corpus. --merge minimises DIR/corpus back into
#            tests/fuzz/corpus (to commit). Exit status non-zero on any finding (crash, leak, UB,
#            timeout); the reproducer is left in DIR.
# cJSON is Debian's shared library (not instrumented); rooflab's reader is.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SECONDS_TO_RUN=20 OUT=$ROOT/build/fuzz MERGE=0
while [ $# -gt 0 ]; do
  case $1 in
    --seconds) SECONDS_TO_RUN=$2; shift 2;;
    --out) OUT=$2; shift 2;;
    --merge) MERGE=1; shift;;
    *) echo "run.sh: unknown argument $1" >&2; exit 2;;
  esac
done
CC=$(command -v clang || command -v clang-14 || true)
if [ -z "$CC" ]; then echo "FAIL: clang is needed for the libFuzzer target (scripts/setup.sh installs it)" >&2; exit 1; fi
mkdir -p "$OUT/corpus" "$OUT/seeds"
"$CC" -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
  -I"$ROOT/core/include" "$ROOT"/core/src/*.c "$ROOT"/core/src/record/*.c "$ROOT/tests/fuzz/fuzz_record.c" -lcjson -lm \
  -o "$OUT/fuzz_record"
cp "$ROOT"/data/examples/*.json "$ROOT"/tests/record/cases/*/*.json "$OUT/seeds/" 2>/dev/null || true
# importer seeds: the format byte (1 ert, 2 ncu-csv, 3 gbench) followed by the sample
printf '\001' | cat - "$ROOT/data/examples/ert-roofline-v100.json" > "$OUT/seeds/import-ert"
printf '\002' | cat - "$ROOT/data/examples/ncu-raw-flash-fwd-h100.csv" > "$OUT/seeds/import-ncu"
printf '\003' | cat - "$ROOT/data/examples/gbench-flash-attn-h100.json" > "$OUT/seeds/import-gbench"
cd "$OUT"
rm -f crash-* leak-* timeout-* oom-* slow-unit-*
set +e
ASAN_OPTIONS=detect_leaks=1 ./fuzz_record -max_total_time="$SECONDS_TO_RUN" -timeout=10 \
  -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
  corpus "$ROOT/tests/fuzz/corpus" seeds > fuzz.log 2>&1
status=$?
set -e
grep -E "^(#[0-9]+ +(INITED|DONE)|stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)|==[0-9]+==ERROR|SUMMARY)" fuzz.log || true
if [ "$MERGE" = 1 ]; then
  mkdir -p "$ROOT/tests/fuzz/corpus"
  ./fuzz_record -merge=1 "$ROOT/tests/fuzz/corpus" corpus seeds >/dev/null 2>&1
fi
if [ "$status" != 0 ]; then echo "fuzz_record: FINDING (see $OUT/fuzz.log and the crash-* file there)" >&2; exit 1; fi
echo "fuzz_record: no finding in ${SECONDS_TO_RUN} s"
