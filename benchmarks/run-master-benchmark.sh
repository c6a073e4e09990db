#!/usr/bin/env bash
# The master's benchmarks of benchmarks/RESULTS.md, section 5: the master against redis-server on the same
# machine (both on loopback, the same load at the same concurrency and pipeline depth), with the master on one
# I/O thread (as Redis) and on two. About 8 minutes on 2 cores.
# Results: benchmarks/results/master-vs-redis-io<N>-<date>.json.
#
# Environment (all optional; the defaults are the whole run as RESULTS.md section 5 describes it, but for the huge
# pages, which the servers have asked for since 12.21):
#   MVN_ARGS     e.g. "-o -Dmaven.repo.local=/path/to/repo" for an offline build from a repository of one's own
#   SKIP_BUILD=1  use the jars already built
#   IO_THREADS    the master's I/O thread counts to run, "1 2" by default
#   MVR_ARGS      more MasterVsRedis flags, e.g. "--ops write --connections 4,16,64 --pipeline 16"
#   MASTER_JAVA_OPTS  more JVM flags for the master (a JFR recording, say); @IO@ becomes the thread count
#   MASTER_JAVA   the java that runs the master, "java" by default (e.g. a newer JDK's bin/java; the rest stay on "java")
#   MASTER_FLAGS  more master settings, e.g. "--io-transport nio"
#   MASTER_JAR    the master to measure (another build's, say), master-store/target/sessionmesh-master.jar by default
#   THP=0         run the master on 4 KiB pages: by default their heaps ask for transparent huge pages
#                 (-XX:+UseTransparentHugePages, as the master's image does; RESULTS.md 12.21 at 1f3fa7a)
#   STAMP         the results' name suffix, the date by default
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${SKIP_BUILD:-0}" != 1 ]; then
  mvn -q -B -ntp ${MVN_ARGS:-} -pl benchmarks -am package -DskipTests
fi
jar=benchmarks/target/benchmarks.jar
out=benchmarks/results
stamp=${STAMP:-$(date -u +%Y-%m-%d)}
mkdir -p "$out"
master_port=${MASTER_PORT:-7401}
redis_port=${REDIS_PORT:-6390}

pids=()
cleanup() { for p in "${pids[@]:-}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; pids=(); }
trap cleanup EXIT
wait_port() { for i in $(seq 1 100); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0; sleep 0.1; done; return 1; }
# Refuses a port something already listens on (a process left over from an earlier run would be measured instead).
free() { if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then echo "port $1 is in use: stop what listens there ($2 needs it)" >&2; exit 1; fi; }
# The process just started listens on its port.
started() { wait_port "$2" && kill -0 "$1" 2>/dev/null || { echo "$3 did not start on port $2 (see its log)" >&2; exit 1; }; }
# Stops one process this script started and forgets it.
stop() { kill "$1" 2>/dev/null || true; wait "$1" 2>/dev/null || true; local keep=(); for p in "${pids[@]}"; do [ "$p" = "$1" ] || keep+=("$p"); done; pids=("${keep[@]+"${keep[@]}"}"); }

free "$redis_port" redis-server; free "$master_port" "the master";
echo "machine: $(nproc) cores, $(java -version 2>&1 | sed -n 1p), redis $(redis-server --version | cut -d' ' -f3)"
[ -z "${MASTER_JAVA:-}" ] || echo "the master's java: $MASTER_JAVA, $("$MASTER_JAVA" -version 2>&1 | sed -n 1p)${MASTER_JAVA_OPTS:+, flags $MASTER_JAVA_OPTS}"
redis-server --port "$redis_port" --bind 127.0.0.1 --save "" --appendonly no --daemonize no \
  --logfile "$PWD/benchmarks/target/redis.log" &
redis_pid=$!
pids+=("$redis_pid")
started "$redis_pid" "$redis_port" redis-server
# The servers' JVM: a heap touched at start (AlwaysPreTouch: not during the first measured row, which paid ~300,000
# page faults) and, unless THP=0, on transparent huge pages (fewer TLB misses between the kernel's and the client's turns)
server_jvm=(-Xms2g -Xmx2g -XX:+AlwaysPreTouch)
[ "${THP:-1}" = 0 ] || server_jvm+=(-XX:+UseTransparentHugePages)
echo "the master's JVM flags: ${server_jvm[*]}"
for io in ${IO_THREADS:-1 2}; do
  "${MASTER_JAVA:-java}" "${server_jvm[@]}" $(opts="${MASTER_JAVA_OPTS:-}"; echo "${opts//@IO@/$io}") -jar "${MASTER_JAR:-master-store/target/sessionmesh-master.jar}" --port "$master_port" --io-threads "$io" \
    ${MASTER_FLAGS:-} > "benchmarks/target/master-io$io.log" 2>&1 &
  master_pid=$!
  pids+=("$master_pid")
  started "$master_pid" "$master_port" "the master"
  echo "== master with $io I/O thread(s)"
  java -Xmx1g -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$jar" io.sessionmesh.benchmarks.master.MasterVsRedis \
    --master "127.0.0.1:$master_port" --redis "127.0.0.1:$redis_port" --seconds "${SECONDS_PER_RUN:-5}" ${MVR_ARGS:-} \
    --master-pid "$master_pid" --redis-pid "$redis_pid" \
    --out "$out/master-vs-redis-io$io-$stamp.json" | tee "benchmarks/target/master-vs-redis-io$io.log"
  stop "$master_pid"
done
cleanup

