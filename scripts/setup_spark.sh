#!/usr/bin/env bash
# Installs pyspark (requirements-spark.txt, pinned) into the project venv for
# griffin.spark's tests (tests/python/test_spark.py; Java 17 runs the cluster), and fetches
# the jars they add to Spark (scripts/fetch_spark_test_jars.sh).
# Idempotent: a stamp of the pins' digest skips a repeat install; pip's cache
# serves a cold CI run's download after the first.
set -euo pipefail
cd "$(dirname "$0")/.."
stamp=.venv/.requirements-spark.sha256
digest=$(sha256sum requirements-spark.txt | cut -c1-64)
if [ "$(cat "$stamp" 2>/dev/null)" != "$digest" ]; then
  .venv/bin/pip install -q --disable-pip-version-check -r requirements-spark.txt
  echo "$digest" > "$stamp"
fi
# The jars of the tests that read JDBC and Delta DataFrames.
scripts/fetch_spark_test_jars.sh >/dev/null
