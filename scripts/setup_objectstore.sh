#!/usr/bin/env bash
# Installs the object store tests' servers into a cache outside the clone
# (${GRIFFIN_CACHE:-~/.cache/griffin}):
#   moto's S3 server (PyPI moto[server], pinned with its dependencies in
#     scripts/objectstore/requirements-moto.txt) in its own venv, moto-<digest>/;
#   fake-gcs-server (Go module github.com/fsouza/fake-gcs-server, built with the
#     machine's Go toolchain from the Go module proxy), fake-gcs-server-<version>/;
#   AWS's instance metadata emulator, amazon-ec2-metadata-mock (Go module
#     github.com/aws/amazon-ec2-metadata-mock, built likewise), ec2-metadata-mock-<version>/.
# Prints "moto_server PATH", "fake-gcs-server PATH" and "ec2-metadata-mock PATH". Idempotent: a complete
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

go_tool() {
  local go=${GO:-$(command -v go || echo /usr/local/go/bin/go)}
  if [ ! -x "$go" ]; then
    echo "setup_objectstore: the Go toolchain (go 1.23 or later) is needed to build $1;" \
         "install it (https://go.dev/doc/install, or Debian's golang-go) and run this again" >&2
    exit 1
  fi
  echo "$go"
}

# go_install NAME MODULE/PACKAGE VERSION: builds the program into $CACHE/NAME-VERSION/.
go_install() {
  local dir=$CACHE/$1-$3
  if [ ! -x "$dir/$1" ]; then
    local go
    go=$(go_tool "$1")
    mkdir -p "$dir"
    GOBIN=$dir GOFLAGS=-mod=mod "$go" install "$2@$3"
  fi
  echo "$1 $dir/$1"
}

go_install fake-gcs-server github.com/fsouza/fake-gcs-server v1.56.1
go_install ec2-metadata-mock github.com/aws/amazon-ec2-metadata-mock/cmd/ec2-metadata-mock v1.13.0
