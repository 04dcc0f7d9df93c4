#!/usr/bin/env bash
# Runs each libFuzzer target of build-fuzz/ (built here first: clang, the
# griffin_fuzzers target) for SECONDS, one per core at a time (each is
# single-threaded), from its seeds (fuzz/seeds/NAME). Each one's summary, or its
# finding, prints as one block when it ends; a finding fails the run.
#   scripts/run_fuzzers.sh [SECONDS]    (default 15: scripts/test.sh; make fuzz: 300)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-15}
jobs=$(nproc)
if [ ! -f build-fuzz/build.ninja ]; then
  CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=Debug -DGRIFFIN_FUZZ=ON >/dev/null
fi
cmake --build build-fuzz -j "$jobs" --target griffin_fuzzers
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

run_fuzzer() {
  local fuzzer=$1 name corpus
  name=$(basename "$fuzzer")
  corpus=$(mktemp -d)
  [ -d "fuzz/seeds/$name" ] && cp -r "fuzz/seeds/$name/." "$corpus/"
  # A finding prints its report and the input (base64), so CI's log alone reproduces
  # it: base64 -d > crash && build-fuzz/NAME crash.
  if ! "$fuzzer" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 \
      -artifact_prefix="$corpus/finding-" "$corpus" >"$corpus.log" 2>&1; then
    echo "-- $name (${seconds}s): FAILED"
    tail -n 60 "$corpus.log"
    for finding in "$corpus"/finding-*; do
      [ -f "$finding" ] && { echo "-- input $finding (base64):"; base64 -w 0 "$finding"; echo; }
    done
    return 1
  fi
  echo "-- $name (${seconds}s)"
  tail -n 2 "$corpus.log"
  rm -rf "$corpus" "$corpus.log"
}

failed=0
running=0
for fuzzer in build-fuzz/*_fuzz; do
  # At most one per core: the next starts when any one ends.
  if [ "$running" -ge "$jobs" ]; then
    wait -n || failed=1
    running=$((running - 1))
  fi
  run_fuzzer "$fuzzer" > "$out/$(basename "$fuzzer").out" 2>&1 &
  running=$((running + 1))
done
while [ "$running" -gt 0 ]; do
  wait -n || failed=1
  running=$((running - 1))
done
cat "$out"/*_fuzz.out
exit "$failed"
