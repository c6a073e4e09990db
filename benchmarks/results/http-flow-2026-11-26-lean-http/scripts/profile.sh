#!/usr/bin/env bash
# Profiles the sidecar (async-profiler, cpu, 1 ms) during the write flow's measured part; $1 out dir, $2 tag, $3 sidecar jar
cd <repo>
D=<scratch>
out=$1; tag=$2
mkdir -p $out
java -Xms512m -Xmx512m -XX:+UseParallelGC -cp benchmarks/target/benchmarks.jar io.sessionmesh.benchmarks.http.HttpFlowBenchmark \
  --systems sessionmesh --flows write --prewarm false --warmup 25s --duration 20s --sidecar-jar $3 --out $out > $out/driver.log 2>&1 &
drv=$!
until grep -q "logged in" $out/driver.log 2>/dev/null; do sleep 0.5; kill -0 $drv || exit 1; done
pid=$(grep -o "sidecar=[0-9]*" $out/driver.log | head -1 | cut -d= -f2)
sleep 28
jcmd $pid JVMTI.agent_load /opt/ap/libasyncProfiler.so '"start,event=cpu,interval=1ms"'
sleep 12
jcmd $pid JVMTI.agent_load /opt/ap/libasyncProfiler.so "\"stop,file=$D/$tag-sidecar.collapsed,collapsed\""
wait $drv
grep "sessionmesh write" $out/driver.log
