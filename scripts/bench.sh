#!/usr/bin/env bash
# The numbers the README reports: the core's speed (ratelab bench) and the size of the
# browser build. Run after scripts/setup.sh; builds what it measures.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"
cargo build --release --bin ratelab
./target/release/ratelab bench "$@"
trunk build --release >/dev/null 2>&1
echo
echo "browser build (dist/)"
for f in dist/*.wasm dist/*.js dist/*.css; do
  printf '%-44s raw %8d B   gzip -9 %8d B\n' "$(basename "$f")" "$(stat -c %s "$f")" "$(gzip -9 -c "$f" | wc -c)"
done
