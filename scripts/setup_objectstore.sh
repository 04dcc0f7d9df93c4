#!/usr/bin/env bash
# Installs the object store tests' servers into a cache outside the clone:
#   moto's S3 server (PyPI moto[server], pinned with its dependencies in
#   scripts/objectstore/requirements-moto.txt) in its own venv,
#   ${GRIFFIN_CACHE:-~/.cache/griffin}/moto-<digest of the pins>/.
# Prints the moto_server program's path. Idempotent: a complete venv (a stamp
# holding the pins' digest) returns at once. The tests start and stop the server
# themselves (tests/python/objectstore_servers.py), on 127.0.0.1 and a free port.
set -euo pipefail
cd "$(dirname "$0")"
PINS=objectstore/requirements-moto.txt
want=$(sha256sum "$PINS" | cut -c1-16)
DIR=${GRIFFIN_CACHE:-$HOME/.cache/griffin}/moto-$want
stamp=$DIR/.complete
if [ ! -f "$stamp" ]; then
  rm -rf "$DIR"
  "${PYTHON:-python3}" -m venv "$DIR"
  "$DIR/bin/pip" install -q --disable-pip-version-check -r "$PINS"
  touch "$stamp"
fi
echo "$DIR/bin/moto_server"
