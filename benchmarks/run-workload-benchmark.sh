#!/usr/bin/env bash
# The sidecars' hit ratio on docs/WORKLOAD.md with stickiness and without it, and the write latency that waiting
# for invalidations adds (benchmarks/RESULTS.md, section 5), in one run: each mode on a fresh master and 12 fresh
# sidecars (4 services x 3 nodes), the TCP round-trip floor measured first in the same run. About 3 minutes.
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
java -cp "$jar" io.sessionmesh.benchmarks.sidecar.TcpEcho --serve --port 7600 > benchmarks/target/echo.log 2>&1 &
echo_pid=$!
trap 'kill $echo_pid 2>/dev/null || true' EXIT
sleep 1
echo "TCP round-trip floor (64 B, loopback, two processes):"
java -cp "$jar" io.sessionmesh.benchmarks.sidecar.TcpEcho --port 7600 --round-trips 20000
kill $echo_pid 2>/dev/null || true

java -Xmx2g -cp "$jar" io.sessionmesh.benchmarks.workload.WorkloadDriver --sessions 5500 --users 16 --warmup 20s \
  --duration 60s --modes sticky,random --out "$out/workload-$stamp.json" "$@"
