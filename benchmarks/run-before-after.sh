#!/usr/bin/env bash
# Before and after a change, side by side in one run (benchmarks/RESULTS.md, sections 4 and 12): builds the servers of an
# older commit in a git worktree beside the current ones, then runs each benchmark on the two builds in the order
# old, new, new, old, so that the machine's drift over the run weighs on both alike. The load generators are the
# current build's (the wire is the same on both sides of a refactoring; check that before using this across a
# protocol change); in the end-to-end closed loop the current driver starts each build's own stack (--jars), so each
# runs its own client jar in its own example service.
#
#   benchmarks/run-before-after.sh <old-commit> [master] [sidecar] [load]     (all three when none is named)
#
# master:  MasterVsRedis (section 5's 16 configurations, --io-threads 1) against each build's master and Redis,
#          SECONDS_PER_RUN (5) each, MVR_ARGS for more of its flags ("--ops write --connections 16,64"); about 3
#          minutes a pass.
# sidecar: SidecarBenchmark against each build's master + two sidecars (SIDECAR_FLAGS, "--io-threads 1" by default),
#          in both forms, SECONDS_PER_RUN (10) each, SIDECAR_BENCH_ARGS for more of its flags ("--connections 1,50");
#          about 6 minutes a pass.
# load:    the driver's mix plan, closed loop, SessionMesh only (a master, 3 hosts of a sidecar and the example
#          service), 16 users, 20 s warm-up + 60 s; about 2 minutes a pass.
# Results: benchmarks/results/before-after-<date>/<benchmark>-<old|new>-<pass>.json; needs wrk and redis-server.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { echo "usage: $0 <old-commit> [master] [sidecar] [load]"; exit 2; }
old_rev=$1; shift
parts=("$@"); [ ${#parts[@]} -gt 0 ] || parts=(master sidecar load)
old_tree=benchmarks/target/before-after-tree
out=benchmarks/results/before-after-$(date -u +%Y-%m-%d)
mkdir -p "$out" benchmarks/target

git rev-parse --verify -q "$old_rev^{commit}" >/dev/null || { echo "not a commit: $old_rev"; exit 2; }
for part in "${parts[@]}"; do
  case "$part" in
    master) command -v redis-server >/dev/null || { echo "redis-server is missing: apt-get install -y redis-server"; exit 2; } ;;
    sidecar) for tool in wrk redis-server; do
               command -v "$tool" >/dev/null || { echo "$tool is missing: apt-get install -y $tool"; exit 2; }
             done ;;
    load) ;;
    *) echo "unknown benchmark: $part (master, sidecar or load)"; exit 2 ;;
  esac
done
if [ -d "$old_tree" ]; then git worktree remove --force "$old_tree"; fi
git worktree add -q --detach "$old_tree" "$old_rev"
(cd "$old_tree" && mvn -q -B -ntp package -DskipTests)
mvn -q -B -ntp package -DskipTests
jar=benchmarks/target/benchmarks.jar

pids=()
cleanup() { for p in "${pids[@]:-}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; pids=(); }
trap 'cleanup; git worktree remove --force "$old_tree" 2>/dev/null || true' EXIT
wait_port() { for i in $(seq 1 100); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0; sleep 0.1; done; echo "port $1 never opened"; return 1; }
tree_of() { if [ "$1" = old ]; then echo "$old_tree"; else echo .; fi; }

master_pass() { # build pass
  local tree; tree=$(tree_of "$1")
  redis-server --port 6390 --bind 127.0.0.1 --save "" --appendonly no --daemonize no --logfile "$PWD/benchmarks/target/redis.log" &
  pids+=($!)
  java -Xms2g -Xmx2g -jar "$tree/master-store/target/sessionmesh-master.jar" --port 7401 --io-threads 1 \
    > "benchmarks/target/before-after-master-$1.log" 2>&1 &
  pids+=($!)
  wait_port 6390; wait_port 7401
  java -Xmx1g -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$jar" io.sessionmesh.benchmarks.master.MasterVsRedis \
    --master 127.0.0.1:7401 --redis 127.0.0.1:6390 --seconds "${SECONDS_PER_RUN:-5}" ${MVR_ARGS:-} --out "$out/master-$1-$2.json"
  cleanup
}

sidecar_pass() {
  local tree; tree=$(tree_of "$1")
  java -Xms1g -Xmx1g -jar "$tree/master-store/target/sessionmesh-master.jar" --port 7401 --io-threads 1 > /dev/null 2>&1 &
  pids+=($!)
  wait_port 7401
  java -Xms1g -Xmx1g -jar "$tree/slave-sidecar/target/sessionmesh-sidecar.jar" --masters 127.0.0.1:7401 --port 7510 \
    --admin-port 7511 ${SIDECAR_FLAGS:---io-threads 1} > /dev/null 2>&1 &
  local hit_pid=$!
  pids+=($!)
  java -Xms1g -Xmx1g -jar "$tree/slave-sidecar/target/sessionmesh-sidecar.jar" --masters 127.0.0.1:7401 --port 7520 \
    --admin-port 7521 ${SIDECAR_FLAGS:---io-threads 1} --cache-max-bytes 0 > /dev/null 2>&1 &
  pids+=($!)
  redis-server --port 6390 --bind 127.0.0.1 --save "" --appendonly no --daemonize no --logfile "$PWD/benchmarks/target/redis.log" &
  pids+=($!)
  for p in 7510 7520 6390; do wait_port "$p"; done
  sleep 1
  java -Xmx1g -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$jar" io.sessionmesh.benchmarks.sidecar.SidecarBenchmark \
    --hit 127.0.0.1:7510 --miss 127.0.0.1:7520 --redis 127.0.0.1:6390 --hit-pid "$hit_pid" ${SIDECAR_BENCH_ARGS:-} \
    --seconds "${SECONDS_PER_RUN:-10}" --out "$out/sidecar-$1-$2.json"
  cleanup
}

load_pass() {
  local tree; tree=$(tree_of "$1")
  java -Xms1g -Xmx1g -jar benchmarks/target/sessionmesh-driver.jar mix --jars "$tree" --systems sessionmesh --users 16 \
    --warmup 20s --duration 60s --floor false --out "benchmarks/target/before-after-load-$1-$2" | tail -n 20
  cp "benchmarks/target/before-after-load-$1-$2/mix.json" "$out/load-$1-$2.json"
}

echo "machine: $(nproc) cores, $(java -version 2>&1 | sed -n 1p); old $(git rev-parse --short "$old_rev"), new $(git rev-parse --short HEAD)"
for part in "${parts[@]}"; do
  pass=0
  for build in old new new old; do
    pass=$((pass + 1))
    echo "== $part, $build build, pass $pass"
    "${part}_pass" "$build" "$pass"
  done
done
echo "results in $out"
