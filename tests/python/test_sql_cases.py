"""The SQL compiler's declarative cases (tests/sql_cases/*.yaml, docs/sql.md):
each case is a rule file, a table (column types and rows), the script
`griffin sql` prints per dialect, and the counts each check must have.

For every case: the printed script is the expected one word for word, and on
SQLite and DuckDB files (and PostgreSQL with GRIFFIN_TEST_PG_URI) the counts of
`griffin validate --mode pushdown` are the expected counts and its report is
scan mode's. GRIFFIN_UPDATE_SQL_CASES=1 rewrites the expected scripts (review
the diff).

Case format:
  description: what it shows
  rules: |            a rule file (rules-v1)
  schema: {column: int64 | float64 | string | bool | date}
  rows: [[...], ...]  in schema order (null, .nan, .inf allowed)
  engines: [sqlite, duckdb, postgresql]   where to run it (default: all three)
  sql: {dialect: script}   what `griffin sql --dialect D --table t` prints
  counts: {check name: [evaluated, violations]} (row-level checks) or observed (table checks)
"""
import datetime
import json
import os
import pathlib
import subprocess

import pyarrow as pa
import pytest
import yaml

from griffin_cli import require_binary

CASES = pathlib.Path(__file__).resolve().parent.parent / "sql_cases"
PG_URI = os.environ.get("GRIFFIN_TEST_PG_URI")
TYPES = {"int64": pa.int64(), "float64": pa.float64(), "string": pa.string(), "bool": pa.bool_(), "date": pa.date32()}
SQLITE_TYPES = {"int64": "INTEGER", "float64": "REAL", "string": "TEXT", "bool": "INTEGER", "date": "TEXT"}


def run_cli(*args):
    return subprocess.run([str(require_binary()), *map(str, args)], capture_output=True, text=True, timeout=120)


class _LiteralDumper(yaml.SafeDumper):
    """Multi-line strings as | blocks, so the expected SQL reads as SQL."""


_LiteralDumper.add_representer(str, lambda dumper, text: dumper.represent_scalar(
    "tag:yaml.org,2002:str", text, style="|" if "\n" in text else None))


def load(path):
    return yaml.safe_load(path.read_text())


def arrow_rows(case, engine):
    names = list(case["schema"])
    columns = list(zip(*case["rows"])) if case["rows"] else [[] for _ in names]
    arrays = {}
    for name, values in zip(names, columns):
        kind = case["schema"][name]
        values = list(values)
        if kind == "date":
            values = [datetime.date.fromisoformat(str(v)) if v is not None else None for v in values]
            if engine == "sqlite":
                arrays[name] = pa.array([v.isoformat() if v else None for v in values], pa.string())
                continue
        if kind == "float64" and engine == "sqlite":
            values = [None if v is not None and v != v else v for v in values]  # SQLite stores NaN as NULL
        arrays[name] = pa.array(values, TYPES[kind])
    return pa.table(arrays)


def table_uri(case, engine, tmp_path):
    rows = arrow_rows(case, engine)
    if engine == "sqlite":
        import adbc_driver_sqlite.dbapi as dbapi
        path = tmp_path / "case.db"
        with dbapi.connect(str(path)) as connection:
            with connection.cursor() as cursor:
                cursor.execute("CREATE TABLE t(" + ", ".join(f'"{n}" {SQLITE_TYPES[k]}'
                                                            for n, k in case["schema"].items()) + ")")
                if rows.num_rows:
                    cursor.adbc_ingest("t", rows, mode="append")
            connection.commit()
        return f"sqlite://{path}?table=t"
    if engine == "duckdb":
        import duckdb
        path = tmp_path / "case.duckdb"
        connection = duckdb.connect(str(path))
        connection.register("incoming", rows)
        connection.execute("CREATE TABLE t AS SELECT * FROM incoming")
        connection.close()
        return f"duckdb://{path}?table=t"
    import adbc_driver_postgresql.dbapi as dbapi
    with dbapi.connect(PG_URI) as connection:
        with connection.cursor() as cursor:
            cursor.execute("CREATE SCHEMA IF NOT EXISTS griffin_cases")
            cursor.execute("DROP TABLE IF EXISTS griffin_cases.t")
            cursor.adbc_ingest("t", rows, mode="create", db_schema_name="griffin_cases")
        connection.commit()
    return f"{PG_URI}?table=griffin_cases.t"


def validate(rules, uri, *extra):
    done = run_cli("validate", "-r", rules, uri, "--format", "json", "--no-store", "--threads", 2, *extra)
    assert done.returncode in (0, 1), done.stderr
    out = json.loads(done.stdout)
    for key in ("run_id", "inputs", "elapsed_s", "threads", "input_bytes"):
        out.pop(key, None)
    return out


def counts(report):
    out = {}
    for check in report["checks"]:
        key = check["name"] + (" (table)" if "observed" in check else "")
        out[key] = check["observed"] if "observed" in check else [check["evaluated"], check["violations"]]
    return out


def expected_counts(case):
    return {(name if isinstance(value, list) else name + " (table)"): value for name, value in case["counts"].items()}


CASE_FILES = sorted(CASES.glob("*.yaml"))


@pytest.mark.parametrize("path", CASE_FILES, ids=[p.stem for p in CASE_FILES])
def test_the_printed_sql_is_the_expected_script(path, tmp_path):
    case = load(path)
    rules = tmp_path / "rules.yaml"
    rules.write_text(case["rules"])
    printed = {}
    for dialect in ("postgresql", "sqlite", "duckdb"):
        done = run_cli("sql", "-r", rules, "--dialect", dialect, "--table", "t")
        assert done.returncode == 0, done.stderr
        printed[dialect] = done.stdout
    if os.environ.get("GRIFFIN_UPDATE_SQL_CASES") == "1":
        text = path.read_text()
        head = text[:text.index("\nsql:")] if "\nsql:" in text else text.rstrip("\n")
        body = yaml.dump({"sql": printed}, Dumper=_LiteralDumper, allow_unicode=True, sort_keys=False, width=10000)
        path.write_text(head + "\n" + body)
        case = load(path)
    for dialect, script in printed.items():
        assert script == case["sql"][dialect], dialect


# Each case runs on the engines its `engines:` names (all three by default): a case
# that an engine cannot hold is not collected there, rather than collected and skipped.
ENGINE_CASES = [(path, engine) for path in CASE_FILES
                for engine in load(path).get("engines", ["sqlite", "duckdb", "postgresql"])]


@pytest.mark.parametrize("path,engine", ENGINE_CASES, ids=[f"{p.stem}-{e}" for p, e in ENGINE_CASES])
def test_pushdown_counts_are_the_expected_and_scan_modes(path, engine, tmp_path):
    case = load(path)
    if engine == "postgresql" and not PG_URI:
        if os.environ.get("GRIFFIN_NO_PG") == "1":
            pytest.skip("GRIFFIN_NO_PG=1: PostgreSQL tests explicitly turned off")
        pytest.fail("GRIFFIN_TEST_PG_URI is not set: start a server with scripts/pg_test_cluster.sh start")
    rules = tmp_path / "rules.yaml"
    rules.write_text(case["rules"])
    uri = table_uri(case, engine, tmp_path)
    scan = validate(rules, uri)
    # pushdown-split runs the compiled SQL whatever falls back; pushdown may plan one scan instead.
    for mode in ("pushdown-split", "pushdown"):
        pushdown = validate(rules, uri, "--mode", mode)
        assert counts(pushdown) == expected_counts(case), mode
        for check in pushdown["checks"]:
            check.pop("ran_in")
            check.pop("ran_in_reason")
        assert pushdown == scan, mode
