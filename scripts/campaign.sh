#!/usr/bin/env bash
# Runs Slotted's fault campaign from the command line: a private MariaDB or PostgreSQL server of its
# own (started from Maven Central under slotted-campaign/target/, never the machine's), a fault proxy
# in front of it, library instances as application processes, a mixed workload, every fault at
# random moments, then the whole history checked. See docs/campaign.md.
#
#   scripts/campaign.sh --database mariadb|postgresql|galera [--seed N] [--seconds S]
#                                         one run; without --seed a new seed is drawn and printed;
#                                         galera: a private 3-node cluster (scripts/galera-cluster.sh),
#                                         each process counting through a node of its own
#   scripts/campaign.sh --database mariadb --hour
#                                         one run of an hour
#   scripts/campaign.sh --database postgresql --through service [--seed N] [--seconds S]
#                                         one run through two `slotted serve` processes, over HTTP and
#                                         the Redis protocol, instead of library instances
#   SLOTTED_MUTATION=FENCE_REMOVED scripts/campaign.sh --database mariadb --until-anomaly \
#       [--round-seconds 20] [--budget-seconds 300]
#                                         plants a known bug and runs short rounds until one finds it
#
# Exits 0 when no anomaly was found, 1 when one was (the report names each, with its counter's
# history and the command that replays it), 2 on bad arguments.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

args=()
for arg in "$@"; do
  if [[ "$arg" == --hour ]]; then args+=(--seconds 3600); else args+=("$arg"); fi
done

modules=slotted-campaign
[[ " $* " == *" --through service "* ]] && modules=slotted-campaign,slotted-server  # the jar the processes run
echo "campaign: building ..." >&2
mvn -q -B -DskipTests install -pl "$modules" -am 2>&1 | sed -e 's/\x1b\[[0-9;]*m//g' -e '/^[[:space:]]*$/d' >&2
classpath_file=slotted-campaign/target/campaign.classpath
mvn -q -B -pl slotted-campaign org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath \
  -Dmdep.includeScope=test -Dmdep.outputFile=target/campaign.classpath >&2

mutation=()
[[ -n "${SLOTTED_MUTATION:-}" ]] && mutation=("-Dslotted.mutation=$SLOTTED_MUTATION")
cd slotted-campaign
exec java "${mutation[@]}" -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
  -Dorg.slf4j.simpleLogger.log.io.slotted.campaign=info \
  -cp "target/test-classes:$(cat target/campaign.classpath)" io.slotted.campaign.CampaignMain "${args[@]}"
