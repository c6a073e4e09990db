#!/usr/bin/env bash
# The end-to-end comparison of benchmarks/RESULTS.md, section 6, in one run: docs/WORKLOAD.md at 1/100 scale
# through SessionMesh (binary, then JSON: a master and 3 sidecars each, processes) and through Spring Session on
# the local Redis, closed loop then open loop at one rate for all, with the loopback floor (redis-benchmark PING)
# measured first. About 15 minutes. Flags after the script's name go to the load
# generator (java -jar benchmarks/target/sessionmesh-load.jar --help lists them). Results and PNG charts:
# benchmarks/results/load-<date>/.
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -q -B -ntp -Dstyle.color=never -pl benchmarks,slave-sidecar -am package -DskipTests
jar=benchmarks/target/benchmarks.jar
out=benchmarks/results/load-$(date -u +%Y-%m-%d)
mkdir -p "$out" benchmarks/target

echo "machine: $(nproc) cores, $(java -version 2>&1 | sed -n 1p), redis $(redis-server --version | awk '{print $3}')"
java -cp "$jar" io.sessionmesh.benchmarks.floor.LoopbackFloor 127.0.0.1:6379

java -Xms2g -Xmx2g -jar benchmarks/target/sessionmesh-load.jar --out "$out" "$@" | tee "$out/load.log"
