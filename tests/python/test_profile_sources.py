"""`griffin profile` reads every input `griffin validate` reads (issue 15): a table in
SQLite, DuckDB and PostgreSQL, a Delta table (a folder and `delta:` in S3), and
objects in S3 (moto's server) give the profile of the same rows read from local
Parquet files split where the source splits them (docs/profile.md: a profile depends
on the input and its batch boundaries; top values past 256 distinct are reduced per
batch), column by column. Floats compare to 1e-9 relative; everything else is equal.
A missing table is one line and exit 3, as in validate."""
import json
import math
import os
import subprocess

import deltalake
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from griffin_cli import require_binary
from objectstore_servers import s3_server  # noqa: F401 (fixture)
from test_delta_objectstore import upload
from test_sql_sources import postgresql_ingest, sqlite_ingest

ROWS = 1500
KINDS = ["purchase", "refund", "transfer", "fee", "ünïcode"]


def table():
    ids = list(range(ROWS))
    amount = [None if i % 97 == 0 else round((i * 7919 % 10007) / 3.0 - 500, 4) for i in ids]
    kind = [None if i % 31 == 0 else KINDS[(i * 13) % len(KINDS)] for i in ids]
    code = ["C%05d" % (i * 37 % 2000) for i in ids]
    return pa.table({"id": pa.array(ids, pa.int64()), "amount": pa.array(amount, pa.float64()),
                     "kind": pa.array(kind, pa.string()), "code": pa.array(code, pa.string())})


def profile(source, env=None):
    done = subprocess.run([str(require_binary()), "profile", str(source), "--format", "json"],
                          capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0, (source, done.stderr)
    return json.loads(done.stdout)


def assert_same(got, want, path="profile"):
    if isinstance(want, dict):
        assert isinstance(got, dict) and sorted(got) == sorted(want), (path, got, want)
        for key in want:
            assert_same(got[key], want[key], f"{path}.{key}")
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), (path, got, want)
        for i, (g, w) in enumerate(zip(got, want)):
            assert_same(g, w, f"{path}[{i}]")
    elif isinstance(want, float) and not isinstance(got, bool) and isinstance(got, (int, float)):
        assert math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-9), (path, got, want)
    else:
        assert got == want, (path, got, want)


def same_rows_as_parquet(got, reference):
    assert got["rows"] == reference["rows"] == ROWS
    assert got["malformed_rows"] == reference["malformed_rows"] == 0
    assert_same(got["columns"], reference["columns"])


# Where each source splits the rows into batches: one read for a database table (1,500
# rows are one batch), one batch per file or object otherwise.
WHOLE = [(0, ROWS)]
DELTA_COMMITS = [(0, 900), (900, ROWS - 900)]
S3_OBJECTS = [(0, 700), (700, ROWS - 700)]


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The profile of the rows as local Parquet files, one per (offset, length) part."""
    profiles = {}

    def of(parts):
        key = tuple(parts)
        if key not in profiles:
            folder = tmp_path_factory.mktemp("reference")
            for number, (offset, length) in enumerate(parts):
                pq.write_table(table().slice(offset, length), folder / f"part-{number}.parquet")
            profiles[key] = profile(folder)
        return profiles[key]
    return of


def sqlite_source(tmp_path):
    return sqlite_ingest(tmp_path / "rows.db", "rows", table())


def duckdb_source(tmp_path):
    import duckdb
    path = tmp_path / "rows.duckdb"
    rows = table()  # noqa: F841  (read by DuckDB by name)
    connection = duckdb.connect(str(path))
    connection.execute("CREATE TABLE rows AS SELECT * FROM rows")
    connection.close()
    return f"duckdb://{path}?table=rows"


def postgresql_source(tmp_path):
    return postgresql_ingest("griffin_profile", "rows", table())


def delta_source(tmp_path):
    folder = tmp_path / "delta"
    rows = table()
    for number, (offset, length) in enumerate(DELTA_COMMITS):
        deltalake.write_deltalake(folder, rows.slice(offset, length), mode="append" if number else "error")
    return folder


@pytest.mark.parametrize("make_source,parts", [(sqlite_source, WHOLE), (duckdb_source, WHOLE),
                                               (postgresql_source, WHOLE), (delta_source, DELTA_COMMITS)],
                         ids=["sqlite", "duckdb", "postgresql", "delta"])
def test_a_table_profiles_as_the_same_rows_in_parquet(make_source, parts, reference, tmp_path):
    same_rows_as_parquet(profile(make_source(tmp_path)), reference(parts))


def test_s3_objects_and_a_delta_table_in_s3_profile_as_the_local_file(s3_server, reference, tmp_path):
    bucket = s3_server.bucket("profile")
    rows = table()
    # Two Parquet objects under a prefix: the prefix reads as one input of both.
    for part, (offset, length) in enumerate(S3_OBJECTS):
        sink = pa.BufferOutputStream()
        pq.write_table(rows.slice(offset, length), sink)
        s3_server.put(f"{bucket}/objects/part-{part}.parquet", sink.getvalue().to_pybytes())
    same_rows_as_parquet(profile(f"s3://{bucket}/objects/", env=s3_server.env), reference(S3_OBJECTS))

    upload(s3_server, delta_source(tmp_path), bucket, "tables/rows")
    same_rows_as_parquet(profile(f"delta:s3://{bucket}/tables/rows", env=s3_server.env), reference(DELTA_COMMITS))


def test_a_missing_table_is_one_line_and_exit_3(tmp_path):
    source = sqlite_source(tmp_path).replace("table=rows", "table=absent")
    done = subprocess.run([str(require_binary()), "profile", source], capture_output=True, text=True, timeout=60)
    assert done.returncode == 3, done
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "absent" in lines[0], done.stderr
    assert os.path.basename(str(tmp_path / "rows.db")) in lines[0], done.stderr
