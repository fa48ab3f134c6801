#!/usr/bin/env bash
# A classroom's fleet: one Redis and N `ratelab serve` processes sharing their limiters'
# state in it, so the class can watch several servers hold one limit (docs/http.md,
# "Several servers, one limit: Redis"). The first instance listens on the port the page's
# footer points at (55541 unless --port says otherwise; 0 gives each a free port) and
# serves the app with --dist; the others take the ports after it. Ctrl-C stops them all
# and the Redis.
#
#   scripts/fleet.sh [--instances 3] [--port 55541] [--redis-port 6390] [--host 127.0.0.1]
#                    [--dist DIR] [--store-mode atomic|read-then-write] [-- more serve flags]
#
# RATELAB_BIN names the binary (default: the release build, built if missing).
set -euo pipefail
cd "$(dirname "$0")/.."

instances=3
port=55541
redis_port=6390
host=127.0.0.1
dist=""
mode=atomic
more=()
usage() { sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
die() { echo "scripts/fleet.sh: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --instances) instances=${2:-}; shift 2 || usage ;;
    --port) port=${2:-}; shift 2 || usage ;;
    --redis-port) redis_port=${2:-}; shift 2 || usage ;;
    --host) host=${2:-}; shift 2 || usage ;;
    --dist) dist=${2:-}; shift 2 || usage ;;
    --store-mode) mode=${2:-}; shift 2 || usage ;;
    --) shift; more=("$@"); break ;;
    -h|--help) usage ;;
    *) die "no option $1 (scripts/fleet.sh --help)" ;;
  esac
done
[[ "$instances" =~ ^[0-9]+$ ]] && [ "$instances" -ge 1 ] && [ "$instances" -le 16 ] \
  || die "--instances takes 1 to 16, not '$instances'"
[[ "$port" =~ ^[0-9]+$ ]] && [ $((port + instances - 1)) -le 65535 ] \
  || die "--port takes a port from 1 to $((65536 - instances)) for $instances instances (0: any free ones), not '$port'"
[[ "$redis_port" =~ ^[0-9]+$ ]] && [ "$redis_port" -ge 1 ] && [ "$redis_port" -le 65535 ] \
  || die "--redis-port takes a port from 1 to 65535, not '$redis_port'"
command -v redis-server >/dev/null || die "redis-server is missing: run scripts/setup.sh"

bin=${RATELAB_BIN:-}
if [ -z "$bin" ]; then
  bin="${CARGO_TARGET_DIR:-target}/release/ratelab"
  [ -x "$bin" ] || cargo build --release --bin ratelab >&2
fi

pids=()
stop() {
  trap - EXIT INT TERM
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap stop EXIT
trap 'exit 0' INT TERM

logs=$(mktemp -d)
redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no >"$logs/redis.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do
  grep -q 'Ready to accept connections' "$logs/redis.log" && break
  kill -0 "${pids[0]}" 2>/dev/null || die "redis-server did not start on port $redis_port: $(tail -n 3 "$logs/redis.log")"
  sleep 0.1
done
grep -q 'Ready to accept connections' "$logs/redis.log" || die "redis-server did not start within 10 s"
store="redis://127.0.0.1:$redis_port"

addresses=()
for i in $(seq 0 $((instances - 1))); do
  p=0
  [ "$port" != 0 ] && p=$((port + i))
  args=(serve --host "$host" --port "$p" --store "$store" --store-mode "$mode")
  [ "$i" = 0 ] && [ -n "$dist" ] && args+=(--dist "$dist")
  "$bin" "${args[@]}" "${more[@]}" >"$logs/serve-$i.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 100); do
    grep -q 'listening on' "$logs/serve-$i.log" && break
    kill -0 "${pids[-1]}" 2>/dev/null || die "instance $((i + 1)) did not start: $(tail -n 3 "$logs/serve-$i.log")"
    sleep 0.1
  done
  addresses+=("$(grep -o 'listening on http://[^ ]*' "$logs/serve-$i.log" | head -n 1 | cut -d' ' -f3)")
done

echo "Redis: $store (the limiters' state, shared; --store-mode $mode)"
for i in "${!addresses[@]}"; do
  echo "instance $((i + 1)): ${addresses[$i]}"
done
echo "The page's footer points at ${addresses[0]}: its commands run there, and every instance above holds the same limits."
[ -n "$dist" ] && echo "The app: ${addresses[0]}/"
echo "Try: for i in \$(seq 12); do for a in ${addresses[*]}; do curl -s -o /dev/null -w '%{http_code} ' -H 'x-api-key: class' \$a/fixed; done; done"
echo "Logs: $logs. Ctrl-C stops the fleet and its Redis."
wait -n || true
