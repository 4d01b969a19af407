#!/usr/bin/env bash
# Installs what rooflab needs on a Debian 12 machine, and only what is missing.
# Called by `make run` and `make test`; safe to run again (it does nothing when all is there).
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian packages: compiler and build, cJSON (native record reader), Emscripten (the page's WASM),
# Chromium (browser tests), Node.js + npm (the page's server, tests, Chart.js from npm), node-acorn
# (emcc's JavaScript parser; scripts/finish-web.mjs strips comments with it), python3 (scripts),
# clang + libclang-rt-14-dev (libFuzzer target of the record reader), fonts-liberation (text in
# headless Chromium screenshots: only a Recommends of chromium, and installs skip Recommends),
# zlib1g-dev (the CLI inflates .json.gz traces), python3-torch + python3-venv (the Python
# recorder's tests: torch on the CPU, pip install ./python into a venv).
APT_PACKAGES=(build-essential cmake ninja-build pkg-config libcjson-dev zlib1g-dev emscripten node-acorn chromium python3 dpkg-dev clang libclang-rt-14-dev fonts-liberation python3-torch python3-venv)

missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)

if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  SUDO=""
  [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# npm packages, exactly as pinned in package-lock.json (Chart.js and plugins, playwright-core).
if [ -f package-lock.json ]; then
  if [ ! -f node_modules/.package-lock.json ] || ! cmp -s package-lock.json node_modules/.rooflab-lock; then
    echo "setup: npm ci" >&2
    npm ci --no-audit --no-fund --loglevel=error
    cp package-lock.json node_modules/.rooflab-lock
  fi
fi
