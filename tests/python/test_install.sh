#!/usr/bin/env bash
# `pip install ./python` as docs/GUIDE.md says, offline (PIP_NO_INDEX: no package index is asked,
# as on a machine without network): into a fresh venv that sees Debian's torch
# (--system-site-packages); then the installed command and console script write a record that
# `rooflab validate` accepts. PY: the interpreter (Debian's /usr/bin/python3 with python3-torch).
set -u
PY=${PY:-/usr/bin/python3}
R=${ROOFLAB:?set ROOFLAB to the rooflab binary}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }

"$PY" -m venv --system-site-packages "$T/venv" || { echo "FAIL: $PY -m venv (Debian: python3-venv)" >&2; exit 1; }
# exactly docs/GUIDE.md's command, from the repository root, with no index reachable
(cd "$SRC" && PIP_NO_INDEX=1 PIP_DISABLE_PIP_VERSION_CHECK=1 "$T/venv/bin/pip" install ./python) >"$T/pip.log" 2>&1 \
  && ok || bad "pip install ./python offline: $(tail -5 "$T/pip.log")"
grep -q "Successfully installed rooflab-record-" "$T/pip.log" && ok || bad "pip did not install rooflab-record"
# pip builds in the tree: it must leave nothing there (no build/, *.egg-info, dist/)
left=$(git -C "$SRC" status --porcelain --ignored python 2>/dev/null | grep -E '^(\?\?|!!)' | grep -v __pycache__)
[ -z "$left" ] && ok || bad "pip install left files in python/: $left"

# the installed package, not the source tree
cd "$T"
where=$("$T/venv/bin/python" -c 'import rooflab_record; print(rooflab_record.__file__)')
case $where in "$T/venv/"*) ok ;; *) bad "rooflab_record imported from $where, not the venv" ;; esac
"$T/venv/bin/python" -m rooflab_record --help >"$T/help.txt" && grep -q -- "--impl {sdpa,eager}" "$T/help.txt" \
  && ok || bad "python -m rooflab_record --help"
"$T/venv/bin/rooflab-record" --help >/dev/null && ok || bad "console script rooflab-record --help"

# a CPU attention call into a record: 4·B·H·N·L·d = 4·1·2·128·128·64 = 8,388,608 FLOP
ROOFLAB=$R "$T/venv/bin/python" -m rooflab_record --device cpu --impl eager --heads 2 --seq 128 \
  --head-dim 64 --dtype fp32 --runs 5 --out "$T/r.json" 2>"$T/run.log" && ok || bad "python -m rooflab_record: $(cat "$T/run.log")"
"$R" validate "$T/r.json" >"$T/v.txt" 2>&1 && grep -q "valid record: 1 point, measured" "$T/v.txt" && ok || bad "validate: $(cat "$T/v.txt")"
"$PY" -c "import json,sys; p=json.load(open(sys.argv[1]))['points'][0]; sys.exit(0 if p['flops'] == 8388608 else 1)" "$T/r.json" \
  && ok || bad "flops != 8388608"
# the binary found on PATH when ROOFLAB is not set
env -u ROOFLAB PATH="$(dirname "$R"):$PATH" "$T/venv/bin/rooflab-record" --device cpu --impl eager --heads 1 \
  --seq 16 --head-dim 16 --dtype fp32 --runs 2 --out "$T/r2.json" 2>"$T/run2.log" && ok || bad "rooflab on PATH: $(cat "$T/run2.log")"

echo "test_install: $pass passed, $fail failed"
[ "$fail" = 0 ]
