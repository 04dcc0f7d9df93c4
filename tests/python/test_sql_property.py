"""Property test (issue 13): for random tables and random rule files, a SQLite
or DuckDB table gives the verdicts `griffin validate` gives for the same rows
as a Parquet file (SQLite stores NaN as NULL: the file holds NULL there too)."""
import json
import math
import subprocess

import pyarrow as pa
import pyarrow.parquet as pq
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from griffin_cli import require_binary

floats = st.one_of(st.floats(-100, 100, allow_nan=False, width=64), st.just(float("nan")),
                   st.just(float("inf")), st.just(float("-inf")), st.none())
ints = st.one_of(st.integers(-50, 50), st.just(2**63 - 1), st.just(-2**63), st.none())
texts = st.one_of(st.sampled_from(["a", "b", "é", "", " ", "ü ü", "zz", "A"]), st.none())


@st.composite
def tables(draw):
    rows = draw(st.integers(0, 40))
    return {"i": draw(st.lists(ints, min_size=rows, max_size=rows)),
            "f": draw(st.lists(floats, min_size=rows, max_size=rows)),
            "s": draw(st.lists(texts, min_size=rows, max_size=rows))}


@st.composite
def rule_files(draw):
    lines = ["griffin: 1", "dataset: prop", "columns:"]
    lines.append("  i: {type: int64" + draw(st.sampled_from(["", ", not_null: true", ", unique: true",
                                                                ", min: -10", ", max: 10, not_null: true",
                                                                ", in: [1, 2, 3]"])) + "}")
    lines.append("  f: {type: float64" + draw(st.sampled_from(["", ", finite: true", ", min: 0", ", max: 50.5",
                                                                  ", unique: true", ", not_null: true"])) + "}")
    lines.append("  s: {type: string" + draw(st.sampled_from(["", ", in: ['a', 'b']", ", regex: '^[a-z]+$'",
                                                                 ", unique: true", ", not_null: true"])) + "}")
    if draw(st.booleans()):
        lines += ["rows:", "  - name: r1", "    expr: " + draw(st.sampled_from(
            ['"i > 0 or f < 0"', '"s = \'a\' or i is null"', '"f * 2 < 100"']))]
    if draw(st.booleans()):
        lines += ["table:", "  - row_count: {min: 5}", "  - mean: {column: f, max: 10}"]
    return "\n".join(lines) + "\n"


def report(rules, source):
    done = subprocess.run([str(require_binary()), "validate", "-r", str(rules), str(source), "--format", "json",
                           "--no-store", "--threads", "2"], capture_output=True, text=True, timeout=120)
    assert done.returncode in (0, 1), done.stderr
    out = json.loads(done.stdout)
    return {k: out.get(k) for k in ("rows", "bad_rows", "passed", "schema_errors", "checks", "table_checks")}


def arrow_table(columns, nan_as_null):
    f = [None if nan_as_null and v is not None and math.isnan(v) else v for v in columns["f"]]
    return pa.table({"i": pa.array(columns["i"], pa.int64()), "f": pa.array(f, pa.float64()),
                     "s": pa.array(columns["s"], pa.string())})


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(columns=tables(), rules_text=rule_files(), engine=st.sampled_from(["sqlite", "duckdb"]))
def test_a_random_table_gives_the_verdicts_of_the_same_rows_as_a_file(tmp_path, columns, rules_text, engine):
    rules = tmp_path / "rules.yaml"
    rules.write_text(rules_text)
    rows_arrow = arrow_table(columns, nan_as_null=engine == "sqlite")
    parquet = tmp_path / "rows.parquet"
    pq.write_table(rows_arrow, parquet)
    if engine == "sqlite":
        import adbc_driver_sqlite.dbapi as dbapi
        database = tmp_path / "rows.db"
        database.unlink(missing_ok=True)
        with dbapi.connect(str(database)) as connection:
            with connection.cursor() as cursor:
                cursor.execute("CREATE TABLE t(i INTEGER, f REAL, s TEXT)")  # typed even when empty or all null
                if rows_arrow.num_rows:
                    cursor.adbc_ingest("t", rows_arrow, mode="append")
            connection.commit()
        uri = f"sqlite://{database}?table=t"
    else:
        import duckdb
        database = tmp_path / "rows.duckdb"
        database.unlink(missing_ok=True)
        connection = duckdb.connect(str(database))
        connection.execute("CREATE TABLE t AS SELECT * FROM rows_arrow")
        connection.close()
        uri = f"duckdb://{database}?table=t"
    assert report(rules, uri) == report(rules, parquet)
