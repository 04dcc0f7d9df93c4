"""Hot reload of griffin serve's rules directory, against the real server: a
changed file takes over, a request in flight finishes on the version it
started with, a broken file is refused with a logged error while the old
version keeps serving, each new version is recorded in the run store, and the
dataset's schema snapshot cache is dropped."""
import hashlib
import socket
import sqlite3
import subprocess
import time

import requests

from server_harness import GRIFFIN, GriffinServer, TOKENS, auth

V1 = """griffin: 1
dataset: steps
columns:
  x: {type: float64, min: 0}
"""
V2 = V1.replace("min: 0", "min: 10")
BROKEN = V1.replace("min: 0", "min: [oops]")
BODY = b"x\n5\n20\n-1\n"


def sha(text):
    return hashlib.sha256(text.encode()).hexdigest()


def current(server):
    return requests.get(server.url + "/v1/datasets", headers=auth(), timeout=5).json()["datasets"][0]


def validate(server):
    answer = requests.post(server.url + "/v1/datasets/steps/validate", data=BODY,
                           headers={**auth(), "Content-Type": "text/csv"}, timeout=10)
    assert answer.status_code == 200, answer.text
    return answer.json()


def rule_versions(server):
    with sqlite3.connect(server.store_path) as db:
        return [row[0] for row in db.execute("SELECT sha256 FROM rule_versions WHERE dataset = 'steps' "
                                              "ORDER BY first_seen")]


def wait_until(predicate, timeout=10):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("timed out")


def test_reload_in_flight_broken_file_and_the_store(tmp_path):
    with GriffinServer(tmp_path, {"steps": V1}) as server:
        assert current(server)["rules_sha256"] == sha(V1)
        assert validate(server)["bad_rows"] == 1                    # -1 < 0
        # The CLI caches the schema of data.csv under these rules in the same store.
        (tmp_path / "data.csv").write_bytes(BODY)
        cli = subprocess.run([GRIFFIN, "validate", "-r", str(server.rules_dir / "steps.yaml"), str(tmp_path / "data.csv"),
                              "--store", str(server.store_path), "--format", "json"], capture_output=True, timeout=60)
        assert cli.returncode == 1, cli.stderr
        with sqlite3.connect(server.store_path) as db:
            assert db.execute("SELECT COUNT(*) FROM schema_cache WHERE rules_sha256 = ?", (sha(V1),)).fetchone()[0] == 1

        # A request whose headers arrived before the change: its body comes after.
        host, port = server.url.split("//")[1].split(":")
        in_flight = socket.create_connection((host, int(port)), timeout=10)
        in_flight.sendall(b"POST /v1/datasets/steps/validate HTTP/1.1\r\nHost: x\r\nContent-Type: text/csv\r\n"
                          b"Authorization: Bearer " + TOKENS["trainer"].encode() + b"\r\nConnection: close\r\n"
                          b"Content-Length: %d\r\n\r\n" % len(BODY) + BODY[:3])
        time.sleep(0.3)
        mark = len(server.lines)
        server.write_rules("steps", V2)
        line = server.wait_for_log(r"reloaded dataset steps", start=mark)
        assert "(version 2, rules sha256 " + sha(V2) + ")" in line
        in_flight.sendall(BODY[3:])
        response = b""
        while chunk := in_flight.recv(65536):
            response += chunk
        in_flight.close()
        assert response.startswith(b"HTTP/1.1 200")
        assert sha(V1).encode() in response and b'"bad_rows": 1' in response   # finished on version 1

        after = validate(server)
        assert after["rules_sha256"] == sha(V2) and after["bad_rows"] == 2   # 5 and -1 < 10
        assert current(server)["version"] == 2
        assert wait_until(lambda: rule_versions(server) == [sha(V1), sha(V2)])
        with sqlite3.connect(server.store_path) as db:
            assert wait_until(lambda: db.execute("SELECT COUNT(*) FROM schema_cache").fetchone()[0] == 0)

        # A broken file is refused, logged once, and version 2 keeps serving.
        mark = len(server.lines)
        server.write_rules("steps", BROKEN)
        refused = server.wait_for_log(r"refused .*steps\.yaml", start=mark)
        assert "keeping the version in use" in refused and "steps.yaml:4: columns.x.min" in refused
        time.sleep(0.3)   # several more scans
        assert sum("refused" in l for l in server.lines[mark:]) == 1
        assert validate(server)["rules_sha256"] == sha(V2)
        assert current(server)["version"] == 2
        assert rule_versions(server) == [sha(V1), sha(V2)]
        text = requests.get(server.url + "/metrics", headers=auth(), timeout=5).text
        assert 'griffin_rule_reloads_total{file="steps.yaml",result="error"} 1' in text
        assert 'griffin_rule_reloads_total{file="steps.yaml",result="ok"} 1' in text

        # Fixed again: a third version; SIGHUP checks at once.
        v3 = V1.replace("min: 0", "min: 1")
        server.write_rules("steps", v3)
        server.process.send_signal(1)   # SIGHUP
        server.wait_for_log(r"reloaded dataset steps .*version 3", start=mark)
        assert validate(server)["rules_sha256"] == sha(v3)


def test_new_and_removed_files(tmp_path):
    with GriffinServer(tmp_path, {"steps": V1}, store=False, flight=False) as server:
        mark = len(server.lines)
        server.write_rules("more", V1.replace("dataset: steps", "dataset: more"))
        server.wait_for_log(r"loaded dataset more", start=mark)
        names = [d["name"] for d in requests.get(server.url + "/v1/datasets", headers=auth()).json()["datasets"]]
        assert names == ["more", "steps"]
        (server.rules_dir / "steps.yaml").unlink()
        server.wait_for_log(r"removed dataset steps", start=mark)
        gone = requests.post(server.url + "/v1/datasets/steps/validate", data=BODY,
                             headers={**auth(), "Content-Type": "text/csv"}, timeout=5)
        assert gone.status_code == 404


def test_a_broken_file_at_start_is_a_clear_error(tmp_path):
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "bad.yaml").write_text(BROKEN)
    (tmp_path / "serve.yaml").write_text("keys: []\n")
    done = subprocess.run([GRIFFIN, "serve", "--rules-dir", str(tmp_path / "rules"), "--no-auth", "--no-store",
                           "--listen", "127.0.0.1:0"], capture_output=True, timeout=30)
    assert done.returncode == 2
    assert done.stderr.decode().startswith("griffin: " + str(tmp_path / "rules" / "bad.yaml") + ":4: columns.x.min")
    no_keys = subprocess.run([GRIFFIN, "serve", "--rules-dir", str(tmp_path), "--config", str(tmp_path / "serve.yaml"),
                              "--no-store", "--listen", "127.0.0.1:0"], capture_output=True, timeout=30)
    assert no_keys.returncode == 2 and b"no API keys" in no_keys.stderr
