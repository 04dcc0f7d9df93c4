"""griffin.jax.QualityGate (issue 4): thresholds, NaN handling, the score
cache, and the service path's deadline and backoff (exponential, full jitter,
Retry-After as a floor) against a local stand-in answering 429 and 503."""
import math
import random
import textwrap
import time

import jax.numpy as jnp
import numpy as np
import pyarrow as pa
import pytest

import griffin
from griffin.jax import QualityGate, QualityServiceError, TrainingAbortError
from griffin.jax._service import MetricsClient

from metrics_standin import MetricsStandIn

RULES = textwrap.dedent("""\
    griffin: 1
    dataset: steps
    columns:
      x: {type: float64, not_null: true, finite: true, min: 0}
      y: {type: int64, in: [0, 1]}
    """)


@pytest.fixture(scope="module")
def validator():
    return griffin.Validator.from_yaml(RULES)


def batch(rows=100, bad=0, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.uniform(0, 1, rows)
    x[:bad] = np.nan
    return {"x": x, "y": rng.integers(0, 2, rows)}


def test_scores_pass_at_and_above_the_threshold(validator):
    gate = QualityGate(validator, threshold=0.9)
    assert gate.check(batch(100, bad=10)) == pytest.approx(0.9)
    assert gate.check(batch(100, bad=0, seed=1)) == 1.0


def test_below_the_threshold_aborts_with_the_reasons(validator):
    gate = QualityGate(validator, threshold=0.9)
    with pytest.raises(TrainingAbortError) as error:
        gate.check(batch(100, bad=11), step=7)
    e = error.value
    assert e.score == pytest.approx(0.89) and e.step == 7
    assert e.reasons[0] == "quality_score 0.8900 < threshold 0.9"
    assert "x.finite: 11 of 100 rows" in e.reasons
    assert "at step 7" in str(e) and e.report.bad_rows == 11


@pytest.mark.parametrize("loss", [float("nan"), float("inf"), -float("inf"), jnp.float32(jnp.nan),
                                  np.array([np.nan])])
def test_a_non_finite_loss_aborts_even_on_clean_data(validator, loss):
    gate = QualityGate(validator, threshold=0.5)
    with pytest.raises(TrainingAbortError, match="loss is"):
        gate.check(batch(), loss=loss)
    assert gate.check(batch(), loss=jnp.float32(0.25)) == 1.0


def test_jax_arrays_pyarrow_and_pandas_batches(validator):
    gate = QualityGate(validator, threshold=0.5)
    data = batch(50, bad=5)
    assert gate.check({k: jnp.asarray(v) for k, v in data.items()}) == pytest.approx(0.9)
    assert gate.check(pa.table(data)) == pytest.approx(0.9)
    assert gate.check(pa.table(data).to_pandas()) == pytest.approx(0.9)


def test_the_cache_validates_a_batch_once_and_evicts_the_least_recent(validator):
    gate = QualityGate(validator, threshold=0.0, cache_size=2)
    calls = []
    real = validator.validate
    gate.validator = type("Counting", (), {"validate": lambda self, b: calls.append(1) or real(b),
                                           "dataset": validator.dataset})()
    a, b, c = batch(seed=1), batch(seed=2), batch(seed=3)
    gate.check(a)
    gate.check({k: v.copy() for k, v in a.items()})   # same content, other buffers: a hit
    assert (len(calls), gate.hits, gate.misses) == (1, 1, 1)
    gate.check(b)
    gate.check(a)          # a is now the most recent
    gate.check(c)          # evicts b
    gate.check(a)
    assert len(calls) == 3
    gate.check(b)
    assert len(calls) == 4
    changed = {k: v.copy() for k, v in a.items()}
    changed["x"][3] += 1e-9
    gate.check(changed)    # one different value: a different batch
    assert len(calls) == 5


def test_cache_size_zero_never_caches(validator):
    gate = QualityGate(validator, cache_size=0)
    gate.check(batch())
    gate.check(batch())
    assert gate.hits == 0 and gate.misses == 2


def test_argument_errors(validator):
    with pytest.raises(ValueError, match="validator or a url"):
        QualityGate()
    with pytest.raises(ValueError, match="threshold"):
        QualityGate(validator, threshold=1.5)
    with pytest.raises(ValueError, match="dataset="):
        QualityGate(url="http://127.0.0.1:1")


# --- the service path --------------------------------------------------------

def expected_waits(seed, count, base, cap, floors=()):
    rng = random.Random(seed)
    waits = []
    for attempt in range(count):
        wait = rng.uniform(0, min(cap, base * 2 ** attempt))
        floor = floors[attempt] if attempt < len(floors) else 0.0
        waits.append(max(wait, floor))
    return waits


def test_backoff_on_429_and_503_with_full_jitter_timings():
    busy = [(429, {}, {"error": "rate limited"})] * 3 + [(503, {}, {"error": "reloading"})]
    ok = (200, {}, {"quality_score": 0.95, "passed": True, "reasons": []})
    with MetricsStandIn(busy + [ok]) as service:
        gate = QualityGate(url=service.url, dataset="steps", threshold=0.9, rng=random.Random(42),
                           backoff_base=0.02, backoff_max=0.1, deadline=10)
        assert gate.check(batch(), loss=0.5, step=3) == 0.95
    waits = expected_waits(42, 4, 0.02, 0.1)
    assert gate.client.waits == pytest.approx(waits)
    arrivals = [t for t, _, _ in service.requests]
    assert len(arrivals) == 5
    for gap, wait in zip(np.diff(arrivals), waits):
        assert gap >= wait - 0.002, (gap, wait)        # the client really slept the jittered wait
    body = service.requests[-1][2]
    assert body["dataset"] == "steps" and body["step"] == 3 and body["loss"] == 0.5
    assert len(body["records"]) == 100 and len(body["batch_hash"]) == 32


def test_retry_after_is_a_floor_for_the_wait():
    script = [(429, {"Retry-After": "0.3"}, {"error": "slow down"})]
    with MetricsStandIn(script) as service:
        gate = QualityGate(url=service.url, dataset="steps", rng=random.Random(1), backoff_base=0.001)
        gate.check(batch())
    (first, _, _), (second, _, _) = service.requests
    assert gate.client.waits == [0.3]
    assert second - first >= 0.3 - 0.002


def test_the_deadline_bounds_a_service_that_keeps_refusing():
    with MetricsStandIn(default=(429, {}, {"error": "rate limited"})) as service:
        gate = QualityGate(url=service.url, dataset="steps", deadline=0.5, backoff_base=0.05, backoff_max=0.2)
        start = time.monotonic()
        with pytest.raises(QualityServiceError, match="deadline.*HTTP 429 rate limited") as error:
            gate.check(batch())
        elapsed = time.monotonic() - start
    # The call ends when the next wait (at most backoff_max) would reach the deadline.
    assert 0.5 - 0.2 - 0.01 <= elapsed < 1.5
    assert gate.client.waits and max(gate.client.waits) <= 0.2
    # A try that timed out on a loaded machine may not have reached the log yet.
    assert error.value.status == 429 and error.value.attempts >= 2
    assert 1 <= len(service.requests) <= error.value.attempts


def test_a_wait_that_would_reach_the_deadline_ends_the_call_without_a_doomed_try():
    now = [0.0]
    def sleep(seconds):
        now[0] += seconds
    with MetricsStandIn(default=(503, {}, {"error": "busy"})) as service:
        client = MetricsClient(service.url, deadline=1.0, backoff_base=0.2, backoff_max=0.4,
                               rng=random.Random(7), sleep=sleep, clock=lambda: now[0])
        with pytest.raises(QualityServiceError, match=r"1 s deadline after (\d+) attempt\(s\); last: HTTP 503 busy$") as error:
            client.post_metrics({"dataset": "steps"})
    waits = expected_waits(7, error.value.attempts, 0.2, 0.4)
    assert client.waits == pytest.approx(waits[:-1])       # the last wait was not slept ...
    assert sum(waits[:-1]) < 1.0 <= sum(waits)             # ... because it would have reached the deadline
    assert len(service.requests) == error.value.attempts and error.value.status == 503


def test_a_timeout_after_a_refusal_reports_both():
    script = [(429, {}, {"error": "rate limited"})]
    with MetricsStandIn(script, default=(200, {}, {"quality_score": 1.0}, 1.0)) as service:
        client = MetricsClient(service.url, deadline=0.8, request_timeout=0.25, backoff_base=0.01, backoff_max=0.02)
        with pytest.raises(QualityServiceError,
                           match="last: TimeoutError: timed out; last answer: HTTP 429 rate limited$") as error:
            client.post_metrics({"dataset": "steps"})
    assert error.value.status == 429 and error.value.attempts >= 2
    with pytest.raises(ValueError, match="deadline and request_timeout"):
        MetricsClient(service.url, deadline=0)


def test_client_errors_are_not_retried_and_connection_failures_are():
    with MetricsStandIn([(400, {}, {"error": "unknown column z"})]) as service:
        gate = QualityGate(url=service.url, dataset="steps")
        with pytest.raises(QualityServiceError, match="refused: HTTP 400 unknown column z"):
            gate.check(batch())
        assert len(service.requests) == 1
    closed = "http://127.0.0.1:%d" % service.server.server_address[1]   # nothing listens there now
    gate = QualityGate(url=closed, dataset="steps", deadline=0.3, backoff_base=0.01)
    with pytest.raises(QualityServiceError, match="ConnectionRefusedError"):
        gate.check(batch())
    assert len(gate.client.waits) >= 2


def test_service_scores_thresholds_nan_and_the_hash_only_resend():
    answers = [(200, {}, {"quality_score": 0.97, "passed": True, "reasons": []}),
               (200, {}, {"quality_score": 0.97, "passed": True, "reasons": []}),
               (200, {}, {"quality_score": 0.4, "passed": False, "reasons": ["loss spike: 9.1 sd"]}),
               (200, {}, b'{"quality_score": NaN, "passed": false, "reasons": []}'),
               (200, {}, {"quality_score": None, "passed": False, "reasons": ["unknown batch_hash"]})]
    with MetricsStandIn(answers) as service:
        gate = QualityGate(url=service.url, dataset="steps", api_key="k-123", threshold=0.9)
        data = batch()
        assert gate.check(data, loss=0.3, step=1, metrics={"lr": 0.01}) == 0.97
        assert gate.check(data, loss=0.31, step=2) == 0.97
        with pytest.raises(TrainingAbortError, match="loss spike: 9.1 sd"):
            gate.check(data, loss=9.0, step=3)
        with pytest.raises(TrainingAbortError, match="quality_score is nan"):
            gate.check(data, step=4)
        with pytest.raises(TrainingAbortError, match="quality_score is nan"):
            gate.check(data, step=5)
    first, second = service.requests[0][2], service.requests[1][2]
    assert "records" in first and first["metrics"] == {"lr": 0.01}
    assert "records" not in second and second["batch_hash"] == first["batch_hash"]   # seen: hash only
    assert service.requests[0][1]["Authorization"] == "Bearer k-123"


def test_non_finite_values_travel_as_strings_griffin_parses():
    with MetricsStandIn() as service:
        gate = QualityGate(url=service.url, dataset="steps")
        gate.check({"x": np.array([1.0, np.nan, np.inf]), "y": np.array([0, 1, 0])})
    records = service.requests[0][2]["records"]
    assert [r["x"] for r in records] == [1.0, "NaN", "inf"]
    assert math.isfinite(records[0]["x"])


def test_a_hash_the_service_does_not_know_is_resent_with_its_records():
    answers = [(200, {}, {"quality_score": 1.0, "passed": True, "reasons": []}),
               (200, {}, {"quality_score": None, "passed": False, "reasons": ["unknown batch_hash"],
                          "unknown_batch_hash": True}),
               (200, {}, {"quality_score": 0.99, "passed": True, "reasons": []})]
    with MetricsStandIn(answers) as service:
        gate = QualityGate(url=service.url, dataset="steps", threshold=0.9)
        data = batch()
        gate.check(data, step=1)
        assert gate.check(data, step=2) == 0.99        # the service restarted in between
    bodies = [body for _, _, body in service.requests]
    assert ["records" in body for body in bodies] == [True, False, True]
