"""SQL sources in scan mode (issue 13): a table in SQLite, DuckDB and PostgreSQL
gives the report, the clean rows and the quarantine rows that `griffin
validate` gives for the same rows as a Parquet file (one engine, one answer),
through the CLI and through griffin.Validator.validate(uri).

The rows hold nulls, NaN, +-inf, unicode, empty strings, int64 boundaries and
duplicates. What each database stores differently is applied to the reference
file explicitly, and documented in docs/sources.md:
- SQLite stores NaN as NULL;
- PostgreSQL NUMERIC and DuckDB DECIMAL arrive as their exact text ("12.50"),
  which a float64 rule parses as it parses a CSV field.

PostgreSQL is the server scripts/pg_test_cluster.sh starts (GRIFFIN_TEST_PG_URI).
"""
import csv
import json
import math
import os
import subprocess
import textwrap

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import griffin

from griffin_cli import require_binary

PG_URI = os.environ.get("GRIFFIN_TEST_PG_URI")

RULES = textwrap.dedent("""\
    griffin: 1
    dataset: sql_scan
    columns:
      id: {type: int64, not_null: true, unique: true}
      x: {type: float64, finite: true, min: -1000, max: 1000}
      s: {type: string, in: ['a', 'b', 'é', 'ü ü'], regex: '^[a-zé ü]+$'}
      n: {type: float64, min: 0, max: 99.5}
      k: {type: int64, max: 100}
    rows:
      - name: positive_or_b
        expr: "x > 0 or s = 'b'"
      - name: one_k_per_s
        unique: [k, s]
    table:
      - row_count: {min: 1}
      - mean: {column: x, min: -50, max: 50}
      - distinct_count: {column: s}
""")

INT_MIN, INT_MAX = -2**63, 2**63 - 1
ROWS = [
    # id, x, s, n (exact decimal text), k
    (1, 1.5, "a", "12.50", 1),
    (2, -3.0, "b", "0.00", 1),
    (3, float("nan"), "é", "99.50", 2),
    (4, float("inf"), "ü ü", "100.25", 2),
    (5, float("-inf"), "", "-0.01", 3),
    (6, None, None, None, None),
    (INT_MAX, 1000.0, "b", "1.00", 3),
    (INT_MIN, -1000.5, "a", "5.00", 100),
    (9, 0.0, "zz", "7.77", 101),
    (9, 2.0, "a", "8.00", 1),  # duplicate id, duplicate (k, s)
]


def arrow_rows(nan_as_null=False):
    columns = list(zip(*ROWS))
    x = [None if (nan_as_null and v is not None and math.isnan(v)) else v for v in columns[1]]
    return pa.table({"id": pa.array(columns[0], pa.int64()), "x": pa.array(x, pa.float64()),
                     "s": pa.array(columns[2], pa.string()), "n": pa.array(columns[3], pa.string()),
                     "k": pa.array(columns[4], pa.int64())})


def run_cli(*args, env=None):
    return subprocess.run([str(require_binary()), *map(str, args)], capture_output=True, text=True, timeout=120,
                          env=env)


def validate(rules, source, tmp_path, tag, extra=()):
    quarantine, clean = tmp_path / f"{tag}.quarantine.csv", tmp_path / f"{tag}.clean.csv"
    done = run_cli("validate", "-r", rules, source, "--format", "json", "--no-store", "--threads", 2,
                   "--quarantine", quarantine, "--clean", clean, *extra)
    assert done.returncode in (0, 1), done.stderr
    report = json.loads(done.stdout)
    return report, list(csv.reader(quarantine.open())), list(csv.reader(clean.open()))


def verdicts(report):
    return {key: report[key] for key in ("rows", "bad_rows", "passed", "schema_errors", "checks", "table_checks")
            if key in report}


@pytest.fixture
def rules(tmp_path):
    path = tmp_path / "rules.yaml"
    path.write_text(RULES)
    return path


def sqlite_ingest(path, name, rows):
    """Creates table `name` in the SQLite file `path` from an Arrow table; its URI."""
    import adbc_driver_sqlite.dbapi as dbapi
    with dbapi.connect(str(path)) as connection:
        with connection.cursor() as cursor:
            cursor.adbc_ingest(name, rows, mode="create")
        connection.commit()
    return f"sqlite://{path}?table={name}"


def sqlite_table(tmp_path):
    return sqlite_ingest(tmp_path / "rows.db", "rows", arrow_rows()), arrow_rows(nan_as_null=True)


def duckdb_table(tmp_path):
    import duckdb
    path = tmp_path / "rows.duckdb"
    rows = arrow_rows()  # noqa: F841  (read by DuckDB by name)
    connection = duckdb.connect(str(path))
    connection.execute("CREATE TABLE rows AS SELECT id, x, s, CAST(n AS DECIMAL(12, 2)) AS n, k FROM rows")
    connection.close()
    return f"duckdb://{path}?table=rows", arrow_rows()


def require_pg():
    """The test PostgreSQL's URI; fails (or skips with GRIFFIN_NO_PG=1) without one."""
    if not PG_URI:
        if os.environ.get("GRIFFIN_NO_PG") == "1":
            pytest.skip("GRIFFIN_NO_PG=1: PostgreSQL tests explicitly turned off")
        pytest.fail("GRIFFIN_TEST_PG_URI is not set: start a server with scripts/pg_test_cluster.sh start")
    return PG_URI


def postgresql_ingest(schema, name, rows, *statements):
    """Creates schema.name in the test PostgreSQL from an Arrow table (replacing it),
    runs `statements` after, and returns the table's URI."""
    require_pg()
    import adbc_driver_postgresql.dbapi as dbapi
    with dbapi.connect(PG_URI) as connection:
        with connection.cursor() as cursor:
            cursor.execute(f"CREATE SCHEMA IF NOT EXISTS {schema}")
            cursor.execute(f"DROP TABLE IF EXISTS {schema}.{name}")
            cursor.adbc_ingest(name, rows, mode="create", db_schema_name=schema)
            for statement in statements:
                cursor.execute(statement)
        connection.commit()
    return f"{PG_URI}?table={schema}.{name}"


def postgresql_table(tmp_path):
    uri = postgresql_ingest("griffin_scan", "rows", arrow_rows(),
                            "ALTER TABLE griffin_scan.rows ALTER COLUMN n TYPE numeric USING n::numeric")
    return uri, arrow_rows()


TABLES = {"sqlite": sqlite_table, "duckdb": duckdb_table, "postgresql": postgresql_table}


@pytest.mark.parametrize("engine", sorted(TABLES))
def test_a_table_gives_the_verdicts_and_outputs_of_the_same_rows_as_a_file(engine, rules, tmp_path):
    uri, reference = TABLES[engine](tmp_path)
    parquet = tmp_path / "rows.parquet"
    pq.write_table(reference, parquet)
    from_db, db_quarantine, db_clean = validate(rules, uri, tmp_path, "db")
    from_file, file_quarantine, file_clean = validate(rules, parquet, tmp_path, "file")
    assert verdicts(from_db) == verdicts(from_file)
    assert from_db["bad_rows"] > 0 and from_db["rows"] == len(ROWS)
    assert db_quarantine == file_quarantine
    assert db_clean == file_clean
    assert len(db_quarantine) + len(db_clean) == len(ROWS) + 2  # two headers: every row lands once
    # Python reaches the same adapter through the registry.
    py = griffin.Validator.from_yaml(str(rules)).validate(uri)
    assert (py.rows, py.bad_rows) == (from_file["rows"], from_file["bad_rows"])


def test_a_postgresql_table_read_over_several_connections_gives_the_file_report(rules, tmp_path):
    """A PostgreSQL table is read in block ranges over 2-3 connections sharing one
    snapshot (src/connectors/sql/parallel_scan.h), in ctid order: the same report,
    violations (rows in table order) and outputs as the same rows as a file, in scan
    and pushdown modes and with a where, as read over one connection."""
    base = arrow_rows()
    copies = 2000  # 20,000 rows, ~200 blocks: 4-block ranges make ~50 range queries
    ids = pa.array([(v if v in (INT_MIN, INT_MAX) else v + 100 * (c % 50)) if v is not None else None
                    for c in range(copies) for v in base["id"].to_pylist()], pa.int64())
    rows = pa.concat_tables([base] * copies).set_column(0, "id", ids)
    uri = postgresql_ingest("griffin_scan", "many", rows,
                            "ALTER TABLE griffin_scan.many ALTER COLUMN n TYPE numeric USING n::numeric")
    parquet = tmp_path / "many.parquet"
    pq.write_table(rows, parquet)
    from_file, file_quarantine, file_clean = validate(rules, parquet, tmp_path, "file")
    assert from_file["bad_rows"] > 0 and len(from_file["violations"]) > 10
    for readers in ("1", "2", "3"):
        env = dict(os.environ, GRIFFIN_SQL_READERS=readers, GRIFFIN_SQL_RANGE_BLOCKS="4")
        quarantine, clean = tmp_path / f"q{readers}.csv", tmp_path / f"c{readers}.csv"
        done = run_cli("validate", "-r", rules, uri, "--format", "json", "--no-store", "--threads", 2,
                       "--quarantine", quarantine, "--clean", clean, env=env)
        assert done.returncode == 1, done.stderr
        report = json.loads(done.stdout)
        assert verdicts(report) == verdicts(from_file), readers
        assert report["violations"] == from_file["violations"], readers
        assert list(csv.reader(quarantine.open())) == file_quarantine
        assert list(csv.reader(clean.open())) == file_clean
        for mode, places in (("pushdown", {"engine"}), ("pushdown-split", {"engine", "database"})):
            # pushdown: the planner's one scan; pushdown-split: the database's samples, which stop at
            # their first violations in row order (docs/sql.md), and the engine for the rest.
            done = run_cli("validate", "-r", rules, uri, "--format", "json", "--no-store", "--mode", mode, env=env)
            assert done.returncode == 1, done.stderr
            pushdown = json.loads(done.stdout)
            assert {c["ran_in"] for c in pushdown["checks"]} == places
            for check in pushdown["checks"]:
                del check["ran_in"], check["ran_in_reason"]
            assert verdicts(pushdown) == verdicts(from_file), mode
            assert pushdown["violations"] == from_file["violations"], mode
        done = run_cli("validate", "-r", rules, uri, "--format", "json", "--no-store", "--where", "k > 1", env=env)
        assert done.returncode == 1, done.stderr
        assert json.loads(done.stdout)["rows"] == sum(1 for k in rows["k"].to_pylist() if k is not None and k > 1)


def test_where_and_query_are_run_by_the_database(rules, tmp_path):
    uri, reference = sqlite_table(tmp_path)
    parquet = tmp_path / "eu.parquet"
    pq.write_table(reference.filter(pa.compute.greater(reference["k"], 1)), parquet)
    from_db, _, _ = validate(rules, uri, tmp_path, "where", extra=("--where", "k > 1"))
    from_file, _, _ = validate(rules, parquet, tmp_path, "file")
    assert verdicts(from_db) == verdicts(from_file)
    database = uri.split("?")[0]
    from_query, _, _ = validate(rules, database, tmp_path, "query",
                                extra=("--query", "SELECT * FROM rows WHERE k > 1"))
    assert verdicts(from_query) == verdicts(from_file)


def test_a_column_the_rules_cannot_read_is_a_schema_error(tmp_path):
    uri, _ = sqlite_table(tmp_path)
    rules = tmp_path / "bool.yaml"
    rules.write_text("griffin: 1\ndataset: d\ncolumns:\n  x: {type: bool}\n  missing: {type: int64}\n")
    done = run_cli("validate", "-r", rules, uri, "--format", "json", "--no-store")
    assert done.returncode == 1, done.stderr
    errors = json.loads(done.stdout)["schema_errors"]
    assert {e["column"] for e in errors} == {"x", "missing"}


def wrong_inputs(tmp_path):
    uri, _ = sqlite_table(tmp_path)
    database = uri.split("?")[0]
    cases = {
        "missing table": (f"{database}?table=nope", (), "no such table: nope"),
        "hostile table name": (f"{database}?table=rows%22;%20DROP%20TABLE%20rows;--", (), "no such table"),
        "query syntax error": (database, ("--query", "SELEC id FROM rows"), "syntax error"),
        "missing file": (f"sqlite://{tmp_path}/none.db?table=rows", (), "no such database file"),
    }
    if PG_URI:
        user_at = PG_URI.index("@")
        wrong_password = PG_URI[:PG_URI.index(":", len("postgresql://")) + 1] + "wrong-s3cret" + PG_URI[user_at:]
        cases["bad credentials"] = (f"{wrong_password}?table=t", (), "password authentication failed")
        refused = PG_URI[:user_at] + "@127.0.0.1:1/griffin_test"
        cases["refused connection"] = (f"{refused}?table=t", (), "Connection refused")
    return uri, cases


def test_wrong_inputs_are_one_line_and_exit_3_without_the_password(rules, tmp_path):
    uri, cases = wrong_inputs(tmp_path)
    for name, (source, extra, expected) in cases.items():
        done = run_cli("validate", "-r", rules, source, "--no-store", *extra)
        assert done.returncode == 3, (name, done.stderr)
        assert expected in done.stderr, (name, done.stderr)
        assert done.stderr.count("\n") == 1, (name, done.stderr)
        assert "s3cret" not in done.stderr, name
        if PG_URI:
            assert PG_URI.split("@")[0].split(":")[-1] not in done.stderr, name  # the real password
    # The hostile name ran nothing: the table is whole.
    assert json.loads(run_cli("validate", "-r", rules, uri, "--format", "json", "--no-store").stdout)["rows"] == len(ROWS)


def test_a_missing_driver_library_is_exit_3_naming_the_override(rules, tmp_path):
    uri, _ = sqlite_table(tmp_path)
    env = dict(os.environ, GRIFFIN_ADBC_SQLITE_DRIVER=str(tmp_path / "libmissing.so"))
    done = run_cli("validate", "-r", rules, uri, "--no-store", env=env)
    assert done.returncode == 3
    assert "libmissing.so" in done.stderr and "GRIFFIN_ADBC_SQLITE_DRIVER" in done.stderr


@pytest.mark.parametrize("engine", ["sqlite", "postgresql"])
def test_hostile_where_and_writing_queries_change_nothing(engine, rules, tmp_path):
    uri, _ = TABLES[engine](tmp_path)
    table = "griffin_scan.rows" if engine == "postgresql" else "rows"
    database = uri.split("?")[0]
    # SQL outside the predicate language is refused before any connection (exit 2) ...
    for where in (f"1=1; DROP TABLE {table}; --", f"1=1) AS x; DROP TABLE {table}; SELECT (1",
                  "k > 1 -- comment", "k > 1 /* c */ OR 1 = 1", "k IN (SELECT 1)"):
        for mode in ("scan", "pushdown"):
            done = run_cli("validate", "-r", rules, uri, "--no-store", "--where", where, "--mode", mode)
            assert done.returncode == 2 and done.stderr.count("\n") == 1, (where, done.stderr)
            assert done.stderr.startswith("griffin: --where: at offset "), done.stderr
    # ... and hostile text inside a value is a bound value: it matches nothing and runs nothing.
    for where in (f"s = '1''; DROP TABLE {table}; --'", "s = 'x'' OR ''1''=''1'",
                  f"s IN ('a''); DELETE FROM {table}; --')"):
        for mode in ("scan", "pushdown", "pushdown-split"):
            done = run_cli("validate", "-r", rules, uri, "--no-store", "--where", where, "--mode", mode,
                           "--format", "json")
            assert done.returncode in (0, 1), (where, mode, done.stderr)
            assert json.loads(done.stdout)["rows"] == 0, (where, mode)
    attempts = [(database, ("--query", f"DELETE FROM {table} RETURNING *"))]
    for source, extra in attempts:
        done = run_cli("validate", "-r", rules, source, "--no-store", *extra)
        assert done.returncode == 3, (extra, done.stderr)
    whole = run_cli("validate", "-r", rules, uri, "--no-store", "--format", "json")
    assert json.loads(whole.stdout)["rows"] == len(ROWS)


PG_TYPES_RULES = textwrap.dedent("""\
    griffin: 1
    dataset: pg_types
    columns:
      sm: {type: int64, min: 0}
      i: {type: float64, max: 1}
      r: {type: float64, max: 1}
      b: {type: bool, not_null: true}
      d: {type: date, min: '2024-03-01'}
      ts: {type: timestamp, max: '2024-01-01T09:00:00'}
      tz: {type: timestamp, max: '2024-01-01T09:00:00Z'}
      u: {type: string, regex: 'a0.*'}
      j: {type: string, in: ['{"a": 1}']}
      ch: {type: string, length: {max: 2}}
""")


def test_what_postgresql_types_become(tmp_path):
    """docs/sources.md's table: each type gives the verdicts of its Arrow
    counterpart in a Parquet file; uuid is its canonical text, jsonb and
    char(n) their text (char padded), interval has no rules-v1 type."""
    import datetime
    import adbc_driver_postgresql.dbapi as dbapi
    with dbapi.connect(require_pg()) as connection:
        with connection.cursor() as cursor:
            cursor.execute("DROP TABLE IF EXISTS griffin_scan.types")
            cursor.execute("CREATE SCHEMA IF NOT EXISTS griffin_scan")
            cursor.execute("CREATE TABLE griffin_scan.types(sm smallint, i integer, r real, b boolean, d date, "
                           "ts timestamp, tz timestamptz, u uuid, j jsonb, ch char(3), iv interval)")
            cursor.execute("INSERT INTO griffin_scan.types VALUES (-1, 2, 0.5, true, '2024-02-29', "
                           "'2024-01-01 10:00:00', '2024-01-01 10:00:00+02', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', "
                           "'{\"a\": 1}', 'ab', '1 day'), (NULL, NULL, NULL, NULL, NULL, NULL, NULL, "
                           "'b0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '[1]', 'abc', NULL)")
        connection.commit()
    rules = tmp_path / "types.yaml"
    rules.write_text(PG_TYPES_RULES)
    utc = datetime.timezone.utc
    parquet = tmp_path / "types.parquet"
    pq.write_table(pa.table({
        "sm": pa.array([-1, None], pa.int16()), "i": pa.array([2, None], pa.int32()),
        "r": pa.array([0.5, None], pa.float32()), "b": pa.array([True, None]),
        "d": pa.array([datetime.date(2024, 2, 29), None], pa.date32()),
        "ts": pa.array([datetime.datetime(2024, 1, 1, 10), None], pa.timestamp("us")),
        "tz": pa.array([datetime.datetime(2024, 1, 1, 8, tzinfo=utc), None], pa.timestamp("us", tz="UTC")),
        "u": ["a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "b0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"],
        "j": ['{"a": 1}', "[1]"], "ch": ["ab ", "abc"]}), parquet)
    from_db, _, _ = validate(rules, f"{PG_URI}?table=griffin_scan.types", tmp_path, "db")
    from_file, _, _ = validate(rules, parquet, tmp_path, "file")
    assert verdicts(from_db) == verdicts(from_file)
    assert from_db["schema_errors"] == []
    assert {c["name"]: c["violations"] for c in from_db["checks"] if c["violations"]} == {
        "sm.min": 1, "i.max": 1, "b.not_null": 1, "d.min": 1, "ts.max": 1, "u.regex": 1, "j.in": 1, "ch.length": 2}
    interval = tmp_path / "interval.yaml"
    interval.write_text("griffin: 1\ndataset: iv\ncolumns:\n  iv: {type: string}\n")
    done = run_cli("validate", "-r", interval, f"{PG_URI}?table=griffin_scan.types", "--no-store", "--format", "json")
    assert json.loads(done.stdout)["schema_errors"][0]["column"] == "iv"
