#!/usr/bin/env bash
# What mutual TLS between sidecar and master costs (benchmarks/RESULTS.md, section 7): a master + sidecar pair in plain TCP
# and one with TLS (certificates of docker/tls/make-dev-certs.sh), one I/O thread each, loaded alike in alternating
# rounds: hit-path reads (served from the sidecar's cache) and writes (through to the master), at 1 and 16
# connections, with each process's CPU per request. About 4 minutes. Results: benchmarks/results/tls-<date>.json.
set -euo pipefail
cd "$(dirname "$0")/.."
[ "${SKIP_BUILD:-0}" = 1 ] || mvn -q -B -ntp ${MVN_ARGS:-} -pl benchmarks -am package -DskipTests
jar=benchmarks/target/benchmarks.jar
out=benchmarks/results
stamp=$(date -u +%Y-%m-%d)
tls=benchmarks/target/tls
mkdir -p "$out" benchmarks/target
rm -rf "$tls"
docker/tls/make-dev-certs.sh "$tls" --role replica master:127.0.0.1,localhost --role sidecar sidecar >/dev/null

pids=()
cleanup() { for p in "${pids[@]:-}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT
wait_port() { for i in $(seq 1 200); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0; sleep 0.1; done; return 1; }

echo "machine: $(nproc) cores, $(java -version 2>&1 | sed -n 1p)"
heap="-Xms512m -Xmx512m"
java $heap -jar master-store/target/sessionmesh-master.jar --port 7431 --io-threads 1 > benchmarks/target/tls-master-plain.log 2>&1 &
master_plain=$!; pids+=($!)
java $heap -jar master-store/target/sessionmesh-master.jar --port 7441 --io-threads 1 \
  --tls-cert "$tls/master.pem" --tls-key "$tls/master.key" --tls-trust "$tls/ca.pem" > benchmarks/target/tls-master-tls.log 2>&1 &
master_tls=$!; pids+=($!)
wait_port 7431; wait_port 7441
java $heap -jar slave-sidecar/target/sessionmesh-sidecar.jar --masters 127.0.0.1:7431 --port 7530 --admin-port 7531 \
  --io-threads 1 > benchmarks/target/tls-sidecar-plain.log 2>&1 &
sidecar_plain=$!; pids+=($!)
java $heap -jar slave-sidecar/target/sessionmesh-sidecar.jar --masters 127.0.0.1:7441 --port 7540 --admin-port 7541 \
  --io-threads 1 --master-tls-cert "$tls/sidecar.pem" --master-tls-key "$tls/sidecar.key" --master-tls-trust "$tls/ca.pem" \
  > benchmarks/target/tls-sidecar-tls.log 2>&1 &
sidecar_tls=$!; pids+=($!)
wait_port 7530; wait_port 7540
java -cp "$jar" io.sessionmesh.benchmarks.floor.LoopbackFloor 127.0.0.1:6379
for i in $(seq 1 100); do curl -sf 127.0.0.1:7541/admin/health >/dev/null && break; sleep 0.1; done
java -Xmx1g -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$jar" io.sessionmesh.benchmarks.sidecar.TlsCost \
  --plain 127.0.0.1:7530 --tls 127.0.0.1:7540 --pids "$sidecar_plain,$master_plain,$sidecar_tls,$master_tls" \
  --seconds "${SECONDS_PER_RUN:-10}" --rounds "${ROUNDS:-2}" --out "$out/tls-$stamp.json" | tee benchmarks/target/tls-benchmark.log
echo "TLS engine: $(sed -n 's/.*\(engine [A-Z]*\).*/\1/p' benchmarks/target/tls-master-tls.log)"
