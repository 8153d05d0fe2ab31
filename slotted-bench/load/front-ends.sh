#!/usr/bin/env bash
# The service's front ends at full load, in one run on loopback, next to Redis (issue 11):
#
#   bash slotted-bench/load/front-ends.sh [DB_URL] [SECONDS]
#
# Starts the service jar (java -Xmx256m, GROUPED, durable) on MariaDB with --resp-port and the
# type name `counter` (redis-benchmark's INCR key is counter:__rand_int__), then:
#   1. redis-benchmark -c 64 -t incr against Slotted and against Redis: -r 100000, -r 1 (one hot key),
#      and -r 100000 -P 16 (pipelined); after each Slotted run the SQL sum must equal the
#      increments redis-benchmark had acknowledged;
#   2. wrk -c 64 on /healthz (the route that does nothing but answer), single increments, reads and
#      batches of 100; after the increments the SQL sum must equal the 200s (plus at most the 64
#      requests in flight when wrk stopped).
# The server's used heap is sampled from /metrics every second throughout. Needs redis-benchmark
# (redis-tools) and wrk; stops by itself. Results go to bench-results/front-ends/.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
db="${1:-jdbc:mariadb://127.0.0.1:3306/slotted_front?user=root}"
seconds="${2:-10}"
port=18080
resp=16380
requests=$((seconds * 60000))
out="$root/bench-results/front-ends"
mkdir -p "$out"
jar="$root/slotted-server/target/slotted.jar"
"$root/slotted" --version > /dev/null   # the launcher builds the jar when it is stale

mariadb -uroot -e "DROP DATABASE IF EXISTS slotted_front; CREATE DATABASE slotted_front"
java -Xmx256m -jar "$jar" serve --port "$port" --resp-port "$resp" --types counter=1 --db "$db" \
  > "$out/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 1 60); do
  curl -sf "http://127.0.0.1:$port/readyz" > /dev/null && break
  sleep 1
done

heap() { curl -s "http://127.0.0.1:$port/metrics" \
  | awk '/^jvm_memory_used_bytes\{area="heap"/ {sum += $NF} END {printf "%.0f\n", sum}'; }
( while kill -0 $server 2>/dev/null; do heap; sleep 1; done ) > "$out/heap.samples" &
sampler=$!

stored() { mariadb -uroot -N slotted_front -e \
  "SELECT COALESCE(SUM(count), 0) FROM slotted_counters WHERE record_type = 1"; }
rps() { awk -F'"' '/INCR/ {print int($4)}' "$1"; }

summary="$out/summary.txt"
: > "$summary"
before=0
for shape in "-r 100000" "-r 1" "-r 100000 -P 16"; do
  name=$(echo "$shape" | tr -d ' -')
  # shellcheck disable=SC2086
  redis-benchmark -h 127.0.0.1 -p "$resp" -c 64 -n "$requests" -t incr $shape --csv > "$out/slotted-$name.csv"
  now=$(stored)
  # shellcheck disable=SC2086
  redis-benchmark -h 127.0.0.1 -p 6379 -c 64 -n "$requests" -t incr $shape --csv > "$out/redis-$name.csv"
  s=$(rps "$out/slotted-$name.csv"); r=$(rps "$out/redis-$name.csv")
  echo "redis-benchmark -c 64 -t incr $shape: slotted=$s/s redis=$r/s ratio=$(awk -v s="$s" -v r="$r" 'BEGIN {printf "%.2f", s / r}') sql_sum_added=$((now - before)) sent=$requests exact=$([[ $((now - before)) -eq $requests ]] && echo true || echo false)" | tee -a "$summary"
  before=$now
done

for route in healthz increment read batch; do
  start=$(stored)
  ROUTE=$route wrk -t2 -c64 -d"${seconds}s" -s "$root/slotted-bench/load/front-ends.lua" \
    "http://127.0.0.1:$port" > "$out/wrk-$route.txt"
  line=$(grep '^route=' "$out/wrk-$route.txt")
  added=$(( $(stored) - start ))
  ok=$(sed -n 's/.* ok=\([0-9]*\).*/\1/p' <<< "$line")
  case $route in
    increment) check=" sql_sum_added=$added exact=$([[ $added -ge $ok && $added -le $((ok + 64)) ]] && echo true || echo false)" ;;
    batch) check=" increments/s=$(( $(sed -n 's/.* rps=\([0-9]*\).*/\1/p' <<< "$line") * 100 )) sql_sum_added=$added exact=$([[ $added -ge $((ok * 100)) && $added -le $(((ok + 64) * 100)) ]] && echo true || echo false)" ;;
    *) check="" ;;
  esac
  echo "wrk -c 64 $line$check" | tee -a "$summary"
done

kill $sampler 2>/dev/null || true
echo "peak_used_heap_mb=$(( $(sort -n "$out/heap.samples" | tail -1) / 1024 / 1024 )) (-Xmx256m) rss_mb=$(( $(ps -o rss= -p $server) / 1024 ))" | tee -a "$summary"
kill -TERM $server; wait $server || true
trap - EXIT
