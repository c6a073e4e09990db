#!/bin/bash
cd <repo>
for round in 1 2 3; do
 for build in old new2; do
  [ $round = 2 ] && { [ $build = old ] && b=new2 || b=old; } || b=$build
  echo "== round $round $b sidecar, $(date -u +%H:%M:%S), load $(cut -d' ' -f1-3 /proc/loadavg)"
  java -Xms512m -Xmx512m -XX:+UseParallelGC -cp benchmarks/target/benchmarks.jar io.sessionmesh.benchmarks.http.HttpFlowBenchmark \
    --systems sessionmesh --flows read,write --warmup 10s --duration 20s \
    --sidecar-jar <scratch>/$b-sidecar.jar --out /tmp/lead/ab/$round-$b 2>&1 | grep -E "^sessionmesh (read|write):"
 done
done
