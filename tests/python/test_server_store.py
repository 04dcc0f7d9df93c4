"""griffin serve on a shared PostgreSQL run store (the real server the test
setup starts): runs land there with the caller's key id, rule versions too,
and the password never reaches the logs."""
import subprocess
import time
import urllib.parse

import requests

from server_harness import GRIFFIN, GriffinServer, auth
from test_store_cli import PG_URI, fresh_pg_database, require_pg

RULES = """griffin: 1
dataset: pg_steps
columns:
  x: {type: float64, min: 0}
"""


def test_postgres_store(tmp_path):
    require_pg()
    uri = fresh_pg_database("griffin_serve")
    password = urllib.parse.urlsplit(uri).password
    with GriffinServer(tmp_path, {"pg_steps": RULES}, store=uri, flight=False) as server:
        answer = requests.post(server.url + "/v1/datasets/pg_steps/validate", data="x\n1\n-1\n",
                               headers={**auth("trainer"), "Content-Type": "text/csv"}, timeout=10)
        assert answer.status_code == 200
        run_id = answer.json()["run_id"]
        deadline = time.monotonic() + 10
        runs = []
        while time.monotonic() < deadline and not runs:
            runs = [r for r in requests.get(server.url + "/v1/runs", params={"dataset": "pg_steps"},
                                            headers=auth()).json()["runs"] if r["status"] == "complete"]
            time.sleep(0.05)
        assert runs[0]["run_id"] == run_id and runs[0]["key_id"] == "trainer" and runs[0]["bad_rows"] == 1
    versions = subprocess.run(["psql", uri, "-tA", "-c", "SELECT COUNT(*) FROM rule_versions WHERE dataset = 'pg_steps'"],
                              capture_output=True, text=True, timeout=30)
    assert versions.stdout.strip() == "1"
    assert password and not any(password in line for line in server.lines)


def test_a_store_that_cannot_be_opened_stops_the_start(tmp_path):
    require_pg()
    parts = urllib.parse.urlsplit(PG_URI)
    wrong = urllib.parse.urlunsplit(parts._replace(netloc=f"{parts.username}:wrong-password@{parts.hostname}:{parts.port}"))
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "pg_steps.yaml").write_text(RULES)
    done = subprocess.run([GRIFFIN, "serve", "--rules-dir", str(tmp_path / "rules"), "--no-auth", "--store", wrong,
                           "--listen", "127.0.0.1:0"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 3
    assert done.stderr.startswith("griffin: store postgresql://") and done.stderr.count("\n") == 1
    assert "wrong-password" not in done.stderr
