"""Incremental runs and the schema snapshot cache of SQL tables (issue 13).

- `source.incremental: {column: updated_at}`: the first recorded run reads the
  whole table, each later one only the rows past the watermark the last
  recorded run left in the run store, with the verdicts `griffin validate`
  gives for the same rows as a CSV file. A run that is not recorded (--no-store,
  a failed run) moves nothing. Table checks say whether they cover the
  increment or the whole table.
- A changed table reports `schema_changes` from its catalogue, as a changed
  file does.

On real SQLite and DuckDB files and the test PostgreSQL (scripts/pg_test_cluster.sh);
the PostgreSQL case also keeps its watermarks in a PostgreSQL run store.
"""
import csv
import json
import subprocess
import textwrap

import pytest

from griffin_cli import require_binary
from test_sql_sources import PG_URI, require_pg
from test_store_cli import fresh_pg_database

CHECKS = textwrap.dedent("""\
    columns:
      id: {type: int64, not_null: true, unique: true}
      x: {type: float64, min: 0}
      s: {type: string, in: ['a', 'b', "it's"]}
    table:
      - row_count: {min: 2}
      - mean: {column: x, max: 50}
""")
INCREMENTAL = "griffin: 1\ndataset: inc\nsource:\n  incremental: {column: updated_at}\n" + CHECKS
PLAIN = "griffin: 1\ndataset: inc_csv\n" + CHECKS

FIRST = [(1, 1.5, "a", 1), (2, -2.0, "b", 2), (3, 7.0, "zz", 3), (4, None, None, None)]
LATER = [(5, 100.0, "a", 5), (6, -1.0, "it's", 5), (7, 3.0, "b", 6)]
EVEN_LATER = [(8, 1.0, "a", 9), (9, 2.0, "b", 10)]


def run_cli(*args, env=None):
    return subprocess.run([str(require_binary()), *map(str, args)], capture_output=True, text=True, timeout=120,
                          env=env)


def stamp(engine, day):
    """updated_at as each database holds it: SQLite text, DuckDB TIMESTAMP, PostgreSQL timestamptz."""
    return None if day is None else f"2024-01-{day:02d} 08:00:00"


class Table:
    """A table `events (id, x, s, updated_at)` in one engine, and its URI."""

    def __init__(self, engine, tmp_path):
        self.engine = engine
        if engine == "sqlite":
            self.path = tmp_path / "events.db"
            self.uri = f"sqlite://{self.path}?table=events"
            self.execute("CREATE TABLE events (id INTEGER, x REAL, s TEXT, updated_at TEXT)")
        elif engine == "duckdb":
            self.path = tmp_path / "events.duckdb"
            self.uri = f"duckdb://{self.path}?table=events"
            self.execute("CREATE TABLE events (id BIGINT, x DOUBLE, s VARCHAR, updated_at TIMESTAMP)")
        else:
            require_pg()
            self.execute("DROP SCHEMA IF EXISTS griffin_inc CASCADE", "CREATE SCHEMA griffin_inc",
                         "CREATE TABLE griffin_inc.events (id bigint, x double precision, s text,"
                         " updated_at timestamptz)")
            self.uri = f"{PG_URI}?table=griffin_inc.events"

    @property
    def name(self):
        return "griffin_inc.events" if self.engine == "postgresql" else "events"

    def execute(self, *statements, params=()):
        """Runs statements; `params` (SQLite only) are bound to its ? placeholders."""
        if self.engine == "sqlite":
            import sqlite3
            with sqlite3.connect(self.path) as connection:
                for statement in statements:
                    connection.execute(statement, params)
        elif self.engine == "duckdb":
            import duckdb
            connection = duckdb.connect(str(self.path))
            for statement in statements:
                connection.execute(statement)
            connection.close()
        else:
            import adbc_driver_postgresql.dbapi as dbapi
            with dbapi.connect(PG_URI) as connection:
                with connection.cursor() as cursor:
                    for statement in statements:
                        cursor.execute(statement)
                connection.commit()

    def insert(self, rows):
        def literal(value):
            if value is None:
                return "NULL"
            return "'" + value.replace("'", "''") + "'" if isinstance(value, str) else repr(value)
        values = ", ".join("(" + ", ".join(literal(v) for v in (*row[:3], stamp(self.engine, row[3]))) + ")"
                           for row in rows)
        self.execute(f"INSERT INTO {self.name} VALUES {values}")


def write_csv(path, rows):
    with path.open("w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["id", "x", "s"])
        for row in rows:
            writer.writerow(["" if v is None else v for v in row[:3]])
    return path


def verdicts(report):
    """What must equal between a table and a CSV of its rows: a CSV's report
    also has the text inputs' `malformed` check (nothing malformed here), and
    its violation values are text, so violations compare by row and check; a
    pushdown report says where each check ran (ran_in)."""
    checks = [{k: v for k, v in check.items() if k not in ("scope", "ran_in", "ran_in_reason")}
              for check in report["checks"] if check["check"] != "malformed"]
    violations = [(v["row"], v["check"]) for v in report["violations"]]
    return report["rows"], report["bad_rows"], report["passed"], checks, violations


@pytest.fixture
def rule_files(tmp_path):
    incremental, plain = tmp_path / "inc.yaml", tmp_path / "plain.yaml"
    incremental.write_text(INCREMENTAL)
    plain.write_text(PLAIN)
    return incremental, plain


def store_for(engine, tmp_path):
    return fresh_pg_database("griffin_inc_store") if engine == "postgresql" else str(tmp_path / "store.db")


def filled_table(engine, tmp_path):
    """The table holding FIRST, and a run store for it."""
    table = Table(engine, tmp_path)
    table.insert(FIRST)
    return table, store_for(engine, tmp_path)


def validate(rules, source, *extra):
    done = run_cli("validate", "-r", rules, source, "--format", "json", "--threads", 2, *extra)
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)


validate_in = validate  # for tests whose own validate() adds options


@pytest.mark.parametrize("mode", ["scan", "pushdown", "pushdown-split"])
@pytest.mark.parametrize("engine", ["sqlite", "duckdb", "postgresql"])
def test_each_recorded_run_reads_the_rows_past_the_last_watermark(engine, mode, rule_files, tmp_path):
    """In every mode: pushdown's aggregate, samples and engine read all take the
    increment's bounds, so each mode's report equals scan's on a CSV of the rows."""
    incremental, plain = rule_files
    table, store = filled_table(engine, tmp_path)

    def validate(rules, source, *extra):
        return validate_in(rules, source, *extra, *(("--mode", mode) if rules == incremental else ()))

    # The first run reads every row, those without an updated_at too: the whole table.
    first = validate(incremental, table.uri, "--store", store)
    reference = validate(plain, write_csv(tmp_path / "first.csv", FIRST), "--no-store")
    assert verdicts(first) == verdicts(reference)
    assert first["increment"] == {"column": "updated_at", "after": None, "through": first["increment"]["through"],
                                  "scope": "table"}
    assert "2024-01-03" in first["increment"]["through"]
    assert [c["scope"] for c in first["checks"] if c["column"] is None or c["check"] == "mean"] == ["table", "table"]
    assert all("scope" not in c for c in first["checks"] if "evaluated" in c)

    # Runs that are not recorded read everything and move nothing.
    table.insert(LATER)
    unrecorded = validate(incremental, table.uri, "--no-store")
    assert unrecorded["rows"] == len(FIRST) + len(LATER) and unrecorded["increment"]["scope"] == "table"
    failed = run_cli("validate", "-r", incremental, table.uri, "--store", store,
                     "--quarantine", tmp_path / "no-such-dir" / "q.csv")
    assert failed.returncode == 3, failed.stderr

    # The next recorded run: only the rows past the first run's watermark.
    second = validate(incremental, table.uri, "--store", store)
    reference = validate(plain, write_csv(tmp_path / "later.csv", LATER), "--no-store")
    assert verdicts(second) == verdicts(reference)
    assert second["rows"] == len(LATER) and second["bad_rows"] == 1  # x -1
    assert second["increment"]["after"] == first["increment"]["through"]
    assert "2024-01-06" in second["increment"]["through"]
    assert {c["scope"] for c in second["checks"] if "observed" in c} == {"increment"}

    # Nothing new: no row, the watermark stays.
    empty = validate(incremental, table.uri, "--store", store)
    assert empty["rows"] == 0
    assert empty["increment"]["after"] == empty["increment"]["through"] == second["increment"]["through"]
    table.insert(EVEN_LATER)
    third = validate(incremental, table.uri, "--store", store)
    assert verdicts(third) == verdicts(validate(plain, write_csv(tmp_path / "last.csv", EVEN_LATER), "--no-store"))


def test_the_watermark_is_bound_never_spliced(rule_files, tmp_path):
    """A watermark that is text holding SQL is compared as a value: the next
    increment is exactly the rows past it, and the table is whole."""
    incremental, _ = rule_files
    table = Table("sqlite", tmp_path)
    store = str(tmp_path / "store.db")
    hostile = "2024'; DROP TABLE events; --"
    table.execute("INSERT INTO events VALUES (1, 1.0, 'a', ?)", params=(hostile,))
    table.execute("INSERT INTO events VALUES (2, 2.0, 'b', '2023')")
    first = validate(incremental, table.uri, "--store", store)
    assert first["rows"] == 2 and first["increment"]["through"] == hostile
    table.execute("INSERT INTO events VALUES (3, 3.0, 'a', '2025')", "INSERT INTO events VALUES (4, 4.0, 'a', '2000')")
    second = validate(incremental, table.uri, "--store", store)
    assert second["rows"] == 1 and second["increment"]["through"] == "2025"
    assert validate(incremental, table.uri, "--no-store")["rows"] == 4


def test_a_column_that_cannot_be_a_watermark_is_exit_2(tmp_path):
    require_pg()
    rules = tmp_path / "r.yaml"
    rules.write_text("griffin: 1\ndataset: d\nsource: {incremental: {column: n}}\ncolumns:\n  n: {type: float64}\n")
    import adbc_driver_postgresql.dbapi as dbapi
    with dbapi.connect(PG_URI) as connection:
        with connection.cursor() as cursor:
            for statement in ("DROP TABLE IF EXISTS griffin_inc_numeric", "CREATE TABLE griffin_inc_numeric (n numeric)",
                              "INSERT INTO griffin_inc_numeric VALUES (1.5)"):
                cursor.execute(statement)
        connection.commit()
    done = run_cli("validate", "-r", rules, f"{PG_URI}?table=griffin_inc_numeric", "--store", tmp_path / "s.db")
    assert done.returncode == 2, done.stderr
    assert "source.incremental: column 'n'" in done.stderr and done.stderr.count("\n") == 1
    csv_done = run_cli("validate", "-r", rules, write_csv(tmp_path / "a.csv", []), "--store", tmp_path / "s.db")
    assert csv_done.returncode == 2 and "cannot be read incrementally" in csv_done.stderr


@pytest.mark.parametrize("engine", ["sqlite", "duckdb", "postgresql"])
def test_a_changed_table_reports_schema_changes(engine, rule_files, tmp_path):
    _, plain = rule_files
    table, store = filled_table(engine, tmp_path)
    assert "schema_changes" not in validate(plain, table.uri, "--store", store)
    assert "schema_changes" not in validate(plain, table.uri, "--store", store)  # the same version
    retype = {"sqlite": None,  # SQLite cannot change a column's type in place
              "duckdb": f"ALTER TABLE {table.name} ALTER COLUMN id TYPE VARCHAR",
              "postgresql": f"ALTER TABLE {table.name} ALTER COLUMN id TYPE text"}[engine]
    table.execute(f"ALTER TABLE {table.name} ADD COLUMN z INTEGER")
    if retype:
        table.execute(retype)
    changed = validate(plain, table.uri, "--store", store)
    shown = table.uri.replace(PG_URI.split("@")[0].split(":")[-1], "***") if PG_URI else table.uri
    assert f"{shown}: column 'z' added" in changed["schema_changes"], changed.get("schema_changes")
    if retype:
        assert any("column 'id' changed type from" in c for c in changed["schema_changes"])
    assert "schema_changes" not in validate(plain, table.uri, "--store", store)


@pytest.mark.parametrize("engine", ["sqlite", "postgresql"])
def test_serve_reads_each_increment_once(engine, rule_files, tmp_path):
    """`griffin serve` with a dataset whose source reads increments: each recorded
    call reads the rows past the last one's watermark, with the verdicts griffin
    validate gives for those rows as a CSV; store=false reads the pending
    increment and moves nothing; two calls at once never read the same rows; a
    service without a store reads every row."""
    import concurrent.futures

    import requests
    from server_harness import GriffinServer, auth, config_yaml

    incremental, plain = rule_files
    table = Table(engine, tmp_path)
    table.insert(FIRST)
    config = config_yaml() + f"sources:\n  inc: '{table.uri}'\n"
    rules = {"inc": incremental.read_text()}
    work = tmp_path / "serve"
    work.mkdir()

    def call(server, store="true"):
        answer = requests.post(f"{server.url}/v1/datasets/inc/validate?source=true&store={store}", headers=auth(),
                               timeout=60)
        assert answer.status_code == 200, answer.text
        return answer.json()

    with GriffinServer(work, rules, config=config, flight=False) as server:
        first = call(server)
        assert verdicts(first) == verdicts(validate(plain, write_csv(tmp_path / "first.csv", FIRST), "--no-store"))
        assert first["increment"]["after"] is None and first["increment"]["scope"] == "table"

        table.insert(LATER)
        peek = call(server, store="false")
        assert peek["rows"] == len(LATER) and peek["increment"]["after"] == first["increment"]["through"]
        second = call(server)  # the peek moved nothing: the same rows
        assert verdicts(second) == verdicts(validate(plain, write_csv(tmp_path / "later.csv", LATER), "--no-store"))
        assert second["increment"]["after"] == first["increment"]["through"]
        assert {c["scope"] for c in second["checks"] if "observed" in c} == {"increment"}

        # Two calls at once: one reads the new rows, the other waits for its record and reads none.
        table.insert(EVEN_LATER)
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            both = list(pool.map(lambda _: call(server), range(2)))
        assert sorted(r["rows"] for r in both) == [0, len(EVEN_LATER)], [r["increment"] for r in both]
        read = next(r for r in both if r["rows"])
        assert verdicts(read) == verdicts(validate(plain, write_csv(tmp_path / "last.csv", EVEN_LATER), "--no-store"))
        assert call(server)["rows"] == 0

        # The store holds one run per call, each increment's watermark the next one's start.
        runs = requests.get(server.url + "/v1/runs?dataset=inc", headers=auth(), timeout=30).json()
        assert {first["run_id"], second["run_id"], *(r["run_id"] for r in both)} <= set(
            r["run_id"] for r in runs["runs"]), runs
        assert peek["run_id"] not in json.dumps(runs)

    # No store: every row, each time.
    bare = tmp_path / "bare"
    bare.mkdir()
    with GriffinServer(bare, rules, config=config, flight=False, store=False) as server:
        whole = call(server, store="false")
        assert whole["rows"] == len(FIRST) + len(LATER) + len(EVEN_LATER)
        assert whole["increment"]["scope"] == "table" and whole["increment"]["after"] is None


@pytest.mark.parametrize("engine", ["sqlite", "duckdb", "postgresql"])
def test_python_reads_each_increment_once_with_a_store(engine, rule_files, tmp_path):
    """Validator.validate(uri, store=...) records its run as griffin validate
    does: each call reads the rows past the last recorded run's watermark, with
    the verdicts griffin validate gives for those rows as a CSV, and the CLI
    sharing the store continues from the watermark Python left (and the other
    way round). Without store= every row is read and nothing moves."""
    import griffin

    incremental, plain = rule_files
    table, store = filled_table(engine, tmp_path)
    validator = griffin.Validator(str(incremental))

    first = validator.validate(table.uri, store=store)
    assert first.run_id
    assert verdicts(first.to_dict()) == verdicts(validate(plain, write_csv(tmp_path / "first.csv", FIRST), "--no-store"))
    assert first.to_dict()["increment"]["after"] is None and first.to_dict()["increment"]["scope"] == "table"
    assert validator.validate(table.uri, store=store).rows == 0  # nothing new

    table.insert(LATER)
    whole = validator.validate(table.uri)  # no store: every row, nothing recorded
    assert whole.run_id is None and whole.rows == len(FIRST) + len(LATER)
    second = validator.validate(table.uri, store=store)
    assert verdicts(second.to_dict()) == verdicts(validate(plain, write_csv(tmp_path / "later.csv", LATER), "--no-store"))
    assert second.to_dict()["increment"]["after"] == first.to_dict()["increment"]["through"]
    assert {c["scope"] for c in second.checks if "observed" in c} == {"increment"}

    # The CLI on the same store reads on from Python's watermark, and Python from the CLI's.
    table.insert(EVEN_LATER)
    by_cli = validate(incremental, table.uri, "--store", store)
    assert by_cli["rows"] == len(EVEN_LATER)
    assert by_cli["increment"]["after"] == second.to_dict()["increment"]["through"]
    assert validator.validate(table.uri, store=store).rows == 0

    history = json.loads(run_cli("history", "inc", "--store", store, "--format", "json").stdout)
    runs = history["runs"] if isinstance(history, dict) else history
    origins = {r["run_id"]: r.get("origin") for r in runs}
    assert origins[first.run_id] == "python" and origins[by_cli["run_id"]] == "cli"
    assert len(runs) == 5  # four Python runs recorded and one CLI run; the run without store= is not


def test_python_store_errors_are_clear_and_lose_no_watermark(rule_files, tmp_path):
    """A store that cannot be used raises InputError before any row is read; a
    source that fails aborts the recorded run (history shows it aborted) and
    leaves the watermark where it was; a store= of the wrong type is a TypeError."""
    import griffin

    incremental, _ = rule_files
    table, store = filled_table("sqlite", tmp_path)
    validator = griffin.Validator(str(incremental))
    with pytest.raises(griffin.RuleError, match="runs.txt"):
        validator.validate(table.uri, store=str(tmp_path / "runs.txt"))
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"x" * 4096)
    with pytest.raises(griffin.InputError, match="garbage.db"):
        validator.validate(table.uri, store=str(garbage))
    with pytest.raises(TypeError, match="store"):
        validator.validate(table.uri, store=3)

    assert validator.validate(table.uri, store=store).rows == len(FIRST)
    missing = f"sqlite://{tmp_path / 'events.db'}?table=nope"
    with pytest.raises(griffin.InputError):
        validator.validate(missing, store=store)
    table.insert(LATER)
    assert validator.validate(table.uri, store=store).rows == len(LATER)
    history = json.loads(run_cli("history", "inc", "--store", store, "--format", "json").stdout)
    runs = history["runs"] if isinstance(history, dict) else history
    assert sorted(r["status"] for r in runs) == ["aborted", "complete", "complete"], runs


def test_python_records_frames_and_judges_drift_against_the_store(tmp_path):
    """store= records in-memory data too (its name and rows as lineage), and a
    drift check with baseline last_passed compares with the last recorded run
    that passed, as griffin validate does on the same rows."""
    import griffin
    import pyarrow as pa

    rules = tmp_path / "labels.yaml"
    rules.write_text("griffin: 1\ndataset: labels\ncolumns:\n  y:\n    type: string\n"
                     "    drift: {baseline: last_passed, max: 0.2}\n")
    store = str(tmp_path / "runs.db")
    validator = griffin.Validator(str(rules))
    first = validator.validate(pa.table({"y": ["a", "a", "a", "b"]}), store=store)
    assert first.passed and first.run_id
    drift = next(c for c in first.checks if c["name"] == "y.drift")
    assert "note" in drift, drift
    moved = validator.validate(pa.table({"y": ["b", "b", "b", "b"]}), store=store)
    assert not moved.passed
    # The CLI on the same rows and store judges the same drift against the same baseline.
    csv_path = tmp_path / "moved.csv"
    csv_path.write_text("y\nb\nb\nb\nb\n")
    by_cli = validate(rules, csv_path, "--store", store)
    cli_drift = next(c for c in by_cli["checks"] if c["name"] == "y.drift")
    py_drift = next(c for c in moved.checks if c["name"] == "y.drift")
    assert (cli_drift["passed"], cli_drift["observed"]) == (py_drift["passed"], py_drift["observed"])
    # Not recorded: judged as --no-store judges it (no history: passes with a note).
    plain = validator.validate(pa.table({"y": ["b", "b", "b", "b"]}))
    assert plain.passed and plain.run_id is None
