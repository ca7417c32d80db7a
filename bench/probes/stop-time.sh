#!/usr/bin/env bash
# How long `gas serve` takes to exit when stopped during its first path-index build: starts the built server of the
# checkout ROOT (default: this one; `npm run build` first) on the http-graph bench's kept tier M schema, sends
# SIGTERM STOP_AFTER seconds (0.3) after it logs "listening", and prints the exit delay and how the build ended.
#   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/wt_perfserve bash bench/probes/stop-time.sh [ROOT]
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
schema=${PROBE_SCHEMA:-http_graph_analysed_26000_28}
url="${BENCH_DATABASE_URL:?a PostgreSQL server holding the kept schema}?options=-c%20search_path%3D${schema}%2Cpublic"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
cd "$root"
DATABASE_URL="$url" PORT=${PORT:-18090} GAS_SECRET_KEY=$(printf gas-http-graph-benchmark-key-32b | base64) \
  node dist/cli.js serve > "$log" 2>&1 &
pid=$!
until grep -q listening "$log"; do
  kill -0 $pid 2> /dev/null || { cat "$log"; exit 1; }
  sleep 0.05
done
sleep "${STOP_AFTER:-0.3}"
t0=$(date +%s%N)
kill -TERM $pid
wait $pid || true
t1=$(date +%s%N)
echo "{\"root\":\"$root\",\"exit_ms\":$(( (t1 - t0) / 1000000 )),\"build\":\"$(grep -o '"msg":"graph index[^"]*"' "$log" | head -1 | cut -d'"' -f4)\"}"
