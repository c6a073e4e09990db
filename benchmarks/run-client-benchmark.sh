#!/usr/bin/env bash
# The client jar's figures of benchmarks/RESULTS.md, section 4, against a master and a sidecar (one I/O thread each)
# started here as processes: ClientBenchmark (JMH) reads the deposit flow's three sections through the client jar's
# HTTP client, the JDK's and the client jar's API, as one batch and as three single reads, on one thread, then the
# two HTTP clients' batch read on eight threads; DeltaBytes reports the bytes of a delta save against resending the
# section. About 6 minutes on 2 cores with the benchmark's own iterations. Arguments after the script's name go to
# both JMH runs (a smoke run: -f 1 -wi 1 -i 1 -r 1s). Results: benchmarks/results/client-<date>.json (one thread),
# client-8threads-<date>.json and client-delta-<date>.json; logs in benchmarks/target/.
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -q -B -ntp -pl benchmarks -am package -DskipTests
jar=benchmarks/target/benchmarks.jar
out=benchmarks/results
stamp=$(date -u +%Y-%m-%d)
sidecar=http://127.0.0.1:7510
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

java -jar "$jar" ClientBenchmark -p sidecar="$sidecar" -t 1 -foe true -rf json -rff "$out/client-$stamp.json" "$@" \
  | tee benchmarks/target/client-benchmark.log
java -jar "$jar" ClientBenchmark -p sidecar="$sidecar" -p client=SIDECAR_HTTP,JDK_HTTP_CLIENT -p reads=BATCH -t 8 \
  -foe true -rf json -rff "$out/client-8threads-$stamp.json" "$@" | tee benchmarks/target/client-benchmark-8threads.log
java -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$jar" io.sessionmesh.benchmarks.client.DeltaBytes \
  --sidecar "$sidecar" --out "$out/client-delta-$stamp.json" | tee benchmarks/target/client-delta.log
