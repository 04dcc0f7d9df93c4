#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine for Griffin and builds it:
#   1. Debian packages from ci/apt-packages.txt (only the missing ones),
#   2. the project venv .venv with the pinned requirements.txt (Arrow C++ comes
#      from the pyarrow wheel there), and the griffin Python package in it,
#   3. the benchmark peers in .venv-bench (bench/requirements.txt) and the Deequ jar,
#      and the Kafka broker's jars (scripts/setup_kafka.sh, cached in ~/.cache/griffin),
#   4. a Release build in build/ (the CLI is ./build/griffin).
# Idempotent: a second run only rebuilds what changed.
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"

missing=()
while read -r pkg; do
  [ -z "$pkg" ] && continue
  case "$pkg" in \#*) continue ;; esac
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done < ci/apt-packages.txt
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${missing[*]}"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  echo "setup: creating .venv"
  "$PYTHON" -m venv .venv
fi
if ! .venv/bin/python -c "import sys; sys.exit(0)" 2>/dev/null; then
  rm -rf .venv && "$PYTHON" -m venv .venv
fi
stamp=.venv/.requirements.sha256
want=$(sha256sum requirements.txt | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "setup: installing pinned Python packages"
  .venv/bin/pip install -q --disable-pip-version-check -r requirements.txt
  echo "$want" > "$stamp"
fi

# The griffin Python package (python/, pyproject.toml) into the venv. No build
# isolation: the extension builds against the venv's pinned pyarrow 26.
.venv/bin/pip install -q --disable-pip-version-check --no-build-isolation .

# The benchmark's peers (bench/requirements.txt, pinned) in their own venv,
# .venv-bench, so their dependencies never move the pins above; and the Deequ jar
# that PyDeequ drives (bench/fetch_deequ.sh: Maven Central, SHA-256 checked).
[ -x .venv-bench/bin/python ] || "$PYTHON" -m venv .venv-bench
bench_stamp=.venv-bench/.requirements.sha256
bench_want=$(sha256sum bench/requirements.txt | cut -d' ' -f1)
if [ ! -f "$bench_stamp" ] || [ "$(cat "$bench_stamp")" != "$bench_want" ]; then
  echo "setup: installing the pinned benchmark peers into .venv-bench"
  .venv-bench/bin/pip install -q --disable-pip-version-check -r bench/requirements.txt
  echo "$bench_want" > "$bench_stamp"
fi
bench/fetch_deequ.sh >/dev/null

# The Kafka broker for griffin stream's tests (jars from Maven Central, cached
# outside the clone; scripts/kafka_test_cluster.sh runs it).
scripts/setup_kafka.sh >/dev/null

# pyspark for griffin.spark's tests (requirements-spark.txt, into .venv).
scripts/setup_spark.sh >/dev/null

# moto's S3 server for the object store tests (its own pinned venv, cached
# outside the clone; the tests start and stop it).
scripts/setup_objectstore.sh >/dev/null

# The Rust toolchain (rustc >= 1.88) and the crates of the Delta kernel shim
# (rust/delta_kernel_shim), which the CMake build compiles through cargo.
scripts/setup_delta.sh >/dev/null

BUILD_DIR=${BUILD_DIR:-build}
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build "$BUILD_DIR" -j "$(nproc)"
echo "setup: done; the CLI is ./$BUILD_DIR/griffin"
