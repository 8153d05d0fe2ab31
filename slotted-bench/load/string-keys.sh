#!/usr/bin/env bash
# What a first-seen key costs: redis-benchmark INCR with numeric ids against string ids, in one run
# of the service on loopback:
#
#   bash slotted-bench/load/string-keys.sh [DB_URL|h2] [REQUESTS] [WARMUP_SECONDS]
#
# Starts the service jar (java -Xmx256m, GROUPED, durable, the default bounds on new names) with
# --resp-port and no --types: redis-benchmark's type `counter` is recorded on first use. Warms it
# for WARMUP_SECONDS (default 20), half numeric ids and half string ids of a prefix of its own,
# then runs redis-benchmark -c 64 -n REQUESTS (default 100000) three times:
#   numeric        -t incr -r 100000: keys counter:000000012345, the record_id itself;
#   strings, new   INCR counter:user-__rand_int__ -r 100000, a prefix no run used before: each
#                  key's first increment records its id in the name dictionary;
#   strings, known the same keys again: every id recorded, and cached in the service.
# After each run the SQL sum of the type must have grown by the requests sent, and the names
# recorded are counted. Needs redis-benchmark (redis-tools); stops by itself. Results go to
# bench-results/string-keys/. PROFILE=1 records the service with JFR into
# bench-results/string-keys/service.jfr, from the end of the warm-up.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
db="${1:-jdbc:mariadb://127.0.0.1:3306/slotted_strings?user=root}"
requests="${2:-100000}"
warmup="${3:-20}"
port=18080
resp=16380
out="$root/bench-results/string-keys"
mkdir -p "$out"
jar="$root/slotted-server/target/slotted.jar"
"$root/slotted" --version > /dev/null   # the launcher builds the jar when it is stale

type_sum="SELECT COALESCE(SUM(c.count), 0) FROM slotted_counters c JOIN slotted_counters_names t
  ON t.record_type = -2147483648 AND t.record_id = c.record_type WHERE t.name = 'counter'"
names="SELECT COUNT(*) FROM slotted_counters_names"
case "$db" in
  *mariadb*|*mysql*) mariadb -uroot -e "DROP DATABASE IF EXISTS slotted_strings; CREATE DATABASE slotted_strings"
    sql() { mariadb -uroot -N slotted_strings -e "$1"; } ;;
  *postgresql*) psql -q -U postgres -h 127.0.0.1 -d postgres -c "DROP DATABASE IF EXISTS slotted_strings" \
      -c "CREATE DATABASE slotted_strings"
    sql() { psql -At -U postgres -h 127.0.0.1 -d slotted_strings -c "$1"; } ;;
  h2) h2_dir=$(mktemp -d); db="jdbc:h2:file:$h2_dir/slotted"
    sql() { java -cp "$jar" org.h2.tools.Shell -url "$(cat "$h2_dir/slotted.server")" -sql "$1" | sed -n 2p; } ;;
  *) echo "string-keys.sh: give a MariaDB or PostgreSQL JDBC URL, or h2" >&2; exit 2 ;;
esac

jfr=()
[[ -n "${PROFILE:-}" ]] && jfr=("-XX:StartFlightRecording=filename=$out/service.jfr,settings=profile,delay=${warmup}s")
java -Xmx256m "${jfr[@]}" -jar "$jar" serve --port "$port" --resp-port "$resp" --db "$db" > "$out/server.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
for _ in $(seq 1 60); do
  curl -sf "http://127.0.0.1:$port/readyz" > /dev/null && break
  sleep 1
done

timeout -s INT $((warmup / 2)) redis-benchmark -h 127.0.0.1 -p "$resp" -c 64 -n 100000000 -t incr \
  -r 100000 -q > /dev/null 2>&1 || true
timeout -s INT $((warmup / 2)) redis-benchmark -h 127.0.0.1 -p "$resp" -c 64 -n 100000000 -r 100000 \
  -q INCR counter:warm-__rand_int__ > /dev/null 2>&1 || true
sleep 1

summary="$out/summary.txt"
echo "string-keys.sh $db -n $requests -c 64, warmed ${warmup}s, $(date -u +%FT%TZ)" > "$summary"
prefix="run$(date +%s)"
run() {
  local name=$1; shift
  local before names_before; before=$(sql "$type_sum"); names_before=$(sql "$names")
  redis-benchmark -h 127.0.0.1 -p "$resp" -c 64 -n "$requests" -r 100000 --csv "$@" \
    > "$out/$name.csv" 2> "$out/$name.err" || true
  local after names_after rps errors
  after=$(sql "$type_sum"); names_after=$(sql "$names")
  rps=$(awk -F'"' 'NR > 1 {print int($4)}' "$out/$name.csv" | tail -1)
  errors=$(grep -c "ERR" "$out/$name.err" || true)
  echo "$name: ${rps}/s errors=$errors names_recorded=$((names_after - names_before)) sql_sum_added=$((after - before)) sent=$requests exact=$([[ $((after - before)) -eq $requests ]] && echo true || echo false)" | tee -a "$summary"
}
run numeric -t incr
run strings-new INCR "counter:$prefix-user-__rand_int__"
run strings-known INCR "counter:$prefix-user-__rand_int__"
kill -TERM $server; wait $server || true
