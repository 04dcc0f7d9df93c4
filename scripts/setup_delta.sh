#!/usr/bin/env bash
# Checks the Rust toolchain that builds rust/delta_kernel_shim (delta-kernel-rs behind a
# C ABI; cmake/DeltaKernelShim.cmake runs cargo) and fetches its crates, pinned by
# rust/delta_kernel_shim/Cargo.lock, into cargo's cache. delta_kernel needs rustc 1.88
# or later; Debian 12's rustc is 1.63, so rustup's toolchain (~/.cargo/bin) is used.
# Prints "cargo PATH (rustc VERSION)". Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."
NEED=1.88

CARGO=""
for candidate in "${CARGO_HOME:-$HOME/.cargo}/bin/cargo" "$(command -v cargo || true)"; do
  [ -n "$candidate" ] && [ -x "$candidate" ] && { CARGO=$candidate; break; }
done
RUSTC="$(dirname "${CARGO:-/nonexistent/cargo}")/rustc"
[ -x "$RUSTC" ] || RUSTC=$(command -v rustc || true)
have=""
[ -n "$CARGO" ] && [ -n "$RUSTC" ] && have=$("$RUSTC" --version | awk '{print $2}')
if [ -z "$have" ] || [ "$(printf '%s\n%s\n' "$NEED" "$have" | sort -V | head -1)" != "$NEED" ]; then
  echo "setup_delta: the Delta kernel shim needs rustc >= $NEED (found: ${have:-none})." >&2
  echo "setup_delta: install rustup's stable toolchain and put it first on PATH:" >&2
  echo "setup_delta:   curl https://sh.rustup.rs -sSf | sh -s -- -y --profile minimal && . ~/.cargo/env" >&2
  echo "setup_delta: (or 'rustup update stable' if rustup is there; Debian's rustc 1.63 is too old)" >&2
  exit 1
fi
# The crates, exactly as locked (a later build works offline).
"$CARGO" fetch --locked --quiet --manifest-path rust/delta_kernel_shim/Cargo.toml
echo "cargo $CARGO (rustc $have)"
