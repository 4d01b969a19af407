#!/usr/bin/env bash
# Serves build/web on 127.0.0.1:$PORT (default 8000) and prints the URL: scripts/serve.py, which
# sends the security headers of scripts/security-headers.json and the right MIME types.
set -euo pipefail
exec python3 "$(dirname "$0")/serve.py" --port "${PORT:-8000}"
