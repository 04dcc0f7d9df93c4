"""SIGTERM in the middle of a load: griffin serve stops accepting, answers
every request it has accepted, writes the queued runs and exits 0. Clients
run keep-alive loops (POST /metrics with records, validate of a larger CSV)
until the server is gone; every request the server read must have reached a
client as a complete 200, and the runs of all of them must be in the store."""
import http.client
import json
import re
import sqlite3
import threading
import time

from server_harness import GriffinServer, TOKENS, config_yaml

RULES = """griffin: 1
dataset: steps
columns:
  x: {type: float64, not_null: true, min: 0}
  y: {type: int64, in: [0, 1]}
"""
CSV = "x,y\n" + "".join(f"{i % 97},{i % 2}\n" for i in range(100000))
RECORDS = json.dumps({"dataset": "steps", "loss": 0.5, "records": [{"x": i, "y": i % 2} for i in range(50)]})


def client_loop(host, port, kind, stop, outcomes):
    headers = {"Authorization": "Bearer " + TOKENS["trainer"], "Connection": "keep-alive"}
    connection = None
    while not stop.is_set():
        if connection is None:
            connection = http.client.HTTPConnection(host, port, timeout=30)
        try:
            if kind == "validate":
                connection.request("POST", "/v1/datasets/steps/validate", body=CSV,
                                   headers={**headers, "Content-Type": "text/csv"})
            else:
                connection.request("POST", "/metrics", body=RECORDS, headers={**headers, "Content-Type": "application/json"})
            response = connection.getresponse()
            body = response.read()
            json.loads(body)   # complete
            outcomes.append(("status", response.status, kind))
            if response.getheader("Connection", "").lower() == "close":
                connection.close()
                connection = None
        except (ConnectionRefusedError, ConnectionResetError, BrokenPipeError, http.client.RemoteDisconnected) as e:
            outcomes.append(("gone", type(e).__name__, kind))
            connection.close()
            connection = None
            if isinstance(e, ConnectionRefusedError):
                return   # nothing listens any more
        except Exception as e:  # noqa: BLE001 - any other failure is a test failure
            outcomes.append(("error", repr(e), kind))
            return


def test_sigterm_under_load_drops_no_accepted_request(tmp_path):
    config = config_yaml(limits="  http_threads: 8\n  rate: none\n  shutdown_grace_s: 20\n",
                         store="  metrics_sample: 1\n")
    server = GriffinServer(tmp_path, {"steps": RULES}, config=config, flight=False).start()
    host, port = server.url.split("//")[1].split(":")
    stop = threading.Event()
    outcomes = []
    threads = [threading.Thread(target=client_loop, args=(host, int(port), kind, stop, outcomes))
               for kind in ["validate"] * 3 + ["metrics"] * 3]
    for t in threads:
        t.start()
    time.sleep(1.0)
    in_flight_at_signal = len(outcomes)
    assert server.stop(timeout=60) == 0
    stop.set()
    for t in threads:
        t.join(30)
    ok = [o for o in outcomes if o[0] == "status" and o[1] == 200]
    assert not [o for o in outcomes if o[0] == "error" or (o[0] == "status" and o[1] != 200)], outcomes
    assert in_flight_at_signal > 10 and len(ok) >= in_flight_at_signal
    stopped = server.find_log(r"stopped: \d+ HTTP requests received")
    counts = re.search(r"(\d+) HTTP requests received, (\d+) answered; runs: (\d+) written, (\d+) failed, "
                       r"(\d+) dropped", stopped)
    received, answered, written, failed, dropped = map(int, counts.groups())
    assert received == answered == len(ok), (received, answered, len(ok), server.lines[-5:])
    with sqlite3.connect(server.store_path) as db:
        recorded = db.execute("SELECT COUNT(*) FROM runs WHERE status = 'complete'").fetchone()[0]
        running = db.execute("SELECT COUNT(*) FROM runs WHERE status != 'complete'").fetchone()[0]
        validated = db.execute("SELECT COUNT(*) FROM runs WHERE origin = 'http'").fetchone()[0]
    # Every validate run was written before exit; sampled /metrics runs may be
    # dropped when the queue is full, and are counted.
    assert validated == sum(1 for o in ok if o[2] == "validate")
    assert failed == 0 and running == 0 and recorded + dropped == len(ok), (recorded, dropped, len(ok))
