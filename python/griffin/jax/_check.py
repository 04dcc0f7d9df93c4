"""griffin.jax.check: an in-graph tensor check, an XLA FFI custom call in C++
(python/ffi/check_cpu.cc; check_cuda.cu on GPUs) that works under jax.jit.

One pass over the tensor counts NaN, infinite and out-of-range elements.
"""
from __future__ import annotations

import ctypes
import math
import os
import threading
from typing import Any, Optional

import jax
import jax.numpy as jnp
import numpy as np

_TARGET = "griffin_check"
_registered: set = set()
_lock = threading.Lock()
_HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))   # the griffin package folder


def _register(platform: str) -> None:
    """Loads the handler library for `platform` and registers it with XLA once."""
    with _lock:
        if platform in _registered:
            return
        name, symbol = {"cpu": ("libgriffin_check_cpu.so", "GriffinCheckCpu"),
                        "cuda": ("libgriffin_check_cuda.so", "GriffinCheckCuda")}[platform]
        path = os.path.join(_HERE, name)
        if not os.path.exists(path):
            hint = (" (build it on the GPU machine with python/ffi/build_cuda.sh)" if platform == "cuda"
                    else " (reinstall the griffin package with jaxlib present)")
            raise RuntimeError("griffin.jax.check: %s is not installed%s" % (path, hint))
        library = ctypes.cdll.LoadLibrary(path)
        jax.ffi.register_ffi_target(_TARGET, jax.ffi.pycapsule(getattr(library, symbol)), platform=platform)
        _registered.add(platform)


def _platforms() -> list:
    found = []
    for device in jax.devices():
        platform = "cuda" if device.platform == "gpu" else device.platform
        if platform not in found:
            found.append(platform)
    if "cpu" not in found:
        found.append("cpu")   # jit may still place a computation on the host
    return found


def check(x: Any, *, finite: bool = True, min: Optional[float] = None, max: Optional[float] = None,
          mode: str = "count") -> Any:
    """Check a tensor inside a jax computation (works under jax.jit).

    Counts, in one pass, the NaN elements, the infinite ones, and the non-NaN
    elements below `min` or above `max` (inclusive bounds; None: unbounded).

    mode="count" returns an int array [nan, inf, out_of_range] (int64 with
    jax_enable_x64, else int32, saturating at 2**31 - 1).
    mode="raise" returns `x` itself and fails the computation, with a message
    giving the counts and the tensor's shape, when `finite` and a NaN or inf
    was found, or when an element is out of range. The check cannot be
    optimized away (it is a side effect), and the failure surfaces as an
    exception (XlaRuntimeError / JaxRuntimeError) where the result is
    computed.

    Supported dtypes: float16, bfloat16, float32, float64 and the integer
    types. On a GPU the CUDA handler is used (built only where nvcc exists).
    """
    if mode not in ("count", "raise"):
        raise ValueError("mode: 'count' or 'raise', not %r" % (mode,))
    x = jnp.asarray(x)
    if not (jnp.issubdtype(x.dtype, jnp.floating) or jnp.issubdtype(x.dtype, jnp.integer)):
        raise TypeError("griffin.jax.check takes float or integer tensors, not %s" % x.dtype)
    lo = -math.inf if min is None else float(min)
    hi = math.inf if max is None else float(max)
    if lo > hi:
        raise ValueError("min %r is above max %r" % (min, max))
    for platform in _platforms():
        _register(platform)
    counts_dtype = jnp.int64 if jax.config.jax_enable_x64 else jnp.int32
    call = jax.ffi.ffi_call(_TARGET, jax.ShapeDtypeStruct((3,), counts_dtype),
                            has_side_effect=(mode == "raise"), vmap_method="sequential")
    # "raise" is a Python keyword, hence the dict.
    counts = call(x, **{"lo": np.float64(lo), "hi": np.float64(hi), "finite": bool(finite), "raise": mode == "raise"})
    return x if mode == "raise" else counts
