#!/usr/bin/env bash
# A 3-node MariaDB Galera cluster on loopback, for Slotted's multi-primary tests and benchmarks.
#
#   scripts/galera-cluster.sh start       create (or reuse a healthy) cluster, wait until all 3 are Synced,
#                                         print the JDBC URLs
#   scripts/galera-cluster.sh stop        shut every node down and remove the base directory
#   scripts/galera-cluster.sh kill N      SIGKILL node N (1..3), for fault tests; returns once the others
#                                         have dropped it from the cluster (about 5s, Galera's suspect timeout)
#   scripts/galera-cluster.sh restart N   start node N again, wait until it has rejoined and is Synced
#   scripts/galera-cluster.sh status      each node's state; exit 0 only when all three are Synced
#   scripts/galera-cluster.sh urls        print the JDBC URLs
#   scripts/galera-cluster.sh packages    print the Debian packages a node needs that are missing, one
#                                         per line (start installs them, as root)
#
# Environment:
#   SLOTTED_GALERA_DIR      base directory (default /tmp/slotted-galera)
#   SLOTTED_GALERA_PORT     client port of node 1 (default 4306; nodes 2 and 3 take the next two)
#   SLOTTED_GALERA_TIMEOUT  seconds to wait for a node to be Synced (default 120)
#
# Ports, all on 127.0.0.1, for node i in 1..3 and P = SLOTTED_GALERA_PORT:
#   client P+i-1, Galera group communication P+10+i-1, IST receive P+20+i-1, SST receive P+30+i-1.
#
# Every node is a plain mariadbd started in the background (no systemd, no mysqld_safe, so a killed
# node stays down until `restart`), with its own config file, datadir, socket, pid and error log under
# the base directory. The machine's own MariaDB (3306, /var/lib/mysql, /etc/mysql) is never touched:
# every server and client here runs with --defaults-file or --no-defaults.
set -euo pipefail

BASE=${SLOTTED_GALERA_DIR:-/tmp/slotted-galera}
BASE=${BASE%/}
PORT=${SLOTTED_GALERA_PORT:-4306}
TIMEOUT=${SLOTTED_GALERA_TIMEOUT:-120}
NODES=(1 2 3)
MARIADBD=/usr/sbin/mariadbd
PROVIDER=/usr/lib/galera/libgalera_smm.so
MARKER=.slotted-galera   # a base directory without it is never removed
# The nodes run as mysql, not root: the rsync SST runs an rsync daemon as the server's user, and one
# started as root switches to 'nobody', who cannot write the joiner's datadir (tried: the SST fails
# with "mkdir ... Permission denied", rsync code 23).
RUN_USER=mysql
LOCK="$BASE.lock"        # serialises concurrent calls; beside the base directory, which stop removes

log() { echo "galera: $*" >&2; }
die() { log "ERROR: $*"; exit 1; }

case "$BASE" in
  /?*) ;;
  *) die "SLOTTED_GALERA_DIR must be an absolute path other than / (got '$BASE')" ;;
esac
[[ $PORT =~ ^[0-9]+$ ]] && ((PORT >= 1024 && PORT + 32 <= 65535)) || die "bad SLOTTED_GALERA_PORT '$PORT'"
[[ $TIMEOUT =~ ^[0-9]+$ ]] || die "bad SLOTTED_GALERA_TIMEOUT '$TIMEOUT'"

client_port() { echo $((PORT + $1 - 1)); }
gcomm_port() { echo $((PORT + 10 + $1 - 1)); }
ist_port() { echo $((PORT + 20 + $1 - 1)); }
sst_port() { echo $((PORT + 30 + $1 - 1)); }
node_dir() { echo "$BASE/node$1"; }
node_cnf() { echo "$BASE/node$1/my.cnf"; }
node_sock() { echo "$BASE/node$1/mysqld.sock"; }
node_log() { echo "$BASE/node$1/error.log"; }
node_pidfile() { echo "$BASE/node$1/node.pid"; }

# ---------------------------------------------------------------------------------------------------
# Packages. A fresh machine has only what the project's own files install.

# The Debian packages a node needs that this machine lacks, one per line.
missing_packages() {
  # mariadbd and mariadb-install-db come with mariadb-server-core, the SST scripts
  # (wsrep_sst_rsync, wsrep_sst_common) with mariadb-server.
  # mariadb-server also creates the mysql user that the nodes run as.
  if [ ! -x "$MARIADBD" ] || ! command -v mariadb-install-db >/dev/null || ! command -v wsrep_sst_rsync >/dev/null ||
    ! id "$RUN_USER" >/dev/null 2>&1; then
    echo mariadb-server
  fi
  command -v mariadb >/dev/null && command -v mariadb-admin >/dev/null || echo mariadb-client
  [ -f "$PROVIDER" ] || echo galera-4
  command -v rsync >/dev/null || echo rsync
  # wsrep_sst_rsync checks its listening port with ss (or lsof) and reads addresses with ip.
  command -v ss >/dev/null && command -v ip >/dev/null || echo iproute2
  command -v ps >/dev/null || echo procps
}

ensure_packages() {
  local pkgs
  mapfile -t pkgs < <(missing_packages)
  if [ ${#pkgs[@]} -gt 0 ]; then
    [ "$(id -u)" -eq 0 ] || die "missing ${pkgs[*]}; run as root so they can be installed"
    log "installing ${pkgs[*]}"
    timeout 300 apt-get update -qq
    DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -qq "${pkgs[@]}" >/dev/null
  fi
  [ -x "$MARIADBD" ] && [ -f "$PROVIDER" ] && id "$RUN_USER" >/dev/null 2>&1 ||
    die "mariadbd, the Galera provider or the $RUN_USER user is still missing"
}


# ---------------------------------------------------------------------------------------------------
# Processes.

# The pid of node i's mariadbd if it is running, else nothing (and status 1). The pid is the one this
# script started, checked against /proc so that a recycled pid is never taken for a node.
node_pid() {
  local pidfile pid
  pidfile=$(node_pidfile "$1")
  [ -f "$pidfile" ] || return 1
  pid=$(cat "$pidfile" 2>/dev/null) || return 1
  [[ $pid =~ ^[0-9]+$ ]] || return 1
  tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline" | grep -qF -- "--defaults-file=$(node_cnf "$1")" || return 1
  # A zombie is not up.
  [ "$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null)" != Z ] || return 1
  echo "$pid"
}

# Runs SQL on node i over its socket (root is allowed there by unix_socket and by its empty password).
sql() {
  local i=$1; shift
  timeout 20 mariadb --no-defaults --protocol=socket -S "$(node_sock "$i")" -uroot \
    --connect-timeout=5 -N -s -e "$*"
}

# Prints "size state ready status" for node i, or "down".
node_state() {
  local out size='' state='' ready='' status=''
  if ! node_pid "$1" >/dev/null; then echo down; return; fi
  out=$(sql "$1" "SELECT VARIABLE_NAME, VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME
        IN ('WSREP_CLUSTER_SIZE','WSREP_LOCAL_STATE_COMMENT','WSREP_READY','WSREP_CLUSTER_STATUS')" 2>/dev/null) \
    || { echo "starting ? ? ?"; return; }
  while read -r name value; do
    case "$name" in
      WSREP_CLUSTER_SIZE) size=$value ;;
      WSREP_LOCAL_STATE_COMMENT) state=$value ;;
      WSREP_READY) ready=$value ;;
      WSREP_CLUSTER_STATUS) status=$value ;;
    esac
  done <<<"$out"
  echo "${size:-?} ${state:-?} ${ready:-?} ${status:-?}"
}

# Is node i up, Synced, ready and in a primary component of the given size?
node_synced() {
  local size state ready status
  read -r size state ready status <<<"$(node_state "$1")"
  [ "$state" = Synced ] && [ "$ready" = ON ] && [ "$status" = Primary ] && [ "$size" = "$2" ]
}

logs_tail() {
  local i
  for i in "${NODES[@]}"; do
    if [ -f "$(node_log "$i")" ]; then
      echo "----- node$i: tail of $(node_log "$i")" >&2
      tail -n "${1:-25}" "$(node_log "$i")" >&2
    fi
  done
}

fail() {
  log "ERROR: $*"
  logs_tail 30
  exit 1
}

# Waits until node i is Synced in a primary component of the given size; fails loudly with the logs'
# tails when the node dies or the timeout passes.
wait_synced() {
  local i=$1 size=$2 deadline=$((SECONDS + TIMEOUT))
  while ! node_synced "$i" "$size"; do
    node_pid "$i" >/dev/null || fail "node$i exited while starting (see $(node_log "$i"))"
    ((SECONDS < deadline)) || fail "node$i not Synced with cluster size $size after ${TIMEOUT}s: $(node_state "$i")"
    sleep 1
  done
}

count_up() {
  local i n=0
  for i in "${NODES[@]}"; do node_pid "$i" >/dev/null && n=$((n + 1)); done
  echo "$n"
}

# Waits (up to 30s, then goes on) until every node that is up sees exactly the nodes that are up. Right
# after a SIGKILL the survivors still count the dead member until they notice it has gone; a node that
# joins meanwhile waits for that (up to evs.inactive_timeout, 15s) before it gets a primary view.
wait_view_settled() {
  local deadline=$((SECONDS + 30)) i n ok size rest
  while ((SECONDS < deadline)); do
    n=$(count_up) ok=1
    for i in "${NODES[@]}"; do
      node_pid "$i" >/dev/null || continue
      read -r size rest <<<"$(node_state "$i")"
      [ "$size" = "$n" ] || ok=0
    done
    ((ok)) && return 0
    sleep 0.5
  done
  log "warning: the nodes that are up still disagree on the cluster's size after 30s; going on"
}

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# Starts node i's mariadbd in the background, in a session of its own so that it outlives this script
# and a Ctrl-C at the caller's terminal. With "bootstrap" it founds a new cluster (what
# galera_new_cluster does under systemd).
start_node() {
  local i=$1 mode=${2:-join} dir args=() pid
  dir=$(node_dir "$i")
  [ "$mode" = bootstrap ] && args+=(--wsrep-new-cluster)
  # A node killed with SIGKILL left no clean state in grastate.dat (seqno -1). Recover its position
  # from InnoDB first, as mysqld_safe does, so that it asks the group for an IST of what it missed
  # instead of a full SST.
  if [ -f "$dir/data/grastate.dat" ] && grep -q '^seqno: *-1' "$dir/data/grastate.dat"; then
    local pos
    timeout 60 "$MARIADBD" --defaults-file="$(node_cnf "$i")" --wsrep-recover \
      --log-error="$dir/recover.log" >/dev/null 2>&1 9>&- || true
    pos=$(sed -n 's/.*WSREP: Recovered position: *//p' "$dir/recover.log" 2>/dev/null | tail -n 1)
    rm -f "$dir/recover.log"
    if [[ $pos =~ ^[0-9a-f-]{36}:-?[0-9]+$ ]]; then
      log "node$i: recovered position $pos"
      args+=(--wsrep-start-position="$pos")
    fi
  fi
  # 9>&-: the server must not inherit the lock of this script's call, or it would hold it for ever.
  setsid "$MARIADBD" --defaults-file="$(node_cnf "$i")" "${args[@]}" \
    >>"$dir/stdout.log" 2>&1 </dev/null 9>&- &
  pid=$!
  echo "$pid" >"$(node_pidfile "$i")"
  log "node$i: started mariadbd (pid $pid, $mode)"
}

# Stops node i: a clean shutdown, then SIGKILL if it is still up after a timeout.
stop_node() {
  local i=$1 pid deadline grace
  pid=$(node_pid "$i") || return 0
  log "node$i: shutting down (pid $pid)"
  if timeout 30 mariadb-admin --no-defaults --protocol=socket -S "$(node_sock "$i")" -uroot \
      --connect-timeout=5 shutdown >/dev/null 2>&1; then
    grace=30
  else
    # Not answering: still starting, or a joiner waiting for its SST, which may ignore SIGTERM until
    # the transfer ends; its data is about to be removed anyway.
    kill -TERM "$pid" 2>/dev/null || true
    grace=10
  fi
  deadline=$((SECONDS + grace))
  while node_pid "$i" >/dev/null && ((SECONDS < deadline)); do sleep 0.5; done
  if node_pid "$i" >/dev/null; then
    log "node$i: still up after ${grace}s; SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
    sleep 0.5
  fi
}

# Any other process started for the cluster (an SST script or its rsync daemon left behind by an
# interrupted state transfer, or a node whose pid file was lost): found by the base directory in its
# command line, ended by its pid.
kill_strays() {
  local p cmd
  for p in /proc/[0-9]*; do
    p=${p#/proc/}
    [ "$p" != $$ ] && [ "$p" != "$BASHPID" ] && [ "$p" != "$PPID" ] || continue
    cmd=$(tr '\0' ' ' 2>/dev/null <"/proc/$p/cmdline") || continue
    case "$cmd" in
      *"$BASE/node"[123]/*)
        log "ending leftover process $p: ${cmd:0:120}"
        kill -KILL "$p" 2>/dev/null || true ;;
    esac
  done
}

stop_all() {
  local i
  [ -d "$BASE" ] || return 0
  # Joiners first, node 1 last: the last one down is the one Galera marks safe to bootstrap.
  for i in 3 2 1; do stop_node "$i"; done
  kill_strays
}

remove_base() {
  [ -e "$BASE" ] || return 0
  [ -f "$BASE/$MARKER" ] || die "$BASE exists but was not made by this script (no $MARKER); not removing it"
  rm -rf "$BASE"
}

# ---------------------------------------------------------------------------------------------------
# Creating the cluster.

write_config() {
  local i=$1 user=$2 j addresses=()
  for j in "${NODES[@]}"; do addresses+=("127.0.0.1:$(gcomm_port "$j")"); done
  cat >"$(node_cnf "$i")" <<EOF
# Node $i of Slotted's loopback Galera cluster; written by scripts/galera-cluster.sh.
[mysqld]
user = $user
datadir = $(node_dir "$i")/data
socket = $(node_sock "$i")
pid-file = $(node_dir "$i")/mysqld.pid
log-error = $(node_log "$i")
tmpdir = $(node_dir "$i")/tmp
port = $(client_port "$i")
bind-address = 127.0.0.1
# As the machine's main MariaDB, so tests see the same accounts and collation on both.
skip-name-resolve
character-set-server = utf8mb4
collation-server = utf8mb4_general_ci

default_storage_engine = InnoDB
# Galera replicates row images; statement or mixed binlog format is refused with wsrep on.
binlog_format = ROW
# Interleaved auto-increment locking: the table-level AUTO-INC lock of modes 0/1 can deadlock the
# parallel appliers that apply other nodes' writesets.
innodb_autoinc_lock_mode = 2
# Three servers share a 2-core machine with the main MariaDB and the build: a small buffer pool keeps
# them to a few hundred MB; the tests' tables are tiny.
innodb_buffer_pool_size = 64M
# Durable commits on every node, so a killed node recovers what it had committed and can take an IST.
innodb_flush_log_at_trx_commit = 1

wsrep_on = ON
wsrep_provider = $PROVIDER
wsrep_cluster_name = slotted
wsrep_cluster_address = gcomm://$(IFS=,; echo "${addresses[*]}")
wsrep_node_name = node$i
wsrep_node_address = 127.0.0.1:$(gcomm_port "$i")
wsrep_node_incoming_address = 127.0.0.1:$(client_port "$i")
# Every port on loopback and distinct, since the three nodes share one address: group communication,
# IST receive and SST receive. A 64M gcache is enough for a node killed during a test to catch up by
# IST (incremental) rather than a full SST.
wsrep_provider_options = "gmcast.listen_addr=tcp://127.0.0.1:$(gcomm_port "$i");ist.recv_addr=127.0.0.1:$(ist_port "$i");gcache.size=64M"
wsrep_sst_receive_address = 127.0.0.1:$(sst_port "$i")
# rsync needs no SST account and comes with mariadb-server's dependencies; mariabackup would need the
# mariadb-backup package and socat.
wsrep_sst_method = rsync
EOF
}

init_node() {
  local i=$1 user=$2 dir
  dir=$(node_dir "$i")
  mkdir -p "$dir/data" "$dir/tmp"
  write_config "$i" "$user"
  chown -R "$user:" "$dir"
  # root@localhost, root@127.0.0.1 and root@::1 with no password, as on the machine's main MariaDB.
  # Nodes 2 and 3 get node 1's datadir by SST when they join; their own initialisation only makes them
  # startable on their own.
  if ! timeout 120 mariadb-install-db --defaults-file="$(node_cnf "$i")" --user="$user" \
      --auth-root-authentication-method=normal --skip-test-db --wsrep-on=OFF >"$dir/install.log" 2>&1; then
    cat "$dir/install.log" >&2
    die "mariadb-install-db failed for node$i"
  fi
}

create_cluster() {
  local i p user=$RUN_USER t0=$SECONDS
  for i in "${NODES[@]}"; do
    for p in "$(client_port "$i")" "$(gcomm_port "$i")" "$(ist_port "$i")" "$(sst_port "$i")"; do
      port_free "$p" || die "127.0.0.1:$p is already in use; set SLOTTED_GALERA_PORT to move the cluster's ports"
    done
  done
  mkdir -p "$BASE"
  touch "$BASE/$MARKER"
  echo "$PORT" >"$BASE/port"
  chmod 755 "$BASE"
  runuser -u "$user" -- test -x "$BASE" ||
    die "the $user user cannot reach $BASE (a parent directory is closed to it); choose another SLOTTED_GALERA_DIR"
  for i in "${NODES[@]}"; do init_node "$i" "$user"; done
  log "datadirs initialised in $((SECONDS - t0))s (nodes run as $user)"

  start_node 1 bootstrap
  wait_synced 1 1
  sql 1 "CREATE DATABASE IF NOT EXISTS test"
  # One joiner at a time: node 1 is the only donor and serves one SST at a time.
  start_node 2
  wait_synced 2 2
  start_node 3
  wait_synced 3 3
}

all_synced() {
  local i
  for i in "${NODES[@]}"; do node_synced "$i" 3 || return 1; done
}

# Is some node up and Synced in a primary component (so that the others can join it)?
some_primary() {
  local i size state ready status
  for i in "${NODES[@]}"; do
    read -r size state ready status <<<"$(node_state "$i")"
    [ "$state" = Synced ] && [ "$status" = Primary ] && return 0
  done
  return 1
}

# Makes sure the nodes that are up form a primary component. After two of the three were killed the
# survivor has lost quorum: it is non-Primary and refuses queries until told to found a primary
# component on its own (pc.bootstrap), which is safe here because the others are known to be down.
ensure_primary() {
  local i size state ready status deadline
  some_primary && return 0
  for i in "${NODES[@]}"; do
    read -r size state ready status <<<"$(node_state "$i")"
    if [ "$status" = non-Primary ]; then
      log "node$i lost quorum (the other nodes are down); making it primary again"
      sql "$i" "SET GLOBAL wsrep_provider_options='pc.bootstrap=YES'"
      deadline=$((SECONDS + TIMEOUT))
      until some_primary; do
        ((SECONDS < deadline)) || fail "node$i did not become primary after ${TIMEOUT}s"
        sleep 1
      done
      return 0
    fi
  done
  return 1
}

print_urls() {
  local i
  for i in "${NODES[@]}"; do
    echo "jdbc:mariadb://127.0.0.1:$(client_port "$i")/test?user=root"
  done
}

# ---------------------------------------------------------------------------------------------------
# Commands.

# Starts node i, which is down, into the running cluster and waits until it is Synced.
rejoin_node() {
  wait_view_settled
  start_node "$1"
  wait_synced "$1" "$(count_up)"
}

cmd_start() {
  local t0=$SECONDS i
  ensure_packages
  if [ -f "$BASE/$MARKER" ] && [ "$(cat "$BASE/port" 2>/dev/null)" = "$PORT" ]; then
    if all_synced; then
      log "reusing the running cluster under $BASE"
      print_urls
      return 0
    fi
    if [ "$(count_up)" -gt 0 ] && ensure_primary; then
      # A node was killed or stopped: bring the missing ones back into the running cluster.
      log "cluster under $BASE is up but incomplete; restarting the missing nodes"
      for i in "${NODES[@]}"; do
        if node_pid "$i" >/dev/null; then wait_synced "$i" "$(count_up)"; else rejoin_node "$i"; fi
      done
      for i in "${NODES[@]}"; do wait_synced "$i" 3; done
      log "cluster complete again in $((SECONDS - t0))s"
      print_urls
      return 0
    fi
  fi
  if [ -e "$BASE" ]; then
    log "leftovers under $BASE are not a healthy cluster; stopping them and starting afresh"
    stop_all
    remove_base
  fi
  # Servers of this base directory whose pid files were lost with it would hold the ports.
  kill_strays
  create_cluster
  for i in "${NODES[@]}"; do wait_synced "$i" 3; done
  log "cluster of 3 Synced nodes up in $((SECONDS - t0))s under $BASE"
  print_urls
}

cmd_stop() {
  stop_all
  remove_base
  log "stopped; $BASE removed"
}

node_arg() {
  [[ ${1:-} =~ ^[123]$ ]] || die "expected a node number 1, 2 or 3 (got '${1:-}')"
  [ -f "$BASE/$MARKER" ] && [ -f "$(node_cnf "$1")" ] || die "no cluster under $BASE; run start first"
}

cmd_kill() {
  local i=$1 pid deadline
  node_arg "$i"
  pid=$(node_pid "$i") || { log "node$i is not running"; return 0; }
  kill -KILL "$pid"
  deadline=$((SECONDS + 10))
  while node_pid "$i" >/dev/null && ((SECONDS < deadline)); do sleep 0.2; done
  node_pid "$i" >/dev/null && die "node$i (pid $pid) survived SIGKILL"
  # Return once the survivors have seen it go, so that a test finds a cluster of 2 (and a restart right
  # after does not wait for the dead member to time out).
  wait_view_settled
  log "node$i killed (pid $pid)"
}

cmd_restart() {
  local i=$1 j others=0 t0=$SECONDS grastate seen how
  node_arg "$i"
  seen=$(wc -l <"$(node_log "$i")" 2>/dev/null || echo 0)
  for j in "${NODES[@]}"; do
    [ "$j" != "$i" ] && node_pid "$j" >/dev/null && others=$((others + 1))
  done
  if node_pid "$i" >/dev/null; then
    log "node$i is already running; waiting for it to be Synced"
    wait_synced "$i" $((others + 1))
  elif ((others > 0)); then
    ensure_primary || fail "nodes are up but none is in a primary component; stop and start the cluster"
    rejoin_node "$i"
  else
    # No other node is up: this one must found the cluster again. A node that was SIGKILLed or was not
    # the last one down is marked unsafe to bootstrap; the caller chose it, so mark it safe. Commits
    # that only a node still down had made are lost from the new history.
    grastate=$(node_dir "$i")/data/grastate.dat
    [ -f "$grastate" ] && sed -i 's/^safe_to_bootstrap: *0/safe_to_bootstrap: 1/' "$grastate"
    log "node$i: no other node is up; bootstrapping a new primary component from it"
    start_node "$i" bootstrap
    wait_synced "$i" 1
  fi
  # How it caught up, from what its log gained: tests of a rejoin want IST, not a full copy.
  how=$(tail -n +"$((seen + 1))" "$(node_log "$i")" 2>/dev/null |
    sed -n -e 's/.*WSREP: \(Receiving IST: .*\)/\1/p' -e 's/.*\(Prepared IST receiver for 0-.*\), listening.*/full SST; \1/p' |
    tail -n 1)
  log "node$i Synced, cluster size $((others + 1)), in $((SECONDS - t0))s${how:+ ($how)}"
}

cmd_status() {
  local i size state ready status all=0
  for i in "${NODES[@]}"; do
    read -r size state ready status <<<"$(node_state "$i")"
    if [ "$size" = down ]; then
      printf 'node%s 127.0.0.1:%s down\n' "$i" "$(client_port "$i")"
      all=1
    elif [ "$size" = starting ]; then
      # A joiner takes no connections until its state transfer is done.
      printf 'node%s 127.0.0.1:%s up pid=%s not answering yet (starting or receiving a state transfer)\n' \
        "$i" "$(client_port "$i")" "$(node_pid "$i")"
      all=1
    else
      printf 'node%s 127.0.0.1:%s up pid=%s cluster_size=%s state=%s ready=%s status=%s\n' \
        "$i" "$(client_port "$i")" "$(node_pid "$i")" "$size" "$state" "$ready" "$status"
      [ "$state" = Synced ] && [ "$ready" = ON ] && [ "$size" = 3 ] || all=1
    fi
  done
  return $all
}

usage() {
  awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"
  exit 2
}

main() {
  local cmd=${1:-}
  case "$cmd" in
    start | stop | kill | restart | status | urls | packages) ;;
    -h | --help | help | '') usage ;;
    *) log "unknown command '$cmd'"; usage ;;
  esac
  case "$cmd" in
    status) cmd_status; return ;;
    urls) print_urls; return ;;
    packages) missing_packages; return ;;
  esac
  [ "$(id -u)" -eq 0 ] || die "run as root (the nodes' datadirs are created and chowned, packages installed)"
  if [ -e "$BASE" ] && [ ! -f "$BASE/$MARKER" ]; then
    die "$BASE exists but was not made by this script (no $MARKER); not touching it"
  fi
  # One changing call at a time per base directory, so that two starts cannot build two clusters at
  # once; status and urls only read.
  mkdir -p "$(dirname "$BASE")"
  exec 9>"$LOCK"
  local wait_lock=$((TIMEOUT * 3 + 60))
  flock -w "$wait_lock" 9 || die "another call holds $LOCK for more than ${wait_lock}s"
  case "$cmd" in
    start) cmd_start ;;
    stop) cmd_stop; rm -f "$LOCK" ;;
    kill) cmd_kill "${2:-}" ;;
    restart) cmd_restart "${2:-}" ;;
  esac
}

main "$@"
