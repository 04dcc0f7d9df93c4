#!/usr/bin/env bash
# Usage: scripts/fetch_maven_jar.sh GROUP:ARTIFACT:VERSION SHA256 DIR
# Fetches one jar from Maven Central into DIR (created), checks its SHA-256 and
# prints its path. Idempotent: a jar already there with the right digest is kept;
# a download with another digest is deleted and the script exits 1.
set -euo pipefail
if [ $# -ne 3 ]; then
  echo "usage: $0 GROUP:ARTIFACT:VERSION SHA256 DIR" >&2
  exit 2
fi
IFS=: read -r group artifact version <<< "$1"
mkdir -p "$3"
jar="$3/$artifact-$version.jar"
"$(dirname "$0")/fetch_checked.sh" \
  "https://repo1.maven.org/maven2/${group//.//}/$artifact/$version/$artifact-$version.jar" "$2" "$jar"
echo "$jar"
