#!/usr/bin/env bash
# Serves build/web on 127.0.0.1:$PORT (default 8000) and prints the URL. Python's http.server
# sends .wasm as application/wasm and .mjs as text/javascript.
set -euo pipefail
cd "$(dirname "$0")/../build/web"
PORT=${PORT:-8000}
echo "rooflab: serving the page at http://127.0.0.1:${PORT}/  (Ctrl-C stops)"
exec python3 -m http.server "$PORT" --bind 127.0.0.1
