"""griffin serve's Arrow Flight service with pyarrow.flight against the real
server: DoExchange streams back a results batch per input batch (lockstep)
and the final report, DoPut validates and records, the descriptor can carry a
batch_hash for POST /metrics, refusals are Flight statuses, hostile batches
are refused, and TLS works for HTTP and Flight with a certificate from the config."""
import json
import sqlite3
import subprocess
import ssl
import time

import pyarrow as pa
import pyarrow.flight as flight
import pytest
import requests

from server_harness import GriffinServer, TOKENS, auth, config_yaml

RULES = """griffin: 1
dataset: steps
columns:
  x: {type: float64, not_null: true, min: 0}
  y: {type: int64, in: [0, 1], unique: true}
"""
OTHER = RULES.replace("dataset: steps", "dataset: tx")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    config = config_yaml(limits="  rate: none\n  max_body_bytes: 1048576\n")
    with GriffinServer(tmp_path_factory.mktemp("flight"), {"steps": RULES, "tx": OTHER}, config=config) as s:
        yield s


def options(key="trainer"):
    return flight.FlightCallOptions(headers=[(b"authorization", ("Bearer " + TOKENS[key]).encode())])


def batches():
    return [pa.record_batch({"x": [1.0, -2.0, 3.0], "y": [0, 1, 5]}),      # rows 1 (min), 2 (in)
            pa.record_batch({"x": [4.0, None], "y": [7, 0]}),              # rows 3 (in), 4 (not_null; y 0 repeats)
            pa.record_batch({"x": [5.0], "y": [1]})]                       # row 5: y 1 repeats (unique)


def test_exchange_streams_a_result_per_batch_then_the_report(server):
    client = flight.FlightClient(server.flight_url)
    writer, reader = client.do_exchange(flight.FlightDescriptor.for_path("steps", "ex-1"), options=options())
    results = []
    with writer:
        parts = batches()
        writer.begin(parts[0].schema)
        for part in parts[:2] + [parts[0].slice(0, 0)] + parts[2:]:
            writer.write_batch(part)
            chunk = reader.read_chunk()          # lockstep: the result comes before the next batch goes
            assert chunk.data.schema.names == ["batch", "first_row", "rows", "bad_rows", "checks"]
            results.extend(chunk.data.to_pylist())
        writer.done_writing()
        final = reader.read_chunk()
    assert final.data is None
    report = json.loads(final.app_metadata.to_pybytes())
    assert [(r["batch"], r["first_row"], r["rows"], r["bad_rows"]) for r in results] == \
           [(0, 0, 3, [1, 2]), (1, 3, 2, [3, 4]), (2, 5, 0, []), (3, 5, 1, [5])]
    counts = {c["check"]: c["violations"] for c in results[1]["checks"]}
    assert counts == {"x.type": 0, "x.not_null": 1, "x.min": 0, "y.type": 0, "y.in": 1, "y.unique": 1}
    assert report["rows"] == 6 and report["bad_rows"] == 5 and report["inputs"] == ["<flight>"]
    # The same rows over HTTP give the same report.
    table = pa.Table.from_batches(batches())
    import io
    sink = io.BytesIO()
    with pa.ipc.new_stream(sink, table.schema) as w:
        w.write_table(table)
    http = requests.post(server.url + "/v1/datasets/steps/validate", data=sink.getvalue(),
                         headers={**auth(), "Content-Type": "application/vnd.apache.arrow.stream"}).json()
    assert [(c["name"], c["violations"]) for c in http["checks"]] == [(c["name"], c["violations"]) for c in report["checks"]]
    # The descriptor's batch_hash is remembered for POST /metrics.
    answer = requests.post(server.url + "/metrics", json={"dataset": "steps", "batch_hash": "ex-1"}, headers=auth()).json()
    assert answer["data_score"] == pytest.approx(report["quality_score"])


def test_put_validates_and_records_with_the_key_id(server):
    client = flight.FlightClient(server.flight_url)
    table = pa.Table.from_batches(batches())
    descriptor = flight.FlightDescriptor.for_command(json.dumps({"dataset": "steps", "max_violations": 1}))
    writer, reader = client.do_put(descriptor, table.schema, options=options("reader"))
    with writer:
        writer.write_table(table)
        writer.done_writing()
        report = json.loads(reader.read().to_pybytes())
    assert report["bad_rows"] == 5 and report["violations_truncated"]
    # One per check: y.in (rows 2, 3) and y.unique (rows 4, 5) list their first.
    assert [(v["row"], v["check"]) for v in report["violations"]] == \
           [(1, "x.min"), (2, "y.in"), (4, "x.not_null"), (4, "y.unique")]
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        with sqlite3.connect(server.store_path) as db:
            row = db.execute("SELECT key_id, origin, rows FROM runs WHERE run_id = ? AND status = 'complete'",
                             (report["run_id"],)).fetchone()
        if row:
            break
        time.sleep(0.05)
    assert row == ("reader", "flight", 6)


def refused(call):
    with pytest.raises(Exception) as error:
        call()
    return error.value


def put(server, descriptor, table, call_options):
    client = flight.FlightClient(server.flight_url)
    writer, reader = client.do_put(descriptor, table.schema, options=call_options)
    writer.write_table(table)
    writer.done_writing()
    reader.read()
    writer.close()


def test_refusals_are_flight_statuses(server):
    table = pa.Table.from_batches(batches())
    steps = flight.FlightDescriptor.for_path("steps")
    no_key = refused(lambda: put(server, steps, table, flight.FlightCallOptions()))
    assert isinstance(no_key, flight.FlightUnauthenticatedError) and "missing API key" in str(no_key)
    wrong = refused(lambda: put(server, steps, table, flight.FlightCallOptions(headers=[(b"authorization", b"Bearer x")])))
    assert isinstance(wrong, flight.FlightUnauthenticatedError) and "invalid API key" in str(wrong)
    forbidden = refused(lambda: put(server, flight.FlightDescriptor.for_path("tx"), table, options("reader")))
    assert isinstance(forbidden, flight.FlightUnauthorizedError) and "may not use dataset tx" in str(forbidden)
    unknown = refused(lambda: put(server, flight.FlightDescriptor.for_path("nope"), table, options()))
    assert isinstance(unknown, KeyError) and "unknown dataset nope" in str(unknown)
    bad = refused(lambda: put(server, flight.FlightDescriptor.for_command(b"not json"), table, options()))
    assert isinstance(bad, pa.ArrowInvalid) and "descriptor: a command must be a JSON object" in str(bad)
    missing = refused(lambda: put(server, steps, pa.table({"z": [1]}), options()))
    assert isinstance(missing, pa.ArrowInvalid) and "does not fit the rules of steps" in str(missing)
    # A batch whose string offsets go backwards (a negative length; pyarrow's
    # light checks let it through): refused, and the server stays up.
    offsets = pa.py_buffer(pa.array([0, 3, 1, 3], pa.int32()).buffers()[1])
    hostile = pa.Array.from_buffers(pa.utf8(), 3, [None, offsets, pa.py_buffer(b"abc")])
    bad_batch = pa.table({"x": pa.array([1.0, 2.0, 3.0]), "y": hostile})
    broken = refused(lambda: put(server, steps, bad_batch, options()))
    assert "invalid Arrow data" in str(broken)
    assert requests.get(server.url + "/healthz").status_code == 200
    text = requests.get(server.url + "/metrics", headers=auth()).text
    assert 'griffin_requests_total{code="401",protocol="flight",route="put"} 2' in text


def make_certificate(folder):
    key, cert = folder / "server.key", folder / "server.crt"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert),
                    "-days", "2", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
                   check=True, capture_output=True, timeout=60)
    return cert, key


def test_tls_for_http_and_flight(tmp_path):
    cert, key = make_certificate(tmp_path)
    config = config_yaml(tls=(cert.name, key.name))
    with GriffinServer(tmp_path, {"steps": RULES}, config=config, store=False) as server:
        assert server.url.startswith("https://") and server.flight_url.startswith("grpc+tls://")
        context = ssl.create_default_context(cafile=str(cert))
        import urllib.request
        request = urllib.request.Request(server.url + "/v1/datasets", headers=auth())
        with urllib.request.urlopen(request, context=context, timeout=10) as answer:
            assert json.loads(answer.read())["datasets"][0]["name"] == "steps"
        with pytest.raises(requests.exceptions.SSLError):
            requests.get(server.url + "/healthz", timeout=5)          # an unknown certificate authority
        plain = server.url.replace("https://", "http://")
        with pytest.raises(requests.exceptions.ConnectionError):
            requests.get(plain + "/healthz", timeout=5)
        client = flight.FlightClient(server.flight_url, tls_root_certs=cert.read_bytes())
        table = pa.Table.from_batches(batches())
        writer, reader = client.do_put(flight.FlightDescriptor.for_path("steps"), table.schema, options=options())
        with writer:
            writer.write_table(table)
            writer.done_writing()
            assert json.loads(reader.read().to_pybytes())["rows"] == 6
