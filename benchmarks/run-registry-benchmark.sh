#!/usr/bin/env bash
# What the active-session registry costs (benchmarks/RESULTS.md, section 8; issue 17), in one run on one machine:
#  1. its lag at the reference rate: an open-loop generator creates RATE sessions a second (each with a principal)
#     against a real master with the registry on, with a modest read/write mix on top and the warm-up's sessions
#     expiring during the window; the lag (session created -> row visible) p50/p99/max as the master measures it and
#     as the database's recorded_at - created_at gives it, the backlog's peak, CPU of the master and of PostgreSQL;
#  2. session-operation throughput with the registry on against off: the same closed-loop load (create/write/read/
#     delete cycles, and cycles plus the read/write mix: the worst cases) on two masters in alternating rounds, with
#     CPU per operation; and "reference", the workload's shape: the closed-loop 4:1 read/write mix at full speed beside
#     an open-loop stream of RATE creates a second (idle timeout IDLE_SECONDS) and as many expiries a second.
# The loopback floor (redis-benchmark PING) is measured in the same run. Needs PostgreSQL (trust auth) at PGHOST:PGPORT; the
# databases DB_LAG and DB_THROUGHPUT are dropped and created afresh. About 10 minutes with the defaults.
# Results: benchmarks/results/registry/<stamp>/ (summary.txt, lag.json, throughput.json, the masters' STATS).
# LAG=0 skips part 1. PIN=1 emulates "the database on its own host" on a 2-core machine, the same for both sides:
# every master (off and on alike) runs on CPU 0 (taskset -c 0), the load generator and every process of the
# PostgreSQL cluster at PGHOST:PGPORT on CPU 1; the cluster's affinity is put back to all CPUs on exit, also on failure.
set -euo pipefail
cd "$(dirname "$0")/.."
# MVN_ARGS: e.g. "-o -Dmaven.repo.local=/path/to/repo" for an offline build from a repository of one's own.
[ "${SKIP_BUILD:-0}" = 1 ] || mvn -q -B -ntp ${MVN_ARGS:-} -pl benchmarks -am package -DskipTests
jar=benchmarks/target/benchmarks.jar
pg_host=${PGHOST:-127.0.0.1}
pg_port=${PGPORT:-5432}
pg_user=${PGUSER:-postgres}
db_lag=${DB_LAG:-sm_bench_lag}
db_tp=${DB_THROUGHPUT:-sm_bench_tp}
rate=${RATE:-1833}
warmup=${WARMUP_SECONDS:-60}
window=${LAG_SECONDS:-60}
mix_rate=${MIX_RATE:-2000}
rounds=${ROUNDS:-5}
seconds=${SECONDS_PER_RUN:-10}
idle=${IDLE_SECONDS:-30}
heap=${MASTER_HEAP:--Xms1g -Xmx1g}
lag_port=${LAG_PORT:-7461}
off_port=${OFF_PORT:-7471}
on_port=${ON_PORT:-7472}
run_lag=${LAG:-1}
pin=${PIN:-0}
all_cpus=0-$(( $(nproc) - 1 ))
stamp=$(date -u +%Y-%m-%dT%H%M)
out=benchmarks/results/registry/$stamp
# The registry keys its rows by a keyed hash of each session id (registry-id-key): a fresh secret for this run.
export SESSIONMESH_REGISTRY_ID_KEY=${SESSIONMESH_REGISTRY_ID_KEY:-$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')}
mkdir -p "$out" benchmarks/target
summary=$out/summary.txt

pids=()
cleanup() { for p in "${pids[@]:-}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; pids=(); }
# The cluster's processes: the postmaster listening on pg_port and its children (new backends inherit its affinity).
postgres_pids() {
  local pm
  pm=$(pgrep -o -f "postgres.*-D" -u postgres || true)
  for p in $(pgrep -u postgres -f postgres || true); do
    if [ "$p" = "$pm" ] || [ "$(ps -o ppid= -p "$p" | tr -d ' ')" = "$pm" ]; then echo "$p"; fi
  done
}
pin_postgres() { for p in $(postgres_pids); do taskset -a -p -c "$1" "$p" > /dev/null || true; done; }
restore() { cleanup; if [ "$pin" = 1 ]; then pin_postgres "$all_cpus"; fi; }
trap restore EXIT
wait_port() { for i in $(seq 1 200); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0; sleep 0.1; done; return 1; }
fresh_db() {
  psql -h "$pg_host" -p "$pg_port" -U "$pg_user" -qX -c "DROP DATABASE IF EXISTS $1" -c "CREATE DATABASE $1"
}
jdbc() { echo "jdbc:postgresql://$pg_host:$pg_port/$1"; }
say() { echo "$*" | tee -a "$summary"; }

say "registry benchmark $stamp"
say "machine: $(nproc) cores, $(java -version 2>&1 | sed -n 1p), $(psql -h "$pg_host" -p "$pg_port" -U "$pg_user" -XAtc 'SHOW server_version'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
if [ "$pin" = 1 ]; then
  master_cpu=(taskset -c 0); gen_cpu=(taskset -c 1)
  pin_postgres 1
  say "pinned: masters on CPU 0, load generator and PostgreSQL ($(postgres_pids | wc -l) processes) on CPU 1"
else
  master_cpu=(); gen_cpu=()
fi
say "PostgreSQL: synchronous_commit $(psql -h "$pg_host" -p "$pg_port" -U "$pg_user" -XAtc 'SHOW synchronous_commit'), shared_buffers $(psql -h "$pg_host" -p "$pg_port" -U "$pg_user" -XAtc 'SHOW shared_buffers')"

say "$(java -cp "$jar" io.sessionmesh.benchmarks.floor.LoopbackFloor 127.0.0.1:6379)"
cleanup

if [ "$run_lag" = 1 ]; then
say ""
say "== 1. lag at $rate sessions/s: warm-up ${warmup}s, window ${window}s, mix $mix_rate req/s"
fresh_db "$db_lag"
java $heap -jar master-store/target/sessionmesh-master.jar --port "$lag_port" --io-threads 1 \
  --registry-url "$(jdbc "$db_lag")" > "$out/master-lag.log" 2>&1 &
lag_pid=$!; pids+=($!)
wait_port "$lag_port"
java -Xmx1g -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$jar" io.sessionmesh.benchmarks.registry.RegistryLag \
  --master "127.0.0.1:$lag_port" --master-pid "$lag_pid" --jdbc "$(jdbc "$db_lag")" --db-user "$pg_user" \
  --rate "$rate" --warmup "$warmup" --seconds "$window" --mix-rate "$mix_rate" --out "$out/lag.json" | tee -a "$summary"
cleanup
fi

say ""
say "== 2. throughput, registry off against on: $rounds rounds of ${seconds}s a load and side (cycle, mixed, reference: $rate creates/s, idle ${idle}s)"
fresh_db "$db_tp"
${master_cpu[@]+"${master_cpu[@]}"} java $heap -jar master-store/target/sessionmesh-master.jar --port "$off_port" --io-threads 1 > "$out/master-off.log" 2>&1 &
off_pid=$!; pids+=($!)
${master_cpu[@]+"${master_cpu[@]}"} java $heap -jar master-store/target/sessionmesh-master.jar --port "$on_port" --io-threads 1 \
  --registry-url "$(jdbc "$db_tp")" > "$out/master-on.log" 2>&1 &
on_pid=$!; pids+=($!)
wait_port "$off_port"; wait_port "$on_port"
${gen_cpu[@]+"${gen_cpu[@]}"} java -Xmx1g -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$jar" io.sessionmesh.benchmarks.registry.RegistryThroughput \
  --off "127.0.0.1:$off_port" --on "127.0.0.1:$on_port" --pids "$off_pid,$on_pid" --rounds "$rounds" \
  --seconds "$seconds" --rate "$rate" --idle "$idle" --out "$out/throughput.json" | tee -a "$summary"
say "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "results: $out"
