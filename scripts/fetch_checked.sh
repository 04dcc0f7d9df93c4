#!/usr/bin/env bash
# Usage: scripts/fetch_checked.sh URL SHA256 FILE
# Downloads URL to FILE unless FILE already has that SHA-256; a download with
# another digest is deleted and the script exits 1 naming the URL. The folder
# must exist. Used for every pinned download of the set-up (Maven jars, Kafka).
set -euo pipefail
if [ $# -ne 3 ]; then
  echo "usage: $0 URL SHA256 FILE" >&2
  exit 2
fi
url=$1 sha256=$2 file=$3
if [ -f "$file" ] && echo "$sha256  $file" | sha256sum -c --status; then
  exit 0
fi
curl -fsSL --retry 3 -m 300 -o "$file.partial" "$url"
if ! echo "$sha256  $file.partial" | sha256sum -c --status; then
  rm -f "$file.partial"
  echo "fetch: $url: SHA-256 mismatch" >&2
  exit 1
fi
mv "$file.partial" "$file"
