#!/usr/bin/env bash
# Fetches the jars griffin.spark's tests add to their Spark session (Maven Central,
# SHA-256 checked) into the cache outside the clone, ${GRIFFIN_CACHE:-~/.cache/griffin}/jars/,
# and prints their paths joined by commas (a spark.jars value):
#   PostgreSQL's JDBC driver, to read a PostgreSQL table with spark.read.jdbc;
#   delta-spark and delta-storage 3.3.2 (Spark 3.5), to read a Delta table with
#   spark.read.format("delta").
# Idempotent (scripts/fetch_maven_jar.sh); scripts/setup_spark.sh calls it.
set -euo pipefail
fetch="$(dirname "$0")/fetch_maven_jar.sh"
dir="${GRIFFIN_CACHE:-$HOME/.cache/griffin}/jars"
jars=(
  "org.postgresql:postgresql:42.7.14 73914527305a40cce504b0d3d90b23caf565136912d607ae8ae7c5895512332c"
  "io.delta:delta-spark_2.12:3.3.2 4e92085d5d794cf949c50bb665b91384857cad58680c2d0bfc9c7ad353e98e85"
  "io.delta:delta-storage:3.3.2 c096975a2ca97ccc9b4005aa5cce16c9ac3903139d340da6665b66ace67d7c36"
)
paths=()
for jar in "${jars[@]}"; do
  read -r coordinate sha256 <<< "$jar"
  paths+=("$("$fetch" "$coordinate" "$sha256" "$dir")")
done
(IFS=,; echo "${paths[*]}")
