#!/usr/bin/env bash
# What replication costs (benchmarks/RESULTS.md, section 6; issue 15): writes and reads against a master on its own,
# a group of one replica (Ratis, its log forced to disk), groups of three with the log forced and not, over Netty and
# over gRPC, and Redis with
# one replica and WAIT 1 0 after each write. Every master and Redis runs on this machine, on loopback, with one I/O
# thread; their logs go to benchmarks/target/replication/. About 8 minutes.
# Results: benchmarks/results/replication-<date>.json. Needs redis-server.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v redis-server >/dev/null || { echo "redis-server is missing: apt-get install -y redis-server"; exit 2; }
[ "${SKIP_BUILD:-0}" = 1 ] || mvn -q -B -ntp ${MVN_ARGS:-} -pl benchmarks -am package -DskipTests
jar=benchmarks/target/benchmarks.jar
master=master-store/target/sessionmesh-master.jar
out=benchmarks/results
work=benchmarks/target/replication
stamp=$(date -u +%Y-%m-%dT%H%M)
rm -rf "$work"
mkdir -p "$out" "$work"

pids=()
cleanup() { for p in "${pids[@]:-}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT
wait_port() { for i in $(seq 1 200); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0; sleep 0.1; done; echo "port $1 never opened"; return 1; }
start_master() { # name, log file, flags...
  local name=$1; shift
  java -Xms1g -Xmx1g -jar "$master" --io-threads 1 "$@" > "$work/$name.log" 2>&1 &
  pids+=($!)
}

echo "machine: $(nproc) cores, $(java -version 2>&1 | sed -n 1p), redis $(redis-server --version | cut -d' ' -f3), disk of $work: $(df -P "$work" | awk 'NR==2 {print $1}')"
start_master alone --port 7401
start_master group-1 --port 7411 --replicas r1=127.0.0.1:7411/7461 --replica-id r1 --raft-dir "$work/group-1"
g3=s1=127.0.0.1:7421/7471,s2=127.0.0.1:7422/7472,s3=127.0.0.1:7423/7473
for r in 1 2 3; do
  start_master "group-3-s$r" --port 742$r --replicas "$g3" --replica-id "s$r" --raft-dir "$work/group-3/s$r"
done
n3=n1=127.0.0.1:7431/7481,n2=127.0.0.1:7432/7482,n3=127.0.0.1:7433/7483
for r in 1 2 3; do
  start_master "group-3-nosync-n$r" --port 743$r --replicas "$n3" --replica-id "n$r" --raft-dir "$work/group-3-nosync/n$r" \
    --sync-log false
done
r3=r1=127.0.0.1:7441/7491,r2=127.0.0.1:7442/7492,r3=127.0.0.1:7443/7493
for r in 1 2 3; do
  start_master "group-3-grpc-r$r" --port 744$r --replicas "$r3" --replica-id "r$r" --raft-dir "$work/group-3-grpc/r$r" \
    --raft-transport grpc
done
redis-server --port 6391 --bind 127.0.0.1 --save "" --appendonly no --daemonize no --dir "$PWD/$work" \
  --logfile "$PWD/$work/redis-primary.log" &
pids+=($!)
# (a replica writes the primary's RDB into its --dir on the first sync, whatever --save says)
redis-server --port 6392 --bind 127.0.0.1 --save "" --appendonly no --daemonize no --replicaof 127.0.0.1 6391 \
  --dir "$PWD/$work" --dbfilename replica.rdb --logfile "$PWD/$work/redis-replica.log" &
pids+=($!)
for p in 7401 7411 7421 7422 7423 7431 7432 7433 7441 7442 7443 6391 6392; do wait_port "$p"; done
sleep 2

java -Xmx1g -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$jar" io.sessionmesh.benchmarks.master.ReplicationBenchmark \
  --masters "alone=127.0.0.1:7401,group-1=127.0.0.1:7411,group-3=127.0.0.1:7421|127.0.0.1:7422|127.0.0.1:7423,group-3-nosync=127.0.0.1:7431|127.0.0.1:7432|127.0.0.1:7433,group-3-grpc=127.0.0.1:7441|127.0.0.1:7442|127.0.0.1:7443" \
  --redis 127.0.0.1:6391 --seconds "${SECONDS_PER_RUN:-5}" ${REPLICATION_BENCH_ARGS:-} --out "$out/replication-$stamp.json" \
  | tee "$work/replication-benchmark.log"
