#!/usr/bin/env bash
# The master's benchmarks of benchmarks/RESULTS.md, section 2: the master against redis-server on the same
# machine (both on loopback, each with the same load at the same concurrency and pipeline depth), and the
# master's heap per session at 100,000 sessions of the standard workload. About 5 minutes on 2 cores.
# Results: benchmarks/results/master-vs-redis-<date>.json, heap-per-session-<date>.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -q -B -ntp -pl benchmarks -am package -DskipTests
jar=benchmarks/target/benchmarks.jar
out=benchmarks/results
stamp=$(date -u +%Y-%m-%d)
mkdir -p "$out"
master_port=${MASTER_PORT:-7401}
redis_port=${REDIS_PORT:-6390}

pids=()
cleanup() { for p in "${pids[@]:-}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT

java -Xms2g -Xmx2g -jar master-store/target/sessionmesh-master.jar --port "$master_port" > benchmarks/target/master.log 2>&1 &
pids+=($!)
redis-server --port "$redis_port" --bind 127.0.0.1 --save "" --appendonly no --daemonize no \
  --logfile "$PWD/benchmarks/target/redis.log" &
pids+=($!)
for i in $(seq 1 50); do
  (exec 3<>"/dev/tcp/127.0.0.1/$master_port") 2>/dev/null && (exec 3<>"/dev/tcp/127.0.0.1/$redis_port") 2>/dev/null && break
  sleep 0.2
done
echo "machine: $(nproc) cores, $(java -version 2>&1 | head -n 1), $(redis-server --version | cut -d' ' -f3)"
java -Xmx1g -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$jar" io.sessionmesh.benchmarks.master.MasterVsRedis \
  --master "127.0.0.1:$master_port" --redis "127.0.0.1:$redis_port" --seconds "${SECONDS_PER_RUN:-5}" \
  --out "$out/master-vs-redis-$stamp.json" | tee benchmarks/target/master-vs-redis.log
cleanup
pids=()

java -Xms12g -Xmx12g -XX:+UseG1GC -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
  -cp "$jar" io.sessionmesh.benchmarks.master.HeapPerSession 100000 | tee "$out/heap-per-session-$stamp.txt"
