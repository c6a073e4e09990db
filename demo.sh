#!/usr/bin/env bash
# Builds what the demo needs and runs it. Today the demo shows the serialization module on a client
# record; the master, sidecar and client demo replaces it when those modules land.
set -euo pipefail
cd "$(dirname "$0")"
mvn -q -B -ntp -pl serialization -am install -DskipTests
cp_file=$(mktemp)
trap 'rm -f "$cp_file"' EXIT
mvn -q -B -ntp -pl serialization dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$cp_file"
java -Done.nio.serial.gen.mode=magic_accessor -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -Dorg.slf4j.simpleLogger.log.one.nio=error \
  -cp "serialization/target/test-classes:serialization/target/classes:$(cat "$cp_file")" \
  io.sessionmesh.serialization.SerializationDemo
