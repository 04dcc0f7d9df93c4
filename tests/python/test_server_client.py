"""griffin.Client and griffin.jax.QualityGate(url=...) against the real
griffin serve: the Python client's HTTP and Flight calls, its errors, and the
training gate's round trips (records first, then the batch by hash only)."""
import math

import numpy as np
import pyarrow as pa
import pytest

import griffin
from server_harness import GriffinServer, TOKENS, config_yaml

RULES = """griffin: 1
dataset: steps
columns:
  x: {type: float64, not_null: true, finite: true, min: 0}
  y: {type: int64, in: [0, 1]}
training:
  loss: {finite: true, spike: {sigma: 5, window: 20, min_history: 5}}
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    config = config_yaml(limits="  rate: none\n  reload_interval_s: 0.05\n")
    with GriffinServer(tmp_path_factory.mktemp("client"), {"steps": RULES}, config=config) as s:
        yield s


@pytest.fixture
def client(server):
    with griffin.Client(server.url, TOKENS["trainer"], flight_url=server.flight_url) as c:
        yield c


def test_client_http_calls(client, server, tmp_path):
    assert client.health()["status"] == "ok"
    assert [d["name"] for d in client.datasets()] == ["steps"]
    table = pa.table({"x": [1.0, -1.0, 2.0], "y": [0, 1, 3]})
    report = client.validate("steps", table, batch_hash="t1")
    assert (report["rows"], report["bad_rows"]) == (3, 2)
    path = tmp_path / "d.csv"
    path.write_text("x,y\n1,0\nnan,1\n")
    assert client.validate("steps", str(path))["bad_rows"] == 1
    assert client.validate("steps", b'{"x": 1, "y": 0}\n', content_type="application/x-ndjson")["bad_rows"] == 0
    assert client.validate("steps", {"x": np.array([1.0]), "y": np.array([0])}, store=False)["rows"] == 1
    answer = client.metrics("steps", step=1, loss=0.3, batch_hash="t1")
    assert answer["data_score"] == pytest.approx(1 / 3)
    nan = client.metrics("steps", step=2, loss=float("nan"), records=[{"x": 1.0, "y": 0}])
    assert nan["passed"] is False and nan["reasons"] == ["loss.finite: loss is nan"]
    assert "griffin_requests_total" in client.prometheus()
    runs = client.runs("steps", limit=5)
    assert runs and all(r["key_id"] in ("trainer", None) for r in runs)


def test_client_errors(server):
    with griffin.Client(server.url, "wrong") as bad:
        with pytest.raises(griffin.ServiceError) as error:
            bad.datasets()
        assert error.value.status == 401 and error.value.reason == "invalid API key"
        assert isinstance(error.value, griffin.GriffinError)
    with griffin.Client(server.url, TOKENS["reader"]) as reader:
        with pytest.raises(griffin.ServiceError) as error:
            reader.validate("nope", b"x\n1\n", content_type="text/csv")
        assert error.value.status == 403
    with griffin.Client(server.url, TOKENS["trainer"]) as c:
        with pytest.raises(griffin.ServiceError) as error:
            c.validate("steps", b"x\n1\n", content_type="text/csv")
        assert error.value.status == 422
        with pytest.raises(ValueError, match="content_type"):
            c.validate("steps", b"x\n1\n")
        with pytest.raises(ValueError, match="flight_url"):
            c.exchange("steps", [])
    with pytest.raises(ValueError, match="url"):
        griffin.Client("ftp://x")


def test_client_flight_exchange_and_put(client):
    parts = [pa.record_batch({"x": [1.0, -1.0], "y": [0, 1]}), pa.record_batch({"x": [2.0], "y": [4]})]
    results, report = client.exchange("steps", parts, batch_hash="fl-1")
    assert [r["bad_rows"] for r in results] == [[1], [2]]
    assert report["rows"] == 3 and report["bad_rows"] == 2
    assert client.metrics("steps", batch_hash="fl-1")["data_score"] == pytest.approx(1 / 3)
    assert client.put("steps", pa.Table.from_batches(parts))["bad_rows"] == 2


def test_quality_gate_against_the_real_server(server):
    from griffin.jax import QualityGate, TrainingAbortError

    gate = QualityGate(url=server.url, dataset="steps", api_key=TOKENS["trainer"], threshold=0.9, deadline=10)
    rng = np.random.default_rng(3)
    clean = {"x": rng.uniform(0, 1, 64), "y": rng.integers(0, 2, 64)}
    losses = [1.0, 1.1, 0.95, 1.05, 1.0, 0.98]
    for step, loss in enumerate(losses):
        assert gate.check(clean, loss=loss, step=step) == 1.0
    # The batch was sent once with its records, then by hash only: the server remembered it.
    assert gate.hits == len(losses) - 1
    dirty = {"x": np.concatenate([clean["x"][:50], np.full(14, np.nan)]), "y": clean["y"]}
    with pytest.raises(TrainingAbortError) as error:
        gate.check(dirty, loss=1.0, step=len(losses))
    assert error.value.score == pytest.approx(50 / 64)
    assert "x.finite: 14 of 64 rows" in error.value.reasons
    with pytest.raises(TrainingAbortError) as spike:
        gate.check(clean, loss=50.0, step=len(losses) + 1)
    assert any(r.startswith("loss.spike: loss 50 is ") for r in spike.value.reasons), spike.value.reasons
    assert math.isclose(spike.value.score, 0.5)


def test_client_sends_polars_view_columns_and_refuses_unconvertible_pandas(client, tmp_path):
    """Frames reach the service as Validator.validate converts them: polars
    string_view and Categorical columns as they are (verdicts as `griffin
    validate` on the same rows), a pandas column Arrow cannot hold as InputError."""
    import pandas as pd
    import polars as pl

    from griffin_cli import run_validate

    frame = pl.DataFrame({"x": [1.0, -1.0, 2.0, None], "y": [0, 1, 3, 1],
                          "tag": pl.Series(["a", "b", "a", "c"], dtype=pl.Categorical), "note": ["n", "o", "p", "q"]})
    assert pa.RecordBatchReader.from_stream(frame).schema.field("note").type == pa.string_view()
    report = client.validate("steps", frame, store=False)
    rules, path = tmp_path / "steps.yaml", tmp_path / "steps.csv"
    rules.write_text(RULES)
    frame.write_csv(path)
    _, cli, _ = run_validate(rules, [path])
    assert (report["rows"], report["bad_rows"]) == (cli["rows"], cli["bad_rows"]) == (4, 3)
    assert [(c["name"], c["violations"]) for c in report["checks"] if "violations" in c] == \
        [(c["name"], c["violations"]) for c in cli["checks"] if "violations" in c and c["name"] != "malformed"]
    with pytest.raises(griffin.InputError, match="column 'y'.*mix types"):
        client.validate("steps", pd.DataFrame({"x": [1.0, 2.0], "y": [0, "one"]}))
