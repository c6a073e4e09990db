#!/usr/bin/env bash
# Issue 18's reference-scale run on one machine: one real master (its own JVM: HEAP, GC, a GC log with pause times)
# driven open loop by ReferenceScaleRun: RATE sessions created a second, each followed by the WRITE of its whole data
# (PROFILE compact: 12 sections x 5 attributes of 200 B; standard: the workload's value sizes), idling out after IDLE,
# with MIX_RATE reads+writes a second of the workload's mix on live sessions on top.
#   MODE=steady: a fill until the active set stops growing (RATE x IDLE, and the sessions the mix keeps alive longer),
#                then a WINDOW in which expiry runs at the creation rate; latency from the intended send (HdrHistogram), errors, GC pauses, CPU; then, load stopped, heap
#                after a full GC (jcmd) and RSS per session against the payload.
#   MODE=fill:   creates until the master refuses one past its memory budget (MAX_STORE: UNAVAILABLE) or
#                MAX_SESSIONS are in: how many sessions of PROFILE fit in HEAP.
# Results: benchmarks/results/reference-scale-<stamp>/ (summary.txt, reference-scale.json, gc.log, master.log, run.txt).
# Run it alone: nothing else busy on the machine.
#
# The full run (compact; 1,833/s x 5 min = 549,900 sessions, and ~6% more that the mix keeps alive after their creation's
# idle timeout: ~590,000 active): a 10 min fill ((1 + 0.9) x idle + 30 s), the 5 min window, the full GC; ~17 min with
# the build, ~16 GB of RAM (the master's 14 GB heap, touched in full, and the driver's 1 GB):
#   benchmarks/run-reference-scale.sh                       # G1 (the defaults below)
#   GC=zgc benchmarks/run-reference-scale.sh                # ZGC (JDK 17: single-generation)
#   GC=genzgc MASTER_JAVA_HOME=/path/to/jdk-21-or-later benchmarks/run-reference-scale.sh   # generational ZGC (JDK 21+)
# How far the standard profile goes in 16 GB (the budget may be at most 70% of the heap: 11 GiB of 16):
#   MODE=fill PROFILE=standard HEAP="-Xms16g -Xmx16g" MAX_STORE=11g RATE=2000 benchmarks/run-reference-scale.sh
# A smoke run (a few minutes, 2 GB):
#   RATE=200 IDLE=30s WINDOW=60s HEAP="-Xms2g -Xmx2g" MAX_STORE=1g benchmarks/run-reference-scale.sh
set -euo pipefail
cd "$(dirname "$0")/.."
# MVN_FLAGS: e.g. "-o -Dmaven.repo.local=/path/to/repo" for an offline build from a repository of one's own.
mvn -q -B -ntp ${MVN_FLAGS:-} -pl benchmarks -am package -DskipTests
jar=benchmarks/target/benchmarks.jar
master_jar=master-store/target/sessionmesh-master.jar
mode=${MODE:-steady}
profile=${PROFILE:-compact}
rate=${RATE:-1833}
idle=${IDLE:-}
fill=${FILL:-}
window=${WINDOW:-5m}
mix_rate=${MIX_RATE:-2000}
max_sessions=${MAX_SESSIONS:-0}
gc=${GC:-g1}
# The smoke runs measured 13.5-14.1 KB of heap after a full GC and 13.7-13.8 KB of the master's budget (STATS
# budget_used_bytes) a compact session: ~590,000 sessions need ~8.3 GB of heap and ~8.2 GB of budget. max-store 9g
# (9.7 GB) leaves ~15% over that; it may be at most 70% of -Xmx, so 14g, which also leaves G1 (and ZGC) ~5.5 GB for
# garbage (~50 MB/s of allocation at the reference rate).
heap=${HEAP:--Xms14g -Xmx14g}
max_store=${MAX_STORE:-9g}
io_threads=${IO_THREADS:-1}
port=${PORT:-7480}
driver_heap=${DRIVER_HEAP:--Xms1g -Xmx1g}
master_java_home=${MASTER_JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")}
master_java=$master_java_home/bin/java
stamp=$(date -u +%Y-%m-%dT%H%M%S)
out=${OUT:-benchmarks/results/reference-scale-$stamp}
mkdir -p "$out"

feature=$("$master_java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
case "$gc" in
  g1) gc_flags=(-XX:+UseG1GC) ;;
  parallel) gc_flags=(-XX:+UseParallelGC) ;;
  zgc) gc_flags=(-XX:+UseZGC) ;;
  genzgc)
    # Generational ZGC: a choice on JDK 21 and 22, the only ZGC from 23 on, absent before 21.
    if [ "$feature" -lt 21 ]; then echo "GC=genzgc needs JDK 21+ (MASTER_JAVA_HOME); $master_java is $feature" >&2; exit 2; fi
    if [ "$feature" -lt 23 ]; then gc_flags=(-XX:+UseZGC -XX:+ZGenerational); else gc_flags=(-XX:+UseZGC); fi ;;
  *) echo "GC=$gc: expected g1, parallel, zgc or genzgc" >&2; exit 2 ;;
esac

master_pid=
cleanup() { if [ -n "$master_pid" ]; then kill "$master_pid" 2>/dev/null || true; wait "$master_pid" 2>/dev/null || true; fi; }
trap cleanup EXIT
wait_port() { for i in $(seq 1 300); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0; sleep 0.1; done; return 1; }

master_cmd=("$master_java" $heap "${gc_flags[@]}" "-Xlog:gc*:file=$out/gc.log:timemillis,uptime,level,tags:filecount=0"
  -jar "$master_jar" --port "$port" --io-threads "$io_threads" --max-store "$max_store" --connection-idle-timeout 1h)
driver_args=(--master "127.0.0.1:$port" --jcmd "$master_java_home/bin/jcmd" --gc-log "$out/gc.log" --mode "$mode"
  --profile "$profile" --rate "$rate" --window "$window" --mix-rate "$mix_rate" --max-sessions "$max_sessions" --out "$out")
if [ -n "$idle" ]; then driver_args+=(--idle "$idle"); fi
if [ -n "$fill" ]; then driver_args+=(--fill "$fill"); fi

{
  echo "reference-scale run $stamp"
  echo "machine: $(nproc) cores, $(sed -n 's/^MemTotal: *//p' /proc/meminfo) RAM, $(sed -n 's/^MemAvailable: *//p' /proc/meminfo) available, load average $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "master JVM: $("$master_java" -version 2>&1 | sed -n 1p) (feature $feature), GC=$gc"
  echo "driver JVM: $(java -version 2>&1 | sed -n 1p)"
  echo "master: ${master_cmd[*]}"
} | tee "$out/run.txt"

"${master_cmd[@]}" > "$out/master.log" 2>&1 &
master_pid=$!
wait_port "$port"
driver_cmd=(java $driver_heap -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$jar"
  io.sessionmesh.benchmarks.refscale.ReferenceScaleRun --master-pid "$master_pid" "${driver_args[@]}")
echo "driver: ${driver_cmd[*]}" | tee -a "$out/run.txt"
"${driver_cmd[@]}" 2>&1 | tee "$out/driver.log"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/run.txt"
echo "results: $out"
