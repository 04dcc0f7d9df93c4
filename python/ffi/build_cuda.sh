#!/usr/bin/env bash
# Builds the CUDA handler of griffin.jax.check by hand, for a GPU machine
# whose Python environment has jax (the pip build does it too when CMake finds
# nvcc). Writes libgriffin_check_cuda.so into OUT_DIR (default: the installed
# griffin package, else this folder); griffin.jax loads it from there.
#   python/ffi/build_cuda.sh [OUT_DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
PYTHON=${PYTHON:-python3}
include=$("$PYTHON" -c "import jax.ffi; print(jax.ffi.include_dir())")
out=${1:-$("$PYTHON" -c "import griffin, os; print(os.path.dirname(griffin.__file__))" 2>/dev/null || echo "$here")}
NVCC=${NVCC:-nvcc}
"$NVCC" -O3 -std=c++17 --expt-relaxed-constexpr -Xcompiler -fPIC -shared \
  -I"$include" -I"$here" "$here/check_cuda.cu" -o "$out/libgriffin_check_cuda.so"
echo "built $out/libgriffin_check_cuda.so"
