#!/usr/bin/env bash
# Installs what is missing, then serves the app at http://127.0.0.1:8080 (release build).
# Extra arguments go to trunk, e.g. scripts/serve.sh --port 9000
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# npm's binaryen first on PATH, ahead of Debian's broken wasm-opt.
export PATH="$PWD/node_modules/.bin:$PATH"
exec trunk serve --release "$@"
