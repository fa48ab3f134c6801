#!/usr/bin/env bash
# Installs what building, serving and testing rate-limit-lab need, skipping whatever is
# already there. Safe to run again and again. Needs Rust (rustup), Node/npm, and, with
# --browser, Debian's apt for chromium.
#
#   scripts/setup.sh            toolchain for building and serving
#   scripts/setup.sh --browser  ... plus chromium and chromedriver for the browser tests
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '\033[1m==> %s\033[0m\n' "$*"; }

# The wasm32 target.
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

# trunk 0.21 (0.22 needs a newer rustc than this toolchain).
if ! trunk --version 2>/dev/null | grep -q '^trunk 0\.21\.'; then
  say "installing trunk 0.21 (about 16 minutes the first time)"
  cargo install trunk --version '~0.21' --locked
fi

# wasm-bindgen-cli at exactly Cargo.lock's wasm-bindgen version, or trunk tries to
# download one and fails. Not --locked: the registry here lacks one of its locked deps.
wbg_version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
if [ -z "$wbg_version" ]; then
  echo "could not read the wasm-bindgen version from Cargo.lock" >&2
  exit 1
fi
if ! wasm-bindgen --version 2>/dev/null | grep -q " $wbg_version\$"; then
  say "installing wasm-bindgen-cli $wbg_version (about 6 minutes)"
  cargo install wasm-bindgen-cli --version "$wbg_version"
fi

# Node tools: a wasm-opt that works (binaryen 132; Debian's 108 corrupts the output),
# playwright-core to drive the system chromium, axe-core, lightningcss, terser and
# html-minifier-terser for the release build's stylesheets, scripts and pages
# (scripts/minify-assets.mjs, scripts/short-names.mjs),
# acorn to read its JS glue (scripts/unused-classes.mjs), and zopfli for its precompressed
# files. `npm ci` is quick when nothing changed.
if [ ! -x node_modules/.bin/wasm-opt ] || [ ! -d node_modules/playwright-core ] || [ ! -d node_modules/axe-core ] \
  || [ ! -d node_modules/terser ] || [ ! -d node_modules/@gfx/zopfli ] || [ ! -d node_modules/lightningcss ] || [ ! -d node_modules/acorn ] || [ ! -d node_modules/html-minifier-terser ] \
  || [ ! -d node_modules/esbuild ] || [ ! -d node_modules/@codemirror/view ] || [ ! -d node_modules/@codemirror/lang-javascript ] || [ ! -d node_modules/@codemirror/lint ] || [ ! -d node_modules/@lezer/highlight ] \
  || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "installing node tools (binaryen, playwright-core, axe-core, acorn, lightningcss, terser, html-minifier-terser, zopfli)"
  npm ci --no-audit --no-fund
fi

# Debian's redis-server: the node tests of `ratelab serve --store redis://…` start their
# own on a free port, and scripts/fleet.sh starts one for a classroom's fleet.
if ! command -v redis-server >/dev/null; then
  say "installing Debian's redis-server"
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y redis-server
fi

if [ "${1:-}" = "--browser" ]; then
  if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    say "installing Debian's chromium and chromium-driver"
    sudo_cmd=""
    [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
    $sudo_cmd apt-get update
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y chromium chromium-driver
  fi
fi
