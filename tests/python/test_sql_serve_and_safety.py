"""SQL sources in `griffin serve`, and the bad inputs of issue 13 that
test_sql_sources.py does not already cover.

- A dataset whose config names a source (`sources:`) is read by the server on
  POST /v1/datasets/{d}/validate?source=true: the answer is the report
  `griffin validate` gives for the same table (real server, real HTTP client).
- Passwords from PGPASSWORD and ~/.pgpass connect and are never printed.
- A hostile table name runs nothing on PostgreSQL and DuckDB either (the other
  table is still there); a writing --query fails on DuckDB's read-only file.
"""
import json
import os
import subprocess
import textwrap
import urllib.parse

import pytest
import requests

from griffin_cli import require_binary
from server_harness import GriffinServer, auth, config_yaml
from test_sql_sources import PG_URI, ROWS, TABLES, require_pg, rules  # noqa: F401  (rules is a fixture)

RULES = textwrap.dedent("""\
    griffin: 1
    dataset: {name}
    columns:
      id: {{type: int64, not_null: true, unique: true}}
      x: {{type: float64, finite: true, min: -1000, max: 1000}}
      s: {{type: string, in: ['a', 'b', 'é', 'ü ü']}}
    table:
      - row_count: {{min: 1}}
""")


def run_cli(*args, env=None):
    return subprocess.run([str(require_binary()), *map(str, args)], capture_output=True, text=True, timeout=120,
                          env=env)


def comparable(report):
    return {k: report[k] for k in ("rows", "bad_rows", "passed", "schema_errors", "checks", "violations",
                                   "quality_score")}


@pytest.mark.parametrize("engine", ["sqlite", "postgresql"])
def test_serve_validates_a_dataset_that_names_a_source(engine, tmp_path):
    uri, _ = TABLES[engine](tmp_path)
    missing = uri.split("?")[0] + ("?table=griffin_scan.nope" if engine == "postgresql" else "?table=nope")
    config = config_yaml() + "sources:\n" + "".join(
        f"  {name}: '{target}'\n" for name, target in (("orders", uri), ("gone", missing)))
    rules = {"orders": RULES.format(name="orders"), "gone": RULES.format(name="gone"),
             "plain": RULES.format(name="plain")}
    (tmp_path / "orders.yaml").write_text(rules["orders"])
    expected = json.loads(run_cli("validate", "-r", tmp_path / "orders.yaml", uri, "--format", "json",
                                  "--no-store").stdout)
    with GriffinServer(tmp_path, rules, config=config, flight=False) as server:
        answer = requests.post(server.url + "/v1/datasets/orders/validate?source=true&store=true",
                               headers=auth(), timeout=60)
        assert answer.status_code == 200, answer.text
        report = answer.json()
        assert comparable(report) == comparable(expected)
        assert report["rows"] == len(ROWS) and report["bad_rows"] > 0
        # Recorded like any other run of the dataset.
        runs = requests.get(server.url + "/v1/runs?dataset=orders", headers=auth(), timeout=30).json()
        assert report["run_id"] in json.dumps(runs)

        no_source = requests.post(server.url + "/v1/datasets/plain/validate?source=true", headers=auth(), timeout=30)
        assert no_source.status_code == 400 and "names no source" in no_source.json()["error"]
        with_body = requests.post(server.url + "/v1/datasets/orders/validate?source=true", data="id\n1\n",
                                  headers={**auth(), "Content-Type": "text/csv"}, timeout=30)
        assert with_body.status_code == 400 and "send no body" in with_body.json()["error"]
        gone = requests.post(server.url + "/v1/datasets/gone/validate?source=true", headers=auth(), timeout=30)
        assert gone.status_code == 503 and gone.json().get("code") == "source_failed", gone.text
        if PG_URI:
            assert PG_URI.split("@")[0].split(":")[-1] not in gone.text + "\n".join(server.lines)
        # The key's datasets still apply.
        forbidden = requests.post(server.url + "/v1/datasets/orders/validate?source=true",
                                  headers=auth("reader"), timeout=30)
        assert forbidden.status_code == 403


def pg_parts():
    require_pg()
    parts = urllib.parse.urlsplit(PG_URI)
    without_password = urllib.parse.urlunsplit(
        parts._replace(netloc=f"{parts.username}@{parts.hostname}:{parts.port}"))
    return parts, without_password


def test_passwords_from_pgpassword_and_pgpass_connect_and_are_never_printed(rules, tmp_path):  # noqa: F811
    TABLES["postgresql"](tmp_path)
    parts, bare = pg_parts()
    uri = f"{bare}?table=griffin_scan.rows"
    base = {k: v for k, v in os.environ.items() if not k.startswith("PG")}
    home = tmp_path / "home"
    home.mkdir()
    base["HOME"] = str(home)
    # No password anywhere: libpq's own error, exit 3.
    none = run_cli("validate", "-r", rules, uri, "--no-store", env=base)
    assert none.returncode == 3 and none.stderr.count("\n") == 1, none.stderr
    # PGPASSWORD: connects; a wrong one is one line without it.
    good = run_cli("validate", "-r", rules, uri, "--no-store", "--format", "json",
                   env={**base, "PGPASSWORD": parts.password})
    assert good.returncode == 1 and json.loads(good.stdout)["rows"] == len(ROWS), good.stderr
    wrong = run_cli("validate", "-r", rules, uri, "--no-store", env={**base, "PGPASSWORD": "env-s3cret-wrong"})
    assert wrong.returncode == 3 and wrong.stderr.count("\n") == 1, wrong.stderr
    assert "env-s3cret-wrong" not in wrong.stderr and "password authentication failed" in wrong.stderr
    # ~/.pgpass (mode 0600): connects; a wrong entry is one line without it.
    pgpass = home / ".pgpass"
    for password, code in ((parts.password, 1), ("file-s3cret-wrong", 3)):
        pgpass.write_text(f"{parts.hostname}:{parts.port}:*:{parts.username}:{password}\n")
        pgpass.chmod(0o600)
        done = run_cli("validate", "-r", rules, uri, "--no-store", env=base)
        assert done.returncode == code, done.stderr
        assert parts.password not in done.stderr + done.stdout and "file-s3cret-wrong" not in done.stderr
        if code == 3:
            assert done.stderr.count("\n") == 1


def test_a_hostile_table_name_runs_nothing_on_postgresql(rules, tmp_path):  # noqa: F811
    uri, _ = TABLES["postgresql"](tmp_path)
    database = uri.split("?")[0]
    for hostile in ("x; DROP TABLE griffin_scan.rows", 'rows"; DROP TABLE griffin_scan.rows; --',
                    "griffin_scan.rows; DROP TABLE griffin_scan.rows"):
        done = run_cli("validate", "-r", rules, f"{database}?table={urllib.parse.quote(hostile)}", "--no-store")
        assert done.returncode == 3 and done.stderr.count("\n") == 1, done.stderr
        assert "does not exist" in done.stderr, done.stderr
    whole = run_cli("validate", "-r", rules, uri, "--no-store", "--format", "json")
    assert json.loads(whole.stdout)["rows"] == len(ROWS)


def test_duckdb_refuses_hostile_names_and_writing_queries(rules, tmp_path):  # noqa: F811
    uri, _ = TABLES["duckdb"](tmp_path)
    database = uri.split("?")[0]
    attempts = [(f"{database}?table={urllib.parse.quote('x; DROP TABLE rows')}", ()),
                (database, ("--query", "DELETE FROM rows RETURNING *"))]
    for source, extra in attempts:
        done = run_cli("validate", "-r", rules, source, "--no-store", *extra)
        assert done.returncode == 3 and done.stderr.count("\n") == 1, (extra, done.stderr)
    # A where outside the predicate language: refused at once (exit 2); hostile text in a value: bound.
    done = run_cli("validate", "-r", rules, uri, "--no-store", "--where", "1=1; DROP TABLE rows; --")
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    for mode in ("scan", "pushdown", "pushdown-split"):
        done = run_cli("validate", "-r", rules, uri, "--no-store", "--format", "json", "--mode", mode,
                       "--where", "s = '1''; DROP TABLE rows; --' OR s IN ('x''); DELETE FROM rows; --')")
        assert done.returncode in (0, 1) and json.loads(done.stdout)["rows"] == 0, (mode, done.stderr)
    whole = run_cli("validate", "-r", rules, uri, "--no-store", "--format", "json")
    assert json.loads(whole.stdout)["rows"] == len(ROWS)
