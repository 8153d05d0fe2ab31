#!/usr/bin/env bash
# The service's front ends at full load, in one run on loopback, next to Redis twice — without
# persistence (the machine's Redis on 6379) and durable (a Redis of this script's own with
# appendonly yes and appendfsync always, so it answers INCR only after fsync, as Slotted does):
#
#   bash slotted-bench/load/front-ends.sh [DB_URL|h2] [SECONDS] [WARMUP_SECONDS]
#
# Starts the service jar (java -Xmx256m, GROUPED, durable) on MariaDB with --resp-port and the
# type name `counter` (redis-benchmark's INCR key is counter:__rand_int__), warms it for
# WARMUP_SECONDS (default 20) of INCR over the Redis protocol and increments over HTTP, then:
#   1. redis-benchmark -c 64 -t incr against Slotted and both Redis: -r 100000, -r 1 (one hot key),
#      -r 100000 -P 16 and -r 1 -P 16 (pipelined); after each Slotted run the SQL sum must equal
#      the increments redis-benchmark had acknowledged;
#   2. wrk -c 64 on /healthz (the route that does nothing but answer), single increments, reads and
#      batches of 100; after the increments the SQL sum must equal the 200s (plus at most the 64
#      requests in flight when wrk stopped).
# The server's used heap is sampled from /metrics every second throughout. Every Slotted run also
# says where the machine's CPU went: the service, the database server and the load tool, in
# microseconds per request (cpu_us=service/database/client). Needs redis-benchmark (redis-tools),
# wrk and GNU time; stops by itself. Results go to bench-results/front-ends/.
# PROFILE=1 records the service with JFR into bench-results/front-ends/service.jfr.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
db="${1:-jdbc:mariadb://127.0.0.1:3306/slotted_front?user=root}"
seconds="${2:-10}"
warmup="${3:-20}"
port=18080
resp=16380
durable_port=16390
out="$root/bench-results/front-ends"
mkdir -p "$out"
jar="$root/slotted-server/target/slotted.jar"
"$root/slotted" --version > /dev/null   # the launcher builds the jar when it is stale

case "$db" in
  *mariadb*|*mysql*) db_process=mariadbd; mariadb -uroot -e "DROP DATABASE IF EXISTS slotted_front; CREATE DATABASE slotted_front"
    stored() { mariadb -uroot -N slotted_front -e \
      "SELECT COALESCE(SUM(count), 0) FROM slotted_counters WHERE record_type = 1"; } ;;
  *postgresql*) db_process=postgres; psql -q -U postgres -h 127.0.0.1 -d postgres -c "DROP DATABASE IF EXISTS slotted_front" \
      -c "CREATE DATABASE slotted_front"
    stored() { psql -At -U postgres -h 127.0.0.1 -d slotted_front -c \
      "SELECT COALESCE(SUM(count), 0) FROM slotted_counters WHERE record_type = 1"; } ;;
  h2) # The embedded default: an H2 file the service serves to other processes over loopback.
    db_process=none; h2_dir=$(mktemp -d); db="jdbc:h2:file:$h2_dir/slotted"
    stored() { java -cp "$jar" org.h2.tools.Shell -url "$(cat "$h2_dir/slotted.server")" \
      -sql "SELECT COALESCE(SUM(count), 0) FROM slotted_counters WHERE record_type = 1" | sed -n 2p; } ;;
  *) echo "front-ends.sh: give a MariaDB or PostgreSQL JDBC URL, or h2" >&2; exit 2 ;;
esac

durable_dir=$(mktemp -d)
redis-server --port "$durable_port" --bind 127.0.0.1 --save "" --appendonly yes \
  --appendfsync always --dir "$durable_dir" --logfile "$out/durable-redis.log" --daemonize yes
jfr=()
[[ -n "${PROFILE:-}" ]] && jfr=("-XX:StartFlightRecording=filename=$out/service.jfr,settings=profile,delay=${warmup}s")
java -Xmx256m "${jfr[@]}" -jar "$jar" serve --port "$port" --resp-port "$resp" --types counter=1 --db "$db" \
  > "$out/server.log" 2>&1 &
server=$!
cleanup() {
  kill "$server" 2>/dev/null || true
  redis-cli -p "$durable_port" shutdown nosave > /dev/null 2>&1 || true
  rm -rf "$durable_dir"
}
trap cleanup EXIT
for _ in $(seq 1 60); do
  curl -sf "http://127.0.0.1:$port/readyz" > /dev/null && break
  sleep 1
done

heap() { curl -s "http://127.0.0.1:$port/metrics" \
  | awk '/^jvm_memory_used_bytes\{area="heap"/ {sum += $NF} END {printf "%.0f\n", sum}'; }
( while kill -0 $server 2>/dev/null; do heap; sleep 1; done ) > "$out/heap.samples" &
sampler=$!

# The warm-up: the JIT needs 10-20 s on two cores. Half over each front end.
timeout -s INT $((warmup / 2)) redis-benchmark -h 127.0.0.1 -p "$resp" -c 64 -n 100000000 -t incr \
  -r 100000 -q > /dev/null 2>&1 || true
ROUTE=increment wrk -t2 -c64 -d"$((warmup / 2))s" -s "$root/slotted-bench/load/front-ends.lua" \
  "http://127.0.0.1:$port" > /dev/null
sleep 1

rps() { awk -F'"' '/INCR/ {print int($4)}' "$1"; }
# CPU time in clock ticks (1/100 s) of the service and of every database server process.
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
db_ticks() { local sum=0 pid; for pid in $(pgrep -x "$db_process" || true); do sum=$((sum + $(ticks "$pid"))); done; echo $sum; }
# measured REQUESTS CMD...: runs the load tool, then prints service/database/client CPU per request in µs.
measured() {
  local requests_done=$1; shift
  local s0 d0; s0=$(ticks "$server"); d0=$(db_ticks)
  /usr/bin/time -f '%U %S' -o "$out/client.time" "$@"
  local s1 d1 c; s1=$(ticks "$server"); d1=$(db_ticks); c=$(awk '{printf "%.0f", ($1 + $2) * 100}' "$out/client.time")
  awk -v s=$((s1 - s0)) -v d=$((d1 - d0)) -v c="$c" -v n="$requests_done" \
    'BEGIN {printf "cpu_us=%.1f/%.1f/%.1f", s * 1e4 / n, d * 1e4 / n, c * 1e4 / n}' > "$out/cpu.txt"
}
ratio() { awk -v s="$1" -v r="$2" 'BEGIN {printf "%.2f", s / r}'; }
summary="$out/summary.txt"
echo "front-ends.sh $db ${seconds}s per run, warmed ${warmup}s, $(date -u +%FT%TZ)" > "$summary"
before=$(stored)
for shape in "-r 100000" "-r 1" "-r 100000 -P 16" "-r 1 -P 16"; do
  name=$(echo "$shape" | tr -d ' -')
  # Pipelined runs send ten times as many, so that each still lasts seconds.
  requests=$((seconds * 40000)); [[ "$shape" == *P* ]] && requests=$((seconds * 400000))
  # shellcheck disable=SC2086
  measured "$requests" redis-benchmark -h 127.0.0.1 -p "$resp" -c 64 -n "$requests" -t incr $shape --csv > "$out/slotted-$name.csv"
  cpu=$(cat "$out/cpu.txt")
  now=$(stored)
  # shellcheck disable=SC2086
  redis-benchmark -h 127.0.0.1 -p 6379 -c 64 -n "$requests" -t incr $shape --csv > "$out/redis-$name.csv"
  # shellcheck disable=SC2086
  redis-benchmark -h 127.0.0.1 -p "$durable_port" -c 64 -n "$requests" -t incr $shape --csv > "$out/durable-$name.csv"
  s=$(rps "$out/slotted-$name.csv"); r=$(rps "$out/redis-$name.csv"); d=$(rps "$out/durable-$name.csv")
  echo "redis-benchmark -c 64 -t incr $shape: slotted=$s/s redis=$r/s durable_redis=$d/s ratio_redis=$(ratio "$s" "$r") ratio_durable=$(ratio "$s" "$d") $cpu sql_sum_added=$((now - before)) sent=$requests exact=$([[ $((now - before)) -eq $requests ]] && echo true || echo false)" | tee -a "$summary"
  before=$now
done

for route in healthz increment read batch; do
  start=$(stored)
  measured 1 env ROUTE=$route wrk -t2 -c64 -d"${seconds}s" -s "$root/slotted-bench/load/front-ends.lua" \
    "http://127.0.0.1:$port" > "$out/wrk-$route.txt"
  line=$(grep '^route=' "$out/wrk-$route.txt")
  # Per request: the run's CPU over the requests answered.
  served=$(sed -n 's/.* ok=\([0-9]*\) failed=\([0-9]*\).*/\1 \2/p' <<< "$line" | awk '{print $1 + $2}')
  cpu=$(awk -v n="$served" -F'[=/]' '{printf "cpu_us=%.1f/%.1f/%.1f", $2 / n, $3 / n, $4 / n}' "$out/cpu.txt")
  added=$(( $(stored) - start ))
  ok=$(sed -n 's/.* ok=\([0-9]*\).*/\1/p' <<< "$line")
  case $route in
    increment) check=" sql_sum_added=$added exact=$([[ $added -ge $ok && $added -le $((ok + 64)) ]] && echo true || echo false)" ;;
    batch) check=" increments/s=$(( $(sed -n 's/.* rps=\([0-9]*\).*/\1/p' <<< "$line") * 100 )) sql_sum_added=$added exact=$([[ $added -ge $((ok * 100)) && $added -le $(((ok + 64) * 100)) ]] && echo true || echo false)" ;;
    *) check="" ;;
  esac
  echo "wrk -c 64 $line $cpu$check" | tee -a "$summary"
done

kill $sampler 2>/dev/null || true
echo "peak_used_heap_mb=$(( $(sort -n "$out/heap.samples" | tail -1) / 1024 / 1024 )) (-Xmx256m) rss_mb=$(( $(ps -o rss= -p $server) / 1024 ))" | tee -a "$summary"
kill -TERM $server; wait $server || true
