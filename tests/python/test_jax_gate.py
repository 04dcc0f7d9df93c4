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
import pyarrow.csv
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


# --- issue 11 / 12: what aborts, and what an abort keeps ----------------------

@pytest.mark.parametrize("make", [list, np.asarray, jnp.asarray], ids=["list", "numpy", "jax"])
def test_a_vector_loss_is_checked_element_by_element(validator, make):
    gate = QualityGate(validator, threshold=0.5)
    with pytest.raises(TrainingAbortError) as error:
        gate.check(batch(), loss=make([0.5, np.nan]), step=3)
    e = error.value
    assert e.reasons == ["loss [0.5, nan]: 1 of 2 elements not finite"]
    assert e.loss[0] == 0.5 and math.isnan(e.loss[1]) and len(e.loss) == 2
    assert e.score == 1.0 and e.step == 3 and e.report.passed
    with pytest.raises(TrainingAbortError, match=r"loss \[1.0, 2.0, -inf\]"):
        gate.check(batch(), loss=make([[1.0, 2.0, -np.inf]]))
    assert gate.check(batch(), loss=make([0.5, 0.25])) == 1.0


@pytest.mark.parametrize("value", [np.nan, np.inf, jnp.float32(-jnp.inf), [1.0, np.nan]])
def test_a_non_finite_metric_aborts(validator, value):
    gate = QualityGate(validator, threshold=0.5)
    with pytest.raises(TrainingAbortError, match="metrics.grad_norm") as error:
        gate.check(batch(), loss=0.3, metrics={"lr": 0.01, "grad_norm": value})
    assert len(error.value.reasons) == 1 and error.value.loss == 0.3
    assert gate.check(batch(), loss=0.3, metrics={"grad_norm": jnp.float32(2.0)}) == 1.0


def test_schema_errors_abort_whatever_the_score_and_are_in_the_reasons(validator, tmp_path):
    from griffin_cli import run_validate

    missing_y = {"x": np.linspace(0, 1, 20)}
    gate = QualityGate(validator, threshold=0.0)          # a threshold that no score can fail
    with pytest.raises(TrainingAbortError) as error:
        gate.check(missing_y, loss=0.5, step=9)
    e = error.value
    schema = [r for r in e.reasons if r.startswith("schema: ")]
    assert len(schema) == 1 and "y" in schema[0], e.reasons
    assert (e.loss, e.step, e.report.rows) == (0.5, 9, 20)
    # The same rows through the CLI: a schema error, and the run fails.
    rules = tmp_path / "rules.yaml"
    rules.write_text(RULES)
    data = tmp_path / "missing_y.csv"
    pa.csv.write_csv(pa.table(missing_y), data)
    status, report, _ = run_validate(rules, [data])
    assert status == 1 and not report["passed"]
    assert [error["message"] for error in report["schema_errors"]] == [r[len("schema: "):] for r in schema]
    # A cached batch aborts again, for the same reasons.
    with pytest.raises(TrainingAbortError) as again:
        gate.check(missing_y)
    assert schema[0] in again.value.reasons and gate.hits == 1


def test_the_gate_score_equals_the_cli_on_the_same_rows(validator, tmp_path):
    from griffin_cli import run_validate

    data = batch(200, bad=30, seed=5)
    path = tmp_path / "rows.csv"
    pa.csv.write_csv(pa.table(data), path)
    rules = tmp_path / "rules.yaml"
    rules.write_text(RULES)
    _, report, _ = run_validate(rules, [path])
    gate = QualityGate(validator, threshold=0.0)
    assert gate.check(data) == pytest.approx(report["quality_score"])
    assert gate.check(str(path)) == pytest.approx(report["quality_score"])


# --- polars frames: fingerprinted over the Arrow C stream ---------------------

def polars_frame(rows=1000, seed=0, bad=0):
    import polars as pl

    data = batch(rows, bad=bad, seed=seed)
    return pl.DataFrame({"x": data["x"], "y": data["y"],
                         "note": ["row %d of a string column long enough to leave the view" % i
                                  for i in range(rows)]})


def test_polars_frames_hit_the_cache_and_a_changed_value_misses(validator):
    import polars as pl

    frame = polars_frame(bad=7)
    assert pa.table(frame).schema.field("note").type == pa.string_view()   # polars' strings: views
    gate = QualityGate(validator, threshold=0.5)
    assert gate.check(frame) == pytest.approx(0.993)
    assert (gate.hits, gate.misses) == (0, 1)
    assert gate.check(frame.clone()) == pytest.approx(0.993)
    assert gate.check(polars_frame(bad=7)) == pytest.approx(0.993)     # equal content, other buffers
    assert (gate.hits, gate.misses) == (2, 1)
    changed = frame.with_columns(pl.when(pl.int_range(pl.len()) == 500).then(pl.lit(-1.0))
                                 .otherwise(pl.col("x")).alias("x"))
    assert gate.check(changed) == pytest.approx(0.992)                   # one more bad row: validated
    text = frame.with_columns(pl.when(pl.int_range(pl.len()) == 999).then(pl.lit("another long string value "
                                                                                  "outside the view"))
                              .otherwise(pl.col("note")).alias("note"))
    gate.check(text)
    short = frame.with_columns(pl.when(pl.int_range(pl.len()) == 3).then(pl.lit("inline"))
                               .otherwise(pl.col("note")).alias("note"))
    gate.check(short)
    assert (gate.hits, gate.misses) == (2, 4)


def test_polars_and_arrow_hits_cost_about_the_same(validator):
    frame = polars_frame(200_000, seed=2)
    table = pa.table({"x": frame["x"].to_numpy(), "y": frame["y"].to_numpy(), "note": frame["note"].to_list()})
    gate = QualityGate(validator, threshold=0.5)
    timings = {}
    for name, data in (("polars", frame), ("arrow", table)):
        gate.check(data)
        start = time.perf_counter()
        for _ in range(20):
            gate.check(data)
        timings[name] = (time.perf_counter() - start) / 20
    assert gate.hits == 40 and gate.misses == 2
    # Before: no cache for polars at all (a validation per check, ~60 ms here).
    assert timings["polars"] < 0.02, timings


# --- the service path: what is sent, and aborts the service cannot prevent ---

def test_non_finite_losses_and_metrics_are_sent_as_the_service_strings():
    with MetricsStandIn() as service:
        gate = QualityGate(url=service.url, dataset="steps")
        for loss, metric in [(np.nan, np.inf), (jnp.float32(-jnp.inf), jnp.float32(jnp.nan))]:
            with pytest.raises(TrainingAbortError, match="loss is"):
                gate.check(batch(), loss=loss, metrics={"grad_norm": metric, "lr": 0.01})
        assert gate.check(batch(), loss=[0.25, 0.75], metrics={"grad_norm": np.array([1.0, 3.0])}) == 1.0
    sent = [(body["loss"], body["metrics"]) for _, _, body in service.requests]
    assert sent == [("nan", {"grad_norm": "inf", "lr": 0.01}), ("-inf", {"grad_norm": "nan", "lr": 0.01}),
                    (0.5, {"grad_norm": 2.0})]     # a vector goes as its mean


def test_a_nan_loss_aborts_even_when_the_service_cannot_answer():
    with MetricsStandIn(default=(503, {}, {"error": "busy"})) as service:
        gate = QualityGate(url=service.url, dataset="steps", deadline=0.3, backoff_base=0.01)
        with pytest.raises(TrainingAbortError) as error:
            gate.check(batch(), loss=float("nan"), step=5)
        assert error.value.reasons[0] == "loss is nan"
        assert "the quality service gave no score" in error.value.reasons[-1]
        assert error.value.step == 5 and math.isnan(error.value.loss)
        with pytest.raises(QualityServiceError, match="HTTP 503 busy"):
            gate.check(batch(), loss=0.5)                 # a finite loss: the data was not judged


def test_a_failing_answer_above_the_threshold_aborts():
    answer = {"quality_score": 0.8, "passed": False, "data_score": 1.0, "telemetry_score": 0.8,
              "reasons": ["metrics.grad_norm.max: grad_norm 1e4 is above the max 1000"]}
    with MetricsStandIn([(200, {}, answer)]) as service:
        gate = QualityGate(url=service.url, dataset="steps", threshold=0.7)
        with pytest.raises(TrainingAbortError) as error:
            gate.check(batch(), loss=0.4, metrics={"grad_norm": 1e4}, step=11)
    e = error.value
    assert e.score == 0.8 and e.step == 11 and e.loss == 0.4
    assert e.reasons == ["a training check of severity error failed (telemetry_score 0.8)",
                         "metrics.grad_norm.max: grad_norm 1e4 is above the max 1000"]
