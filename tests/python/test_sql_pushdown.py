"""--mode pushdown (issue 13, docs/sql.md): the report equals scan mode's and the
report `griffin validate` gives for the same rows as a Parquet file, for every
rules-v1 check, on PostgreSQL (GRIFFIN_TEST_PG_URI, scripts/pg_test_cluster.sh),
SQLite and DuckDB files.

"The same report" is the whole JSON report (checks, counts, observed values,
bad_rows, quality_score, verdict, listed violations with their rows, values and
messages) less what differs per run (run id, input names, timing, threads) and
pushdown's `ran_in` / `ran_in_reason`, which say where each check ran.

The rows hold NULLs, NaN, +-inf, -0.0, unicode (combining marks, emoji), empty
strings, int64 and date boundaries and duplicates. What a database stores
differently is applied to the reference file explicitly (docs/sources.md):
SQLite stores NaN as NULL (and -0.0 as 0.0) and has no date or boolean type (dates are ISO text
there, and the rules have no bool column for it); NUMERIC/DECIMAL arrive as text.
"""
import datetime
import json
import math
import os
import subprocess
import textwrap

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from griffin_cli import require_binary
from test_sql_sources import require_pg

PG_URI = os.environ.get("GRIFFIN_TEST_PG_URI")
INT_MIN, INT_MAX = -2**63, 2**63 - 1
NAN, INF = float("nan"), float("inf")
D = datetime.date

# id, x, s, d, b, n (decimal text), k
ROWS = [
    (1, 1.5, "a", D(2024, 1, 1), True, "12.50", 1),
    (2, -3.0, "b", D(1970, 1, 1), False, "0.00", 1),
    (3, NAN, "é", D(2024, 2, 29), True, "99.50", 2),
    (4, INF, "ü ü", D(9999, 12, 31), None, "100.25", 2),
    (5, -INF, "", D(1, 1, 1), True, "-0.01", 3),
    (6, None, None, None, None, None, None),
    (INT_MAX, 1000.0, "b", D(2000, 1, 1), False, "1.00", 3),
    (INT_MIN, -1000.5, "a", D(1999, 12, 31), True, "5.00", 100),
    (9, -0.0, "zz", D(2024, 1, 1), True, "7.77", 101),
    (9, 2.0, "a", D(2024, 1, 2), True, "8.00", 1),      # duplicate id, duplicate (k, s)
    (11, 0.0, "e\u0301", D(2030, 6, 1), False, "3.00", 4),  # decomposed é: 2 code points
    (12, 5e-324, "😀", D(2024, 1, 1), True, "2.00", 5),
    (13, -1e308, "👍🏽x", D(2023, 12, 31), True, "4.00", 6),
    (14, 3.25, " ", D(2024, 1, 1), False, "6.00", 7),
    (None, 7.0, "日本語", D(2024, 3, 1), True, "9.00", 8),
    (16, 1.5, "a", None, True, "10.00", 1),           # duplicate (k, s) again
]

COLUMNS = """\
  id: {type: int64, not_null: true, unique: true, min: -9223372036854775808, gt: -100, lt: 100, not_in: [13]}
  x: {type: float64, not_null: {value: true, severity: warn}, finite: true, min: -1000, max: 1000,
      gt: -999.5, lt: 999, in: [1.5, -3.0, 0.0, 2.0, 7.0], not_in: [3.25]}
  s: {type: string, not_null: true, in: ['a', 'b', 'é', 'ü ü', 'zz'], not_in: ['😀'],
      regex: '^[a-zé ü]+$', contains: {pattern: 'a', mostly: 0.2}, length: {min: 1, max: 2}, unique: {value: true, severity: warn}}
  d: {type: date, not_null: true, min: '1970-01-01', max: '2030-01-01', gt: '1969-12-31', lt: '2100-01-01',
      in: ['2024-01-01', '2024-01-02'], unique: {value: true, severity: warn}}
  n: {type: float64, min: 0, max: 99.5}
  k: {type: int64, max: 100, in: [1, 2, 3, 4, 5, 6, 7, 8, 100], unique: {value: true, severity: warn}}
"""
BOOL_COLUMN = "  b: {type: bool, not_null: true, in: [true], unique: {value: true, severity: warn}}\n"
ROW_CHECKS = """\
rows:
  - name: positive_or_b
    expr: "x > 0 or s = 'b'"
  - name: one_k_per_s
    unique: [k, s]
"""
TABLE_CHECKS = """\
table:
  - row_count: {min: 20}
  - null_fraction: {column: s, max: 0.05}
  - null_fraction: {column: d, max: 0.5}
  - distinct_count: {column: s, min: 3}
  - distinct_count: {column: k, max: 5}
  - distinct_count: {column: d}
  - sum: {column: k, max: 100}
  - mean: {column: k, min: 0, max: 50}
  - mean: {column: x, min: -50, max: 50}
  - sum: {column: id}
  - stddev: {column: x, max: 10}
  - quantile: {column: k, q: 0.5, max: 3}
  - min: {column: id, min: 0}
  - max: {column: x, max: 100}
  - min: {column: x}
  - min: {column: d, min: '2000-01-01'}
  - max: {column: d}
  - max: {column: k, max: 1000}
"""


def rules_text(engine):
    bool_column = "" if engine == "sqlite" else BOOL_COLUMN
    return ("griffin: 1\ndataset: sql_pushdown\ncolumns:\n" + COLUMNS + bool_column + ROW_CHECKS + TABLE_CHECKS)


def reference(engine):
    """The rows as the engine reads them from `engine`, as an Arrow table."""
    columns = list(zip(*ROWS))
    x = [None if engine == "sqlite" and v is not None and math.isnan(v) else v for v in columns[1]]
    table = {"id": pa.array(columns[0], pa.int64()), "x": pa.array(x, pa.float64()),
             "s": pa.array(columns[2], pa.string())}
    if engine == "sqlite":
        table["d"] = pa.array([v.isoformat() if v else None for v in columns[3]], pa.string())
    else:
        table["d"] = pa.array(columns[3], pa.date32())
        table["b"] = pa.array(columns[4], pa.bool_())
    table["n"] = pa.array(columns[5], pa.string())
    table["k"] = pa.array(columns[6], pa.int64())
    return pa.table(table)


def sqlite_table(tmp_path, rows):
    import adbc_driver_sqlite.dbapi as dbapi
    path = tmp_path / "rows.db"
    path.unlink(missing_ok=True)
    with dbapi.connect(str(path)) as connection:
        with connection.cursor() as cursor:
            cursor.execute("CREATE TABLE rows(id INTEGER, x REAL, s TEXT, d TEXT, n TEXT, k INTEGER)")
            if rows.num_rows:
                cursor.adbc_ingest("rows", rows, mode="append")
        connection.commit()
    return f"sqlite://{path}?table=rows"


def duckdb_table(tmp_path, rows):
    import duckdb
    path = tmp_path / "rows.duckdb"
    path.unlink(missing_ok=True)
    connection = duckdb.connect(str(path))
    connection.register("incoming", rows)
    numeric = ", ".join(f"CAST({c} AS DECIMAL(12, 2)) AS {c}" if c == "n" else c for c in rows.column_names)
    connection.execute(f"CREATE TABLE rows AS SELECT {numeric} FROM incoming")
    connection.close()
    return f"duckdb://{path}?table=rows"


def postgresql_table(tmp_path, rows, table="rows"):
    import adbc_driver_postgresql.dbapi as dbapi
    with dbapi.connect(require_pg()) as connection:
        with connection.cursor() as cursor:
            cursor.execute("CREATE SCHEMA IF NOT EXISTS griffin_pushdown")
            cursor.execute(f"DROP TABLE IF EXISTS griffin_pushdown.{table}")
            cursor.adbc_ingest(table, rows, mode="create", db_schema_name="griffin_pushdown")
            if "n" in rows.column_names:
                cursor.execute(f"ALTER TABLE griffin_pushdown.{table} ALTER COLUMN n TYPE numeric USING n::numeric")
        connection.commit()
    return f"{PG_URI}?table=griffin_pushdown.{table}"


TABLES = {"sqlite": sqlite_table, "duckdb": duckdb_table, "postgresql": postgresql_table}


def run_cli(*args):
    return subprocess.run([str(require_binary()), *map(str, args)], capture_output=True, text=True, timeout=300)


def report(rules, source, *extra):
    done = run_cli("validate", "-r", rules, source, "--format", "json", "--no-store", "--threads", 2,
                   "--max-violations", 3, *extra)
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)


def comparable(out):
    out = dict(out)
    for key in ("run_id", "inputs", "elapsed_s", "threads", "input_bytes", "griffin_version"):
        out.pop(key, None)
    out["checks"] = [{k: v for k, v in c.items() if k not in ("ran_in", "ran_in_reason")} for c in out["checks"]]
    return out


@pytest.mark.parametrize("engine", sorted(TABLES))
def test_every_check_gives_the_scan_and_file_report_in_pushdown(engine, tmp_path):
    rows = reference(engine)
    uri = TABLES[engine](tmp_path, rows if engine == "sqlite" else reference("duckdb"))
    rules = tmp_path / "rules.yaml"
    rules.write_text(rules_text(engine))
    parquet = tmp_path / "rows.parquet"
    pq.write_table(rows, parquet)
    from_file = report(rules, parquet)
    scan = report(rules, uri)
    pushdown = report(rules, uri, "--mode", "pushdown-split")
    planned = report(rules, uri, "--mode", "pushdown")
    assert comparable(scan) == comparable(from_file)
    assert comparable(pushdown) == comparable(from_file)
    assert comparable(planned) == comparable(from_file)
    assert from_file["bad_rows"] > 0 and from_file["violations"] and from_file["schema_errors"] == []
    # The planner: a row expression needs every row in the engine, so the whole suite scans once.
    assert {c["ran_in"] for c in planned["checks"]} == {"engine"}
    assert all("planned as one scan: " in c["ran_in_reason"] for c in planned["checks"])
    # Where each check ran (docs/sql.md); a table check is named like a column check ("k.max").
    places = {(c["name"], "observed" in c): (c["ran_in"], c["ran_in_reason"]) for c in pushdown["checks"]}
    assert all(k not in c for c in scan["checks"] for k in ("ran_in", "ran_in_reason"))
    assert places[("id.min", False)][0] == "database" and places[("k.max", True)][0] == "database"
    assert places[("positive_or_b", False)] == ("engine", "row expressions are evaluated by the engine")
    assert places[("n.min", False)][0] == "engine"  # NUMERIC / DECIMAL / text: parsed by the engine
    assert places[("s.regex", False)][0] == ("database" if engine == "duckdb" else "engine")
    assert places[("k.sum", True)][0] == ("engine" if engine == "sqlite" else "database")
    assert places[("x.stddev", True)][0] == "engine"


@pytest.mark.parametrize("engine", sorted(TABLES))
def test_filters_queries_and_null_spellings_as_in_scan_mode(engine, tmp_path):
    uri = TABLES[engine](tmp_path, reference(engine) if engine == "sqlite" else reference("duckdb"))
    rules = tmp_path / "rules.yaml"
    rules.write_text(rules_text(engine).replace("dataset: sql_pushdown\n",
                                                "dataset: sql_pushdown\nsource: {null_values: ['', 'zz', 'NA']}\n"))
    table = "griffin_pushdown.rows" if engine == "postgresql" else "rows"
    database = uri.split("?")[0]
    for source, extra in [(uri, ("--where", "k > 1 OR k IS NULL")),
                          (database, ("--query", f"SELECT * FROM {table} WHERE id < 100 ORDER BY id DESC"))]:
        scan = report(rules, source, *extra)
        for mode in ("pushdown-split", "pushdown"):
            pushdown = report(rules, source, "--mode", mode, *extra)
            assert comparable(pushdown) == comparable(scan), (mode, extra)
        assert 0 < scan["rows"] < len(ROWS)


def test_source_mode_in_the_rule_file_and_refusals(tmp_path):
    uri = sqlite_table(tmp_path, reference("sqlite"))
    rules = tmp_path / "rules.yaml"
    rules.write_text(rules_text("sqlite").replace("dataset: sql_pushdown\n",
                                                  "dataset: sql_pushdown\nsource: {mode: pushdown-split}\n"))
    by_file = report(rules, uri)
    assert {c["ran_in"] for c in by_file["checks"]} == {"database", "engine"}
    assert {c["ran_in"] for c in report(rules, uri, "--mode", "pushdown")["checks"]} == {"engine"}
    assert "ran_in" not in report(rules, uri, "--mode", "scan")["checks"][0]
    parquet = tmp_path / "rows.parquet"
    pq.write_table(reference("sqlite"), parquet)
    for args, expected in [((parquet,), "one database input"),
                           ((uri, "--quarantine", tmp_path / "q.csv"), "--clean and --quarantine need --mode scan"),
                           ((uri, "--mode", "fast"), "expected scan, pushdown or pushdown-split")]:
        done = run_cli("validate", "-r", rules, *args, "--no-store")
        assert done.returncode == 2, done.stderr
        assert expected in done.stderr and done.stderr.count("\n") == 1, done.stderr


def test_wrong_inputs_are_one_line_and_exit_3(tmp_path):
    uri = sqlite_table(tmp_path, reference("sqlite"))
    rules = tmp_path / "rules.yaml"
    rules.write_text(rules_text("sqlite"))
    database = uri.split("?")[0]
    cases = [((f"{database}?table=nope",), "no such table"),
             ((f"{database}?table=rows%22;%20DROP%20TABLE%20rows;--",), "no such table"),
             ((database, "--query", "SELEC id FROM rows"), "syntax error"),
             ((database, "--query", "DELETE FROM rows RETURNING *"), "")]
    if PG_URI:
        user_at = PG_URI.index("@")
        refused = PG_URI[:user_at] + "@127.0.0.1:1/griffin_test"
        cases.append(((f"{refused}?table=t",), "Connection refused"))
        cases.append(((f"{PG_URI}?table=griffin_pushdown.nope",), "does not exist"))
    for args, expected in cases:
        done = run_cli("validate", "-r", rules, *args, "--no-store", "--mode", "pushdown")
        assert done.returncode == 3, (args, done.stderr)
        assert expected in done.stderr and done.stderr.count("\n") == 1, (args, done.stderr)
    assert report(rules, uri, "--mode", "pushdown")["rows"] == len(ROWS)  # nothing was dropped or deleted


def test_a_column_of_another_type_is_the_same_schema_error(tmp_path):
    uri = duckdb_table(tmp_path, reference("duckdb"))
    rules = tmp_path / "rules.yaml"
    rules.write_text("griffin: 1\ndataset: d\ncolumns:\n  b: {type: int64, min: 0}\n  gone: {type: string}\n"
                     "  id: {type: int64, min: 0}\n")
    scan, pushdown = report(rules, uri), report(rules, uri, "--mode", "pushdown-split")
    assert comparable(pushdown) == comparable(scan)
    assert comparable(report(rules, uri, "--mode", "pushdown")) == comparable(scan)
    assert {e["column"] for e in pushdown["schema_errors"]} == {"b", "gone"}
    assert pushdown["quality_score"] == 0 and pushdown["bad_rows"] == len(ROWS)


# A property test: random tables and rule files, pushdown = scan.
floats = st.one_of(st.floats(-100, 100, allow_nan=False, width=64), st.just(NAN), st.just(INF), st.just(-INF),
                   st.just(-0.0), st.none())
ints = st.one_of(st.integers(-50, 50), st.just(INT_MAX), st.just(INT_MIN), st.none())
texts = st.one_of(st.sampled_from(["a", "b", "é", "", " ", "ü ü", "zz", "A", "😀", "e\u0301"]), st.none())


@st.composite
def tables(draw):
    rows = draw(st.integers(0, 30))
    return {"i": draw(st.lists(ints, min_size=rows, max_size=rows)),
            "f": draw(st.lists(floats, min_size=rows, max_size=rows)),
            "s": draw(st.lists(texts, min_size=rows, max_size=rows))}


def options(draw, choices):
    return ", ".join(draw(st.lists(st.sampled_from(choices), max_size=3, unique=True)))


@st.composite
def rule_files(draw):
    lines = ["griffin: 1", "dataset: prop", "columns:"]
    lines.append("  i: {type: int64, " + options(draw, [
        "not_null: true", "unique: true", "min: -10", "max: {value: 10, severity: warn}", "gt: -50", "lt: 50",
        "in: [1, 2, 3]", "not_in: [0]"]) + "}")
    lines.append("  f: {type: float64, " + options(draw, [
        "finite: true", "min: 0", "max: {value: 50.5, mostly: 0.5}", "unique: true", "not_null: true",
        "gt: -1.5", "lt: 99", "in: [0.0, 1.5]", "not_in: [-0.0]"]) + "}")
    lines.append("  s: {type: string, " + options(draw, [
        "in: ['a', 'b']", "regex: '^[a-z]+$'", "contains: 'a'", "unique: true", "not_null: true",
        "length: {min: 1, max: 2}", "not_in: ['zz', '😀']"]) + "}")
    if draw(st.booleans()):
        lines += ["rows:", "  - name: r1", "    " + draw(st.sampled_from(
            ['expr: "i > 0 or f < 0"', "unique: [i, s]", "unique: [s, i]\n    severity: warn"]))]
    table = draw(st.lists(st.sampled_from([
        "row_count: {min: 5}", "mean: {column: f, max: 10}", "mean: {column: i, max: 10}", "sum: {column: i}",
        "null_fraction: {column: s, max: 0.2}", "distinct_count: {column: s, min: 2}", "min: {column: f}",
        "max: {column: i, max: 40}", "min: {column: i, min: -20}", "stddev: {column: f}"]), max_size=4, unique=True))
    if table:
        lines += ["table:"] + ["  - " + t for t in table]
    if draw(st.booleans()):
        lines.insert(2, "source: {null_values: ['', 'zz']}")
    return "\n".join(lines) + "\n"


def arrow_table(columns, nan_as_null):
    """The rows; for SQLite (nan_as_null) as it stores them: NaN as NULL, -0.0 as 0.0."""
    f = [None if nan_as_null and v is not None and math.isnan(v) else v for v in columns["f"]]
    f = [0.0 if nan_as_null and v == 0 else v for v in f]
    return pa.table({"i": pa.array(columns["i"], pa.int64()), "f": pa.array(f, pa.float64()),
                     "s": pa.array(columns["s"], pa.string())})


@settings(max_examples=int(os.environ.get("GRIFFIN_PUSHDOWN_EXAMPLES", "30")), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(columns=tables(), rules_text=rule_files(),
       engine=st.sampled_from(["sqlite", "duckdb", "postgresql"] if PG_URI else ["sqlite", "duckdb"]))
def test_random_rules_and_tables_give_the_scan_report(tmp_path, columns, rules_text, engine):
    rows = arrow_table(columns, nan_as_null=engine == "sqlite")
    rules = tmp_path / "rules.yaml"
    rules.write_text(rules_text)
    if engine == "sqlite":
        import adbc_driver_sqlite.dbapi as dbapi
        database = tmp_path / "prop.db"
        database.unlink(missing_ok=True)
        with dbapi.connect(str(database)) as connection:
            with connection.cursor() as cursor:
                cursor.execute("CREATE TABLE t(i INTEGER, f REAL, s TEXT)")
                if rows.num_rows:
                    cursor.adbc_ingest("t", rows, mode="append")
            connection.commit()
        uri = f"sqlite://{database}?table=t"
    elif engine == "duckdb":
        uri = duckdb_table(tmp_path, rows)
    else:
        uri = postgresql_table(tmp_path, rows, table="prop")
    scan = comparable(report(rules, uri))
    assert comparable(report(rules, uri, "--mode", "pushdown-split")) == scan
    assert comparable(report(rules, uri, "--mode", "pushdown")) == scan
    # ... and both equal griffin validate on the same rows as a Parquet file.
    parquet = tmp_path / "rows.parquet"
    pq.write_table(rows, parquet)
    assert comparable(report(rules, parquet)) == scan



# Rule values are SQL literals the dialect spells (docs/sql.md "Safety"): a
# value holding quotes, backslashes and statements is a value, never SQL, also
# on a PostgreSQL session with standard_conforming_strings off (where a plain
# '...' literal would take \' as an escaped quote).
HOSTILE_VALUES = ["it's", "a\\'b", "x'); DROP TABLE hostile; --", "\\", "c\\\\'; DELETE FROM hostile; --"]


def hostile_table(engine, tmp_path, rows):
    if engine == "sqlite":
        import adbc_driver_sqlite.dbapi as dbapi
        path = tmp_path / "hostile.db"
        with dbapi.connect(str(path)) as connection:
            with connection.cursor() as cursor:
                cursor.execute("CREATE TABLE hostile(id INTEGER, s TEXT)")
                cursor.adbc_ingest("hostile", rows, mode="append")
            connection.commit()
        return f"sqlite://{path}?table=hostile"
    if engine == "duckdb":
        return duckdb_table(tmp_path, rows)
    return postgresql_table(tmp_path, rows, table="hostile")


@pytest.mark.parametrize("engine", sorted(TABLES))
def test_hostile_rule_values_are_values_never_sql(engine, tmp_path, monkeypatch):
    values = HOSTILE_VALUES + ["plain", None]
    rows = pa.table({"id": pa.array(range(len(values)), pa.int64()), "s": pa.array(values, pa.string())})
    uri = hostile_table(engine, tmp_path, rows)
    quoted = ", ".join(json.dumps(v) for v in HOSTILE_VALUES[:3])
    rules = tmp_path / "rules.yaml"
    rules.write_text("griffin: 1\ndataset: hostile\ncolumns:\n  id: {type: int64}\n"
                     f"  s: {{type: string, in: [{quoted}, 'plain'], not_in: [{json.dumps(HOSTILE_VALUES[4])}],\n"
                     "      regex: \"[a-z]+'[a-z]\", contains: \"'; DELETE FROM hostile\"}\n")
    parquet = tmp_path / "hostile.parquet"
    pq.write_table(rows, parquet)
    from_file = report(rules, parquet)
    # Each hostile value is judged as the value it is (6 not null): in fails "\\" and the
    # DELETE value, not_in the DELETE value, the regex matches only it's, contains only DELETE.
    assert {c["name"]: c["violations"] for c in from_file["checks"] if c["name"].startswith("s.")} == {
        "s.type": 0, "s.in": 2, "s.not_in": 1, "s.regex": 5, "s.contains": 5}
    if engine == "postgresql":
        monkeypatch.setenv("PGOPTIONS", "-c standard_conforming_strings=off")
    for mode in ("pushdown-split", "pushdown"):
        pushdown = report(rules, uri, "--mode", mode)
        assert comparable(pushdown) == comparable(from_file), mode
    split = report(rules, uri, "--mode", "pushdown-split")
    assert {c["name"]: c["ran_in"] for c in split["checks"]}["s.in"] == "database"
    assert report(rules, uri)["rows"] == len(values)  # the table is whole
