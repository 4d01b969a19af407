#!/usr/bin/env bash
# Fetch cJSON's source for the WebAssembly build (the native build uses Debian's libcjson-dev).
# Nothing third-party is committed: this runs at configure time (cmake/cjson.cmake) and leaves
#   DEST/cJSON.c  DEST/cjson/cJSON.h  DEST/ORIGIN   (where the source came from)
# 1. Debian's patched source (`apt-get source cjson`) through a private copy of this machine's own
#    apt sources with `deb` turned into `deb-src`, so /etc/apt is never touched and no mirror is
#    named here (needs dpkg-dev for dpkg-source);
# 2. else the pinned upstream tarball from the pool of the same configured mirror, checked against
#    its SHA256.
# Usage: scripts/fetch-cjson.sh DEST
set -euo pipefail
DEST=${1:?usage: fetch-cjson.sh DEST}
CJSON_VERSION=1.7.15
CJSON_SHA256=5308fd4bd90cef7aa060558514de6a1a4a0819974a26e6ed13973c5f624c24b2
POOL_PATH="pool/main/c/cjson/cjson_${CJSON_VERSION}.orig.tar.gz"

if [ -f "$DEST/cJSON.c" ] && [ -f "$DEST/cjson/cJSON.h" ]; then exit 0; fi
mkdir -p "$DEST"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/rooflab-cjson.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

install_from() { # $1: a directory holding cJSON.c and cJSON.h; $2: origin text
  mkdir -p "$DEST/cjson"
  cp "$1/cJSON.c" "$DEST/cJSON.c"
  cp "$1/cJSON.h" "$DEST/cjson/cJSON.h"
  printf '%s\n' "$2" > "$DEST/ORIGIN"
  echo "fetch-cjson: $2" >&2
}

try_apt_source() {
  command -v apt-get >/dev/null 2>&1 || return 1
  command -v dpkg-source >/dev/null 2>&1 || return 1
  mkdir -p "$WORK/apt/lists/partial" "$WORK/apt/cache/archives/partial" "$WORK/src"
  # The machine's configured sources (one-line and deb822 forms), binary entries made source ones.
  mkdir -p "$WORK/apt/sources.list.d"
  if [ -f /etc/apt/sources.list ]; then
    sed -n 's/^[[:space:]]*deb[[:space:]]/deb-src /p' /etc/apt/sources.list > "$WORK/apt/sources.list"
  else
    : > "$WORK/apt/sources.list"
  fi
  local f
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    sed 's/^Types:.*/Types: deb-src/' "$f" > "$WORK/apt/sources.list.d/$(basename "$f")"
  done
  for f in /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    sed -n 's/^[[:space:]]*deb[[:space:]]/deb-src /p' "$f" > "$WORK/apt/sources.list.d/$(basename "$f")"
  done
  local opts=(-o "Dir::Etc::sourcelist=$WORK/apt/sources.list"
              -o "Dir::Etc::sourceparts=$WORK/apt/sources.list.d"
              -o "Dir::State::Lists=$WORK/apt/lists" -o "Dir::Cache=$WORK/apt/cache"
              -o Debug::NoLocking=1 -o APT::Sandbox::User=root -qq)
  apt-get "${opts[@]}" update >/dev/null 2>&1 || return 1
  (cd "$WORK/src" && apt-get "${opts[@]}" source "cjson=${CJSON_VERSION}*" >/dev/null 2>&1) || \
    (cd "$WORK/src" && apt-get "${opts[@]}" source cjson >/dev/null 2>&1) || return 1
  local dir
  dir=$(find "$WORK/src" -maxdepth 1 -mindepth 1 -type d -name 'cjson-*' | head -n1)
  [ -n "$dir" ] && [ -f "$dir/cJSON.c" ] || return 1
  local ver
  ver=$(ls "$WORK/src" | sed -n 's/^cjson_\(.*\)\.dsc$/\1/p' | head -n1)
  install_from "$dir" "Debian source package cjson ${ver:-?} (apt-get source; Debian's patches applied)"
}

download() { # $1 url, $2 file
  if command -v curl >/dev/null 2>&1; then curl -fsSL --retry 2 -o "$2" "$1"
  elif command -v wget >/dev/null 2>&1; then wget -q -O "$2" "$1"
  else python3 -c 'import sys,urllib.request; urllib.request.urlretrieve(sys.argv[1], sys.argv[2])' "$1" "$2"
  fi
}

# The first archive URI this machine's apt is configured with (not the security archive).
mirror_uri() {
  { sed -n 's/^URIs:[[:space:]]*//p' /etc/apt/sources.list.d/*.sources 2>/dev/null | tr ' ' '\n'
    sed -n 's/^[[:space:]]*deb[[:space:]]\{1,\}\(\[[^]]*\][[:space:]]\{1,\}\)\{0,1\}\([^[:space:]]*\).*/\2/p' \
      /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null; } |
    grep -v -e '-security' -e '^$' | head -n1 | sed 's:/*$::'
}

try_pool_tarball() {
  local mirror
  mirror=$(mirror_uri)
  [ -n "$mirror" ] || return 1
  POOL_URL="$mirror/$POOL_PATH"
  download "$POOL_URL" "$WORK/cjson.tar.gz" || return 1
  echo "$CJSON_SHA256  $WORK/cjson.tar.gz" | sha256sum -c --status - || {
    echo "fetch-cjson: SHA256 mismatch for $POOL_URL" >&2; return 1; }
  tar -xzf "$WORK/cjson.tar.gz" -C "$WORK"
  install_from "$WORK/cJSON-${CJSON_VERSION}" \
    "upstream cJSON ${CJSON_VERSION} from Debian's pool (${POOL_URL}, SHA256 checked; without Debian's patches)"
}

try_apt_source || try_pool_tarball || {
  echo "fetch-cjson: could not obtain cJSON's source (apt-get source cjson from this machine's apt" \
       "sources, then $POOL_PATH from its mirror)" >&2
  exit 1
}
