"""The 2026-12-03 contract amendments through griffin serve and griffin.Client
(issue 11): a schema error makes every row bad (quality_score 0, also for a
remembered batch the training gate scores), text bodies carry the `malformed`
check, and max_violations counts per check with the CLI's default (HTTP query
option, Flight descriptor, the Client's keyword). Each answer is compared with
`griffin validate` on the same rows."""
import numpy as np
import pyarrow as pa
import pytest

import griffin
from griffin_cli import run_validate
from server_harness import GriffinServer, TOKENS, config_yaml

RULES = """griffin: 1
dataset: tx
columns:
  txn_id: {type: string, not_null: true}
  amount: {type: float64, min: 0}
  note: {type: string, required: false, length: {max: 1, severity: warn}}
"""
WRONG_FILE = "city,population\nOslo,709000\nBergen,291000\nTromso,77000\n"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    config = config_yaml(limits="  rate: none\n  reload_interval_s: 0.05\n")
    with GriffinServer(tmp_path_factory.mktemp("contract"), {"tx": RULES}, config=config) as s:
        yield s


@pytest.fixture
def client(server):
    with griffin.Client(server.url, TOKENS["trainer"], flight_url=server.flight_url) as c:
        yield c


def cli_report(tmp_path, text, name="d.csv", max_violations=None):
    (tmp_path / "r.yaml").write_text(RULES)
    (tmp_path / name).write_text(text)
    return run_validate(tmp_path / "r.yaml", [tmp_path / name], max_violations=max_violations)[1]


def test_a_schema_error_scores_zero_over_http_as_in_the_cli(client, tmp_path):
    report = client.validate("tx", WRONG_FILE.encode(), content_type="text/csv", batch_hash="wrong-1")
    expected = cli_report(tmp_path, WRONG_FILE)
    assert (report["rows"], report["bad_rows"], report["quality_score"], report["passed"]) == (3, 3, 0.0, False)
    for key in ("rows", "bad_rows", "quality_score", "passed", "schema_errors"):
        assert report[key] == expected[key], key
    assert [c["name"] for c in report["checks"]] == [c["name"] for c in expected["checks"]]
    assert report["checks"][0]["name"] == "malformed"
    # The remembered batch scores 0 for the training gate, with the schema error as a reason.
    answer = client.metrics("tx", batch_hash="wrong-1")
    assert answer["data_score"] == 0.0 and answer["passed"] is False
    assert any(r.startswith("schema: required column 'txn_id'") for r in answer["reasons"]), answer["reasons"]


def test_a_schema_error_makes_every_streamed_row_bad(client):
    parts = [pa.record_batch({"txn_id": ["a", None]}), pa.record_batch({"txn_id": ["c"]})]
    results, report = client.exchange("tx", parts)
    assert [r["bad_rows"] for r in results] == [[0, 1], [2]]
    assert (report["bad_rows"], report["quality_score"]) == (3, 0.0)
    assert client.put("tx", pa.Table.from_batches(parts))["quality_score"] == 0.0


def test_max_violations_counts_per_check_everywhere(client, tmp_path):
    body = "txn_id,amount,note\n" + "t,1,xx\n" * 150 + "t,-1,x\n"
    expected = cli_report(tmp_path, body)  # the CLI's default
    report = client.validate("tx", body.encode(), content_type="text/csv")  # the Client's default
    listed = [v["check"] for v in report["violations"]]
    assert listed == ["note.length"] * 100 + ["amount.min"]
    assert [(v["row"], v["check"]) for v in report["violations"]] == \
           [(v["row"], v["check"]) for v in expected["violations"]]
    small = client.validate("tx", body.encode(), content_type="text/csv", max_violations=2)
    assert [(v["row"], v["check"]) for v in small["violations"]] == [(0, "note.length"), (1, "note.length"),
                                                                    (150, "amount.min")]
    table = pa.table({"txn_id": ["t"] * 151, "amount": np.append(np.ones(150), -1.0),
                      "note": ["xx"] * 150 + ["x"]})
    for flight in (client.put("tx", table, max_violations=2),
                   client.exchange("tx", table.to_batches(max_chunksize=40), max_violations=2)[1]):
        assert [(v["row"], v["check"]) for v in flight["violations"]] == \
               [(0, "note.length"), (1, "note.length"), (150, "amount.min")]
