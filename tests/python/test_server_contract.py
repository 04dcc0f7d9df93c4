"""The 2026-12-03 contract amendments through griffin serve and griffin.Client
(issue 11): a schema error makes every row bad (quality_score 0, also for a
remembered batch the training gate scores), text bodies carry the `malformed`
check, and max_violations counts per check with the CLI's default (HTTP query
option, Flight descriptor, the Client's keyword). Each answer is compared with
`griffin validate` on the same rows."""
import time

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


def recorded_run(client, run_count_before):
    """The newest recorded run of tx, once the background writer has stored it."""
    for _ in range(100):
        runs = client.runs("tx")
        if len(runs) > run_count_before:
            return runs[0]
        time.sleep(0.05)
    raise AssertionError("the run was not recorded")


def test_a_schema_error_is_refused_and_recorded_with_score_zero_as_in_the_cli(client, tmp_path):
    # The service answers a body that does not fit the rules with 422 (docs/service.md);
    # the run it records has the CLI's verdict: every row bad, quality_score 0.
    expected = cli_report(tmp_path, WRONG_FILE)
    assert (expected["bad_rows"], expected["quality_score"]) == (3, 0.0)
    before = len(client.runs("tx"))
    with pytest.raises(griffin.ServiceError) as refused:
        client.validate("tx", WRONG_FILE.encode(), content_type="text/csv", batch_hash="wrong-1")
    assert refused.value.status == 422
    assert "required column 'txn_id' is missing from the input (and 1 more)" in refused.value.reason
    run = recorded_run(client, before)
    assert (run["rows"], run["bad_rows"], run["quality_score"], run["passed"]) == \
           (expected["rows"], expected["bad_rows"], expected["quality_score"], expected["passed"])
    # Nothing was remembered for the training gate under that hash.
    assert client.metrics("tx", batch_hash="wrong-1")["reasons"][0].startswith("unknown batch_hash")


def test_a_text_body_lists_the_malformed_check_first(client, tmp_path):
    body = "txn_id,amount\nt1,1\nt2,2,extra\n"
    expected = cli_report(tmp_path, body)
    report = client.validate("tx", body.encode(), content_type="text/csv")
    assert [c["name"] for c in report["checks"]] == [c["name"] for c in expected["checks"]]
    assert report["checks"][0] == expected["checks"][0] == {
        "name": "malformed", "column": None, "check": "malformed", "severity": "error", "evaluated": 2,
        "violations": 1, "pass_rate": 0.5, "mostly": 1.0, "passed": False}
    assert report["passed"] is False


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
