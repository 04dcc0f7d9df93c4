"""The hostile-input campaign's attacks on griffin serve (issue 12), replayed
against the real server on loopback: request smuggling headers, lengths that
are not numbers, pipelining, bodies with no length, path tricks, TRACE, an
empty batch_hash, a compressed Arrow bomb, a rule file written in place, and
key configs that would silently drop or shadow keys. Fast: the availability
attacks (slowloris, bursts) are in tests/hostile/."""
import io
import json
import re
import socket
import subprocess
import time

import pyarrow as pa
import requests

from griffin_cli import run_validate
from server_harness import GRIFFIN, GriffinServer, TOKENS, auth, config_yaml, sha256

STEPS = """griffin: 1
dataset: steps
columns:
  x: {type: float64, not_null: true, min: 0}
  y: {type: int64, in: [0, 1]}
"""
AUTH = b"Authorization: Bearer " + TOKENS["trainer"].encode() + b"\r\n"


def exchange(server, data, timeout=5.0):
    """Sends raw bytes; everything the server answers until it closes or goes quiet."""
    host, port = server.url.split("//")[1].split(":")
    with socket.create_connection((host, int(port)), timeout=timeout) as sock:
        sock.sendall(data)
        answer = b""
        try:
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                answer += chunk
        except (socket.timeout, ConnectionResetError):
            pass
        return answer


def statuses(answer):
    """The status of each answer in `answer` (answers follow each other without a separator)."""
    return [int(code) for code in re.findall(rb"HTTP/1\.1 (\d{3}) ", answer)]


def start(tmp_path, limits=""):
    config = config_yaml(limits="  reload_interval_s: 0.05\n" + limits)
    return GriffinServer(tmp_path, {"steps": STEPS}, config=config, store=False, flight=False)


def test_smuggling_and_lengths_that_are_not_numbers_are_400_at_once(tmp_path):
    post = b"POST /v1/datasets/steps/validate HTTP/1.1\r\nHost: x\r\nContent-Type: text/csv\r\n" + AUTH
    with start(tmp_path) as server:
        cases = {b"Content-Length: 4\r\nContent-Length: 40\r\n": "two different Content-Length headers (4, 40)",
                 b"Content-Length: -5\r\n": "Content-Length: expected a whole number of bytes, not '-5'",
                 b"Content-Length: abc\r\n": "Content-Length: expected a whole number of bytes, not 'abc'",
                 b"Content-Length: 4\r\nTransfer-Encoding: chunked\r\n": "both Transfer-Encoding and Content-Length given"}
        for headers, message in cases.items():
            began = time.monotonic()
            answer = exchange(server, post + headers + b"\r\nx,y\n1,0\n")
            assert time.monotonic() - began < 2, headers       # not after a read timeout
            assert statuses(answer) == [400], (headers, answer)
            assert json.loads(answer.split(b"\r\n\r\n", 1)[1]) == {"error": message}
            assert b"Connection: close" in answer
        # The same length twice is one length.
        same = exchange(server, post + b"Content-Length: 8\r\nContent-Length: 8\r\nConnection: close\r\n\r\nx,y\n1,0\n")
        assert statuses(same) == [200], same


def test_pipelined_requests_are_answered_in_order(tmp_path):
    with start(tmp_path) as server:
        one = b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
        datasets = b"GET /v1/datasets HTTP/1.1\r\nHost: x\r\n" + AUTH + b"\r\n"
        last = b"GET /nope HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        answer = exchange(server, one + datasets + last)
        assert statuses(answer) == [200, 200, 404], answer
        # With a body in between, split mid-request.
        body = b"x,y\n-1,0\n"
        validate = (b"POST /v1/datasets/steps/validate HTTP/1.1\r\nHost: x\r\nContent-Type: text/csv\r\n" + AUTH +
                    b"Content-Length: %d\r\n\r\n" % len(body) + body)
        answer = exchange(server, validate + one + validate + last)
        assert statuses(answer) == [200, 200, 200, 404], answer
        assert answer.count(b'"bad_rows": 1') == 2


def test_a_post_with_no_length_has_an_empty_body(tmp_path):
    with start(tmp_path) as server:
        began = time.monotonic()
        answer = exchange(server, b"POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" + AUTH +
                          b"Connection: close\r\n\r\n")
        assert time.monotonic() - began < 2
        assert statuses(answer) == [400]                     # an empty body is not a JSON object
        assert b"invalid JSON" in answer


def test_path_tricks_are_404_and_trace_is_405(tmp_path):
    with start(tmp_path) as server:
        for path in (b"/v1/datasets/../validate", b"/v1/datasets/steps%2f..%2fsteps/validate", b"/v1/datasets/a%2Fb/validate",
                     b"/v1/datasets/./validate"):
            answer = exchange(server, b"GET " + path + b" HTTP/1.1\r\nHost: x\r\n" + AUTH + b"Connection: close\r\n\r\n")
            assert statuses(answer) == [404], (path, answer)
        assert requests.get(server.url + "/v1/datasets/steps/validate", timeout=5).status_code == 405
        for path in (b"/", b"/healthz", b"/v1/datasets/steps/validate"):
            answer = exchange(server, b"TRACE " + path + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            assert statuses(answer) == [405], (path, answer)
            assert b"Allow: " in answer


def test_an_empty_batch_hash_is_400(tmp_path):
    with start(tmp_path) as server:
        empty = requests.post(server.url + "/metrics", data=json.dumps({"dataset": "steps", "batch_hash": ""}),
                              headers={**auth(), "Content-Type": "application/json"}, timeout=5)
        assert empty.status_code == 400
        assert empty.json() == {"error": "batch_hash: expected 1 to 128 characters of A-Z a-z 0-9 . _ : -"}
        none = requests.post(server.url + "/metrics", data=json.dumps({"dataset": "steps", "batch_hash": None}),
                             headers={**auth(), "Content-Type": "application/json"}, timeout=5)
        assert none.status_code == 200, none.text
        query = requests.post(server.url + "/v1/datasets/steps/validate?batch_hash=", data="x,y\n1,0\n",
                              headers={**auth(), "Content-Type": "text/csv"}, timeout=5)
        assert query.status_code == 400


def zstd_stream(table):
    sink = io.BytesIO()
    options = pa.ipc.IpcWriteOptions(compression="zstd")
    with pa.ipc.new_stream(sink, table.schema, options=options) as writer:
        writer.write_table(table)
    return sink.getvalue()


def test_a_compressed_arrow_bomb_is_413_by_its_decoded_size(tmp_path):
    rows = 2_000_000                                         # ~32 MB decoded, ~10 KB compressed
    bomb = zstd_stream(pa.table({"x": pa.array([1.5] * rows), "y": pa.array([0] * rows)}))
    assert len(bomb) < 200_000
    arrow = {**auth(), "Content-Type": "application/vnd.apache.arrow.stream"}
    with start(tmp_path, limits="  max_body_bytes: 4194304\n") as server:
        answer = requests.post(server.url + "/v1/datasets/steps/validate", data=bomb, headers=arrow, timeout=30)
        assert answer.status_code == 413, answer.text[:200]
        assert answer.json() == {"error": "the decoded body is larger than max_body_bytes (4194304)"}
        # A compressed body that decodes within the limit is read, with the CLI's verdicts.
        table = pa.table({"x": pa.array([1.5, -1.0, None] * 1000), "y": pa.array([0, 1, 2] * 1000)})
        small = requests.post(server.url + "/v1/datasets/steps/validate", data=zstd_stream(table), headers=arrow,
                              params={"max_violations": 10**6}, timeout=30)
        assert small.status_code == 200, small.text[:200]
        (tmp_path / "steps.yaml").write_text(STEPS)
        with pa.ipc.new_file(str(tmp_path / "small.arrow"), table.schema) as writer:
            writer.write_table(table)
        _, expected, _ = run_validate(tmp_path / "steps.yaml", [tmp_path / "small.arrow"])
        report = small.json()
        assert (report["rows"], report["bad_rows"]) == (expected["rows"], expected["bad_rows"]) == (3000, 2000)
        assert [(c["name"], c["violations"]) for c in report["checks"]] == \
               [(c["name"], c["violations"]) for c in expected["checks"]]
        assert server.process.poll() is None


def test_a_rule_file_written_in_place_is_not_served_half_written(tmp_path):
    full = STEPS.replace("y: {type: int64, in: [0, 1]}", "y: {type: int64, in: [0, 1], not_null: true}")
    half = STEPS.replace("  y: {type: int64, in: [0, 1]}\n", "")   # compiles: one column fewer
    with start(tmp_path) as server:
        mark = len(server.lines)
        path = server.rules_dir / "steps.yaml"
        assert full.startswith(half)
        with open(path, "w") as out:                        # in place, in two writes 0.3 s apart
            out.write(half)
            out.flush()
            time.sleep(0.3)
            out.write(full[len(half):])
        line = server.wait_for_log(r"reloaded dataset steps", start=mark)
        assert "rules sha256 " + sha256(full) in line, line
        time.sleep(0.3)
        assert [l for l in server.lines[mark:] if "reloaded dataset steps" in l] == [line]
        listed = requests.get(server.url + "/v1/datasets", headers=auth(), timeout=5).json()["datasets"][0]
        assert listed["rules_sha256"] == sha256(full) and listed["version"] == 2


def test_key_configs_that_would_drop_or_shadow_keys_are_refused(tmp_path):
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "steps.yaml").write_text(STEPS)
    keyed = tmp_path / "keyed.yaml"
    keyed.write_text(config_yaml())
    run = subprocess.run([GRIFFIN, "serve", "--rules-dir", str(tmp_path / "rules"), "--config", str(keyed),
                          "--no-auth", "--no-store", "--listen", "127.0.0.1:0"], capture_output=True, timeout=30)
    assert run.returncode == 2, run.stderr
    assert run.stderr.decode().strip().endswith("--no-auth with a config that has keys: drop --no-auth, or the keys")
    twins = tmp_path / "twins.yaml"
    twins.write_text(f"keys:\n  - {{id: a, sha256: {sha256('t')}}}\n  - {{id: b, sha256: {sha256('t')}}}\n")
    run = subprocess.run([GRIFFIN, "serve", "--rules-dir", str(tmp_path / "rules"), "--config", str(twins),
                          "--no-store", "--listen", "127.0.0.1:0"], capture_output=True, timeout=30)
    assert run.returncode == 2, run.stderr
    assert "twins.yaml:3: keys[1]: key 'b' has the same sha256 as key 'a'" in run.stderr.decode()
