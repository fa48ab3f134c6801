#!/usr/bin/env bash
# Requests per second of a limiter endpoint over loopback: `ratelab serve`'s GET /bucket
# beside a plain Node `http` server doing the same work (scripts/bench-http/), both
# hammered by the same blind client (no waiting, 429s ignored). A measurement, not a
# test: requests/s depend on the machine and on what else runs on it (the client shares
# the cores with the server). The two servers take turns, ROUNDS times, so a busy spell
# hits both; each line also gives the server's own CPU time per answer (user + system,
# from /proc), which other load on the machine barely moves.
#
# Usage: scripts/bench-http.sh [SECONDS_EACH=5] [CONNECTIONS=32] [ROUNDS=3]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-5}
connections=${2:-32}
rounds=${3:-3}
ours_port=55551
node_port=55552

cargo build --release --bin ratelab >&2
bin="${CARGO_TARGET_DIR:-target}/release/ratelab"
"$bin" serve --port "$ours_port" >/dev/null &
ours=$!
node scripts/bench-http/node-bucket-server.mjs "$node_port" >/dev/null &
theirs=$!
trap 'kill "$ours" "$theirs" 2>/dev/null || true' EXIT
sleep 1

echo "blind client, $connections connections, $seconds s each, $rounds rounds; $(nproc) cores"
# CPU ticks (user + system, all threads) a process has used so far.
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
hz=$(getconf CLK_TCK)

# One run of the blind client against a server: its line, then the server's CPU per answer.
measure() {
  local pid=$1 port=$2 label=$3 before after line answers
  before=$(ticks "$pid")
  line=$(node scripts/bench-http/blind.mjs "http://127.0.0.1:$port/bucket" "$seconds" "$connections" "$label")
  after=$(ticks "$pid")
  answers=${line##* }
  echo "${line% *}   server CPU: $(( (after - before) * 1000000 / hz / answers )) µs per answer"
}

for r in $(seq "$rounds"); do
  measure "$ours" "$ours_port" "ratelab serve"
  measure "$theirs" "$node_port" "node http"
done
