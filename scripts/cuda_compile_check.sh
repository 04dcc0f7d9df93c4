#!/usr/bin/env bash
# Compiles griffin.jax.check's CUDA handler (python/ffi/check_cuda.cu) with
# nvcc from PyPI (ci/cuda-requirements.txt, in .venv-cuda) against the venv's
# jaxlib FFI headers, and checks that it exports GriffinCheckCuda. A compile
# check only: running it needs a GPU (python/ffi/build_cuda.sh there).
set -euo pipefail
cd "$(dirname "$0")/.."
stamp=.venv-cuda/.requirements.sha256
want=$(sha256sum ci/cuda-requirements.txt | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  rm -rf .venv-cuda
  python3 -m venv .venv-cuda
  .venv-cuda/bin/pip install -q --disable-pip-version-check -r ci/cuda-requirements.txt
  echo "$want" > "$stamp"
fi
nvidia=$(.venv-cuda/bin/python -c "import nvidia; print(list(nvidia.__path__)[0])")
nvcc=$(ls "$nvidia"/cu*/bin/nvcc | head -n 1)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
PATH="$(dirname "$nvcc"):$PATH" NVCC="$nvcc" PYTHON=.venv/bin/python \
  python/ffi/build_cuda.sh "$out" 2>"$out/nvcc.log" >/dev/null || { cat "$out/nvcc.log"; exit 1; }
nm -D "$out/libgriffin_check_cuda.so" > "$out/symbols"
grep -q " T GriffinCheckCuda$" "$out/symbols" || { echo "cuda_compile_check: GriffinCheckCuda is not exported"; exit 1; }
echo "cuda_compile_check: python/ffi/check_cuda.cu compiles with $("$nvcc" --version | tail -n 1) and exports GriffinCheckCuda"
