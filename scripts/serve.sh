#!/usr/bin/env bash
# Serves build/web on 127.0.0.1:$PORT (default 8000) and prints the URL: scripts/serve.mjs (node),
# which sends the security headers of scripts/security-headers.json, the right MIME types and the
# gzip copies scripts/build-web.sh made, and logs errors only.
set -euo pipefail
exec node "$(dirname "$0")/serve.mjs" --port "${PORT:-8000}"
