#!/usr/bin/env bash
cd <repo>
out=benchmarks/results/http-flow-2026-11-26-lean-http
for build in new2 old; do
  tag=$build-round2
  echo "== $tag sidecar, $(date -u +%H:%M:%S), load average $(cut -d' ' -f1-3 /proc/loadavg)"
  flock /tmp/sessionmesh-bench.lock java -Xms512m -Xmx512m -XX:+UseParallelGC -cp benchmarks/target/benchmarks.jar io.sessionmesh.benchmarks.http.HttpFlowBenchmark \
    --systems sessionmesh,spring-session --flows floor,read,write --warmup 10s --duration 15s \
    --sidecar-jar <scratch>/$build-sidecar.jar --out $out/$tag 2>&1 | grep --line-buffered -v "^|"
  echo "== $tag done $(date -u +%H:%M:%S), load average $(cut -d' ' -f1-3 /proc/loadavg)"
done
