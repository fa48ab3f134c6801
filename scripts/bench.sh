#!/usr/bin/env bash
# The numbers docs/sizes-and-speeds.md reports, printed, not asserted: the
# core's speed (ratelab bench), the size of the browser build, and the browser's own
# figures in headless chromium (tests/browser/bench.mjs: the 200-seed sweep, the
# timeline's draw per frame). Run after scripts/setup.sh --browser; builds what it
# measures. BENCH_BROWSER=0 skips the browser's figures; BENCH_RUNS sets their runs (5).
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
if [ "${BENCH_BROWSER:-1}" != 0 ]; then
  echo
  node tests/browser/bench.mjs "${BENCH_RUNS:-5}"
fi
