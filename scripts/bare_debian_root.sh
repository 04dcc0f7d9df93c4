#!/usr/bin/env bash
# Makes (once) and prints the path of a bare Debian 12 root: debootstrap's
# minbase plus python3, python3-venv and ca-certificates, none of the
# project's apt packages (no yaml-cpp, RE2, simdjson, libpq, librdkafka,
# Arrow...). test_wheel.py installs the wheel into a venv inside it (chroot)
# and runs the example there: the wheel on a machine that never ran
# scripts/setup.sh. Cached outside the clone, ${GRIFFIN_CACHE:-~/.cache/griffin}/
# bookworm-bare (about 275 MB, 40 s to make from deb.debian.org). Needs root
# and debootstrap (apt-get install debootstrap: scripts/setup.sh installs it).
set -euo pipefail
root="${GRIFFIN_CACHE:-$HOME/.cache/griffin}/bookworm-bare"
if [ ! -x "$root/usr/bin/python3" ] || [ ! -f "$root/.griffin-complete" ]; then
  rm -rf "$root.partial"
  mkdir -p "$(dirname "$root")"
  debootstrap --variant=minbase --include=python3,python3-venv,ca-certificates bookworm "$root.partial" \
    http://deb.debian.org/debian >&2
  rm -rf "$root"
  mv "$root.partial" "$root"
  touch "$root/.griffin-complete"
fi
# Name resolution and TLS trust for pip inside the root, as this machine
# resolves and trusts (a network whose proxy re-signs TLS adds its CA here).
cp -L /etc/resolv.conf "$root/etc/resolv.conf"
cp -L /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/ca-certificates.crt"
echo "$root"
