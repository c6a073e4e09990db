#!/usr/bin/env bash
# Runs every fuzz target in fuzzing mode, one after the other, each for DURATION (seconds, default 600).
#
#   fuzz/run-all.sh [DURATION] [Target ...]      e.g. fuzz/run-all.sh 120 FrameDecoderFuzzTest
#
# A target is a test class, or Class#method for a class with more than one @FuzzTest (Jazzer fuzzes one at a time).
# Targets are the @FuzzTest classes listed below (docs/development.md, "Fuzzing"). Extra Maven flags go in MVN_ARGS (for
# instance MVN_ARGS="-o -Dmaven.repo.local=/path/to/m2"). Jazzer keeps what it learns in <module>/.cifuzz-corpus/ (not
# in git) and writes a crashing input to the test's resource directory <Class>Inputs/<method>/ (commit it with the fix:
# it is replayed by every `mvn verify` from then on). Each run's log, with libFuzzer's last "Done N runs in S
# second(s)", goes to fuzz/logs/<Target>.log.
#
# The duration reaches libFuzzer as -max_total_time through Jazzer's JUnit configuration parameters
# jazzer.internal.arg.N (argument 0 is argv[0]); checked against Jazzer 0.24.0, whose @FuzzTest has no other
# per-run override than maxDuration in the source.
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${1:-600}
shift || true
TARGETS=(
  wire:FrameDecoderFuzzTest
  wire:MasterRequestBodiesFuzzTest
  wire:BinaryTransportFuzzTest
  wire:JsonTransportFuzzTest
  serialization:SchemaIntakeFuzzTest
  serialization:AttributeCodecFuzzTest#decode
  serialization:AttributeCodecFuzzTest#decompress
  slave-sidecar:SidecarHttpFuzzTest
  master-store:ReplicatedStateFuzzTest#logEntry
  master-store:ReplicatedStateFuzzTest#importBody
  master-store:ReplicatedStateFuzzTest#snapshot
  master-store:ReplicatedStateFuzzTest#clusterMap
)
if [ $# -gt 0 ]; then
  wanted=("$@")
  selected=()
  for t in "${TARGETS[@]}"; do
    for w in "${wanted[@]}"; do
      name=${t#*:}
      if [ "$name" = "$w" ] || [ "${name%%#*}" = "$w" ]; then selected+=("$t"); fi
    done
  done
  TARGETS=("${selected[@]}")
fi

mkdir -p fuzz/logs
failed=0
modules=$(printf '%s\n' "${TARGETS[@]%%:*}" | sort -u | paste -sd, -)
mvn -B -q ${MVN_ARGS:-} -pl "$modules" -am test-compile >fuzz/logs/compile.log 2>&1 || { cat fuzz/logs/compile.log; exit 1; }
# The modules a target's module depends on come from this reactor (their target/classes), not from ~/.m2: nothing
# needs to be installed first. -Dtest keeps the upstream modules' own tests from running.
for t in "${TARGETS[@]}"; do
  module=${t%%:*}
  test=${t#*:}
  log="fuzz/logs/${test//#/.}.log"
  echo "== $test ($module), ${DURATION}s"
  # surefire:test@default-test: only the module's default test run (serialization has two more, one on JDK 25, which
  # would each fuzz for DURATION again); the test classes must be compiled (the first step below does it).
  if JAZZER_FUZZ=1 mvn -B ${MVN_ARGS:-} -pl "$module" -am test-compile surefire:test@default-test -Dtest="$test" \
      -Dsurefire.failIfNoSpecifiedTests=false \
      -Djazzer.internal.arg.0=fuzz -Djazzer.internal.arg.1=-max_total_time="$DURATION" >"$log" 2>&1; then
    echo "   ok: $(grep -aE '^Done [0-9]+ runs' "$log" | tail -1)"
  else
    failed=1
    echo "   FAILED (see $log): $(grep -aE '^== Java Exception|^Done [0-9]+ runs' "$log" | sed -n '1,2p' | tr '\n' ' ')"
  fi
done
exit $failed
