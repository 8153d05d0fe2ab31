#!/usr/bin/env bash
# A soak of the service: mixed load (increments plain and keyed, replays, batches, reads, bad
# requests) from 32 clients for MINUTES minutes against `slotted serve` on MariaDB with a 512 MB
# heap, sampling the service's heap, threads and open descriptors every 30 s, then reading every
# counter back and checking it holds exactly what was acknowledged. Stops by itself. Not run in CI.
#
#   bash slotted-bench/load/soak.sh [MINUTES] [DB_URL]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
minutes="${1:-10}"
db="${2:-jdbc:mariadb://127.0.0.1:3306/slotted_soak?user=root}"
port=18080
out="$root/bench-results/soak"
mkdir -p "$out"

(cd "$root" && mvn -q -B -DskipTests -pl slotted-server,slotted-bench -am package)
mariadb -uroot -e "DROP DATABASE IF EXISTS slotted_soak; CREATE DATABASE slotted_soak"

java -Xmx512m -jar "$root/slotted-server/target/slotted.jar" serve --port "$port" --db "$db" \
  > "$out/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 1 60); do
  curl -sf "http://127.0.0.1:$port/readyz" > /dev/null && break
  sleep 1
done

status=0
java -cp "$root/slotted-bench/target/slotted-bench.jar" io.slotted.bench.soak.ServiceSoak \
  --url "http://127.0.0.1:$port" --duration "${minutes}m" --clients 32 | tee "$out/soak.txt" || status=$?
echo "server RSS at the end: $(($(ps -o rss= -p $server) / 1024)) MB" | tee -a "$out/soak.txt"
kill -TERM $server; wait $server || true
trap - EXIT
exit $status
