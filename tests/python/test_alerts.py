"""`alerts:` in a rule file (docs/alerts.md) through `griffin validate`, against a
real local HTTP receiver: one that fails, then succeeds, gets one delivery,
retried (the store records it with its attempts); the same failure again is a
duplicate, suppressed; a URL that is down never blocks validation and gets a
clear one-line message; the secret in a URL is never printed nor stored; Slack's
form and the generic JSON form; a passing run sends nothing."""
import http.server
import json
import socket
import sqlite3
import subprocess
import threading
import time

import pytest

from griffin_cli import require_binary

RULES = """griffin: 1
dataset: orders
columns:
  amount: {{type: float64, min: 0}}
alerts:
  - url: "{url}"
    format: {format}
    retries: 3
    backoff_s: 0.1
    timeout_s: 2
"""


class Receiver:
    """An HTTP server on 127.0.0.1 answering 503 to its first `failures` POSTs."""

    def __init__(self, failures):
        self.failures = failures
        self.bodies = []
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                receiver.bodies.append((self.path, self.headers["Content-Type"], json.loads(body)))
                status = 503 if len(receiver.bodies) <= receiver.failures else 200
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self):
        return f"http://127.0.0.1:{self.server.server_address[1]}/hook?token=SECRET123"

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver():
    r = Receiver(failures=2)
    yield r
    r.close()


def run(tmp_path, url, rows, fmt="json", store=True):
    rules = tmp_path / "rules.yaml"
    rules.write_text(RULES.format(url=url, format=fmt))
    data = tmp_path / "data.csv"
    data.write_text("amount\n" + "".join(f"{v}\n" for v in rows))
    args = [str(require_binary()), "validate", "-r", str(rules), str(data), "--format", "json"]
    args += ["--store", str(tmp_path / "store.db")] if store else ["--no-store"]
    started = time.monotonic()
    done = subprocess.run(args, capture_output=True, text=True, timeout=120)
    return done, time.monotonic() - started


def deliveries(tmp_path):
    return deliveries_at(tmp_path / "store.db")


def test_a_failing_receiver_gets_one_delivery_retried_then_duplicates_are_suppressed(tmp_path, receiver):
    done, _ = run(tmp_path, receiver.url, [1, -2, 3])
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    assert done.stderr == ""
    assert len(receiver.bodies) == 3  # two 503s, then delivered
    path, content_type, body = receiver.bodies[-1]
    assert path == "/hook?token=SECRET123" and content_type == "application/json"
    assert body["events"] == ["failure"] and body["run_id"] == report["run_id"] and body["dataset"] == "orders"
    assert body["failed_checks"][0]["name"] == "amount.min" and body["bad_rows"] == 1
    [record] = deliveries(tmp_path)
    assert record["status"] == "delivered" and record["attempts"] == 3 and record["http_status"] == 200
    assert record["run_id"] == report["run_id"] and record["events"] == "failure"
    assert "SECRET123" not in json.dumps(record) and record["url"].endswith("/hook?…")

    # the same failure again: a duplicate within dedup_s, not sent, recorded
    done, _ = run(tmp_path, receiver.url, [1, -2, 3])
    assert done.returncode == 1 and len(receiver.bodies) == 3
    assert [d["status"] for d in deliveries(tmp_path)] == ["delivered", "suppressed"]

    # a passing run raises no event: nothing sent, nothing recorded
    done, _ = run(tmp_path, receiver.url, [1, 2])
    assert done.returncode == 0 and len(receiver.bodies) == 3 and len(deliveries(tmp_path)) == 2


def test_slack_form(tmp_path):
    receiver = Receiver(failures=0)
    try:
        done, _ = run(tmp_path, receiver.url, [-1], fmt="slack")
        assert done.returncode == 1
        [(_, _, body)] = receiver.bodies
        assert list(body) == ["text"]
        assert body["text"].startswith("Griffin: dataset *orders* FAILED (run ")
        assert "• amount.min" in body["text"]
    finally:
        receiver.close()


def test_a_url_that_is_down_never_blocks_validation(tmp_path):
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}/hook?token=SECRET123"
    done, elapsed = run(tmp_path, url, [1, -2])
    assert done.returncode == 1  # the verdict, not the alert, decides
    report = json.loads(done.stdout)
    assert report["passed"] is False and report["rows"] == 2
    assert elapsed < 10
    line = done.stderr.strip()
    assert line == (f"griffin: alert to http://127.0.0.1:{port}/hook?… (failure) not delivered after 4 attempts: "
                    "Couldn't connect to server; the run's verdict stands"), line
    [record] = deliveries(tmp_path)
    assert record["status"] == "failed" and record["attempts"] == 4 and "SECRET123" not in json.dumps(record)
    # without a store the alert is still sent (and not recorded)
    done, _ = run(tmp_path, url, [-2], store=False)
    assert done.returncode == 1 and "not delivered after 4 attempts" in done.stderr


def test_serve_config_alerts_are_sent_without_delaying_the_answer(tmp_path):
    import requests
    from server_harness import GriffinServer, auth, config_yaml

    receiver = Receiver(failures=1)
    try:
        config = config_yaml() + f"alerts:\n  - {{url: \"{receiver.url}\", backoff_s: 0.1}}\n"
        rules = "griffin: 1\ndataset: steps\ncolumns:\n  x: {type: float64, min: 0}\n"
        with GriffinServer(tmp_path, {"steps": rules}, config=config, flight=False) as server:
            answer = requests.post(server.url + "/v1/datasets/steps/validate", data="x\n1\n-1\n",
                                   headers={**auth("trainer"), "Content-Type": "text/csv"}, timeout=10)
            assert answer.status_code == 200
            run_id = answer.json()["run_id"]
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline and len(receiver.bodies) < 2:
                time.sleep(0.05)
            assert len(receiver.bodies) == 2  # a 503, then delivered
            assert receiver.bodies[-1][2]["run_id"] == run_id and receiver.bodies[-1][2]["events"] == ["failure"]
            # a passing body sends nothing
            answer = requests.post(server.url + "/v1/datasets/steps/validate", data="x\n1\n",
                                   headers={**auth("trainer"), "Content-Type": "text/csv"}, timeout=10)
            assert answer.status_code == 200
            time.sleep(0.5)
            assert len(receiver.bodies) == 2
        assert not any("SECRET123" in line for line in server.lines)
        [record] = [d for d in deliveries_at(server.store_path) if d["run_id"] == run_id]
        assert record["status"] == "delivered" and record["attempts"] == 2
    finally:
        receiver.close()


def deliveries_at(path):
    with sqlite3.connect(path) as db:
        db.row_factory = sqlite3.Row
        return [dict(r) for r in db.execute("SELECT * FROM alert_deliveries ORDER BY created_at")]
