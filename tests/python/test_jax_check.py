"""griffin.jax.check, the XLA FFI custom call (python/ffi/check_cpu.cc): counts
against numpy for f32, f64, bf16 (and f16, ints), under jax.jit and eagerly,
and "raise" mode failing a jitted computation with the counts in the message."""
import math

import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as np
import pytest

from griffin.jax import check


def numpy_counts(values: np.ndarray, lo: float, hi: float):
    as_float = values.astype(np.float64)
    nan = np.isnan(as_float)
    inf = np.isinf(as_float)
    out = ~nan & ((as_float < lo) | (as_float > hi))
    return [int(nan.sum()), int(inf.sum()), int(out.sum())]


def random_tensor(dtype, shape, seed):
    rng = np.random.default_rng(seed)
    values = rng.normal(0, 3, size=shape)
    flat = values.reshape(-1)
    flat[rng.random(flat.size) < 0.05] = np.nan
    flat[rng.random(flat.size) < 0.03] = np.inf
    flat[rng.random(flat.size) < 0.03] = -np.inf
    return values.astype(dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, ml_dtypes.bfloat16, np.float16])
@pytest.mark.parametrize("bounds", [(None, None), (-1.0, 2.5), (0.0, None), (None, -4.0)])
def test_counts_equal_numpy_under_jit(dtype, bounds):
    lo, hi = bounds
    values = random_tensor(dtype, (37, 11, 3), seed=hash((str(dtype), bounds)) % 1000)
    expected = numpy_counts(values, -math.inf if lo is None else lo, math.inf if hi is None else hi)
    counted = jax.jit(lambda x: check(x, min=lo, max=hi))(jnp.asarray(values))
    assert counted.dtype == jnp.int32   # jax_enable_x64 is off in this process
    assert counted.tolist() == expected
    assert check(jnp.asarray(values), min=lo, max=hi).tolist() == expected   # eager too
    assert expected[0] > 0 and expected[1] > 0


def test_integer_tensors_and_empty_ones():
    values = np.arange(-50, 50, dtype=np.int32)
    assert check(jnp.asarray(values), min=0, max=9).tolist() == [0, 0, 90]
    assert check(jnp.zeros((0, 4), jnp.float32), min=0).tolist() == [0, 0, 0]


def test_raise_mode_fails_the_jitted_computation_with_the_counts():
    @jax.jit
    def step(x):
        x = check(x, min=-10, max=10, mode="raise")
        return (x * 2).sum()

    good = jnp.ones((8, 4), jnp.float32)
    assert float(step(good)) == 64.0
    bad = good.at[1, 2].set(jnp.nan).at[3, 0].set(jnp.inf).at[5, 1].set(-11.0)
    with pytest.raises(Exception) as failure:
        float(step(bad))
    message = str(failure.value)
    assert "griffin.jax.check failed: 1 NaN, 1 inf, 2 out of range [-10, 10]" in message
    assert "shape [8,4] (32 elements)" in message


def test_raise_mode_is_not_optimized_away_when_its_result_is_unused():
    @jax.jit
    def unused(x):
        check(x, mode="raise")
        return jnp.float32(1.0)

    with pytest.raises(Exception, match="griffin.jax.check failed: 1 NaN"):
        float(unused(jnp.array([1.0, jnp.nan])))


def test_finite_false_only_checks_the_range_in_raise_mode():
    x = jnp.array([0.5, jnp.nan, jnp.inf])
    total = jax.jit(lambda v: check(v, finite=False, mode="raise").sum())(x[:2])   # NaN passes: no error
    assert math.isnan(float(total))
    with pytest.raises(Exception, match="out of range"):
        jax.jit(lambda v: check(v, finite=False, max=1.0, mode="raise").sum())(x).block_until_ready()


def test_argument_errors():
    with pytest.raises(ValueError, match="mode"):
        check(jnp.ones(3), mode="warn")
    with pytest.raises(ValueError, match="above max"):
        check(jnp.ones(3), min=2, max=1)
    with pytest.raises(TypeError, match="float or integer"):
        check(jnp.ones(3, dtype=bool))


def test_x64_counts_are_int64(tmp_path):
    import subprocess
    import sys
    script = ("import jax; jax.config.update('jax_enable_x64', True); import jax.numpy as jnp;"
              "from griffin.jax import check; c = check(jnp.array([1.0, float('nan')], jnp.float64));"
              "print(c.dtype, c.tolist())")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "int64 [1, 0, 0]"


# --- under differentiation: a check is the identity for gradients -------------

def loss_with_a_check(w, x):
    h = check(x @ w, min=-100, max=100, mode="raise")
    return (h ** 2).sum()


def loss_without(w, x):
    return ((x @ w) ** 2).sum()


def test_grad_and_value_and_grad_pass_through_a_raise_check():
    w = jnp.arange(6, dtype=jnp.float32).reshape(3, 2) / 10
    x = jnp.linspace(-1, 1, 12, dtype=jnp.float32).reshape(4, 3)
    expected = jax.grad(loss_without)(w, x)
    assert jnp.allclose(jax.grad(loss_with_a_check)(w, x), expected)
    value, grads = jax.jit(jax.value_and_grad(loss_with_a_check))(w, x)
    assert float(value) == pytest.approx(float(loss_without(w, x)), rel=1e-6)
    assert jnp.allclose(grads, expected)
    # Forward mode, and a gradient through the checked input itself.
    tangent = jnp.ones_like(w)
    _, out_tangent = jax.jvp(lambda v: loss_with_a_check(v, x), (w,), (tangent,))
    _, expected_tangent = jax.jvp(lambda v: loss_without(v, x), (w,), (tangent,))
    assert float(out_tangent) == pytest.approx(float(expected_tangent), rel=1e-6)
    assert jnp.allclose(jax.grad(lambda v: check(v, mode="raise").sum())(x), jnp.ones_like(x))


def test_a_check_under_grad_still_fails_on_bad_primal_values():
    w = jnp.ones((3, 2), jnp.float32)
    x = jnp.ones((4, 3), jnp.float32).at[2, 1].set(jnp.nan)
    with pytest.raises(Exception, match="griffin.jax.check failed: 2 NaN"):
        jax.block_until_ready(jax.jit(jax.grad(loss_with_a_check))(w, x))
    with pytest.raises(Exception, match="out of range"):
        jax.block_until_ready(jax.grad(loss_with_a_check)(w * 100, jnp.ones((4, 3), jnp.float32)))


def test_count_mode_is_an_aux_output_of_a_differentiated_loss():
    def loss(w, x):
        h = x @ w
        return (h ** 2).sum(), check(h, max=1.0)

    w = jnp.ones((3, 2), jnp.float32)
    x = jnp.array([[0.1, 0.2, 0.3], [1.0, jnp.inf, 0.0]], jnp.float32)
    (value, counts), grads = jax.value_and_grad(loss, has_aux=True)(w, x[:1])
    assert counts.tolist() == [0, 0, 0] and jnp.allclose(grads, jax.grad(lambda v: ((x[:1] @ v) ** 2).sum())(w))
    (_, counts), _ = jax.jit(jax.value_and_grad(loss, has_aux=True))(w, x)
    assert counts.tolist() == [0, 2, 2]
    # The counts have no gradient (integers): jvp gives a float0 zero tangent.
    _, tangent = jax.jvp(lambda v: check(v, max=1.0), (x,), (jnp.ones_like(x),))
    assert tangent.dtype == jax.dtypes.float0 and tangent.shape == (3,)
