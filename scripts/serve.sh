#!/usr/bin/env bash
# Installs what is missing, then serves the app (release build).
#
#   scripts/serve.sh                 http://127.0.0.1:8080, rebuilt on every change (trunk serve)
#   scripts/serve.sh --lan           the same, reachable from the local network: for a class
#                                    whose laptops open the teacher's address; prints it
#   scripts/serve.sh --lan --gzip    builds once, then one process serves dist/ compressed (as a
#                                    static host would: a quarter of the bytes per laptop) and
#                                    the provider and limiters the page's footer points at, on
#                                    port 55541: `ratelab serve --dist dist` (README, "In a classroom")
#
# Other arguments go to trunk, or with --gzip to `ratelab serve` (e.g. --port 9000).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# npm's binaryen first on PATH, ahead of Debian's broken wasm-opt.
export PATH="$PWD/node_modules/.bin:$PATH"

lan=0
gzip=0
rest=()
for a in "$@"; do
  case "$a" in
    --lan) lan=1 ;;
    --gzip) gzip=1 ;;
    *) rest+=("$a") ;;
  esac
done

if [ "$gzip" = 1 ]; then
  trunk build --release
  cargo build --release --bin ratelab
  host=127.0.0.1
  [ "$lan" = 1 ] && host=0.0.0.0
  exec target/release/ratelab serve --dist dist --host "$host" "${rest[@]}"
fi

if [ "$lan" = 1 ]; then
  echo "Students open one of these (this machine's addresses on the local network):"
  for ip in $(hostname -I 2>/dev/null); do
    case "$ip" in *:*) ;; *) echo "  http://$ip:8080/" ;; esac
  done
  exec trunk serve --release --address 0.0.0.0 "${rest[@]}"
fi
exec trunk serve --release "${rest[@]}"
