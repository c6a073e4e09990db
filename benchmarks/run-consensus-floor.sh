#!/usr/bin/env bash
# The floor of two consensus libraries on this machine, side by side (benchmarks/RESULTS.md 9.6; issue 15): Apache
# Ratis as the master groups run it (ReplicaProposeLatency, through ReplicaGroup.propose) and MicroRaft
# (MicroRaftProposeLatency, with a forced file append and with its own SQLite store), 1 KB writes proposed straight to
# the leader and timed to its apply. One node, then three nodes each in its own JVM; 1 and 16 proposing threads;
# ROUNDS rounds (2 by default), the libraries alternating within each. The loopback round trip and the forced 4 KB
# write are measured first, in the same run. About 10 minutes. Output: stdout (tee it to benchmarks/results/).
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -q -B -ntp -pl benchmarks -am package -DskipTests ${MVN_OFFLINE:-}
jar=benchmarks/target/benchmarks.jar
J="java -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp $jar"
WRITES=${WRITES:-3000}

echo "machine: $(nproc) cores, $(java -version 2>&1 | sed -n 1p), $(date -u +%Y-%m-%dT%H:%MZ)"
tmp=$(mktemp -d)
echo "forced 4 KB writes (dd oflag=dsync, 500 of them, in $tmp): $(dd if=/dev/zero of="$tmp/dd" bs=4k count=500 oflag=dsync 2>&1 | tail -1)"
rm -rf "$tmp"
$J io.sessionmesh.benchmarks.sidecar.TcpEcho --serve --port 7690 >/dev/null 2>&1 &
echo_pid=$!
trap 'kill $echo_pid 2>/dev/null || true' EXIT
sleep 1
echo "loopback floor (TcpEcho, two processes): $($J io.sessionmesh.benchmarks.sidecar.TcpEcho --port 7690 2>&1 | tail -1)"
kill $echo_pid

for round in $(seq 1 "${ROUNDS:-2}"); do
  for n in 1 3; do
    for c in 1 16; do
      echo "== round $round, $n node(s), $c proposing thread(s)"
      $J io.sessionmesh.benchmarks.master.ReplicaProposeLatency --replicas $n --processes true --sync-log true --clients $c --writes "$WRITES" 2>&1 | grep "writes proposed"
      $J io.sessionmesh.benchmarks.master.MicroRaftProposeLatency --replicas $n --processes true --store file --clients $c --writes "$WRITES" 2>&1 | grep "writes proposed"
      $J io.sessionmesh.benchmarks.master.MicroRaftProposeLatency --replicas $n --processes true --store sqlite --clients $c --writes "$WRITES" 2>&1 | grep "writes proposed"
    done
  done
done
