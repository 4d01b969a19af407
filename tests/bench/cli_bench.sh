#!/usr/bin/env bash
# cli_bench.sh ROOFLAB TMPDIR MODE — `rooflab bench` end to end.
#   quick   the CPU backend's --quick grid writes a record that `rooflab validate` accepts
#   cuda    --backend cuda: without a usable GPU exits 3 with one line saying why; with one, runs
#           and writes a valid record
#   flags   bad flags exit 2 with one line naming the flag; --list-grid prints the grid
set -u
ROOFLAB=$1
TMP=$2
MODE=$3
mkdir -p "$TMP"
fail() { echo "FAIL: $*" >&2; exit 1; }

case "$MODE" in
quick)
  out="$TMP/cpu-quick.json"
  rm -f "$out"
  "$ROOFLAB" bench --backend cpu --quick --out "$out" >"$TMP/quick.stdout" 2>"$TMP/quick.stderr"
  rc=$?
  [ $rc -eq 0 ] || { cat "$TMP/quick.stderr" >&2; fail "bench --backend cpu --quick exited $rc"; }
  [ -s "$out" ] || fail "no record written"
  grep -q '"kind":[[:space:]]*"measured"' "$out" || fail "record is not marked measured"
  grep -q '"cpu-naive"' "$out" && grep -q '"cpu-tiled"' "$out" || fail "record lacks a kernel"
  grep -q 'rooflab bench: \[1/' "$TMP/quick.stderr" || fail "no progress line on stderr"
  # device details and the error are fields, not notes: threads and argv on the CPU, no SMs/clocks
  grep -q '"threads":[[:space:]]*[1-9]' "$out" || fail "hardware.threads missing"
  grep -q '"argv":[[:space:]]*\[' "$out" || fail "software.argv missing"
  grep -q '"rel_l2_error":' "$out" || fail "points lack rel_l2_error"
  ! grep -q '"sm_count"\|"sm_clock_hz"\|"memory_clock_hz"' "$out" || fail "SM count or clocks on a CPU run"
  "$ROOFLAB" validate "$out" || fail "rooflab validate refused the record"
  ;;
cuda)
  out="$TMP/cuda.json"
  rm -f "$out"
  "$ROOFLAB" bench --backend cuda --quick --out "$out" >"$TMP/cuda.stdout" 2>"$TMP/cuda.stderr"
  rc=$?
  if [ $rc -eq 3 ]; then
    lines=$(wc -l <"$TMP/cuda.stderr")
    [ "$lines" -eq 1 ] || { cat "$TMP/cuda.stderr" >&2; fail "expected one line on stderr, got $lines"; }
    grep -q '^rooflab bench: backend cuda: ' "$TMP/cuda.stderr" || fail "the line does not say which backend"
    [ ! -e "$out" ] || fail "a record was written without a device"
    cat "$TMP/cuda.stderr"
  elif [ $rc -eq 0 ]; then
    "$ROOFLAB" validate "$out" || fail "the CUDA record does not validate"
  else
    cat "$TMP/cuda.stderr" >&2
    fail "bench --backend cuda exited $rc (expected 3 without a GPU, 0 with one)"
  fi
  ;;
flags)
  "$ROOFLAB" bench --backend tpu --out "$TMP/x.json" 2>"$TMP/e1"; rc=$?
  [ $rc -eq 2 ] || fail "--backend tpu exited $rc, expected 2"
  [ "$(wc -l <"$TMP/e1")" -eq 1 ] && grep -q 'backend: expected cpu or cuda' "$TMP/e1" || fail "bad --backend message: $(cat "$TMP/e1")"
  "$ROOFLAB" bench --backend cpu 2>"$TMP/e2"; rc=$?
  [ $rc -eq 2 ] && grep -q 'out: expected' "$TMP/e2" || fail "missing --out: rc $rc, $(cat "$TMP/e2")"
  "$ROOFLAB" bench --backend cpu --runs 0 --out "$TMP/x.json" 2>"$TMP/e3"; rc=$?
  [ $rc -eq 2 ] && grep -q 'runs' "$TMP/e3" || fail "--runs 0: rc $rc, $(cat "$TMP/e3")"
  "$ROOFLAB" bench --backend cpu --frobnicate 2>"$TMP/e4"; rc=$?
  [ $rc -eq 2 ] && grep -q 'frobnicate' "$TMP/e4" || fail "unknown flag: rc $rc"
  "$ROOFLAB" bench --backend cpu --only cpu-fast --out "$TMP/x.json" 2>"$TMP/e5"; rc=$?
  [ $rc -eq 2 ] && grep -q 'only: unknown kernel "cpu-fast"' "$TMP/e5" || fail "--only cpu-fast: rc $rc, $(cat "$TMP/e5")"
  n=$("$ROOFLAB" bench --backend cpu --quick --only cpu-tiled --list-grid | wc -l)
  [ "$n" -eq 5 ] || fail "--only cpu-tiled kept $n cases, expected 5"
  n=$("$ROOFLAB" bench --backend cuda --list-grid | grep -c '"kernel": "cuda-')
  [ "$n" -ge 20 ] || fail "cuda grid has $n cases"
  n=$("$ROOFLAB" bench --backend cpu --quick --list-grid | wc -l)
  [ "$n" -eq 9 ] || fail "cpu quick grid has $n cases, expected 9"
  ;;
*) fail "unknown mode $MODE" ;;
esac
echo "ok: $MODE"
