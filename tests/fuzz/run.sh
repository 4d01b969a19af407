#!/usr/bin/env bash
# Build and run a libFuzzer target (clang -fsanitize=fuzzer,address,undefined): the record reader
# (fuzz_record.c, the default) or one importer (fuzz_import.c built once per format).
#   tests/fuzz/run.sh [--target record|ncu|gbench|ert|torch|nsys|triton] [--seconds N] [--out DIR] [--merge]
# --target: record (corpus tests/fuzz/corpus), ncu, gbench, ert, torch, nsys or triton (corpus
#           tests/fuzz/corpus-NAME, seeded from data/examples or tests/record/imports).
# --seconds: how long to fuzz (default 20: the short run inside `make test`; run it for minutes by
#            hand). The run starts from tests/fuzz/corpus (committed) plus data/examples and
#            tests/record/cases, and grows DIR/corpus. --merge minimises DIR/corpus back into
#            tests/fuzz/corpus (to commit). Exit status non-zero on any finding (crash, leak, UB,
#            timeout); the reproducer is left in DIR.
# cJSON is Debian's shared library (not instrumented); rooflab's reader is.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SECONDS_TO_RUN=20 OUT=$ROOT/build/fuzz MERGE=0 TARGET=record
while [ $# -gt 0 ]; do
  case $1 in
    --seconds) SECONDS_TO_RUN=$2; shift 2;;
    --out) OUT=$2; shift 2;;
    --merge) MERGE=1; shift;;
    --target) TARGET=$2; shift 2;;
    *) echo "run.sh: unknown argument $1" >&2; exit 2;;
  esac
done
CC=$(command -v clang || command -v clang-14 || true)
if [ -z "$CC" ]; then echo "FAIL: clang is needed for the libFuzzer target (scripts/setup.sh installs it)" >&2; exit 1; fi
case $TARGET in
  record) SRC=fuzz_record.c DEF= CORPUS=$ROOT/tests/fuzz/corpus;;
  ncu) SRC=fuzz_import.c DEF=-DRL_FUZZ_FORMAT=RL_IMPORT_NCU_CSV CORPUS=$ROOT/tests/fuzz/corpus-ncu;;
  gbench) SRC=fuzz_import.c DEF=-DRL_FUZZ_FORMAT=RL_IMPORT_GBENCH CORPUS=$ROOT/tests/fuzz/corpus-gbench;;
  ert) SRC=fuzz_import.c DEF=-DRL_FUZZ_FORMAT=RL_IMPORT_ERT CORPUS=$ROOT/tests/fuzz/corpus-ert;;
  torch) SRC=fuzz_import.c DEF=-DRL_FUZZ_FORMAT=RL_IMPORT_TORCH_TRACE CORPUS=$ROOT/tests/fuzz/corpus-torch;;
  nsys) SRC=fuzz_import.c DEF=-DRL_FUZZ_FORMAT=RL_IMPORT_NSYS_CSV CORPUS=$ROOT/tests/fuzz/corpus-nsys;;
  triton) SRC=fuzz_import.c DEF=-DRL_FUZZ_FORMAT=RL_IMPORT_TRITON_CSV CORPUS=$ROOT/tests/fuzz/corpus-triton;;
  *) echo "run.sh: unknown target $TARGET; expected record, ncu, gbench, ert, torch, nsys or triton" >&2; exit 2;;
esac
BIN=fuzz_$TARGET
mkdir -p "$OUT/corpus" "$OUT/seeds" "$CORPUS"
"$CC" -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined $DEF \
  -I"$ROOT/core/include" "$ROOT"/core/src/*.c "$ROOT"/core/src/record/*.c "$ROOT/tests/fuzz/$SRC" -lcjson -lm \
  -o "$OUT/$BIN"
case $TARGET in
  record)
    cp "$ROOT"/data/examples/*.json "$ROOT"/tests/record/cases/*/*.json "$OUT/seeds/" 2>/dev/null || true
    # importer seeds: the format byte (1 ert, 2 ncu-csv, 3 gbench) followed by the sample
    printf '\001' | cat - "$ROOT/data/examples/ert-roofline-v100.json" > "$OUT/seeds/import-ert"
    printf '\002' | cat - "$ROOT/data/examples/ncu-raw-flash-fwd-h100.csv" > "$OUT/seeds/import-ncu"
    printf '\003' | cat - "$ROOT/data/examples/gbench-flash-attn-h100.json" > "$OUT/seeds/import-gbench";;
  ncu) cp "$ROOT"/data/examples/ncu-*.csv "$OUT/seeds/";;
  gbench) cp "$ROOT"/data/examples/gbench-*.json "$OUT/seeds/"; { grep -l '"benchmarks"' "$ROOT"/tests/record/cases/*/*.json 2>/dev/null || true; } | xargs -r cp -t "$OUT/seeds/";;
  ert) cp "$ROOT"/data/examples/ert-*.json "$OUT/seeds/";;
  torch) cp "$ROOT"/tests/record/imports/torch-*.json "$OUT/seeds/";;
  nsys) cp "$ROOT"/tests/record/imports/nsys-*.csv "$OUT/seeds/";;
  triton) cp "$ROOT"/tests/record/imports/triton-* "$OUT/seeds/";;
esac
cd "$OUT"
rm -f crash-* leak-* timeout-* oom-* slow-unit-*
set +e
ASAN_OPTIONS=detect_leaks=1 ./$BIN -max_total_time="$SECONDS_TO_RUN" -timeout=10 \
  -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
  corpus "$CORPUS" seeds > fuzz.log 2>&1
status=$?
set -e
grep -E "^(#[0-9]+ +(INITED|DONE)|stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)|==[0-9]+==ERROR|SUMMARY)" fuzz.log || true
if [ "$MERGE" = 1 ]; then
  # the committed corpus keeps inputs under 4 KiB
  mkdir -p "$OUT/small"
  find corpus seeds "$CORPUS" -type f -size -4k -exec cp -t "$OUT/small" {} + 2>/dev/null || true
  mkdir -p "$OUT/merged"
  ./$BIN -merge=1 -max_len=4095 "$OUT/merged" "$OUT/small" >/dev/null 2>&1
  rm -rf "$CORPUS" && mkdir -p "$CORPUS" && cp "$OUT"/merged/* "$CORPUS/" 2>/dev/null || true
  find "$CORPUS" -type f -size +4095c -delete
fi
if [ "$status" != 0 ]; then echo "$BIN: FINDING (see $OUT/fuzz.log and the crash-* file there)" >&2; exit 1; fi
echo "$BIN: no finding in ${SECONDS_TO_RUN} s"
