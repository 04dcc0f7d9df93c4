"""Delta tables as inputs of `griffin validate`, read through delta-kernel-rs:
tables written by the `deltalake` package (several versions, partitions, schema
evolution, checkpoints) and by tests/python/delta_tables.py (deletion vectors,
column mapping, an unknown reader feature). Each report's checks equal those of
`griffin validate` on the same rows as a local CSV; time travel reads the version
asked for, and the report says which version it read."""
import json
import os
import pathlib
import subprocess

import deltalake
import pyarrow as pa
import pyarrow.csv as pacsv
import pytest

import delta_tables
from griffin_cli import require_binary

RULES = """griffin: 1
dataset: delta
columns:
  id:
    type: int64
    not_null: true
    unique: true
  amount:
    type: float64
    min: 0
  city:
    type: string
    in: [Oslo, Lima, Pune]
"""

SCHEMA = pa.schema([("id", pa.int64()), ("amount", pa.float64()), ("city", pa.string())])


def rows(start, count, bad_every=7):
    out = []
    for i in range(start, start + count):
        amount = -1.0 if i % bad_every == 0 else float(i)
        city = "Rome" if i % 11 == 0 else ("Oslo", "Lima", "Pune")[i % 3]
        out.append({"id": i, "amount": amount, "city": city})
    return out


def arrow(rows_):
    return pa.Table.from_pylist(rows_, schema=SCHEMA)


def validate(tmp_path, target, *extra, rules=RULES):
    rules_path = tmp_path / "rules.yaml"
    rules_path.write_text(rules)
    command = [str(require_binary()), "validate", "-r", str(rules_path), str(target),
               "--format", "json", "--threads", "2", "--no-store", "--max-violations", "1000000", *extra]
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


def report(tmp_path, target, *extra, rules=RULES):
    done = validate(tmp_path, target, *extra, rules=rules)
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)


def csv_of(tmp_path, table, name="same.csv"):
    path = tmp_path / name
    pacsv.write_csv(table, path)
    return path


def check_counts(rep):
    """Per check: what does not depend on row order."""
    return [{k: c.get(k) for k in ("name", "evaluated", "violations", "passed", "observed")}
            for c in rep["checks"]]


def assert_same_checks(tmp_path, delta_target, same_rows, rules=RULES, ordered=True):
    delta_report = report(tmp_path, delta_target, rules=rules)
    csv_report = report(tmp_path, csv_of(tmp_path, same_rows), rules=rules)
    # A text input has one check more (rules-v1's `malformed`, first); the rest are equal.
    assert csv_report["checks"][0]["name"] == "malformed" and csv_report["checks"][0]["violations"] == 0
    csv_report["checks"] = csv_report["checks"][1:]
    if ordered:
        assert delta_report["checks"] == csv_report["checks"]
        # a text input's values are its text (rules-v1); all else is equal
        strip = lambda vs: [{k: v for k, v in x.items() if k != "value"} for x in vs]  # noqa: E731
        assert strip(delta_report["violations"]) == strip(csv_report["violations"])
    else:
        assert check_counts(delta_report) == check_counts(csv_report)
    for key in ("rows", "bad_rows", "passed"):
        assert delta_report[key] == csv_report[key]
    return delta_report


def test_latest_version_same_checks_as_csv(tmp_path):
    table = tmp_path / "t"
    deltalake.write_deltalake(table, arrow(rows(0, 300)))
    rep = assert_same_checks(tmp_path, table, arrow(rows(0, 300)))
    assert rep["rows"] == 300 and rep["bad_rows"] > 0
    assert rep["table_versions"] == [{"table": str(table), "role": "input", "version": 0}]
    # delta:PATH names the same table
    assert report(tmp_path, f"delta:{table}")["checks"] == rep["checks"]


def test_several_versions_and_time_travel(tmp_path):
    table = tmp_path / "t"
    deltalake.write_deltalake(table, arrow(rows(0, 100)))                      # v0
    deltalake.write_deltalake(table, arrow(rows(100, 50)), mode="append")      # v1
    deltalake.write_deltalake(table, arrow(rows(1000, 20)), mode="overwrite")  # v2
    latest = assert_same_checks(tmp_path, table, arrow(rows(1000, 20)))
    assert latest["table_versions"][0]["version"] == 2
    v1 = assert_same_checks(tmp_path, f"{table}@v=1", arrow(rows(0, 150)), ordered=False)
    assert v1["rows"] == 150 and v1["table_versions"][0]["version"] == 1
    v0 = report(tmp_path, f"delta:{table}@v=0")
    assert v0["rows"] == 100 and v0["table_versions"][0] == {"table": f"delta:{table}@v=0", "role": "input",
                                                             "version": 0}
    # By time: commits without in-commit timestamps are dated by their log file's mtime.
    log = table / "_delta_log"
    for version, when in ((0, "2026-11-01T00:00:00Z"), (1, "2026-11-20T00:00:00Z"), (2, "2026-12-10T00:00:00Z")):
        seconds = int(__import__("datetime").datetime.fromisoformat(when.replace("Z", "+00:00")).timestamp())
        os.utime(log / f"{version:020d}.json", (seconds, seconds))
    at = report(tmp_path, f"{table}@ts=2026-12-01T00:00:00Z")
    assert at["rows"] == 150 and at["table_versions"][0]["version"] == 1
    before = validate(tmp_path, f"{table}@ts=2026-10-01T00:00:00Z")
    assert before.returncode == 3 and before.stderr.count("\n") == 1, before.stderr
    missing = validate(tmp_path, f"{table}@v=9")
    assert missing.returncode == 3 and missing.stderr.count("\n") == 1, missing.stderr
    assert f"delta:{table}@v=9" in missing.stderr


def test_partition_columns_are_checkable(tmp_path):
    table = tmp_path / "t"
    data = arrow(rows(0, 400))
    deltalake.write_deltalake(table, data, partition_by=["city"])
    rep = assert_same_checks(tmp_path, table, data, ordered=False)
    city_in = next(c for c in rep["checks"] if c["name"] == "city.in")
    assert city_in["violations"] == sum(1 for r in rows(0, 400) if r["city"] == "Rome") > 0


def test_schema_evolution(tmp_path):
    table = tmp_path / "t"
    deltalake.write_deltalake(table, arrow(rows(0, 60)).drop_columns(["city"]))
    deltalake.write_deltalake(table, arrow(rows(60, 40)), mode="append", schema_mode="merge")
    rep = report(tmp_path, table)
    expected = arrow(rows(0, 100)).to_pylist()
    for r in expected[:60]:
        r["city"] = None
    # Same rows, as a CSV (empty field = null); the table's row order is not fixed.
    assert_same_checks(tmp_path, table, pa.Table.from_pylist(expected, schema=SCHEMA), ordered=False)
    assert rep["rows"] == 100


def test_checkpoint_without_earlier_commits(tmp_path):
    table = tmp_path / "t"
    for i in range(4):
        deltalake.write_deltalake(table, arrow(rows(i * 25, 25)), mode="append")
    deltalake.DeltaTable(table).create_checkpoint()
    deltalake.write_deltalake(table, arrow(rows(100, 25)), mode="append")
    log = table / "_delta_log"
    assert (log / f"{3:020d}.checkpoint.parquet").exists()
    for version in range(3):  # commits before the checkpoint are not needed to read
        (log / f"{version:020d}.json").unlink()
    rep = assert_same_checks(tmp_path, table, arrow(rows(0, 125)), ordered=False)
    assert rep["table_versions"][0]["version"] == 4


def test_deletion_vectors_remove_rows(tmp_path):
    table = tmp_path / "t"
    first, second = rows(0, 100), rows(100, 100)
    deleted_first = [r for r in range(100) if first[r]["amount"] < 0]     # every bad amount of file 0
    deleted_second = [3, 4, 50, 99]
    delta_tables.write_deletion_vector_table(table, arrow(first), arrow(second), deleted_first, deleted_second)
    kept = [r for i, r in enumerate(first) if i not in deleted_first] + \
           [r for i, r in enumerate(second) if i not in deleted_second]
    # (deltalake 1.6.6 refuses to read deletion vectors, so it cannot cross-check this table)
    rep = assert_same_checks(tmp_path, table, arrow(kept))
    assert rep["rows"] == 200 - len(deleted_first) - len(deleted_second)


def test_column_mapping_logical_names(tmp_path):
    table = tmp_path / "t"
    data = arrow(rows(0, 80))
    mapping = delta_tables.write_column_mapping_table(table, data)
    assert all(name.startswith("col-") for name in mapping.values())
    assert deltalake.DeltaTable(table).to_pyarrow_table().num_rows == 80
    assert_same_checks(tmp_path, table, data)


def test_unsupported_feature_is_one_line_exit_3(tmp_path):
    table = tmp_path / "t"
    delta_tables.write_unknown_feature_table(table, arrow(rows(0, 5)))
    done = validate(tmp_path, table)
    assert done.returncode == 3, done.stderr
    assert done.stderr.count("\n") == 1 and "griffinFutureFeature" in done.stderr, done.stderr


def test_missing_log_file_is_one_line_exit_3(tmp_path):
    table = tmp_path / "t"
    for i in range(3):
        deltalake.write_deltalake(table, arrow(rows(i * 10, 10)), mode="append")
    (table / "_delta_log" / f"{1:020d}.json").unlink()
    done = validate(tmp_path, table)
    assert done.returncode == 3, done.stderr
    assert done.stderr.count("\n") == 1 and str(table) in done.stderr, done.stderr


def test_missing_data_file_is_one_line_exit_3(tmp_path):
    table = tmp_path / "t"
    deltalake.write_deltalake(table, arrow(rows(0, 10)))
    next(table.glob("*.parquet")).unlink()
    done = validate(tmp_path, table)
    assert done.returncode == 3, done.stderr
    assert done.stderr.count("\n") == 1, done.stderr


def test_not_a_table_is_one_line_exit_3(tmp_path):
    done = validate(tmp_path, f"delta:{tmp_path / 'nothing'}")
    assert done.returncode == 3, done.stderr
    assert done.stderr.count("\n") == 1 and "nothing" in done.stderr, done.stderr


def test_store_records_the_version_read(tmp_path):
    table = tmp_path / "t"
    deltalake.write_deltalake(table, arrow(rows(0, 30)))
    deltalake.write_deltalake(table, arrow(rows(30, 30)), mode="append")
    rules_path = tmp_path / "rules.yaml"
    rules_path.write_text(RULES)
    store = tmp_path / "store.db"
    done = subprocess.run([str(require_binary()), "validate", "-r", str(rules_path), f"{table}@v=0",
                           "--store", str(store), "--format", "json"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode in (0, 1), done.stderr
    import sqlite3
    with sqlite3.connect(store) as db:
        etags = [row[0] for row in db.execute("SELECT etag FROM run_inputs")]
    assert etags == ["v=0"]


def test_the_schema_cache_is_keyed_by_the_table_version(tmp_path):
    # A rule column that appears in version 1 (schema evolution) is a schema change of
    # the table read at its latest version; the same version again reuses the cache.
    table = tmp_path / "t"
    deltalake.write_deltalake(table, arrow(rows(0, 30)).drop_columns(["city"]))
    rules_path = tmp_path / "rules.yaml"
    rules_path.write_text(RULES)
    store = tmp_path / "store.db"

    def run():
        done = subprocess.run([str(require_binary()), "validate", "-r", str(rules_path), str(table),
                               "--store", str(store), "--format", "json"],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode in (0, 1), done.stderr
        return json.loads(done.stdout)

    def cached():
        import sqlite3
        with sqlite3.connect(store) as db:
            return [tuple(r) for r in db.execute("SELECT path, schema_version FROM schema_cache")]

    assert "schema_changes" not in run()
    assert cached() == [(str(table), "v=0")]
    deltalake.write_deltalake(table, arrow(rows(30, 30)), mode="append", schema_mode="merge")
    assert run()["schema_changes"] == [f"{table}: column 'city' added"]
    assert cached() == [(str(table), "v=1")]
    assert "schema_changes" not in run()
    assert cached() == [(str(table), "v=1")]
