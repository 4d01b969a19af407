#!/usr/bin/env bash
# gpu-check.sh — on a machine with an NVIDIA GPU: build, check correctness, measure ceilings and
# time the fixed CUDA grid (plus PyTorch SDPA on the same problems where torch is installed), in
# one go (about 3–5 minutes on an H200; the budget is 8). Writes under OUTDIR (default $OUT, else
# ./gpu-check-out):
#   cuda-bench.json   the record (rooflab bench --backend cuda), validated
#   table.txt         the short table rooflab bench prints
#   sdpa.json         PyTorch's series (when torch sees the GPU)
#   python-sdpa.json  the Python recorder's record (python -m rooflab_record: torch SDPA flash,
#                     CUDA events), validated; python-record.log, python-install.log
#   grid.jsonl, bench.log, nvidia-smi.txt, build.log
# Usage: native-bench/gpu-check.sh [OUTDIR]
#
# cJSON: the record code needs it. Where Debian's libcjson-dev is absent (the GPU image has no
# package registry), the script compiles cJSON from source found in CJSON_SRC, or in
# build/gpu-deps/cjson, or a WASM build's _deps/cjson. Prepare it on a machine with network with
#   scripts/fetch-cjson.sh build/gpu-deps/cjson
# and carry build/gpu-deps along with the working tree.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
OUTDIR=${1:-${OUT:-$ROOT/gpu-check-out}}
BUILD=${BUILD_DIR:-$ROOT/build/gpu-check}
mkdir -p "$OUTDIR" "$BUILD"
T0=$(date +%s)
say() { echo "gpu-check [$(( $(date +%s) - T0 ))s]: $*" >&2; }

command -v nvidia-smi >/dev/null && nvidia-smi >"$OUTDIR/nvidia-smi.txt" 2>&1 || true
NVCC=${CUDACXX:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
[ -x "$NVCC" ] || { echo "gpu-check: nvcc not found (set CUDACXX)" >&2; exit 1; }
# Build for this GPU's architecture only (fast); the default build covers sm_80, 86 and 90.
ARCH=${ROOFLAB_CUDA_ARCH:-$( (nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null || true) | head -1 | tr -d '. ')}
ARCH=${ARCH:-90}

EXTRA=()
if [ -n "${CJSON_SRC:-}" ] || { [ ! -f /usr/include/cjson/cJSON.h ] && [ ! -f /usr/local/include/cjson/cJSON.h ]; }; then
  SRC=${CJSON_SRC:-}
  for c in "$ROOT/build/gpu-deps/cjson" "$ROOT"/build/*/_deps/cjson; do
    [ -n "$SRC" ] && break
    [ -f "$c/cJSON.c" ] && SRC=$c
  done
  [ -n "$SRC" ] || { echo "gpu-check: no cJSON (install libcjson-dev, or run scripts/fetch-cjson.sh build/gpu-deps/cjson on a machine with network and carry build/gpu-deps)" >&2; exit 1; }
  PFX=$BUILD/cjson-prefix
  mkdir -p "$PFX/include/cjson" "$PFX/lib/cmake/cJSON"
  cp "$SRC"/cjson/cJSON.h "$PFX/include/cjson/" 2>/dev/null || cp "$SRC"/cJSON.h "$PFX/include/cjson/"
  cc -O2 -fPIC -c "$SRC/cJSON.c" -I"$PFX/include/cjson" -o "$PFX/cJSON.o"
  ar rcs "$PFX/lib/libcjson.a" "$PFX/cJSON.o"
  cat >"$PFX/lib/cmake/cJSON/cJSONConfig.cmake" <<CFG
if(NOT TARGET cjson)
  add_library(cjson STATIC IMPORTED)
  set_target_properties(cjson PROPERTIES IMPORTED_LOCATION "$PFX/lib/libcjson.a"
    INTERFACE_INCLUDE_DIRECTORIES "$PFX/include")
endif()
CFG
  EXTRA+=(-DcJSON_DIR="$PFX/lib/cmake/cJSON")
  say "cJSON compiled from $SRC"
fi
GEN=()
command -v ninja >/dev/null && GEN=(-G Ninja)

say "configure + build (sm_$ARCH)"
cmake -S "$ROOT" -B "$BUILD" "${GEN[@]}" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_COMPILER="$NVCC" \
  -DCMAKE_CUDA_ARCHITECTURES="$ARCH" "${EXTRA[@]}" >"$OUTDIR/build.log" 2>&1 ||
  { tail -30 "$OUTDIR/build.log" >&2; exit 1; }
cmake --build "$BUILD" -j "$(nproc)" --target rooflab rooflab_cuda test_cpu_kernels >>"$OUTDIR/build.log" 2>&1 ||
  { tail -30 "$OUTDIR/build.log" >&2; exit 1; }
ROOFLAB=$BUILD/cli/rooflab
[ -f "$BUILD/cli/librooflab_cuda.so" ] || { echo "gpu-check: the CUDA backend was not built (see build.log)" >&2; exit 1; }
"$BUILD/tests/bench/test_cpu_kernels" >&2

"$ROOFLAB" bench --backend cuda --list-grid >"$OUTDIR/grid.jsonl"
SERIES=()
if python3 -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' 2>/dev/null; then
  say "PyTorch SDPA (flash) on the same problems"
  if ROOFLAB="$ROOFLAB" python3 "$ROOT/native-bench/sdpa_reference.py" "$OUTDIR/grid.jsonl" >"$OUTDIR/sdpa.json" 2>"$OUTDIR/sdpa.log"; then
    SERIES=(--series "$OUTDIR/sdpa.json")
  else
    say "SDPA timing failed (see sdpa.log); the record goes without it"
  fi
else
  say "no PyTorch with CUDA here: no SDPA series"
fi

say "rooflab bench --backend cuda"
set +e
"$ROOFLAB" bench --backend cuda --out "$OUTDIR/cuda-bench.json" "${SERIES[@]}" \
  >"$OUTDIR/table.txt" 2> >(tee "$OUTDIR/bench.log" >&2)
RC=$?
set -e
if [ -f "$OUTDIR/cuda-bench.json" ]; then
  "$ROOFLAB" validate "$OUTDIR/cuda-bench.json" >&2 || RC=1
fi

# The Python recorder (README "From Python") on the GPU: pip install ./python into a venv that
# sees the system's torch (offline: no index is asked), else from the source tree; then torch SDPA
# (flash) timed with CUDA events into a record. A failure here fails the check.
if [ ${#SERIES[@]} -gt 0 ] || python3 -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' 2>/dev/null; then
  PYREC=(env PYTHONPATH="$ROOT/python" python3)
  if python3 -m venv --system-site-packages "$BUILD/pyvenv" >"$OUTDIR/python-install.log" 2>&1 &&
     PIP_NO_INDEX=1 PIP_DISABLE_PIP_VERSION_CHECK=1 "$BUILD/pyvenv/bin/pip" install "$ROOT/python" >>"$OUTDIR/python-install.log" 2>&1 &&
     "$BUILD/pyvenv/bin/python" -c 'import torch' 2>>"$OUTDIR/python-install.log"; then
    PYREC=("$BUILD/pyvenv/bin/python")
    say "Python recorder: pip install ./python into a venv: done"
  else
    say "Python recorder: no venv install (see python-install.log); run from the source tree"
  fi
  say "Python recorder: torch SDPA (flash), bf16 B=4 H=16 N=4096 d=128 causal, CUDA events"
  if ROOFLAB=$ROOFLAB "${PYREC[@]}" -m rooflab_record --device cuda --impl sdpa --sdpa-backend flash \
       --batch 4 --heads 16 --seq 4096 --head-dim 128 --dtype bf16 --causal --profile fa2 \
       --out "$OUTDIR/python-sdpa.json" 2>"$OUTDIR/python-record.log"; then
    cat "$OUTDIR/python-record.log" >&2
    "$ROOFLAB" validate "$OUTDIR/python-sdpa.json" >&2 || RC=1
    grep -q '"CUDA events' "$OUTDIR/python-sdpa.json" || { say "python-sdpa.json does not say CUDA events"; RC=1; }
  else
    say "Python recorder failed:"; tail -5 "$OUTDIR/python-record.log" >&2; RC=1
  fi
else
  say "no PyTorch with CUDA here: no Python recorder run"
fi
cat "$OUTDIR/table.txt"
say "done (exit $RC)"
exit $RC
