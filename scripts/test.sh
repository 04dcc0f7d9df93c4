#!/usr/bin/env bash
# Sets up everything (scripts/setup.sh) and runs the whole test suite:
#   1. C++ unit tests (ctest) on the Release build,
#   2. the Python suites: declarative rule cases, differential tests, CLI tests,
#      outputs, the run store (SQLite and a real PostgreSQL), SIGKILL at random points,
#      and the hostile attacks in short form (tests/hostile; `make hostile`: full),
#      and the wheel (a clean venv, a Spark local-cluster; `make wheel-test`: pip's isolated build),
#   3. the same C++ unit tests and rule cases under ASan+UBSan (build-asan/),
#   4. each libFuzzer target briefly (build-fuzz/, clang: scripts/run_fuzzers.sh; make fuzz: longer),
#   5. the CUDA handler of griffin.jax.check compiled (scripts/cuda_compile_check.sh),
#   6. the benchmark harnesses in quick mode (correctness only, no timing asserts).
# Exits non-zero on the first failing stage. FUZZ_SECONDS sets the fuzz time.
set -euo pipefail
cd "$(dirname "$0")/.."

# Table outputs' spools from builds before 2026-12-07 had names in the temp folder,
# and each run killed with -9 (as the tests do) left one behind: 14 per suite, 1.9 GB
# on a machine that runs the suite again and again (stop 30's CI ran out of space).
# Spools have no name now; remove the old ones, untouched for an hour (no suite
# writes one that long).
find "${TMPDIR:-/tmp}" -maxdepth 1 -type f \( -name 'griffin_table_output_*' -o -name 'griffin_delta_output_*' \) \
  -mmin +60 -delete 2>/dev/null || true
./scripts/setup.sh

jobs=$(nproc)
# Each stage's start is printed with the seconds since the suite began, so a slow
# stage shows in the CI log, and with the free space of the clone's and the temp
# folder's file systems, so a stage that runs out of it shows that too.
free_space() { df -Pm . "${TMPDIR:-/tmp}" | awk 'NR > 1 && !seen[$6]++ { printf "%s%s %d MB free", sep, $6, $4; sep = ", " }'; }
stage() { echo "== [$((SECONDS - suite_start))s] $* ($(free_space))"; }
suite_start=$SECONDS

stage "set-up done"
export GRIFFIN_BIN="$PWD/build/griffin"

# The servers' state files are this run's own, so another suite on the machine
# (another clone, a developer's shell) cannot stop them mid-run, nor this one theirs.
server_state=$(mktemp -d)
export GRIFFIN_PG_STATE="$server_state/pg.state" GRIFFIN_KAFKA_STATE="$server_state/kafka.state"
# A real, throwaway PostgreSQL server for the run-store tests (stopped on exit).
GRIFFIN_TEST_PG_URI=$(scripts/pg_test_cluster.sh start)
export GRIFFIN_TEST_PG_URI
# And a real Kafka broker (KRaft, one node) for griffin stream's tests.
trap 'scripts/pg_test_cluster.sh stop >/dev/null 2>&1 || true; scripts/kafka_test_cluster.sh stop >/dev/null 2>&1 || true; rm -rf "$server_state"' EXIT
GRIFFIN_TEST_KAFKA=$(scripts/kafka_test_cluster.sh start)
export GRIFFIN_TEST_KAFKA

stage "unit tests (Release)"
ctest --test-dir build --output-on-failure -j "$jobs"

stage "python tests"
# The wheel's tests run in their own stage below (they build it). When they fail, the
# test broker's warnings and errors are printed before its directory is removed: a
# stream test's failure can be the broker's (a coordinator stuck after a restart).
if ! .venv/bin/python -m pytest -q --durations=25 tests/python --ignore=tests/python/test_wheel.py \
  --ignore=tests/python/test_spark_shipping.py; then
  kafka_dir=$(sed -n 's/^DIR=//p' "$GRIFFIN_KAFKA_STATE" 2>/dev/null || true)
  echo "== the test broker's last warnings and errors ($kafka_dir):"
  cat "$kafka_dir"/server.earlier.log "$kafka_dir"/server.log 2>/dev/null | grep -E " (WARN|ERROR) " | tail -n 60 || true
  exit 1
fi

stage "the wheel: built, installed in a clean venv, shipped to a Spark local-cluster (make wheel-test)"
# Built from the Python package's build tree that set-up has just brought up to date, with
# the venv's build requirements (pinned as pyproject.toml's): nothing recompiles. pip's
# isolated build (make wheel-test) gets pyarrow's headers under a new /tmp path each time,
# which ccache cannot match, so it recompiles the whole package (~4 min on 2 cores).
.venv/bin/pip wheel -q --disable-pip-version-check --no-build-isolation --no-deps -w "$server_state/wheel" .
GRIFFIN_WHEEL=$(echo "$server_state"/wheel/griffin-*.whl) \
  .venv/bin/python -m pytest -q tests/python/test_wheel.py tests/python/test_spark_shipping.py

stage "hostile attacks, short form (make hostile runs them in full)"
GRIFFIN_HOSTILE_SHORT=1 .venv/bin/python -m pytest -q tests/hostile

stage "ASan+UBSan build and tests"
if [ ! -f build-asan/build.ninja ]; then
  cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DGRIFFIN_SANITIZE=ON >/dev/null
fi
cmake --build build-asan -j "$jobs"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
ctest --test-dir build-asan --output-on-failure -j "$jobs"
GRIFFIN_BIN="$PWD/build-asan/griffin" .venv/bin/python -m pytest -q tests/python/test_cases.py
# The object store CLI tests (moto, fake-gcs-server) under ASan: about 2.5 min on 2 cores.
GRIFFIN_BIN="$PWD/build-asan/griffin" .venv/bin/python -m pytest -q tests/python/test_objectstore_inputs.py \
  tests/python/test_objectstore_outputs.py tests/python/test_objectstore_gcs.py

stage "fuzzers"
# Each libFuzzer target for ${FUZZ_SECONDS:-15} s, two at a time (make fuzz: 300 s each).
scripts/run_fuzzers.sh "${FUZZ_SECONDS:-15}"

stage "CUDA handler of griffin.jax.check: compile check (nvcc from PyPI; run only on a GPU)"
scripts/cuda_compile_check.sh

stage "benchmark harness (quick)"
.venv/bin/python bench/run_core_bench.py --quick
# Griffin vs its peers (bench/run_peers.py): every tool installed and run, the
# per-check counts equal or documented; 20k rows, no timing asserts (~1.5 min).
.venv/bin/python -m pytest -q bench/compare_test.py bench/run_peers_test.py bench/run_small_call_bench_test.py
.venv/bin/python bench/run_small_call_bench.py --calls 20 --cpp-seconds 0.1   # runs; no timing asserts
.venv/bin/python bench/run_peers.py --quick --require-all
.venv/bin/python bench/run_jax_bench.py --quick
.venv/bin/python bench/run_service_bench.py --quick
.venv/bin/python bench/run_objectstore_bench.py --quick
# Peak RSS at 100k and 1M rows (default limit, no limit, a 4MB limit that spills): the reports equal.
.venv/bin/python bench/run_rss_bench.py --quick
# The heavier suite (30 checks) beside the 13-check one, 100k rows: the harness works.
.venv/bin/python bench/run_heavy_bench.py --quick
# griffin profile vs whylogs: both profiles equal to an exact reference, 20k rows.
.venv/bin/python -m pytest -q bench/profile_compare_test.py
.venv/bin/python bench/run_profile_bench.py --quick
# A Delta table (20k rows, 10 commits): griffin's counts equal deltalake + polars' (~10 s).
.venv/bin/python bench/run_delta_bench.py --quick
# The SQL bench on the run's PostgreSQL: pushdown, scan, the hand-written floor, Soda and GX,
# counts compared first, 20k rows.
.venv/bin/python bench/run_sql_bench.py --quick
# griffin stream vs a Python (pydantic + confluent-kafka) transactional loop, 20k messages,
# with the loops that validate nothing (the ceiling: build/stream_floor and the two without checks).
.venv/bin/python bench/run_stream_bench.py --quick --floor
# ... and its memory under a steady 5,000 messages/s for 30 s (make stream-soak: 10 minutes).
.venv/bin/python bench/run_stream_bench.py --soak 30

stage "all test stages passed"
