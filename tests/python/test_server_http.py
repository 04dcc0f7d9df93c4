"""griffin serve's HTTP API against the real server process on loopback
ports, with real clients (requests, curl, raw sockets): every endpoint, every
error code, auth (missing, wrong, wrong dataset), limits (body size, rate,
concurrency), and hostile input that must not take the server down."""
import io
import json
import random
import socket
import sqlite3
import subprocess
import time

import pyarrow as pa
import pytest
import requests

from griffin_cli import run_validate
from server_harness import GriffinServer, TOKENS, auth, config_yaml

STEPS = """griffin: 1
dataset: steps
columns:
  x: {type: float64, not_null: true, finite: true, min: 0}
  y: {type: int64, in: [0, 1]}
training:
  loss: {finite: true, max: 100, spike: {sigma: 4, window: 20, min_history: 5}}
  metrics:
    grad_norm: {max: {value: 10, severity: warn}}
"""
TX = """griffin: 1
dataset: tx
columns:
  id: {type: string, not_null: true, unique: true}
  amount: {type: float64, min: 0}
"""
CSV = "x,y\n1.5,0\n-1,1\nnan,2\n3,1\n,0\n"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    config = config_yaml(limits="  max_body_bytes: 65536\n  reload_interval_s: 0.05\n",
                         store="  metrics_sample: 1\n")
    with GriffinServer(tmp_path_factory.mktemp("http"), {"steps": STEPS, "tx": TX}, config=config) as s:
        yield s


def post(server, path, body, content_type, key="trainer", **params):
    headers = {"Content-Type": content_type, **(auth(key) if key else {})}
    return requests.post(server.url + path, data=body, headers=headers, params=params, timeout=30)


def validate(server, body, content_type="text/csv", dataset="steps", **params):
    return post(server, f"/v1/datasets/{dataset}/validate", body, content_type, **params)


def score(server, payload, key="trainer"):
    return post(server, "/metrics", json.dumps(payload), "application/json", key=key)


def test_healthz_needs_no_key_and_everything_else_does(server):
    health = requests.get(server.url + "/healthz", timeout=5)
    assert health.status_code == 200 and health.json()["status"] == "ok" and health.json()["datasets"] == 2
    for method, path in [("GET", "/v1/datasets"), ("GET", "/metrics"), ("POST", "/metrics"),
                         ("GET", "/v1/runs?dataset=steps"), ("POST", "/v1/datasets/steps/validate")]:
        missing = requests.request(method, server.url + path, timeout=5)
        assert missing.status_code == 401, (method, path)
        assert missing.headers["WWW-Authenticate"] == "Bearer"
        assert missing.json() == {"error": "missing API key: send Authorization: Bearer <key>"}
        wrong = requests.request(method, server.url + path, headers={"Authorization": "Bearer nope"}, timeout=5)
        assert wrong.status_code == 401 and wrong.json() == {"error": "invalid API key"}
    basic = requests.get(server.url + "/v1/datasets", headers={"Authorization": "Basic " + TOKENS["trainer"]})
    assert basic.status_code == 401


def test_a_key_limited_to_datasets_gets_403_elsewhere(server):
    assert validate(server, CSV).status_code == 200
    forbidden = post(server, "/v1/datasets/tx/validate", "id,amount\na,1\n", "text/csv", key="reader")
    assert forbidden.status_code == 403
    assert forbidden.json() == {"error": "key reader may not use dataset tx"}
    assert score(server, {"dataset": "tx"}, key="reader").status_code == 403
    runs = requests.get(server.url + "/v1/runs", params={"dataset": "tx"}, headers=auth("reader"), timeout=5)
    assert runs.status_code == 403
    listed = requests.get(server.url + "/v1/datasets", headers=auth("reader"), timeout=5).json()["datasets"]
    assert [d["name"] for d in listed] == ["steps"]
    everything = requests.get(server.url + "/v1/datasets", headers=auth(), timeout=5).json()["datasets"]
    assert [d["name"] for d in everything] == ["steps", "tx"]
    assert everything[0]["columns"] == ["x", "y"] and everything[0]["training"] is True
    assert everything[0]["version"] == 1 and len(everything[0]["rules_sha256"]) == 64


def arrow_stream(table):
    sink = io.BytesIO()
    with pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table)
    return sink.getvalue()


def test_every_body_format_gives_the_cli_report(server, tmp_path):
    (tmp_path / "steps.yaml").write_text(STEPS)
    (tmp_path / "d.csv").write_text(CSV)
    _, expected, _ = run_validate(tmp_path / "steps.yaml", [tmp_path / "d.csv"])
    table = pa.table({"x": [1.5, -1.0, float("nan"), 3.0, None], "y": [0, 1, 2, 1, 0]})
    bodies = [("text/csv", CSV), ("text/tab-separated-values", CSV.replace(",", "\t")),
              ("application/x-ndjson", "".join(json.dumps(r) + "\n" for r in
                                               [{"x": 1.5, "y": 0}, {"x": -1, "y": 1}, {"x": "nan", "y": 2},
                                                {"x": 3, "y": 1}, {"x": None, "y": 0}])),
              ("application/vnd.apache.arrow.stream", arrow_stream(table))]
    for content_type, body in bodies:
        answer = validate(server, body, content_type, max_violations=10**6)
        assert answer.status_code == 200, (content_type, answer.text)
        report = answer.json()
        assert report["inputs"] == ["<body>"] and report["dataset"] == "steps" and len(report["run_id"]) == 36
        for key in ("rows", "bad_rows", "quality_score", "passed", "schema_errors", "rules_sha256"):
            assert report[key] == expected[key], (content_type, key)
        # An Arrow body is typed: no `malformed` check (rules-v1); the CSV file and text bodies have it.
        expected_checks = [(c["name"], c["violations"]) for c in expected["checks"]
                           if c["name"] != "malformed" or not content_type.endswith("arrow.stream")]
        assert [(c["name"], c["violations"]) for c in report["checks"]] == expected_checks, content_type
        assert [(v["row"], v["check"]) for v in report["violations"]] == \
               [(v["row"], v["check"]) for v in expected["violations"]], content_type


def test_validate_query_options(server):
    report = validate(server, CSV, max_violations=1).json()  # one per check
    assert [v["check"] for v in report["violations"]] == ["x.min", "x.finite", "y.in", "x.not_null"]
    assert report["violations_truncated"] is True  # x.min has two: rows 1 and 2 (NaN fails min)
    for params, error in [({"max_violations": "x"}, "max_violations: expected a whole number from 0 to 1000000"),
                          ({"max_violations": -1}, "max_violations: expected a whole number from 0 to 1000000"),
                          ({"store": "maybe"}, "store: expected true or false"),
                          ({"batch_hash": "a b"}, "batch_hash: expected 1 to 128 characters of A-Z a-z 0-9 . _ : -"),
                          ({"max_violation": 3}, "unknown query parameter 'max_violation' (expected max_violations, "
                                                 "store, batch_hash)")]:
        answer = validate(server, CSV, **params)
        assert answer.status_code == 400 and answer.json() == {"error": error}, params


def test_validate_errors_are_one_line_4xx(server):
    unknown = validate(server, CSV, dataset="nope")
    assert unknown.status_code == 404 and unknown.json() == {"error": "unknown dataset nope"}
    wrong_type = validate(server, CSV, content_type="application/json")
    assert wrong_type.status_code == 415
    assert wrong_type.json()["error"].startswith("Content-Type 'application/json' is not one of text/csv")
    header = validate(server, "x,x\n1,2\n")
    assert header.status_code == 400
    assert header.json() == {"error": '<body>:1: duplicate column name "x" in the header'}
    not_arrow = validate(server, b"\x00\x01garbage", "application/vnd.apache.arrow.stream")
    assert not_arrow.status_code == 400 and not_arrow.json()["error"].startswith("<body>: ")
    missing = validate(server, "x\n1\n")
    assert missing.status_code == 422
    assert missing.json()["error"].startswith("the body does not fit the rules of steps: ")
    assert "\n" not in missing.json()["error"]
    # An Arrow body missing a required column is a schema error: 422.
    arrow_missing = validate(server, arrow_stream(pa.table({"y": [1]})), "application/vnd.apache.arrow.stream")
    assert arrow_missing.status_code == 422
    assert arrow_missing.json()["error"].startswith("the body does not fit the rules of steps: ")
    # A string column under float64 is parsed as text, and a float column under int64 is
    # judged value by value (rules-v1, amended 2026-12-03): type violations, not a schema error.
    typed = validate(server, arrow_stream(pa.table({"x": ["a"], "y": [1.5]})), "application/vnd.apache.arrow.stream")
    assert typed.status_code == 200, typed.text
    failed = {c["name"]: c["violations"] for c in typed.json()["checks"]}
    assert failed["x.type"] == 1 and failed["y.type"] == 1 and typed.json()["schema_errors"] == []
    too_big = validate(server, "x,y\n" + "1,0\n" * 20000)
    assert too_big.status_code == 413 and "max_body_bytes" in too_big.json()["error"]
    get = requests.get(server.url + "/v1/datasets/steps/validate", headers=auth(), timeout=5)
    assert get.status_code == 405 and get.headers["Allow"] == "POST"
    nowhere = requests.get(server.url + "/v2/things", headers=auth(), timeout=5)
    assert nowhere.status_code == 404 and nowhere.json() == {"error": "no route GET /v2/things"}


def test_metrics_scores_records_remembered_and_unknown_batches(server):
    rows = [{"x": 1.0, "y": 0}, {"x": "NaN", "y": 1}, {"x": 2.0, "y": 1}, {"x": 3.0, "y": 0}]
    inline = score(server, {"dataset": "steps", "step": 1, "loss": 0.5, "records": rows, "batch_hash": "b1"})
    assert inline.status_code == 200, inline.text
    answer = inline.json()
    assert answer == {"quality_score": 0.75, "passed": False, "reasons": ["x.finite: 1 of 4 rows", "x.min: 1 of 4 rows"],
                      "data_score": 0.75, "telemetry_score": 1}
    again = score(server, {"dataset": "steps", "step": 2, "loss": 0.5, "batch_hash": "b1"}).json()
    assert again["data_score"] == 0.75 and again["quality_score"] == 0.75
    # A validate call with ?batch_hash= is remembered too.
    assert validate(server, "x,y\n1,0\n2,1\n", batch_hash="from-validate").status_code == 200
    clean = score(server, {"dataset": "steps", "batch_hash": "from-validate", "loss": 0.4, "step": 3}).json()
    assert clean == {"quality_score": 1, "passed": True, "reasons": [], "data_score": 1, "telemetry_score": 1}
    unknown = score(server, {"dataset": "steps", "batch_hash": "never-seen", "step": 4}).json()
    assert unknown["quality_score"] == 0 and unknown["passed"] is False
    assert unknown["reasons"] == ["unknown batch_hash never-seen: not validated recently; send its records"]
    assert unknown["unknown_batch_hash"] is True and "unknown_batch_hash" not in again
    telemetry_only = score(server, {"dataset": "steps", "step": 5, "loss": 0.45}).json()
    assert telemetry_only["data_score"] is None and telemetry_only["quality_score"] == 1


def test_metrics_telemetry_checks_and_spikes(server):
    run = "spike-test"
    for step, loss in enumerate([1.0, 1.1, 0.9, 1.05, 0.95, 1.0]):
        assert score(server, {"dataset": "steps", "step": step, "loss": loss, "run": run}).json()["passed"]
    spike = score(server, {"dataset": "steps", "step": 6, "loss": 9.0, "run": run}).json()
    assert spike["passed"] is False and spike["telemetry_score"] == pytest.approx(2 / 3)  # finite, max pass; spike fails
    assert any(r.startswith("loss.spike: loss 9 is ") for r in spike["reasons"]), spike
    nan = score(server, {"dataset": "steps", "step": 7, "loss": "nan", "run": "other",
                         "metrics": {"grad_norm": 50}}).json()
    assert nan["passed"] is False
    assert nan["reasons"] == ["loss.finite: loss is nan", "loss.max: loss nan fails max 100",
                              "metrics.grad_norm.max: grad_norm 50 is above max 10 (warn)"]


def test_metrics_bad_requests(server):
    cases = [("{", 400, "invalid JSON"), ("[1]", 400, "expected a JSON object"),
             ('{"step": 1}', 400, "dataset: missing"), ('{"dataset": "steps", "loss": "high"}', 400, "loss:"),
             ('{"dataset": "steps", "records": {"x": 1}}', 400, "records:"),
             ('{"dataset": "steps", "los": 1}', 400, "unknown field 'los'"),
             ('{"dataset": "nope"}', 404, "unknown dataset nope"),
             ('{"dataset": "steps", "records": [{"z": 1}]}', 422, "the body does not fit the rules of steps")]
    for body, status, start in cases:
        answer = post(server, "/metrics", body, "application/json")
        assert answer.status_code == status, (body, answer.text)
        assert answer.json()["error"].startswith(start) or start in answer.json()["error"], (body, answer.text)
    assert post(server, "/metrics", '{"dataset": "steps"}', "text/plain").status_code == 415


def test_runs_are_recorded_with_the_callers_key(server):
    assert post(server, "/v1/datasets/steps/validate", "x,y\n7,1\n", "text/csv", key="reader").status_code == 200
    assert validate(server, "x,y\n8,1\n", store="false").status_code == 200
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        runs = requests.get(server.url + "/v1/runs", params={"dataset": "steps", "limit": 50}, headers=auth()).json()
        by_reader = [r for r in runs["runs"] if r["key_id"] == "reader" and r["rows"] == 1]
        if by_reader:
            break
        time.sleep(0.05)
    assert by_reader and by_reader[0]["origin"] == "http" and by_reader[0]["status"] == "complete"
    with sqlite3.connect(server.store_path) as db:
        stored = db.execute("SELECT key_id, origin FROM runs WHERE dataset = 'steps' AND rows = 1 AND passed"
                            " AND origin = 'http'").fetchall()
    assert stored == [("reader", "http")]   # the store=false run is not there
    assert requests.get(server.url + "/v1/runs", headers=auth()).status_code == 400
    assert requests.get(server.url + "/v1/runs", params={"dataset": "steps", "limit": 0}, headers=auth()).status_code == 400


def test_prometheus_exposition(server):
    validate(server, CSV)
    text = requests.get(server.url + "/metrics", headers=auth(), timeout=5).text
    assert "# TYPE griffin_requests_total counter" in text
    assert 'griffin_requests_total{code="200",protocol="http",route="validate"}' in text
    assert 'griffin_request_duration_seconds_bucket{protocol="http",route="validate",le="0.001"}' in text
    assert 'griffin_rows_validated_total{dataset="steps"}' in text
    assert 'griffin_bad_rows_total{dataset="steps"}' in text
    assert "griffin_datasets_loaded 2" in text
    assert 'griffin_requests_total{code="401",protocol="http",route="datasets"}' in text


def test_curl_is_a_client_too(server):
    done = subprocess.run(["curl", "-s", "-S", "-H", "Authorization: Bearer " + TOKENS["trainer"],
                           "-H", "Content-Type: text/csv", "--data-binary", CSV,
                           server.url + "/v1/datasets/steps/validate?max_violations=0"],
                          capture_output=True, timeout=30, check=True)
    report = json.loads(done.stdout)
    assert report["rows"] == 5 and report["violations"] == [] and report["violations_truncated"] is True
    code = subprocess.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", server.url + "/metrics"],
                          capture_output=True, timeout=30)
    assert code.stdout == b"401"


def test_a_burst_is_rate_limited_then_recovers(server):
    answers = [requests.get(server.url + "/v1/datasets", headers=auth("limited"), timeout=5) for _ in range(12)]
    codes = [a.status_code for a in answers]
    assert codes[:5] == [200] * 5 and 429 in codes, codes
    limited = next(a for a in answers if a.status_code == 429)
    assert int(limited.headers["Retry-After"]) >= 1
    assert limited.json() == {"error": "rate limit of key limited exceeded"}
    time.sleep(1.1)   # 5 tokens per second
    assert requests.get(server.url + "/v1/datasets", headers=auth("limited"), timeout=5).status_code == 200
    text = requests.get(server.url + "/metrics", headers=auth(), timeout=5).text
    assert 'griffin_rate_limited_total{key_id="limited"}' in text


def raw(server, data):
    """Sends bytes on a fresh connection; the first answer, if one comes within a second."""
    host, port = server.url.split("//")[1].split(":")
    with socket.create_connection((host, int(port)), timeout=1) as s:
        s.sendall(data)
        try:
            return s.recv(65536)
        except (ConnectionResetError, socket.timeout):
            return b""


def test_hostile_input_never_takes_the_server_down(server):
    garbage = [b"\x00\xff" * 5000, b"GET / HTTP/1.1\r\n" + b"X-A: " + b"a" * 100000 + b"\r\n\r\n",
               b"POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999\r\n\r\n",
               b"POST /metrics HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
               b"GET /" + b"../" * 5000 + b" HTTP/1.1\r\n\r\n"]
    answers = [raw(server, data) for data in garbage]
    assert answers[1].startswith(b"HTTP/1.1 400") and answers[4].startswith(b"HTTP/1.1 414")
    assert answers[2].startswith(b"HTTP/1.1 401") and answers[3].startswith(b"HTTP/1.1 401")
    deep = '{"dataset": "steps", "records": [' + "[" * 5000 + "]" * 5000 + "]}"
    assert score(server, json.loads('{"dataset": "steps"}')).status_code == 200
    assert post(server, "/metrics", deep, "application/json").status_code in (400, 422)
    chunked = requests.post(server.url + "/v1/datasets/steps/validate", headers={**auth(), "Content-Type": "text/csv"},
                            data=(b"x,y\n" + b"1,0\n" * 1000 for _ in range(100)), timeout=30)
    assert chunked.status_code == 413
    assert requests.get(server.url + "/healthz", timeout=5).status_code == 200
    assert server.process.poll() is None


def test_the_concurrency_limit_answers_503(tmp_path):
    config = config_yaml(limits="  max_concurrent: 1\n")
    with GriffinServer(tmp_path, {"steps": STEPS}, config=config, store=False, flight=False) as server:
        host, port = server.url.split("//")[1].split(":")
        slow = socket.create_connection((host, int(port)), timeout=10)
        body = b"x,y\n1,0\n2,1\n"
        slow.sendall(b"POST /v1/datasets/steps/validate HTTP/1.1\r\nHost: x\r\nContent-Type: text/csv\r\n"
                     b"Authorization: Bearer " + TOKENS["trainer"].encode() +
                     b"\r\nContent-Length: %d\r\n\r\n" % len(body) + body[:4])
        time.sleep(0.3)   # the slow request holds the one slot while its body trickles in
        busy = requests.get(server.url + "/v1/datasets", headers=auth(), timeout=5)
        assert busy.status_code == 503 and busy.headers["Retry-After"] == "1"
        assert busy.json() == {"error": "the server is busy; try again"}
        slow.sendall(body[4:])
        assert slow.recv(65536).startswith(b"HTTP/1.1 200")
        slow.close()
        assert requests.get(server.url + "/v1/datasets", headers=auth(), timeout=5).status_code == 200


def test_a_validation_past_the_request_timeout_answers_503(tmp_path):
    # A regex whose DFA has ~2^21 states: the byte-DFA declines it and RE2 runs out of DFA
    # cache and falls back to its NFA, about 1.5 us a byte, so this 1.6 MB body takes ~2.5 s
    # to validate and well under 0.2 s to read (the timeout covers both). A 70 MB body of an
    # easy regex was too close: a faster CI machine validated it in time.
    rules = STEPS.replace("y: {type: int64, in: [0, 1]}",
                          "y: {type: int64, in: [0, 1]}\n  z: {type: string, regex: '^(a|b)*a(a|b){20}c$'}")
    config = config_yaml(limits="  request_timeout_s: 0.2\n  max_body_bytes: 134217728\n")
    letters = random.Random(1)
    body = "x,y,z\n" + "".join(f"1.5,0,{''.join(letters.choice('ab') for _ in range(200))}c\n" for _ in range(8000))
    with GriffinServer(tmp_path, {"steps": rules}, config=config, store=False, flight=False) as server:
        answer = validate(server, body)
        assert answer.status_code == 503, answer.text[:200]
        assert answer.json() == {"error": "validation ran past the request timeout of 0.2 s"}
        assert answer.headers["Retry-After"] == "1"
        assert validate(server, "x,y,z\n1,0,abc\n").status_code == 200
