#!/usr/bin/env bash
# The demo in one command, on a machine with a JDK 17+ and Maven: builds the master, the sidecar, the example
# service and the benchmark driver (tests skipped), then runs the driver's demo plan: starts the three as processes,
# drives the workload through the service for a minute and prints what the cache, the batching and the deltas did.
# The stack keeps running.
#
#   ./demo.sh [--stop] [--duration 60s] [--users 4] ...   run it (every flag: ./demo.sh --help)
#   ./demo.sh stop                                         stop a stack the demo left running
set -euo pipefail
cd "$(dirname "$0")"
jar=benchmarks/target/sessionmesh-driver.jar

command -v java >/dev/null 2>&1 || { echo "demo: no java on the PATH; install a JDK 17 or later" >&2; exit 1; }
if [ "${1:-}" = stop ]; then
  if [ ! -f "$jar" ]; then echo "[demo] the demo was never built here, so no demo stack runs"; exit 0; fi
  exec java -jar "$jar" demo "$@"
fi
if { [ "${1:-}" = --help ] || [ "${1:-}" = -h ]; } && [ -f "$jar" ]; then
  exec java -jar "$jar" demo --help
fi
command -v mvn >/dev/null 2>&1 || { echo "demo: no mvn on the PATH; install Maven 3.8 or later" >&2; exit 1; }
if [ "${1:-}" != --help ] && [ "${1:-}" != -h ]; then
  echo "[demo] building the master, the sidecar, the example service and the driver (tests skipped; a first build downloads its dependencies from Maven Central)"
fi
# -Dbenchmarks.jar.skip: the driver's jar only, not the JMH benchmarks' (the demo runs none of them)
mvn -q -B -ntp -Dstyle.color=never -pl master-store,slave-sidecar,example-service,benchmarks -am package -DskipTests \
  -Dbenchmarks.jar.skip=true
exec java -jar "$jar" demo "$@"
