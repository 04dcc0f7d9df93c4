"""Dead letters to a table (issue 13): `--quarantine sqlite://...?table=bad_rows`
(and DuckDB, PostgreSQL) stores the rows `--quarantine bad.parquet` holds, with
`_griffin_row`, and `_griffin_errors` as JSON text; in one transaction, so a
killed run leaves no table and no rows."""
import json
import math
import os
import pathlib
import signal
import subprocess
import time

import pyarrow.parquet as pq
import pytest

from griffin_cli import require_binary
from test_sql_sources import PG_URI, arrow_rows, require_pg, rules  # noqa: F401  (rules is a fixture)


def run_cli(*args):
    return subprocess.run([str(require_binary()), *map(str, args)], capture_output=True, text=True, timeout=120)


def comparable(value):
    if isinstance(value, float) and math.isnan(value):
        return "nan"
    return value


def sqlite_rows(tmp_path, table):
    import sqlite3
    with sqlite3.connect(tmp_path / "dl.db") as connection:
        return connection.execute(f'SELECT * FROM "{table}" ORDER BY _griffin_row').fetchall()


def duckdb_rows(tmp_path, table):
    import duckdb
    connection = duckdb.connect(str(tmp_path / "dl.duckdb"), read_only=True)
    try:
        return connection.execute(f'SELECT * FROM "{table}" ORDER BY _griffin_row').fetchall()
    finally:
        connection.close()


def postgresql_rows(tmp_path, table):
    import adbc_driver_postgresql.dbapi as dbapi
    with dbapi.connect(PG_URI) as connection, connection.cursor() as cursor:
        cursor.execute(f'SELECT * FROM griffin_dead."{table}" ORDER BY _griffin_row')
        return cursor.fetchall()


def postgresql_uri(tmp_path, table):
    require_pg()
    import adbc_driver_postgresql.dbapi as dbapi
    with dbapi.connect(PG_URI) as connection:
        with connection.cursor() as cursor:
            cursor.execute("CREATE SCHEMA IF NOT EXISTS griffin_dead")
            cursor.execute(f'DROP TABLE IF EXISTS griffin_dead."{table}"')
        connection.commit()
    return f"{PG_URI}?table=griffin_dead.{table}"


SINKS = {
    "sqlite": (lambda tmp_path, table: f"sqlite://{tmp_path}/dl.db?table={table}", sqlite_rows),
    "duckdb": (lambda tmp_path, table: f"duckdb://{tmp_path}/dl.duckdb?table={table}", duckdb_rows),
    "postgresql": (postgresql_uri, postgresql_rows),
}


@pytest.mark.parametrize("engine", sorted(SINKS))
def test_quarantine_to_a_table_holds_the_quarantine_file_rows(engine, rules, tmp_path):  # noqa: F811
    uri_of, rows_of = SINKS[engine]
    data = tmp_path / "rows.parquet"
    pq.write_table(arrow_rows(nan_as_null=engine == "sqlite"), data)
    table_uri = uri_of(tmp_path, "bad_rows")
    to_table = run_cli("validate", "-r", rules, data, "--no-store", "--format", "json", "--quarantine", table_uri)
    to_file = run_cli("validate", "-r", rules, data, "--no-store", "--format", "json", "--quarantine",
                      tmp_path / "bad.parquet")
    assert to_table.returncode == to_file.returncode == 1, to_table.stderr
    assert json.loads(to_table.stdout)["bad_rows"] == json.loads(to_file.stdout)["bad_rows"] > 0
    expected = []
    for row in pq.read_table(tmp_path / "bad.parquet").to_pylist():
        errors = json.dumps([{"check": e["check"], "message": e["message"]} for e in row["_griffin_errors"]],
                            ensure_ascii=False, separators=(",", ":"))
        expected.append(tuple(comparable(row[c]) for c in ("id", "x", "s", "n", "k", "_griffin_row")) + (errors,))
    stored = [tuple(comparable(v) for v in row[:6]) + (row[6],) for row in rows_of(tmp_path, "bad_rows")]
    assert [tuple(json.loads(v) if i == 6 else v for i, v in enumerate(r)) for r in stored] == \
        [tuple(json.loads(v) if i == 6 else v for i, v in enumerate(r)) for r in expected]
    assert len(stored) == json.loads(to_file.stdout)["bad_rows"]


def no_sqlite_table(tmp_path):
    import sqlite3
    if (tmp_path / "dl.db").exists():
        with sqlite3.connect(tmp_path / "dl.db") as connection:
            assert connection.execute("SELECT name FROM sqlite_master").fetchall() == []


def no_postgresql_table(tmp_path):
    import adbc_driver_postgresql.dbapi as dbapi
    with dbapi.connect(PG_URI) as connection, connection.cursor() as cursor:
        cursor.execute("SELECT to_regclass('griffin_dead.killed') IS NULL")
        assert cursor.fetchone()[0] is True


KILLED_SINKS = {
    "sqlite": (lambda tmp_path: f"sqlite://{tmp_path}/dl.db?table=bad_rows", no_sqlite_table),
    "postgresql": (lambda tmp_path: postgresql_uri(tmp_path, "killed"), no_postgresql_table),
}


@pytest.mark.parametrize("engine", sorted(KILLED_SINKS))
def test_a_killed_run_leaves_no_table(engine, rules, tmp_path):  # noqa: F811
    """The input is a FIFO that never ends: the run is killed mid-way, after
    bad rows went to the quarantine's spool, before its one commit. Nor does it
    leave its spool in the temp folder."""
    sink, no_table = KILLED_SINKS[engine]
    quarantine = sink(tmp_path)
    fifo = tmp_path / "rows.csv"
    os.mkfifo(fifo)
    command = [str(require_binary()), "validate", "-r", str(rules), str(fifo), "--no-store", "--batch-rows", "1",
               "--quarantine", quarantine]
    spools = tmp_path / "tmpdir"
    spools.mkdir()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               env={**os.environ, "TMPDIR": str(spools)})
    with open(fifo, "w") as writer:
        writer.write("id,x,s,n,k\n")
        for row in range(2000):
            writer.write(f"{row},-5000,zz,1.00,{row}\n")  # every row bad
        writer.flush()
        time.sleep(1.0)
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
    assert process.returncode == -signal.SIGKILL
    no_table(tmp_path)
    assert list(spools.iterdir()) == []


def duckdb_tables(path):
    import duckdb
    connection = duckdb.connect(str(path), read_only=True)
    try:
        return {name: connection.execute(f'SELECT count(*) FROM "{name}"').fetchone()[0]
                for (name,) in connection.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
    finally:
        connection.close()


def test_a_run_killed_during_the_duckdb_ingest_leaves_no_rows(rules, tmp_path):  # noqa: F811
    """kill -9 while the quarantine's rows are being ingested into DuckDB, at several
    delays after the ingest began. A database file that did not exist is built under a
    hidden name beside it and renamed into place once committed and closed (DuckDB
    writes a new file's header after creating it, so a kill in between once left a
    file DuckDB refuses to open: CI, 2026-12-07). So after a kill the named file is
    absent or holds every row; it is never a file DuckDB cannot open. A database that
    already exists takes the rows in one transaction: after a kill it holds its old
    rows only, or all of the new ones too. At least one run of each must have been
    killed inside its ingest. No killed run leaves its 137 MB spool in the temp folder
    (each did until 2026-12-07: 1.9 GB per suite run on a machine that CI reuses)."""
    import pyarrow as pa
    rows = 600_000  # every row bad: x is below its min
    data = tmp_path / "rows.parquet"
    pq.write_table(pa.table({"id": pa.array(range(rows), pa.int64()), "x": pa.array([-5000.0] * rows),
                             "s": pa.array(["zz"] * rows), "n": pa.array(["1.00"] * rows),
                             "k": pa.array(range(rows), pa.int64())}), data)
    import duckdb
    spools = tmp_path / "tmpdir"
    spools.mkdir()
    killed_inside = {"new": 0, "existing": 0}
    for attempt, delay in enumerate((0.0, 0.0, 0.02, 0.05, 0.1, 0.2)):
        for kind in ("new", "existing"):
            database = tmp_path / f"dl-{kind}-{attempt}.duckdb"
            if kind == "existing":
                with duckdb.connect(str(database)) as connection:
                    connection.execute("CREATE TABLE kept(v INTEGER)")
                    connection.execute("INSERT INTO kept VALUES (1)")
            command = [str(require_binary()), "validate", "-r", str(rules), str(data), "--no-store",
                       "--quarantine", f"duckdb://{database}?table=bad_rows"]
            process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                       env={**os.environ, "TMPDIR": str(spools)})
            hidden = f".{database.name}.griffin-*"
            wal = pathlib.Path(str(database) + ".wal")
            size = database.stat().st_size if kind == "existing" else 0
            # The ingest began: the hidden new file exists, or the existing one grew (DuckDB
            # writes a large append's row groups before the commit) or has a log.
            began = ((lambda: any(tmp_path.glob(hidden))) if kind == "new"
                     else (lambda: wal.exists() or database.stat().st_size > size))
            deadline = time.monotonic() + 60
            while not began() and process.poll() is None and time.monotonic() < deadline:
                time.sleep(0.001)
            time.sleep(delay)
            process.send_signal(signal.SIGKILL)
            process.wait(timeout=30)
            before = {"kept": 1} if kind == "existing" else {}
            if process.returncode == -signal.SIGKILL:
                if kind == "new" and not database.exists():
                    killed_inside["new"] += 1
                    continue
                tables = duckdb_tables(database)
                assert tables in (before, {**before, "bad_rows": rows}), (kind, delay, tables)
                killed_inside[kind] += tables == before
            else:  # the ingest was done before the kill: then every row is there
                assert process.returncode == 1
                assert duckdb_tables(database) == {**before, "bad_rows": rows}
    assert killed_inside["new"] >= 1 and killed_inside["existing"] >= 1, killed_inside
    assert list(spools.iterdir()) == []
    # A killed run's hidden file stays behind; the next run into the same new file removes
    # it (its name carries the dead run's pid) and leaves no hidden file of its own.
    leftovers = sorted(tmp_path.glob(".dl-new-*.duckdb.griffin-*"))
    assert leftovers, "no kill left a hidden file behind"
    small = tmp_path / "small.parquet"
    pq.write_table(pa.table({"id": [1], "x": [-5000.0], "s": ["zz"], "n": ["1.00"], "k": [1]}), small)
    for database in sorted({tmp_path / p.name[1:p.name.index(".griffin-")] for p in leftovers}):
        database.unlink(missing_ok=True)
        done = run_cli("validate", "-r", rules, small, "--no-store", "--quarantine", f"duckdb://{database}?table=bad_rows")
        assert done.returncode == 1, done.stderr
        assert duckdb_tables(database) == {"bad_rows": 1}
        assert not list(tmp_path.glob(f".{database.name}.griffin-*"))


def test_a_new_duckdb_file_appears_whole_and_leaves_no_hidden_file(rules, tmp_path):  # noqa: F811
    database = tmp_path / "fresh.duckdb"
    data = tmp_path / "rows.parquet"
    pq.write_table(arrow_rows(nan_as_null=True), data)
    done = run_cli("validate", "-r", rules, data, "--no-store", "--quarantine", f"duckdb://{database}?table=bad_rows")
    assert done.returncode == 1, done.stderr
    assert sorted(path.name for path in tmp_path.iterdir() if "fresh" in path.name) == ["fresh.duckdb"]
    assert duckdb_tables(database)["bad_rows"] > 0


def test_a_duckdb_output_path_that_cannot_be_looked_at_is_exit_3_in_one_line(rules, tmp_path):  # noqa: F811
    """A path through a symlink loop cannot even be stat()ed: one line naming the URI,
    exit 3, never an uncaught exception (it aborted at 2cadf55)."""
    (tmp_path / "loop").symlink_to("loop")
    data = tmp_path / "rows.parquet"
    pq.write_table(arrow_rows(nan_as_null=True), data)
    uri = f"duckdb://{tmp_path}/loop/x.duckdb?table=bad_rows"
    done = run_cli("validate", "-r", rules, data, "--no-store", "--quarantine", uri)
    assert done.returncode == 3, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"griffin: {uri}: "), lines


def test_an_ingest_that_fails_is_exit_3_and_adds_no_rows(rules, tmp_path):  # noqa: F811
    import sqlite3
    with sqlite3.connect(tmp_path / "dl.db") as connection:
        connection.execute("CREATE TABLE bad_rows(other TEXT NOT NULL)")
        connection.execute("INSERT INTO bad_rows VALUES ('kept')")
    data = tmp_path / "rows.parquet"
    pq.write_table(arrow_rows(nan_as_null=True), data)
    done = run_cli("validate", "-r", rules, data, "--no-store", "--quarantine", f"sqlite://{tmp_path}/dl.db?table=bad_rows")
    assert done.returncode == 3, done.stderr
    assert done.stderr.startswith(f"griffin: sqlite://{tmp_path}/dl.db?table=bad_rows: ")
    with sqlite3.connect(tmp_path / "dl.db") as connection:
        assert connection.execute("SELECT * FROM bad_rows").fetchall() == [("kept",)]


def test_the_input_table_is_never_an_output(rules, tmp_path):  # noqa: F811
    import sqlite3
    with sqlite3.connect(tmp_path / "in.db") as connection:
        connection.execute("CREATE TABLE t(id INTEGER)")
        connection.execute("INSERT INTO t VALUES (1)")
    source = f"sqlite://{tmp_path}/in.db?table=t"
    done = run_cli("validate", "-r", rules, source, "--no-store", "--quarantine", source)
    assert done.returncode == 2
    assert "is the input" in done.stderr
    other = run_cli("validate", "-r", rules, source, "--no-store", "--quarantine", f"sqlite://{tmp_path}/in.db?table=bad")
    assert other.returncode in (0, 1), other.stderr  # another table of the same database is fine
