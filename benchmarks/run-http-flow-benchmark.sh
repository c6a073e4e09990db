#!/usr/bin/env bash
# Issue 18's measurement: CPU per end-user request by process, with a real HTTP service on each side. SessionMesh (the
# example service, a sidecar, a master) and Spring Session on the local Redis (example-spring-session) as processes on
# loopback, all up at once, 1,000 sessions logged into each, every flow warmed up once, then the floor (GET
# /deposits/floor, no session id), the same with a session id it does not use, the read flow (GET /deposits/offer) and
# the write flow (PUT /deposits/draft), the systems in turn within each flow (--rounds N: all of it N times, with the
# ratios' median), each 15 s of warm-up and 15 s measured with 50 keep-alive connections; each process's CPU from its
# own counters. The loopback floor (redis-benchmark PING) and the machine's facts come first. About 9 minutes. Flags after the script's name go to the driver (--help lists them:
# --profile standard, --systems, --flows, --duration, --jfr, --out ...). Results:
# benchmarks/results/http-flow-<date>/http-flow.{json,md} and the apps' logs; this output in benchmarks/target/http-flow.log.
# On a shared machine run it alone (nothing else busy on the cores).
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -q -B -ntp -Dstyle.color=never ${MVN_ARGS:-} -pl benchmarks,slave-sidecar,example-service,example-spring-session,example-spring-session-on-sessionmesh -am \
  package -DskipTests
mkdir -p benchmarks/target
echo "machine: $(nproc) cores, $(java -version 2>&1 | sed -n 1p), redis $(redis-server --version | awk '{print $3}'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
java -Xms512m -Xmx512m -XX:+UseParallelGC -cp benchmarks/target/benchmarks.jar io.sessionmesh.benchmarks.http.HttpFlowBenchmark "$@" \
  | tee benchmarks/target/http-flow.log
