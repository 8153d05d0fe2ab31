#!/usr/bin/env bash
# Runs every test of Slotted on a fresh machine: installs what the tests drive besides the JDK and
# Maven, then runs `mvn -B verify`. The databases need nothing here: without SLOTTED_TEST_MARIADB_URL
# and SLOTTED_TEST_POSTGRES_URL the tests start a real MariaDB and PostgreSQL from Maven Central.
#
#   scripts/test.sh                          every test of every module
#   scripts/test.sh -pl slotted-server -am   extra arguments go to Maven
#
# What it installs, as Debian packages (apt-get, as root or through sudo), only when missing, and
# which tests drive it:
#   redis-tools     redis-cli and redis-benchmark: the Redis-protocol and TLS suites
#   redis-server    the benchmark's comparison, when nothing answers on 127.0.0.1:6379 (a private
#                   server is then started for the run and stopped after it)
#   python3-redis   redis-py: OtherLanguageClientsSuite, RateLimiterClientsSuite
#   ruby, ruby-rack-attack, ruby-redis   Rack::Attack throttling through the service: RateLimiterClientsSuite
#   nodejs, npm     ioredis and playwright-core, pinned by slotted-server/src/test/node (the tests
#                   run `npm ci` there): OtherLanguageClientsSuite, RateLimiterClientsSuite,
#                   LivePageBrowserTest
#   chromium        the live page in a browser: LivePageBrowserTest
#   curl, openssl   HTTPS clients and keys as OpenSSL writes them: TlsSuite, ServerTlsTest
#   bsdutils        `script`, a pseudo-terminal: LongCommandsProgressTest
#   galera-4, mariadb-server, ...   a private 3-node cluster: GaleraClusterTest (the list comes from
#                   `scripts/galera-cluster.sh packages`)
# Where it cannot install (not root and no sudo, or no apt-get), it names the missing packages in one
# line and exits 1 without running any test: a test whose tool is missing fails, it is never skipped.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

say() { echo "test.sh: $*" >&2; }

port_open() { (exec 3<>"/dev/tcp/${1%:*}/${1##*:}") 2>/dev/null; }

redis_address=${SLOTTED_TEST_REDIS:-127.0.0.1:6379}

missing=()
command -v redis-cli >/dev/null && command -v redis-benchmark >/dev/null || missing+=(redis-tools)
port_open "$redis_address" || command -v redis-server >/dev/null || missing+=(redis-server)
/usr/bin/python3 -c 'import redis' 2>/dev/null || missing+=(python3-redis)
command -v ruby >/dev/null || missing+=(ruby)
ruby -e 'require "rack/attack"' 2>/dev/null || missing+=(ruby-rack-attack)
ruby -e 'require "redis"' 2>/dev/null || missing+=(ruby-redis)
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v curl >/dev/null || missing+=(curl)
command -v openssl >/dev/null || missing+=(openssl)
command -v script >/dev/null || missing+=(bsdutils)
mapfile -t galera < <(scripts/galera-cluster.sh packages)
missing+=("${galera[@]}")

if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ]; then
    as_root=()
  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    as_root=(sudo -n)
  else
    as_root=(none)
  fi
  if [ "${as_root[*]}" = none ] || ! command -v apt-get >/dev/null; then
    say "the tests need ${missing[*]} (Debian package names): install them as root (apt-get install -y ${missing[*]}) and run scripts/test.sh again; without them, mvn verify runs every test, and those that drive a missing tool fail, naming it"
    exit 1
  fi
  say "installing ${missing[*]}, which the tests drive (see the head of scripts/test.sh for which test needs what)"
  "${as_root[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# Redis for the benchmark's comparison: the machine's, or a private one for this run.
if ! port_open "$redis_address"; then
  private_redis_port=6390
  say "nothing answers on $redis_address: starting a private Redis on 127.0.0.1:$private_redis_port for this run"
  redis-server --daemonize yes --bind 127.0.0.1 --port "$private_redis_port" --save "" --appendonly no \
    --dir /tmp --logfile "" >/dev/null
  trap 'redis-cli -p "$private_redis_port" shutdown nosave >/dev/null 2>&1 || true' EXIT
  export SLOTTED_TEST_REDIS="127.0.0.1:$private_redis_port"
  for _ in $(seq 1 50); do port_open "$SLOTTED_TEST_REDIS" && break; sleep 0.1; done
fi

mvn -B verify "$@"
