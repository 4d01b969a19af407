#!/usr/bin/env bash
# Assembles the served page in build/web from web/ (sources), build/wasm (the WASM module) and
# node_modules (Chart.js and plugins, pinned in package-lock.json), each text file with its gzip
# copy. Nothing here is committed.
set -euo pipefail
cd "$(dirname "$0")/.."
WASM_DIR=${WASM_DIR:-build/wasm/wasm}
OUT=${WEB_OUT:-build/web}
for f in "$WASM_DIR/rooflab.mjs" "$WASM_DIR/rooflab.wasm"; do
  [ -f "$f" ] || { echo "build-web: $f is missing; run 'make wasm' first" >&2; exit 1; }
done
rm -rf "$OUT.tmp"
mkdir -p "$OUT.tmp/wasm" "$OUT.tmp/vendor"
cp -R web/. "$OUT.tmp/"
cp "$WASM_DIR/rooflab.mjs" "$WASM_DIR/rooflab.wasm" "$OUT.tmp/wasm/"
cp node_modules/chart.js/dist/chart.umd.min.js \
   node_modules/hammerjs/hammer.min.js \
   node_modules/chartjs-plugin-annotation/dist/chartjs-plugin-annotation.min.js \
   node_modules/chartjs-plugin-zoom/dist/chartjs-plugin-zoom.min.js \
   "$OUT.tmp/vendor/"
# Example records for the page's menu (records only; see scripts/examples-index.py): the examples,
# then the published measurements, each point with its kernel profile's prediction.
python3 scripts/examples-index.py data/examples "$OUT.tmp/examples" data/published
# Comments out of the page's own JavaScript (line numbers kept) and preloads for what the first
# number needs into index.html (scripts/finish-web.mjs).
node scripts/finish-web.mjs "$OUT.tmp"
# A gzip -9 copy beside every text and WASM file (FILE.gz; -n: no name or time stamp in it, so the
# same input gives the same bytes): scripts/serve.mjs sends it when the request accepts gzip.
find "$OUT.tmp" -type f \( -name '*.html' -o -name '*.js' -o -name '*.mjs' -o -name '*.css' -o -name '*.wasm' \
  -o -name '*.json' -o -name '*.svg' \) -exec gzip -9 -k -n -f {} +
# And a brotli copy (FILE.br; scripts/brotli-web.mjs), sent when the request names br (issue 20:
# the page's transfer, docs/PERFORMANCE.md).
find "$OUT.tmp" -type f \( -name '*.html' -o -name '*.js' -o -name '*.mjs' -o -name '*.css' -o -name '*.wasm' \
  -o -name '*.json' -o -name '*.svg' \) -exec node scripts/brotli-web.mjs {} +
rm -rf "$OUT"
mv "$OUT.tmp" "$OUT"
