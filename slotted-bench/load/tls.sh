#!/usr/bin/env bash
# What TLS costs: increments over TLS against plain ones, on both front ends, and new connections
# (each a TLS handshake) per second, in one run on loopback:
#
#   bash slotted-bench/load/tls.sh [DB_URL] [SECONDS] [WARMUP_SECONDS]
#
# Makes a CA and a server certificate (RSA 2048, as most certificates are) with openssl, then starts
# two services from the jar (java -Xmx256m, GROUPED, durable) on the same database server, each in
# a database of its own: one plain (HTTP 18080, Redis protocol 16380), one with --tls-cert and
# --tls-key (HTTPS 18443, TLS on 16443). Warms each for WARMUP_SECONDS (default 20) over both
# protocols, then measures the two services in turn, never at once, SECONDS (default 10) a run:
#   1. redis-benchmark -c 64 -t incr -r 100000 (connections kept): plain, then --tls;
#   2. wrk -c 64 single increments (front-ends.lua ROUTE=increment): http, then https;
#   3. new connections per second: redis-benchmark -c 16 -k 0 -t ping_mbulk (a new connection for
#      every PING, so over TLS a handshake each) and wrk -c 16 ROUTE=handshake (GET /healthz with
#      Connection: close), plain then TLS.
# For scale, the same redis-benchmark runs (1 and 3) against a Redis of this script's own, plain and
# TLS on two ports with the same certificate (no persistence: what is compared is TLS's share).
# After each increment run the SQL sum must have grown by what the tool was acknowledged. Needs
# openssl, redis-benchmark (redis-tools) and wrk; stops by itself. Results go to
# bench-results/tls/. PROFILE=1 records the TLS service with JFR into bench-results/tls/tls.jfr.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
db="${1:-jdbc:mariadb://127.0.0.1:3306/?user=root}"
seconds="${2:-10}"
warmup="${3:-20}"
out="$root/bench-results/tls"
mkdir -p "$out"
jar="$root/slotted-server/target/slotted.jar"
"$root/slotted" --version > /dev/null   # the launcher builds the jar when it is stale

case "$db" in
  *mariadb*|*mysql*) base="${db%%\?*}"; query="${db#*\?}"; [[ "$query" == "$db" ]] && query=""
    for d in slotted_tls_plain slotted_tls_tls; do mariadb -uroot -e "DROP DATABASE IF EXISTS $d; CREATE DATABASE $d"; done
    url() { echo "${base%/}/$1${query:+?$query}"; }
    stored() { mariadb -uroot -N "$1" -e "SELECT COALESCE(SUM(count), 0) FROM slotted_counters WHERE record_type = 1"; } ;;
  *postgresql*) base="${db%%\?*}"; query="${db#*\?}"; [[ "$query" == "$db" ]] && query=""
    for d in slotted_tls_plain slotted_tls_tls; do
      psql -q -U postgres -h 127.0.0.1 -d postgres -c "DROP DATABASE IF EXISTS $d" -c "CREATE DATABASE $d"; done
    url() { echo "${base%/*}/$1${query:+?$query}"; }
    stored() { psql -At -U postgres -h 127.0.0.1 -d "$1" -c "SELECT COALESCE(SUM(count), 0) FROM slotted_counters WHERE record_type = 1"; } ;;
  *) echo "tls.sh: give a MariaDB or PostgreSQL JDBC URL of the server (its database is ignored)" >&2; exit 2 ;;
esac

certs=$(mktemp -d)
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$certs/ca.key" -out "$certs/ca.pem" -days 1 \
  -subj "/CN=tls.sh CA" 2> /dev/null
openssl req -newkey rsa:2048 -nodes -keyout "$certs/key.pem" -out "$certs/server.csr" \
  -subj "/CN=localhost" 2> /dev/null
printf "subjectAltName=DNS:localhost,IP:127.0.0.1\n" > "$certs/san.ext"
openssl x509 -req -in "$certs/server.csr" -CA "$certs/ca.pem" -CAkey "$certs/ca.key" -CAcreateserial \
  -out "$certs/cert.pem" -days 1 -extfile "$certs/san.ext" 2> /dev/null

jfr=()
[[ -n "${PROFILE:-}" ]] && jfr=("-XX:StartFlightRecording=filename=$out/tls.jfr,settings=profile,delay=${warmup}s")
java -Xmx256m -jar "$jar" serve --port 18080 --resp-port 16380 --types counter=1 \
  --db "$(url slotted_tls_plain)" > "$out/plain.log" 2>&1 &
plain=$!
java -Xmx256m "${jfr[@]}" -jar "$jar" serve --port 18443 --resp-port 16443 --types counter=1 \
  --db "$(url slotted_tls_tls)" --tls-cert "$certs/cert.pem" --tls-key "$certs/key.pem" > "$out/tls.log" 2>&1 &
tls=$!
redis_plain=16390; redis_tls=16391
redis-server --port $redis_plain --tls-port $redis_tls --bind 127.0.0.1 --tls-cert-file "$certs/cert.pem" \
  --tls-key-file "$certs/key.pem" --tls-ca-cert-file "$certs/ca.pem" --tls-auth-clients no --save "" \
  --appendonly no --dir "$certs" --logfile "$out/redis.log" --daemonize yes
trap 'kill "$plain" "$tls" 2>/dev/null || true; redis-cli -p $redis_plain shutdown nosave > /dev/null 2>&1 || true; rm -rf "$certs"' EXIT
for _ in $(seq 1 60); do
  curl -sf "http://127.0.0.1:18080/readyz" > /dev/null \
    && curl -sf --cacert "$certs/ca.pem" "https://127.0.0.1:18443/readyz" > /dev/null && break
  sleep 1
done

tls_args=(--tls --cacert "$certs/ca.pem")
# The warm-up: the JIT needs 10-20 s on two cores. Each service over both protocols, in turn.
for service in plain tls; do
  if [[ $service == plain ]]; then port=16380; extra=(); http=http://127.0.0.1:18080
  else port=16443; extra=("${tls_args[@]}"); http=https://127.0.0.1:18443; fi
  timeout -s INT $((warmup / 2)) redis-benchmark -h 127.0.0.1 -p $port "${extra[@]}" -c 64 \
    -n 100000000 -t incr -r 100000 -q > /dev/null 2>&1 || true
  ROUTE=increment wrk -t2 -c64 -d"$((warmup / 2))s" -s "$root/slotted-bench/load/front-ends.lua" "$http" > /dev/null
done
sleep 1

rps() { awk -F'"' 'NR > 1 {print int($4)}' "$1" | tail -1; }
ratio() { awk -v t="$1" -v p="$2" 'BEGIN {printf "%.2f", t / p}'; }
summary="$out/summary.txt"
echo "tls.sh $db ${seconds}s per run, warmed ${warmup}s per service, $(date -u +%FT%TZ)" > "$summary"

requests=$((seconds * 40000))
declare -A incr
for service in plain tls; do
  if [[ $service == plain ]]; then port=16380; extra=(); database=slotted_tls_plain
  else port=16443; extra=("${tls_args[@]}"); database=slotted_tls_tls; fi
  before=$(stored $database)
  redis-benchmark -h 127.0.0.1 -p $port "${extra[@]}" -c 64 -n "$requests" -t incr -r 100000 --csv \
    > "$out/resp-incr-$service.csv"
  added=$(( $(stored $database) - before ))
  incr[$service]=$(rps "$out/resp-incr-$service.csv")
  echo "resp incr $service: ${incr[$service]}/s sql_sum_added=$added sent=$requests exact=$([[ $added -eq $requests ]] && echo true || echo false)" | tee -a "$summary"
done
echo "resp incr ratio tls/plain: $(ratio "${incr[tls]}" "${incr[plain]}")" | tee -a "$summary"
redis-benchmark -h 127.0.0.1 -p $redis_plain -c 64 -n "$requests" -t incr -r 100000 --csv > "$out/redis-incr-plain.csv"
redis-benchmark -h 127.0.0.1 -p $redis_tls "${tls_args[@]}" -c 64 -n "$requests" -t incr -r 100000 --csv > "$out/redis-incr-tls.csv"
r_plain=$(rps "$out/redis-incr-plain.csv"); r_tls=$(rps "$out/redis-incr-tls.csv")
echo "redis incr: plain=${r_plain}/s tls=${r_tls}/s ratio tls/plain: $(ratio "$r_tls" "$r_plain")" | tee -a "$summary"

declare -A http_incr
for service in plain tls; do
  if [[ $service == plain ]]; then http=http://127.0.0.1:18080; database=slotted_tls_plain
  else http=https://127.0.0.1:18443; database=slotted_tls_tls; fi
  before=$(stored $database)
  ROUTE=increment wrk -t2 -c64 -d"${seconds}s" -s "$root/slotted-bench/load/front-ends.lua" "$http" > "$out/http-incr-$service.txt"
  added=$(( $(stored $database) - before ))
  line=$(grep '^route=' "$out/http-incr-$service.txt")
  ok=$(sed -n 's/.* ok=\([0-9]*\).*/\1/p' <<< "$line")
  http_incr[$service]=$(sed -n 's/.* rps=\([0-9]*\).*/\1/p' <<< "$line")
  echo "http incr $service: $line sql_sum_added=$added exact=$([[ $added -ge $ok && $added -le $((ok + 64)) ]] && echo true || echo false)" | tee -a "$summary"
done
echo "http incr ratio tls/plain: $(ratio "${http_incr[tls]}" "${http_incr[plain]}")" | tee -a "$summary"

declare -A resp_conn http_conn
for service in plain tls; do
  if [[ $service == plain ]]; then port=16380; extra=(); http=http://127.0.0.1:18080
  else port=16443; extra=("${tls_args[@]}"); http=https://127.0.0.1:18443; fi
  redis-benchmark -h 127.0.0.1 -p $port "${extra[@]}" -c 16 -k 0 -n $((seconds * 2000)) -t ping_mbulk --csv \
    > "$out/resp-connect-$service.csv" 2> "$out/resp-connect-$service.err" || true
  resp_conn[$service]=$(rps "$out/resp-connect-$service.csv")
  ROUTE=handshake wrk -t2 -c16 -d"${seconds}s" -s "$root/slotted-bench/load/front-ends.lua" "$http" > "$out/http-connect-$service.txt"
  http_conn[$service]=$(sed -n 's/.* rps=\([0-9]*\).*/\1/p' <<< "$(grep '^route=' "$out/http-connect-$service.txt")")
  echo "new connections/s $service: resp=${resp_conn[$service]} http=${http_conn[$service]}" | tee -a "$summary"
done
echo "new connections ratio tls/plain: resp=$(ratio "${resp_conn[tls]}" "${resp_conn[plain]}") http=$(ratio "${http_conn[tls]}" "${http_conn[plain]}")" | tee -a "$summary"
for port in $redis_plain $redis_tls; do
  extra=(); [[ $port == "$redis_tls" ]] && extra=("${tls_args[@]}")
  redis-benchmark -h 127.0.0.1 -p $port "${extra[@]}" -c 16 -k 0 -n $((seconds * 2000)) -t ping_mbulk --csv \
    > "$out/redis-connect-$port.csv" 2> /dev/null || true
done
echo "redis new connections/s: plain=$(rps "$out/redis-connect-$redis_plain.csv") tls=$(rps "$out/redis-connect-$redis_tls.csv")" | tee -a "$summary"
kill -TERM $plain $tls; wait $plain $tls || true
