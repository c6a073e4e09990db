#!/usr/bin/env bash
# The sidecar's benchmark of benchmarks/RESULTS.md, section 4: 3-section batch reads through the sidecar, cache hit
# and cache miss, at 1..64 keep-alive connections (wrk), beside the loopback floor (redis-benchmark PING) and redis-benchmark GET
# (1 KB values, 50 clients), all in one run. The master and both sidecars run one I/O thread each, as Redis does:
# on 2 cores shared with the load generator that is what serves best. About 5 minutes. Needs wrk (apt-get install wrk).
# Results: benchmarks/results/sidecar-<date>.json.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk"; exit 1; }
[ "${SKIP_BUILD:-0}" = 1 ] || mvn -q -B -ntp ${MVN_ARGS:-} -pl benchmarks -am package -DskipTests
jar=benchmarks/target/benchmarks.jar
out=benchmarks/results
stamp=$(date -u +%Y-%m-%d)
mkdir -p "$out" benchmarks/target

pids=()
cleanup() { for p in "${pids[@]:-}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT
wait_port() { for i in $(seq 1 100); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0; sleep 0.1; done; return 1; }

echo "machine: $(nproc) cores, $(java -version 2>&1 | sed -n 1p), $(wrk --version 2>&1 | sed -n 1p | cut -d' ' -f1-2), redis $(redis-server --version | cut -d' ' -f3)"
java -Xms1g -Xmx1g -jar master-store/target/sessionmesh-master.jar --port 7401 --io-threads 1 > benchmarks/target/master.log 2>&1 &
pids+=($!)
wait_port 7401
java -Xms1g -Xmx1g -Xlog:gc:file=benchmarks/target/sidecar-hit-gc.log -jar slave-sidecar/target/sessionmesh-sidecar.jar --masters 127.0.0.1:7401 --port 7510 --admin-port 7511 ${SIDECAR_FLAGS:---io-threads 1} \
  > benchmarks/target/sidecar-hit.log 2>&1 &
hit_pid=$!
pids+=($!)
java -Xms1g -Xmx1g -jar slave-sidecar/target/sessionmesh-sidecar.jar --masters 127.0.0.1:7401 --port 7520 --admin-port 7521 ${SIDECAR_FLAGS:---io-threads 1} \
  --cache-max-bytes 0 > benchmarks/target/sidecar-miss.log 2>&1 &
pids+=($!)
redis-server --port 6390 --bind 127.0.0.1 --save "" --appendonly no --daemonize no --logfile "$PWD/benchmarks/target/redis.log" &
pids+=($!)
for p in 7510 7520 6390; do wait_port "$p"; done
sleep 1
java -Xmx1g -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$jar" io.sessionmesh.benchmarks.sidecar.SidecarBenchmark \
  --hit 127.0.0.1:7510 --miss 127.0.0.1:7520 --redis 127.0.0.1:6390 --hit-pid "$hit_pid" \
  --seconds "${SECONDS_PER_RUN:-10}" ${SIDECAR_BENCH_ARGS:-} --out "$out/sidecar-$stamp.json" | tee benchmarks/target/sidecar-benchmark.log
curl -s 127.0.0.1:7511/admin/stats > "$out/sidecar-hit-stats-$stamp.json" || true
