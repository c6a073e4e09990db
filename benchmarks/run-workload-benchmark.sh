#!/usr/bin/env bash
# The sidecars' hit ratio on docs/WORKLOAD.md with stickiness and without it, and the write latency that waiting
# for invalidations adds (benchmarks/RESULTS.md, section 5), in one run: each mode on a fresh master and 12 fresh
# sidecars (4 services x 3 nodes), the loopback floor measured first in the same run. About 3 minutes.
# Flags after the script's name go to WorkloadDriver (--sessions, --users, --warmup, --duration, --modes).
# Results: benchmarks/results/workload-<date>.json.
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -q -B -ntp -pl benchmarks,slave-sidecar -am package -DskipTests
jar=benchmarks/target/benchmarks.jar
out=benchmarks/results
stamp=$(date -u +%Y-%m-%d)
mkdir -p "$out" benchmarks/target

echo "machine: $(nproc) cores, $(java -version 2>&1 | sed -n 1p)"
java -cp "$jar" io.sessionmesh.benchmarks.floor.LoopbackFloor 127.0.0.1:6379

java -Xmx2g -cp "$jar" io.sessionmesh.benchmarks.workload.WorkloadDriver --sessions 5500 --users 16 --warmup 20s \
  --duration 60s --modes sticky,random --out "$out/workload-$stamp.json" "$@"
