"""DuckDB, hand-written: the whole suite as one SQL query (bench/suite_sql.py)
over read_csv (every column as text) or over the in-memory Arrow table."""
import suite_sql
from tools.base import cpu_extra_s, rss_extra_kib, teardown  # noqa: F401

VERSIONS = ["duckdb"]
NOT_EXPRESSIBLE = {}


def setup():
    import duckdb
    connection = duckdb.connect()
    connection.execute("SET TimeZone = 'UTC'")
    return connection


def load(connection, path):
    import pyarrow.parquet as pq
    return pq.read_table(path)


def _run(connection, sql):
    cursor = connection.execute(sql)
    names = [d[0] for d in cursor.description]
    (row,) = cursor.fetchall()
    return {name: (float(v) if name.endswith(("null_fraction", "mean")) else int(v))
            for name, v in zip(names, row)}


def from_csv(connection, path):
    return _run(connection, suite_sql.counts_query(suite_sql.csv_source(path), text_input=True))


def from_frame(connection, table):
    connection.register("frame", table)
    try:
        return _run(connection, suite_sql.counts_query("frame", text_input=False))
    finally:
        connection.unregister("frame")
