#!/usr/bin/env bash
# Fetches the Deequ jar that PyDeequ drives (bench/requirements.txt pins pyspark 3.5
# and pydeequ 1.4.0, whose Spark 3.5 coordinate this is) from Maven Central into
# bench/data/jars/ (git-ignored), checks its SHA-256, and prints its path.
# Its other dependencies (Scala 2.12, breeze) ship inside the pyspark wheel.
# Idempotent: an existing jar with the right digest is kept.
set -euo pipefail
cd "$(dirname "$0")"
VERSION=2.0.7-spark-3.5
SHA256=97c2736b1d9df4d4bb3303dd1eaa5f42db70605c79be1769ba9ef5c0cd744faa
URL="https://repo1.maven.org/maven2/com/amazon/deequ/deequ/$VERSION/deequ-$VERSION.jar"
jar="data/jars/deequ-$VERSION.jar"
if [ -f "$jar" ] && echo "$SHA256  $jar" | sha256sum -c --status; then
  echo "$PWD/$jar"
  exit 0
fi
mkdir -p data/jars
partial="$jar.partial"
curl -fsSL --retry 3 -m 300 -o "$partial" "$URL"
if ! echo "$SHA256  $partial" | sha256sum -c --status; then
  rm -f "$partial"
  echo "fetch_deequ: $URL: SHA-256 mismatch" >&2
  exit 1
fi
mv "$partial" "$jar"
echo "$PWD/$jar"
