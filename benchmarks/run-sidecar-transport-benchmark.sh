#!/usr/bin/env bash
# The service-to-sidecar hop, TCP against the sidecar's Unix domain socket (sidecar setting unix-socket): a master and
# a sidecar process, the client jar's SidecarHttp calling it from [threads] threads, rounds alternating TCP and Unix;
# CPU per call of client and sidecar from their own counters (benchmarks/RESULTS.md 12.6). About 2 minutes.
#   benchmarks/run-sidecar-transport-benchmark.sh [threads 8] [seconds 8] [rounds 6]
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -q -B -ntp -Dstyle.color=never ${MVN_ARGS:-} -pl benchmarks,slave-sidecar,master-store -am package -DskipTests
java -Xms256m -Xmx256m -XX:+UseParallelGC -cp benchmarks/target/benchmarks.jar \
  io.sessionmesh.benchmarks.client.SidecarTransportBenchmark master-store/target/sessionmesh-master.jar \
  slave-sidecar/target/sessionmesh-sidecar.jar "$@"
