#!/usr/bin/env bash
# Fetches the Apache Kafka broker (4.4.0, Scala 2.13) for the streaming tests: the
# jars listed in scripts/kafka/jars.lock, from Maven Central, each checked against
# its SHA-256, into a cache outside the clone:
#   ${GRIFFIN_CACHE:-~/.cache/griffin}/kafka-4.4.0/libs/
# Prints that folder. Idempotent: a complete cache (a stamp holding the lock's
# digest) returns at once; a jar whose digest is wrong is fetched again.
# The broker runs with Java 17 (openjdk-17-jre-headless, ci/apt-packages.txt);
# scripts/kafka_test_cluster.sh starts it.
set -euo pipefail
cd "$(dirname "$0")"
VERSION=4.4.0
LOCK=kafka/jars.lock
REPO=${GRIFFIN_MAVEN_REPO:-https://repo1.maven.org/maven2}
DIR=${GRIFFIN_CACHE:-$HOME/.cache/griffin}/kafka-$VERSION
LIBS=$DIR/libs
stamp=$DIR/.complete
want=$(sha256sum "$LOCK" | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  echo "$LIBS"
  exit 0
fi
mkdir -p "$LIBS"
while read -r digest path; do
  case "$digest" in ''|\#*) continue ;; esac
  ./fetch_checked.sh "$REPO/$path" "$digest" "$LIBS/$(basename "$path")"
done <"$LOCK"
# Jars left from another lock would join the class path: keep only the listed ones.
listed=$(grep -v '^#' "$LOCK" | awk '{print $2}' | xargs -n1 basename | sort)
for jar in "$LIBS"/*.jar; do
  grep -qx "$(basename "$jar")" <<<"$listed" || rm -f "$jar"
done
echo "$want" >"$stamp"
echo "$LIBS"
