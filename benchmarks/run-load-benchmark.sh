#!/usr/bin/env bash
# The end-to-end comparison of benchmarks/RESULTS.md, section 6, in one run: docs/WORKLOAD.md at 1/100 scale
# through SessionMesh (binary, then JSON: a master and 3 sidecars each, processes) and through Spring Session on
# the local Redis, closed loop then open loop at one rate for all, with the TCP round-trip floor and Redis's own
# floor (redis-benchmark PING) measured first. About 15 minutes. Flags after the script's name go to the load
# generator (java -jar benchmarks/target/sessionmesh-load.jar --help lists them). Results and PNG charts:
# benchmarks/results/load-<date>/.
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -q -B -ntp -Dstyle.color=never -pl benchmarks,slave-sidecar -am package -DskipTests
jar=benchmarks/target/benchmarks.jar
out=benchmarks/results/load-$(date -u +%Y-%m-%d)
mkdir -p "$out" benchmarks/target

echo "machine: $(nproc) cores, $(java -version 2>&1 | sed -n 1p), redis $(redis-server --version | awk '{print $3}')"
java -cp "$jar" io.sessionmesh.benchmarks.sidecar.TcpEcho --serve --port 7600 > benchmarks/target/echo.log 2>&1 &
echo_pid=$!
trap 'kill $echo_pid 2>/dev/null || true' EXIT
sleep 1
echo "TCP round-trip floor (64 B, loopback, two processes):"
java -cp "$jar" io.sessionmesh.benchmarks.sidecar.TcpEcho --port 7600 --round-trips 20000
kill $echo_pid 2>/dev/null || true
if command -v redis-benchmark >/dev/null 2>&1; then
  echo "Redis floor (PING, one connection, no pipelining):"
  redis-benchmark -h 127.0.0.1 -p 6379 -c 1 -n 20000 -t ping_inline -q --precision 3 | tr '\r' '\n' | grep -a 'requests per second' | tail -n 1 || true
fi

java -Xms2g -Xmx2g -jar benchmarks/target/sessionmesh-load.jar --out "$out" "$@" | tee "$out/load.log"
