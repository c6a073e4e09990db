#!/usr/bin/env bash
# The client jar's figures of benchmarks/RESULTS.md, section 4: its HTTP client against the JDK's, the deposit
# flow's three sections as one batch against three single reads, and the bytes of a delta save against resending
# the section. A master and a sidecar (one I/O thread each) as processes. About 2 minutes on 2 cores.
# Results: benchmarks/results/client-<date>.json.
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -q -B -ntp -pl benchmarks -am package -DskipTests
jar=benchmarks/target/benchmarks.jar
out=benchmarks/results
stamp=$(date -u +%Y-%m-%d)
mkdir -p "$out" benchmarks/target
pids=()
cleanup() { for p in "${pids[@]:-}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT
wait_port() { for i in $(seq 1 100); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0; sleep 0.1; done; return 1; }

echo "machine: $(nproc) cores, $(java -version 2>&1 | sed -n 1p)"
java -Xms1g -Xmx1g -jar master-store/target/sessionmesh-master.jar --port 7401 --io-threads 1 > benchmarks/target/master.log 2>&1 &
pids+=($!)
wait_port 7401
java -Xms1g -Xmx1g -jar slave-sidecar/target/sessionmesh-sidecar.jar --masters 127.0.0.1:7401 --port 7510 --admin-port 7511 \
  --io-threads 1 > benchmarks/target/sidecar.log 2>&1 &
pids+=($!)
wait_port 7510
sleep 1
java -Xmx1g -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$jar" io.sessionmesh.benchmarks.client.ClientBenchmark \
  --sidecar http://127.0.0.1:7510 --seconds "${SECONDS_PER_RUN:-10}" --out "$out/client-$stamp.json" \
  | tee benchmarks/target/client-benchmark.log
