#!/usr/bin/env bash
# The end-to-end figures of benchmarks/RESULTS.md from one program, the benchmark driver: builds every jar it starts
# (the master, the sidecar, the example service, the Spring Session baseline and the drop-in app; tests skipped), then
#
#   java -jar benchmarks/target/sessionmesh-driver.jar <plan> [flags]
#
# with its output also in benchmarks/target/driver-<plan>.log. The driver measures the loopback floor and the machine
# itself, and writes its report (<plan>.json, <plan>.md) and every process's log to --out
# (benchmarks/results/<plan>-<date> by default). On a shared machine run it alone: nothing else busy on the cores.
#
#   benchmarks/run-driver.sh flows [--rounds 3] [--systems sessionmesh,sessionmesh-unix,drop-in,spring-session]
#   benchmarks/run-driver.sh mix [--rate 400] [--routing random] [--hosts 3]
#   benchmarks/run-driver.sh scale [--master-jvm="-Xms14g -Xmx14g -XX:+UseZGC"] [--mode fill --profile standard]
#   benchmarks/run-driver.sh --help                      every plan and flag
#
# Environment: MVN_ARGS (more Maven flags, e.g. "-o"), SKIP_BUILD=1 (the jars already built), DRIVER_JVM (the driver's
# own JVM flags; "-Xms1g -Xmx1g -XX:+UseParallelGC" by default).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${SKIP_BUILD:-0}" != 1 ]; then
  mvn -q -B -ntp -Dstyle.color=never ${MVN_ARGS:-} \
    -pl benchmarks,master-store,slave-sidecar,example-service,example-spring-session,example-spring-session-on-sessionmesh \
    -am package -DskipTests -Dbenchmarks.jar.skip=true
fi
mkdir -p benchmarks/target
plan=${1:-help}
java ${DRIVER_JVM:--Xms1g -Xmx1g -XX:+UseParallelGC} -jar benchmarks/target/sessionmesh-driver.jar "$@" \
  | tee "benchmarks/target/driver-${plan#--}.log"
