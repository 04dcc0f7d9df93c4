"""The run store through the CLI: runs are recorded by default, history/show/
rules read them back, bad stores fail with exit 3 after printing the report,
and concurrent writers (SQLite and a real PostgreSQL) lose nothing."""
import hashlib
import json
import os
import pathlib
import socket
import sqlite3
import subprocess
import xml.etree.ElementTree as ET

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
GRIFFIN = os.environ.get("GRIFFIN_BIN", str(REPO / "build" / "griffin"))
PG_URI = os.environ.get("GRIFFIN_TEST_PG_URI")

RULES_V1 = """griffin: 1
dataset: ledger
columns:
  id:
    type: int64
    unique: true
  amount:
    type: float64
    min: 0
"""
RULES_V2 = RULES_V1 + "table:\n  - row_count: {min: 1}\n"
DATA = "id,amount\n1,5\n2,-1\n2,3\n"


def run(*args, cwd, env=None):
    return subprocess.run([GRIFFIN, *args], capture_output=True, cwd=cwd, timeout=120, env=env)


@pytest.fixture
def workdir(tmp_path):
    (tmp_path / "rules.yaml").write_text(RULES_V1)
    (tmp_path / "d.csv").write_text(DATA)
    return tmp_path


def validate_json(workdir, *extra):
    proc = run("validate", "-r", "rules.yaml", "d.csv", "--format", "json", *extra, cwd=workdir)
    assert proc.returncode == 1, proc.stderr
    return json.loads(proc.stdout)


def test_default_store_records_and_history_reads(workdir):
    first = validate_json(workdir)
    second = validate_json(workdir)
    assert (workdir / ".griffin" / "griffin.db").exists()
    proc = run("history", "ledger", "--format", "json", cwd=workdir)
    assert proc.returncode == 0, proc.stderr
    history = json.loads(proc.stdout)
    assert history["dataset"] == "ledger"
    runs = history["runs"]
    assert [r["run_id"] for r in runs] == [second["run_id"], first["run_id"]]  # newest first
    for r in runs:
        assert set(r) >= {"run_id", "started_at", "rows", "bad_rows", "quality_score", "passed"}
        assert r["rows"] == 3 and r["bad_rows"] == 2 and r["passed"] is False
        assert abs(r["quality_score"] - 1 / 3) < 1e-9
    text = run("history", "ledger", cwd=workdir)
    assert text.returncode == 0 and first["run_id"] in text.stdout.decode()


def test_show_prints_the_stored_report(workdir):
    report = validate_json(workdir)
    shown = run("show", report["run_id"], "--format", "json", cwd=workdir)
    assert shown.returncode == 0
    assert json.loads(shown.stdout) == report
    junit = run("show", report["run_id"], "--format", "junit", cwd=workdir)
    assert ET.fromstring(junit.stdout).tag == "testsuites"
    text = run("show", report["run_id"], cwd=workdir)
    assert b"amount.min" in text.stdout and b"FAILED" in text.stdout
    missing = run("show", "no-such-run", cwd=workdir)
    assert missing.returncode == 2


def test_rule_versions_and_diff(workdir):
    validate_json(workdir)
    validate_json(workdir)
    (workdir / "rules.yaml").write_text(RULES_V2)
    validate_json(workdir)
    proc = run("rules", "ledger", "--format", "json", cwd=workdir)
    versions = json.loads(proc.stdout)["versions"]
    assert [v["runs"] for v in versions] == [2, 1]
    assert versions[1]["text"] == RULES_V2
    diff = run("rules", "ledger", "--diff", "1", "--to", "2", cwd=workdir).stdout.decode()
    assert "\n+table:\n+  - row_count: {min: 1}\n" in diff


def test_lineage_and_metrics_are_recorded(workdir):
    report = validate_json(workdir, "--store", "s.db", "--quarantine", "q.csv", "--clean", "c.csv")
    db = sqlite3.connect(workdir / "s.db")
    tables = {name for (name,) in db.execute("select name from sqlite_master where type='table'")}
    assert {"runs", "check_results", "column_metrics", "rule_versions", "run_inputs", "run_outputs"} <= tables
    (status,) = db.execute("select status from runs where run_id = ?", (report["run_id"],)).fetchone()
    assert status == "complete"
    inputs = db.execute("select path, size_bytes, rows from run_inputs where run_id = ?", (report["run_id"],)).fetchall()
    assert inputs == [("d.csv", len(DATA), 3)]
    outputs = sorted(db.execute("select kind, rows from run_outputs where run_id = ?", (report["run_id"],)))
    assert outputs == [("clean", 1), ("quarantine", 2)]
    # The lineage's size and sha256 are those of the committed files' bytes.
    for kind, name in (("clean", "c.csv"), ("quarantine", "q.csv")):
        size, digest = db.execute("select size_bytes, sha256 from run_outputs where run_id = ? and kind = ?",
                                  (report["run_id"], kind)).fetchone()
        data = (workdir / name).read_bytes()
        assert (size, digest) == (len(data), hashlib.sha256(data).hexdigest())
    metrics = dict(db.execute("select column_name, value_count from column_metrics where run_id = ?",
                              (report["run_id"],)).fetchall())
    assert metrics == {"id": 3, "amount": 3}


def one_line_exit_3_with_report(proc):
    assert proc.returncode == 3, proc.stderr
    lines = proc.stderr.decode().strip().splitlines()
    assert len(lines) == 1, proc.stderr
    report = json.loads(proc.stdout)  # the validation result is still printed
    assert report["rows"] == 3
    return lines[0]


def test_unwritable_store_path(workdir):
    (workdir / "file").write_text("x")
    line = one_line_exit_3_with_report(
        run("validate", "-r", "rules.yaml", "d.csv", "--format", "json", "--store", "file/sub/s.db", cwd=workdir))
    assert "file/sub/s.db" in line


def test_corrupt_sqlite_file(workdir):
    (workdir / "bad.db").write_bytes(b"this is not a database" * 100)
    line = one_line_exit_3_with_report(
        run("validate", "-r", "rules.yaml", "d.csv", "--format", "json", "--store", "bad.db", cwd=workdir))
    assert "bad.db" in line


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_postgres_refusing_connection(workdir):
    uri = f"postgresql://griffin:secret@127.0.0.1:{free_port()}/griffin"
    line = one_line_exit_3_with_report(
        run("validate", "-r", "rules.yaml", "d.csv", "--format", "json", "--store", uri, cwd=workdir))
    assert "secret" not in line and "127.0.0.1" in line


def concurrent_runs(workdir, store, processes=4, runs_each=5):
    script = (f"for i in $(seq {runs_each}); do {GRIFFIN} validate -r rules.yaml d.csv --store '{store}' "
              "--clean c_$$.csv --tag-version --format json > /dev/null; [ $? -le 1 ] || exit 9; done")
    procs = [subprocess.Popen(["bash", "-c", script], cwd=workdir) for _ in range(processes)]
    assert [p.wait(timeout=300) for p in procs] == [0] * processes
    proc = run("history", "ledger", "--store", store, "--format", "json", "--limit", "1000", cwd=workdir)
    runs = json.loads(proc.stdout)["runs"]
    assert len(runs) == processes * runs_each
    assert sorted(r["version"] for r in runs) == list(range(1, processes * runs_each + 1))
    assert all(r["rows"] == 3 and r["bad_rows"] == 2 for r in runs)


def test_concurrent_writers_sqlite(workdir):
    concurrent_runs(workdir, "shared.db")


def require_pg():
    if not PG_URI:
        if os.environ.get("GRIFFIN_NO_PG") == "1":
            pytest.skip("GRIFFIN_NO_PG=1: PostgreSQL tests explicitly turned off")
        pytest.fail("GRIFFIN_TEST_PG_URI is not set: start a server with scripts/pg_test_cluster.sh start")


def fresh_pg_database(name):
    """A new database on the test server, so runs from other tests do not mix."""
    import urllib.parse
    parts = urllib.parse.urlsplit(PG_URI)
    admin = subprocess.run(["psql", PG_URI, "-v", "ON_ERROR_STOP=1", "-q",
                            "-c", f'DROP DATABASE IF EXISTS "{name}"', "-c", f'CREATE DATABASE "{name}"'],
                           capture_output=True, timeout=60)
    assert admin.returncode == 0, admin.stderr
    return urllib.parse.urlunsplit(parts._replace(path="/" + name))


def test_postgres_store_end_to_end(workdir):
    require_pg()
    uri = fresh_pg_database("griffin_e2e")
    report = validate_json(workdir, "--store", uri)
    history = json.loads(run("history", "ledger", "--store", uri, "--format", "json", cwd=workdir).stdout)
    assert history["runs"][0]["run_id"] == report["run_id"]
    shown = run("show", report["run_id"], "--store", uri, "--format", "json", cwd=workdir)
    assert json.loads(shown.stdout) == report


def test_postgres_wrong_credentials(workdir):
    require_pg()
    import urllib.parse
    parts = urllib.parse.urlsplit(PG_URI)
    wrong = urllib.parse.urlunsplit(parts._replace(netloc=f"{parts.username}:wrong-password@{parts.hostname}:{parts.port}"))
    line = one_line_exit_3_with_report(
        run("validate", "-r", "rules.yaml", "d.csv", "--format", "json", "--store", wrong, cwd=workdir))
    assert "wrong-password" not in line


def test_concurrent_writers_postgres(workdir):
    require_pg()
    concurrent_runs(workdir, fresh_pg_database("griffin_concurrent"))


def test_schema_snapshot_cache_reports_drift(workdir):
    first = validate_json(workdir)
    assert "schema_changes" not in first
    again = validate_json(workdir)                      # same file, same rules: the snapshot is reused
    assert "schema_changes" not in again
    (workdir / "d.csv").write_text("id,amount,extra\n1,5,x\n2,-1,y\n2,3,z\n")
    changed = validate_json(workdir)
    assert changed["schema_changes"] == ["d.csv: column 'extra' added"]
    text = run("validate", "-r", "rules.yaml", "d.csv", cwd=workdir).stdout.decode()
    assert "schema changed" not in text                  # now cached: no change since
    (workdir / "rules.yaml").write_text(RULES_V2)        # new rules: the cache starts over
    (workdir / "d.csv").write_text(DATA)
    assert "schema_changes" not in validate_json(workdir)
    db = sqlite3.connect(workdir / ".griffin" / "griffin.db")
    rows = db.execute("select path, schema_json from schema_cache").fetchall()
    assert rows == [("d.csv", '[{"name": "id", "type": "text"}, {"name": "amount", "type": "text"}]')]


def test_schema_drift_of_typed_input(workdir):
    import pyarrow as pa
    import pyarrow.parquet as pq
    pq.write_table(pa.table({"id": pa.array([1, 2], pa.int64()), "amount": pa.array([1.0, 2.0])}),
                   workdir / "t.parquet")
    proc = run("validate", "-r", "rules.yaml", "t.parquet", "--format", "json", cwd=workdir)
    assert proc.returncode == 0, proc.stderr
    pq.write_table(pa.table({"id": pa.array([1, 2], pa.int32()), "amount": pa.array([1.0, 2.0])}),
                   workdir / "t.parquet")
    proc = run("validate", "-r", "rules.yaml", "t.parquet", "--format", "json", cwd=workdir)
    assert json.loads(proc.stdout)["schema_changes"] == ["t.parquet: column 'id' changed type from int64 to int32"]


def test_a_recorded_library_run_lists_unused_columns_in_its_schema(workdir):
    """Library runs recorded in a store decode only the rule columns of a CSV (projection),
    yet their schema snapshot lists every header column: an added unused column is a
    schema change, as for the CLI."""
    import griffin
    store = workdir / "library.db"
    validator = griffin.Validator(str(workdir / "rules.yaml"))
    (workdir / "lib.csv").write_text("id,amount,note\n1,5,a\n2,3,b\n")
    first = validator.validate(str(workdir / "lib.csv"), store=str(store)).to_dict()
    assert "schema_changes" not in first
    (workdir / "lib.csv").write_text("id,amount,note,extra\n1,5,a,x\n2,3,b,y\n")
    changed = validator.validate(str(workdir / "lib.csv"), store=str(store)).to_dict()
    assert changed["schema_changes"] == [f"{workdir / 'lib.csv'}: column 'extra' added"], changed.get("schema_changes")
    db = sqlite3.connect(store)
    schemas = [json.loads(row[0]) for row in db.execute("select schema_json from schema_cache")]
    assert [column["name"] for column in schemas[-1]] == ["id", "amount", "note", "extra"]
