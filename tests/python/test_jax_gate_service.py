"""griffin.jax.QualityGate(url=...) against the real `griffin serve` (issues 11
and 12): it takes what the in-process gate takes (paths, pandas, polars,
pyarrow, dicts of arrays) with the same scores as `griffin validate` on the
same rows; it aborts with TrainingAbortError on a NaN / inf loss or metric
(sent as the service's strings, never a JSON ValueError), on a vector loss
with a bad element, on a failed error-severity training check or
training.min_score whatever the score, and on the service's 422."""
import math

import jax.numpy as jnp
import numpy as np
import pyarrow as pa
import pyarrow.csv
import pyarrow.parquet
import pytest

import griffin
from griffin.jax import QualityGate, QualityServiceError, TrainingAbortError
from griffin_cli import run_validate
from server_harness import GriffinServer, TOKENS, config_yaml

RULES = """griffin: 1
dataset: steps
columns:
  x: {type: float64, not_null: true, finite: true, min: 0}
  y: {type: int64, in: [0, 1]}
training:
  loss: {finite: true}
  metrics:
    grad_norm: {max: 10}
"""

# No training checks: the gate alone must refuse a NaN loss.
PLAIN = """griffin: 1
dataset: plain
columns:
  x: {type: float64, not_null: true, finite: true, min: 0}
  y: {type: int64, in: [0, 1]}
"""

STRICT = """griffin: 1
dataset: strict
columns:
  x: {type: float64, not_null: true, finite: true, min: 0}
  y: {type: int64, in: [0, 1]}
training:
  min_score: 0.95
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    config = config_yaml(limits="  rate: none\n  reload_interval_s: 0.05\n",
                         datasets_for_reader=("steps", "plain", "strict"))
    with GriffinServer(tmp_path_factory.mktemp("gate"), {"steps": RULES, "plain": PLAIN, "strict": STRICT},
                       config=config) as s:
        yield s


def gate(server, dataset="steps", **kwargs):
    kwargs.setdefault("threshold", 0.7)
    return QualityGate(url=server.url, dataset=dataset, api_key=TOKENS["trainer"], deadline=10, **kwargs)


def rows(count=100, bad=0, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.uniform(0, 1, count)
    x[:bad] = np.nan
    return {"x": x, "y": rng.integers(0, 2, count)}


@pytest.mark.parametrize("loss", [float("nan"), float("inf"), -float("inf"), jnp.float32(jnp.nan),
                                  np.array([np.nan])])
def test_a_non_finite_loss_aborts_instead_of_a_json_error(server, loss):
    with pytest.raises(TrainingAbortError) as error:
        gate(server).check(rows(), loss=loss, step=4)
    e = error.value
    assert e.reasons[0].startswith("loss is ") and e.step == 4
    # The value reached the service as its string: its loss.finite check saw it.
    assert any(r.startswith("loss.finite: loss is ") for r in e.reasons), e.reasons


def test_a_nan_loss_aborts_without_training_rules_too(server):
    plain = gate(server, "plain")
    with pytest.raises(TrainingAbortError, match="loss is nan") as error:
        plain.check(rows(), loss=float("nan"))
    assert error.value.score == 1.0        # the service judged the data; the gate the loss


@pytest.mark.parametrize("value", [float("inf"), float("nan"), jnp.float32(jnp.inf)])
def test_a_non_finite_metric_aborts(server, value):
    with pytest.raises(TrainingAbortError, match="metrics.grad_norm") as error:
        gate(server).check(rows(), loss=0.5, metrics={"grad_norm": value})
    assert any(r.startswith("metrics.grad_norm.max") for r in error.value.reasons), error.value.reasons


@pytest.mark.parametrize("make", [list, np.asarray, jnp.asarray], ids=["list", "numpy", "jax"])
def test_a_vector_loss_with_one_nan_aborts(server, make):
    the_gate = gate(server)
    with pytest.raises(TrainingAbortError) as error:
        the_gate.check(rows(), loss=make([0.5, np.nan]), step=2)
    assert error.value.reasons[0] == "loss [0.5, nan]: 1 of 2 elements not finite"
    assert error.value.loss[0] == 0.5 and math.isnan(error.value.loss[1])
    assert the_gate.check(rows(), loss=make([0.5, 0.25]), step=3) == 1.0


def test_a_failing_training_check_aborts_above_the_threshold(server):
    # grad_norm.max fails: telemetry_score 0.5 (1 of 2 error checks), passed false.
    the_gate = gate(server, threshold=0.4)
    with pytest.raises(TrainingAbortError) as error:
        the_gate.check(rows(), loss=0.5, step=7, metrics={"grad_norm": 25.0})
    e = error.value
    assert e.score == pytest.approx(0.5) and e.score >= the_gate.threshold
    assert e.reasons[0] == "a training check of severity error failed (telemetry_score 0.5)"
    assert any(r.startswith("metrics.grad_norm.max: ") for r in e.reasons), e.reasons
    assert the_gate.check(rows(), loss=0.5, step=8, metrics={"grad_norm": 2.0}) == 1.0


def test_a_failed_min_score_aborts_below_the_rules_threshold(server):
    the_gate = gate(server, "strict", threshold=0.5)
    assert the_gate.check(rows(100, bad=2, seed=1)) == pytest.approx(0.98)
    with pytest.raises(TrainingAbortError, match="< training.min_score 0.95") as error:
        the_gate.check(rows(100, bad=10, seed=2))
    assert error.value.score == pytest.approx(0.9)


def test_a_schema_error_is_an_abort_not_a_service_error(server, tmp_path):
    the_gate = gate(server, threshold=0.0)
    with pytest.raises(TrainingAbortError) as error:
        the_gate.check({"x": np.linspace(0, 1, 10)}, loss=0.3, step=1)
    e = error.value
    schema = [r for r in e.reasons if r.startswith("schema: the service refused the batch (HTTP 422): ")]
    assert len(schema) == 1 and "y" in schema[0], e.reasons
    assert (e.score, e.loss, e.step) == (0.0, 0.3, 1)
    path = tmp_path / "no_y.csv"
    path.write_text("x\n0.5\n0.25\n")
    with pytest.raises(TrainingAbortError, match="HTTP 422"):
        the_gate.check(str(path))
    # Other refusals are still QualityServiceError: the data was not judged.
    with pytest.raises(QualityServiceError, match="HTTP 404"):
        gate(server, "nope").check(rows())


def test_every_input_kind_gives_the_cli_score(server, tmp_path):
    import pandas as pd
    import polars as pl

    data = rows(200, bad=30, seed=5)
    data["x"][40:45] = -1.0
    csv = tmp_path / "shard.csv"
    pa.csv.write_csv(pa.table(data), csv)
    rules = tmp_path / "steps.yaml"
    rules.write_text(RULES)
    _, report, _ = run_validate(rules, [csv])
    expected = report["quality_score"]
    assert expected == pytest.approx(165 / 200)
    parquet = tmp_path / "shard.parquet"
    pa.parquet.write_table(pa.table(data), parquet)
    jsonl = tmp_path / "shard.jsonl"
    jsonl.write_text("".join('{"x": %s, "y": %d}\n' % ('"NaN"' if math.isnan(x) else repr(float(x)), y)
                             for x, y in zip(data["x"], data["y"])))
    inputs = {"csv path": str(csv), "pathlib": csv, "parquet": str(parquet), "jsonl": str(jsonl),
              "pyarrow": pa.table(data), "record batch": pa.record_batch(data), "pandas": pd.DataFrame(data),
              "polars": pl.DataFrame(data), "numpy dict": data,
              "jax dict": {"x": jnp.asarray(data["x"], jnp.float32), "y": jnp.asarray(data["y"])}}
    for name, batch in inputs.items():
        the_gate = gate(server)
        assert the_gate.check(batch, loss=0.5, step=1) == pytest.approx(expected, abs=1e-6), name
        assert the_gate.check(batch, loss=0.5, step=2) == pytest.approx(expected, abs=1e-6), name
        assert the_gate.hits == 1, name                       # the second time by hash only
    with pytest.raises(TrainingAbortError, match="x.finite: 30 of 200 rows"):
        gate(server, threshold=0.9).check(str(csv))
    with pytest.raises(ValueError, match="one file per check"):
        gate(server).check([str(csv), str(csv)])
    with pytest.raises(TypeError, match="takes a path"):
        gate(server).check(object())


def test_a_file_the_service_does_not_know_is_sent_again(server, tmp_path):
    from griffin.jax._fingerprint import fingerprint

    csv = tmp_path / "again.csv"
    pa.csv.write_csv(pa.table(rows(50, bad=5)), csv)
    the_gate = gate(server)
    the_gate._store(fingerprint(str(csv)), True)      # as if sent before the service restarted
    assert the_gate.check(str(csv), step=1) == pytest.approx(0.9)
    assert the_gate.hits == 1
    with griffin.Client(server.url, TOKENS["trainer"]) as client:   # the service knows it now
        assert client.metrics("steps", batch_hash=fingerprint(str(csv)).hex())["data_score"] == pytest.approx(0.9)
