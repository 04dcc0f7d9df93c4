#!/usr/bin/env bash
# Fetches the Deequ jar that PyDeequ drives (bench/requirements.txt pins pyspark 3.5
# and pydeequ 1.4.0, whose Spark 3.5 coordinate this is) from Maven Central into
# bench/data/jars/ (git-ignored), checks its SHA-256, and prints its path.
# Its other dependencies (Scala 2.12, breeze) ship inside the pyspark wheel.
# Idempotent: an existing jar with the right digest is kept.
set -euo pipefail
cd "$(dirname "$0")"
exec ../scripts/fetch_maven_jar.sh com.amazon.deequ:deequ:2.0.7-spark-3.5 \
  97c2736b1d9df4d4bb3303dd1eaa5f42db70605c79be1769ba9ef5c0cd744faa "$PWD/data/jars"
