#!/usr/bin/env bash
# The service under load from a separate process on loopback, next to Redis INCR in the same run.
#
#   bash slotted-bench/load/run-service-load.sh [DB_URL] [SECONDS]
#
# Needs wrk (apt-get install wrk) and redis-benchmark (from Redis). Starts the service jar on
# MariaDB (durable commits), drives it with 64 keep-alive connections for SECONDS, samples the
# server's heap from /metrics every second, checks that the database holds every acknowledged
# increment (plus at most the 64 requests in flight when wrk stops), then runs redis-benchmark
# INCR with 64 clients. Stops by itself.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
db="${1:-jdbc:mariadb://127.0.0.1:3306/test?user=root}"
seconds="${2:-20}"
port=18080
out="$root/bench-results/service"
mkdir -p "$out"
jar="$root/slotted-server/target/slotted.jar"
[[ -f "$jar" ]] || "$root/slotted" --help > /dev/null   # the launcher builds the jar

mariadb -uroot test -e "DROP TABLE IF EXISTS load_counters, load_counters_ledger, load_counters_keys" 2>/dev/null || true
# The service's table is fixed; give it a clean one through a database of its own.
mariadb -uroot -e "DROP DATABASE IF EXISTS slotted_load; CREATE DATABASE slotted_load"
db="${db/\/test/\/slotted_load}"

java -jar "$jar" serve --port "$port" --db "$db" > "$out/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 1 60); do
  curl -sf "http://127.0.0.1:$port/readyz" > /dev/null && break
  sleep 1
done

heap() { curl -s "http://127.0.0.1:$port/metrics" \
  | awk '/^jvm_memory_used_bytes\{area="heap"/ {sum += $NF} END {printf "%.0f\n", sum}'; }
peak=0
( while kill -0 $server 2>/dev/null; do heap; sleep 1; done ) > "$out/heap.samples" &
sampler=$!

wrk -t2 -c64 -d"${seconds}s" --latency -s "$root/slotted-bench/load/increment.lua" \
  "http://127.0.0.1:$port" | tee "$out/wrk.txt"
kill $sampler 2>/dev/null || true
peak=$(sort -n "$out/heap.samples" | tail -1)
rss=$(ps -o rss= -p $server)

acknowledged=$(sed -n 's/^acknowledged=\([0-9]*\).*/\1/p' "$out/wrk.txt")
stored=$(mariadb -uroot -N slotted_load -e "SELECT COALESCE(SUM(count), 0) FROM slotted_counters")
kill -TERM $server; wait $server || true
trap - EXIT

redis-benchmark -h 127.0.0.1 -p 6379 -c 64 -n 2000000 -t incr --csv > "$out/redis.txt"; cat "$out/redis.txt"

{
  # wrk stops with up to one request in flight per connection: those may be applied without their
  # answer being counted, so the store holds the acknowledged increments plus at most 64.
  in_flight=$((stored - acknowledged))
  echo "acknowledged=$acknowledged stored=$stored unanswered_but_applied=$in_flight" \
    "consistent=$([[ $in_flight -ge 0 && $in_flight -le 64 ]] && echo true || echo false)"
  echo "peak_heap_mb=$((peak / 1024 / 1024)) rss_mb=$((rss / 1024))"
} | tee "$out/summary.txt"
