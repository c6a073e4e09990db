#!/usr/bin/env bash
# Builds benchmarks/target/benchmarks.jar and runs the serialization benchmarks of benchmarks/RESULTS.md, section 10:
# the serializer race, compression, the transport forms, one-nio's generation modes, and the size report.
# About 20 minutes on 2 cores. Results: benchmarks/results/<name>-<date>.json and sizes-<date>.md; JMH logs in benchmarks/target/.
set -euo pipefail
cd "$(dirname "$0")/.."
[ "${SKIP_BUILD:-0}" = 1 ] || mvn -q -B -ntp ${MVN_ARGS:-} -pl benchmarks -am package -DskipTests
jar=benchmarks/target/benchmarks.jar
out=benchmarks/results
stamp=$(date -u +%Y-%m-%d)
mkdir -p "$out"
# Shorter than the annotations' defaults, so the whole set fits in about 20 minutes.
common=(-f 1 -wi 3 -w 1s -i 5 -r 1s -t 1 -foe true)

run() { # name, then JMH arguments
  local name=$1; shift
  java -jar "$jar" "${common[@]}" -rf json -rff "$out/$name-$stamp.json" "$@" | tee "benchmarks/target/$name-$stamp.log"
}

java -Done.nio.serial.gen.mode=magic_accessor -Dorg.slf4j.simpleLogger.defaultLogLevel=error \
  -cp "$jar" io.sessionmesh.benchmarks.serialization.SizeReport | tee "$out/sizes-$stamp.md"
run race 'SerializerRaceBenchmark.roundTrip'
run race-halves 'SerializerRaceBenchmark.(serialize|deserialize)' -p value=SMALL,BLOBS_5X1KB
run compression 'CompressionBenchmark'
run transport 'TransportBenchmark'
# one-nio's two generation modes on JDK 17 (the annotations pin magic_accessor; this overrides it).
run genmode-method-handles 'SerializerRaceBenchmark.roundTrip' -p contender=ONE_NIO_PLAIN,SESSIONMESH \
  -p value=SMALL,KB8 -jvmArgsAppend -Done.nio.serial.gen.mode=method_handles
