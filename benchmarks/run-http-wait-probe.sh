#!/usr/bin/env bash
# Where a SessionMesh request waits (benchmarks/RESULTS.md 12.24): one flow of the HTTP flow benchmark (FLOW, the
# write flow by default) on SessionMesh alone, and two snapshots, WINDOW seconds apart in its steady state, of
#   - every thread of the service, the sidecar and the master: CPU time, time runnable but waiting for a core, and
#     voluntary and involuntary switches (/proc/<pid>/task/<tid>/schedstat and status), summed by thread name over
#     the threads alive at the second snapshot;
#   - the service's client calls to the sidecar (the Micrometer timer sessionmesh.client.calls, by operation) and its
#     own requests (http.server.requests): the mean time of each between the two snapshots. For that timer the probe
#     puts Spring Boot's request observation back in the service (the flow benchmark leaves it out of every app,
#     RESULTS.md 12.25), which costs the service some 6% more CPU than in the flow benchmark.
# About 2 minutes. Run it alone on the machine. Flags after the script's name go to the flow benchmark (e.g.
# --sidecar-flags="--io-threads 2").
#
# Environment (all optional):
#   FLOW=read     the read flow (GET /deposits/offer) instead of the write flow (PUT /deposits/draft)
#   SKIP_BUILD=1  use the jars already built
#   NICE=-5       renice every thread of the sidecar and the master to this value once they run (root)
#   FIFO=10       put the sidecar's and the master's I/O loops (threads named *-io-*) on SCHED_FIFO at this priority
#                 (root)
#   WINDOW=10     seconds between the two snapshots, 1 to 25: the first falls SETTLE_SECONDS (12) after the pre-warm,
#                 and the flow's warm-up and measured window end 40 s after it
#   OUT           the folder for the output, benchmarks/target/http-wait-probe by default
# Output: OUT/probe.txt (the two tables), OUT/flow.log (the flow benchmark's own output, with its latency and CPU).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-benchmarks/target/http-wait-probe}
window=${WINDOW:-10}
# the first snapshot this long after the flow's pre-warm, once the flow's warm-up has settled in
SETTLE_SECONDS=12
# the flow runs this long after its pre-warm (half warm-up, half measured); both snapshots must fall inside it
FLOW_SECONDS=40
if ! [[ "$window" =~ ^[0-9]+$ ]] || (( window < 1 || SETTLE_SECONDS + window > FLOW_SECONDS - 3 )); then
  echo "WINDOW must be a whole number of seconds from 1 to $((FLOW_SECONDS - 3 - SETTLE_SECONDS)), not $window" >&2
  exit 2
fi
flow_name=${FLOW:-write}
case "$flow_name" in
  write) request_method=PUT ;;
  read) request_method=GET ;;
  *) echo "FLOW must be read or write, not $flow_name" >&2; exit 2 ;;
esac
if [ "${SKIP_BUILD:-0}" != 1 ]; then
  mvn -q -B -ntp -Dstyle.color=never -pl benchmarks,slave-sidecar,example-service -am package -DskipTests
fi
mkdir -p "$out"
log="$out/flow.log"
java -Xms512m -Xmx512m -XX:+UseParallelGC -cp benchmarks/target/benchmarks.jar \
  io.sessionmesh.benchmarks.http.HttpFlowBenchmark --systems sessionmesh --flows "$flow_name" --warmup "$((FLOW_SECONDS / 2))s" --duration "$((FLOW_SECONDS / 2))s" \
  --out "$out/flow" --app-flags=--spring.autoconfigure.exclude= "$@" > "$log" 2>&1 &
flow=$!
trap 'kill $flow 2>/dev/null || true' EXIT
until grep -q "pre-warmed" "$log"; do
  kill -0 $flow 2>/dev/null || { cat "$log"; echo "the flow benchmark ended before its pre-warm" >&2; exit 1; }
  sleep 1
done
pid_of() { grep "processes" "$log" | grep -o "$1=[0-9]*" | cut -d= -f2; }
service=$(pid_of service); sidecar=$(pid_of sidecar); master=$(pid_of master)
port=$(ss -ltnpH | awk -v p="pid=$service," 'index($0, p) { sub(/.*:/, "", $4); if (min == "" || $4 + 0 < min) min = $4 + 0 }
  END { print min }')
for p in $sidecar $master; do
  for t in $(ls /proc/$p/task); do
    if [ -n "${NICE:-}" ]; then renice -n "$NICE" -p "$t" > /dev/null; fi
    if [ -n "${FIFO:-}" ] && grep -q -- "-io-" /proc/$p/task/$t/comm; then chrt -f -p "$FIFO" "$t"; fi
  done
done
# one line a thread: pid, name with its number cut off, run ns, wait ns, slices, voluntary, involuntary switches
threads() {
  for p in $service $sidecar $master; do
    for t in /proc/$p/task/*; do
      name=$(tr ' ' '_' < "$t/comm" | sed -E 's/[-_]?[0-9]+$//')
      echo "$p $name $(cat "$t/schedstat") $(awk '/ctxt_switches/ {printf "%s ", $2}' "$t/status")"
    done 2>/dev/null
  done
}
# one line a timer: name, tag, count, total seconds (Spring Boot's actuator)
metric() {
  curl -sf "localhost:$port/actuator/metrics/$1?tag=$2" \
    | sed -E 's/.*"COUNT","value":([0-9.E+-]+).*"TOTAL_TIME","value":([0-9.E+-]+).*/\1 \2/' | awk -v n="$1 $2" '{print n, $1, $2}'
}
calls() {
  metric sessionmesh.client.calls operation:read
  metric sessionmesh.client.calls operation:write
  metric http.server.requests method:$request_method # the flow's own requests (and the actuator's few GETs)
}
sleep "$SETTLE_SECONDS"
threads > "$out/threads.1"; calls > "$out/calls.1"; t1=$(date +%s.%N)
sleep "$window"
threads > "$out/threads.2"; calls > "$out/calls.2"; t2=$(date +%s.%N)
wait $flow
trap - EXIT
{
  echo "seconds between the snapshots: $(awk -v a="$t1" -v b="$t2" 'BEGIN{printf "%.1f", b-a}')${NICE:+, sidecar and master at nice $NICE}${FIFO:+, their I/O loops on SCHED_FIFO $FIFO}"
  echo
  echo "| process | threads | name | CPU % of a core | runnable, waiting for a core, % | slices/s | voluntary switches/s | involuntary/s | wait a slice, us |"
  echo "|---|---:|---|---:|---:|---:|---:|---:|---:|"
  awk -v T="$(awk -v a="$t1" -v b="$t2" 'BEGIN{print b-a}')" -v svc="$service" -v sc="$sidecar" -v ms="$master" '
    NR == FNR { run[$1 SUBSEP $2] -= $3; wt[$1 SUBSEP $2] -= $4; sl[$1 SUBSEP $2] -= $5;
                vol[$1 SUBSEP $2] -= $6; inv[$1 SUBSEP $2] -= $7; next }
    { k = $1 SUBSEP $2; run[k] += $3; wt[k] += $4; sl[k] += $5; vol[k] += $6; inv[k] += $7; n[k]++ }
    END {
      for (k in n) {
        if (run[k] < T * 1e9 * 0.005) continue
        split(k, p, SUBSEP); who = p[1] == svc ? "service" : p[1] == sc ? "sidecar" : p[1] == ms ? "master" : p[1]
        printf "| %s | %d | %s | %.1f | %.1f | %.0f | %.0f | %.0f | %.0f |\n", who, n[k], p[2], 100 * run[k] / T / 1e9,
          100 * wt[k] / T / 1e9, sl[k] / T, vol[k] / T, inv[k] / T, wt[k] / 1e3 / (sl[k] > 0 ? sl[k] : 1)
      }
    }' "$out/threads.1" "$out/threads.2" | sort -t'|' -k5 -rn
  echo
  echo "| the service's | calls in the window | mean ms |"
  echo "|---|---:|---:|"
  paste -d' ' "$out/calls.1" "$out/calls.2" | awk '{c = $7 - $3; printf "| %s %s | %d | %.3f |\n", $1, $2, c, (c > 0 ? 1000 * ($8 - $4) / c : 0)}'
  echo
  grep -E "^sessionmesh (write|read):" "$log"
} > "$out/probe.txt"
cat "$out/probe.txt"
