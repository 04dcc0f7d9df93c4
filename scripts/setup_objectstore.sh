#!/usr/bin/env bash
# Installs the object store tests' servers into a cache outside the clone
# (${GRIFFIN_CACHE:-~/.cache/griffin}):
#   moto's S3 server (PyPI moto[server], pinned with its dependencies in
#     scripts/objectstore/requirements-moto.txt) in its own venv, moto-<digest>/;
#   fake-gcs-server (Go module github.com/fsouza/fake-gcs-server, built with the
#     machine's Go toolchain from the Go module proxy), fake-gcs-server-<version>/.
# Prints "moto_server PATH" and "fake-gcs-server PATH". Idempotent: a complete
# install (a stamp) returns at once. The tests start and stop the servers
# themselves (tests/python/objectstore_servers.py), on 127.0.0.1 and free ports.
set -euo pipefail
cd "$(dirname "$0")"
CACHE=${GRIFFIN_CACHE:-$HOME/.cache/griffin}

PINS=objectstore/requirements-moto.txt
MOTO=$CACHE/moto-$(sha256sum "$PINS" | cut -c1-16)
if [ ! -f "$MOTO/.complete" ]; then
  rm -rf "$MOTO"
  "${PYTHON:-python3}" -m venv "$MOTO"
  "$MOTO/bin/pip" install -q --disable-pip-version-check -r "$PINS"
  touch "$MOTO/.complete"
fi
echo "moto_server $MOTO/bin/moto_server"

FAKE_GCS_VERSION=v1.56.1
FAKE_GCS=$CACHE/fake-gcs-server-$FAKE_GCS_VERSION
if [ ! -x "$FAKE_GCS/fake-gcs-server" ]; then
  GO=${GO:-$(command -v go || echo /usr/local/go/bin/go)}
  if [ ! -x "$GO" ]; then
    echo "setup_objectstore: the Go toolchain (go 1.22 or later) is needed to build fake-gcs-server;" \
         "install it (https://go.dev/doc/install, or Debian's golang-go) and run this again" >&2
    exit 1
  fi
  mkdir -p "$FAKE_GCS"
  GOBIN=$FAKE_GCS GOFLAGS=-mod=mod "$GO" install "github.com/fsouza/fake-gcs-server@$FAKE_GCS_VERSION"
fi
echo "fake-gcs-server $FAKE_GCS/fake-gcs-server"
