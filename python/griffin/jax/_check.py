"""griffin.jax.check: an in-graph tensor check, an XLA FFI custom call in C++
(python/ffi/check_cpu.cc; check_cuda.cu on GPUs) that works under jax.jit.

One pass over the tensor counts NaN, infinite and out-of-range elements.

Under differentiation (jax.grad, value_and_grad, jvp, vjp) a check is the
identity: its JVP rule (jax.custom_jvp) passes the tangent through in "raise"
mode and gives a zero (float0) tangent for the integer counts of "count"
mode, while the check itself still runs on the primal values.
"""
from __future__ import annotations

import ctypes
import functools
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

    Differentiable: inside a loss under jax.grad / value_and_grad the check
    is the identity ("raise": d check(x) / dx = 1; "count": the counts are
    integers with no gradient, e.g. an aux output with has_aux=True), and it
    still checks the primal values of the forward pass.
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
    return _checked(x, lo, hi, bool(finite), mode == "raise")


@functools.partial(jax.custom_jvp, nondiff_argnums=(1, 2, 3, 4))
def _checked(x: Any, lo: float, hi: float, finite: bool, fail: bool) -> Any:
    """The custom call: `x` itself when `fail` (the call is a side effect that
    fails the computation), else the counts [nan, inf, out_of_range]."""
    counts_dtype = jnp.int64 if jax.config.jax_enable_x64 else jnp.int32
    call = jax.ffi.ffi_call(_TARGET, jax.ShapeDtypeStruct((3,), counts_dtype),
                            has_side_effect=fail, vmap_method="sequential")
    # "raise" is a Python keyword, hence the dict.
    counts = call(x, **{"lo": np.float64(lo), "hi": np.float64(hi), "finite": finite, "raise": fail})
    return x if fail else counts


@_checked.defjvp
def _checked_jvp(lo: float, hi: float, finite: bool, fail: bool, primals: tuple, tangents: tuple) -> tuple:
    """A check is the identity for gradients: the check runs on the primal;
    "raise" passes the tangent through, the integer counts have none (float0)."""
    (x,), (x_dot,) = primals, tangents
    out = _checked(x, lo, hi, finite, fail)
    if fail:
        return out, x_dot
    return out, np.zeros(out.shape, dtype=jax.dtypes.float0)
