"""griffin.spark's SQL mode (issue 14) on local-cluster[2,1,1024]: the rules
compiled to Spark SQL as one aggregation, the checks Spark SQL cannot judge
exactly run natively, and the report says where each ran (ran_in). On
generated Parquet with NULLs, '' (a null spelling), NaN, +-inf and duplicates:
SQL mode's report == native mode's == `griffin validate`'s, check by check,
violations listed included (row ids: with one partition they are the file's
row numbers; with more, both Spark modes use monotonically_increasing_id())."""
import datetime
import json
import math
import os
import sys

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from griffin_cli import require_binary
from test_spark import cli_report, spark   # noqa: F401 - the module's SparkSession fixture

pytest.importorskip("pyspark", reason="pyspark is installed by scripts/setup_spark.sh")

# Every check here has a Spark SQL form with rules-v1 semantics.
PUSHED_RULES = """griffin: 1
dataset: spark_sql_pushed
columns:
  id: {type: int64, unique: true, not_null: true, min: 0, max: 100000}
  code: {type: string, length: {min: 2, max: 5}, not_in: ['c7']}
  amount: {type: float64, min: 0, max: 1000, finite: true, gt: -1}
  qty: {type: int64, not_null: true, in: [1, 2, 3, 4, 5]}
  day: {type: date, min: 2024-01-01}
rows:
  - name: code_qty_unique
    unique: [code, qty]
  - name: code_unique
    unique: [code]
    severity: warn
table:
  - row_count: {min: 100}
  - null_fraction: {column: qty, max: 0.05}
  - distinct_count: {column: code, min: 10}
  - sum: {column: qty, max: 100000}
  - mean: {column: id, max: 3000}
  - min: {column: amount, min: 0}
  - max: {column: id, max: 100000}
  - max: {column: day}
"""

# Pushed checks beside ones Spark SQL cannot judge exactly (RE2 regexes, row
# expressions, float mean/stddev/quantile, float unique) and error uniques,
# which then run natively too (bad rows are one union without a window).
MIXED_RULES = """griffin: 1
dataset: spark_sql_mixed
columns:
  id: {type: int64, unique: true, min: 0}
  code: {type: string, regex: '^[a-z]+[0-9]*$', not_in: ['c7']}
  amount: {type: float64, min: 0, max: 1000, unique: true}
  qty: {type: int64, not_null: true, in: [1, 2, 3, 4, 5]}
  day: {type: date}
rows:
  - name: code_qty_unique
    unique: [code, qty]
    severity: warn
  - name: big_orders_are_few
    expr: "amount < 900 or qty <= 2"
table:
  - row_count: {min: 100}
  - mean: {column: amount, max: 600}
  - stddev: {column: amount}
  - quantile: {column: amount, q: 0.9, max: 950}
  - distinct_count: {column: code, min: 10}
  - max: {column: qty, max: 6}
"""


# id, then the file's row number (n, a column no rule names): the file's order, ties included, so
# that `unique`'s first occurrences, and with them the bad rows, are the CLI's
KEY = ["id", "n"]


def generated_table(n=4000):
    ids, codes, amounts, qtys, days = [], [], [], [], []
    for i in range(n):
        ids.append(i - 1 if i % 400 == 0 and i else i)   # ids 399, 799, ... repeat
        codes.append("c%d" % (i * 7 % 1500) if i % 11 else ("Bad-%d" % i if i % 3 == 0 else ("" if i % 3 == 1 else None)))
        amount = float((i * 37) % 1100) + (0.25 if i % 2 else 0.0)
        if i % 101 == 3:
            amount = math.nan
        elif i % 89 == 4:
            amount = None
        elif i % 1999 == 7:
            amount = math.inf if i % 2 else -math.inf
        amounts.append(amount)
        qtys.append(None if i % 97 == 0 else (i % 6) + (1 if i % 13 else 0))
        days.append(None if i % 53 == 1 else datetime.date(2023, 12, 1) + datetime.timedelta(days=i % 90))
    return pa.table({"id": pa.array(ids, pa.int64()), "code": pa.array(codes, pa.string()),
                     "amount": pa.array(amounts, pa.float64()), "qty": pa.array(qtys, pa.int64()),
                     "day": pa.array(days, pa.date32()), "n": pa.array(range(n), pa.int64())})


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    folder = tmp_path_factory.mktemp("spark-sql")
    path = folder / "orders.parquet"
    pq.write_table(generated_table(), path, row_group_size=700)
    rules = {}
    for name, text in (("pushed", PUSHED_RULES), ("mixed", MIXED_RULES)):
        rules[name] = folder / ("%s.yaml" % name)
        rules[name].write_text(text)
    return path, rules


def without_ran_in(report):
    report = dict(report)
    report["checks"] = [{k: v for k, v in c.items() if k not in ("ran_in", "ran_in_reason")} for c in report["checks"]]
    return report


def same_reports(ours, theirs, violations=True):
    for a, b in zip(ours["checks"], theirs["checks"], strict=True):
        if isinstance(b.get("observed"), float) and not math.isnan(b["observed"]):
            assert a["observed"] == pytest.approx(b["observed"], rel=1e-12), a["name"]
            a, b = dict(a, observed=0), dict(b, observed=0)
        assert a == b
    for field in ("rows", "bad_rows", "quality_score", "passed", "schema_errors", "violations_truncated"):
        assert ours.get(field) == theirs.get(field), field
    if violations:
        assert ours["violations"] == theirs["violations"]


@pytest.mark.parametrize("rules_name", ["pushed", "mixed"])
@pytest.mark.parametrize("partitions", [1, 2, 8])
def test_sql_mode_equals_native_mode_equals_griffin_validate(spark, data, rules_name, partitions):  # noqa: F811
    import griffin.spark
    path, rules = data
    df = spark.read.parquet(str(path)).repartition(partitions).localCheckpoint()   # the same rows each time
    sql = griffin.spark.validate(df, str(rules[rules_name]), key=KEY, mode="sql")
    native = griffin.spark.validate(df, str(rules[rules_name]), key=KEY)
    ours = json.loads(sql.report.to_json())
    expected = cli_report(rules[rules_name], path)
    assert expected["bad_rows"] > 0 and any(c["violations"] > 0 for c in expected["checks"] if c["check"] == "unique")
    # each validate(key=) call range-partitions anew (Spark samples the bounds with the RDD's id as seed), so
    # row ids, and with them which violations are listed first, are compared where the layout is one (below)
    same_reports(without_ran_in(ours), json.loads(native.report.to_json()), violations=False)
    same_reports(without_ran_in(ours), expected, violations=False)
    # no key: both modes number the kept partitions alike, so the listed violations are the same rows
    unkeyed_sql = json.loads(griffin.spark.validate(df, str(rules[rules_name]), mode="sql").report.to_json())
    unkeyed_native = json.loads(griffin.spark.validate(df, str(rules[rules_name])).report.to_json())
    same_reports(without_ran_in(unkeyed_sql), unkeyed_native)
    assert len(unkeyed_sql["violations"]) > 100
    assert sql.mode == "sql" and set(sql.ran_in.values()) <= {"database", "engine"}
    for check in ours["checks"]:
        assert check["ran_in"] in ("database", "engine") and check["ran_in_reason"], check
    if rules_name == "pushed":
        assert set(sql.ran_in.values()) == {"database"}
    else:
        ran_in = sql.ran_in
        reasons = {c["name"]: c["ran_in_reason"] for c in ours["checks"]}
        assert ran_in["code.regex"] == "engine" and "RE2" in reasons["code.regex"]
        assert ran_in["big_orders_are_few"] == "engine"
        assert ran_in["id.unique"] == "engine" and "union" in reasons["id.unique"]
        assert ran_in["code_qty_unique"] == "database" and ran_in["qty.in"] == "database"
        assert ran_in["amount.unique"] == "engine"
    # per-row outputs come from the native pass: every row exactly once
    assert sql.quarantine.count() == ours["bad_rows"] and sql.clean.count() + ours["bad_rows"] == 4000


def test_sql_mode_on_one_partition_lists_the_clis_violations(spark, data):  # noqa: F811
    """One partition in the file's order (no key): row ids are row numbers,
    so the listed violations are the CLI's too."""
    import griffin.spark
    path, rules = data
    for name in ("pushed", "mixed"):
        df = spark.read.parquet(str(path)).coalesce(1)
        sql = griffin.spark.validate(df, str(rules[name]), mode="sql", max_violations=50)
        expected = json.loads(__import__("subprocess").run(
            [str(require_binary()), "validate", "-r", str(rules[name]), str(path), "--format", "json", "--no-store",
             "--max-violations", "50"], capture_output=True, text=True, timeout=120).stdout)
        same_reports(without_ran_in(json.loads(sql.report.to_json())), expected)


def test_missing_column_in_sql_mode_is_the_schema_error(spark, data):  # noqa: F811
    import griffin.spark
    path, rules = data
    df = spark.read.parquet(str(path)).drop("qty").repartition(3)
    report = json.loads(griffin.spark.validate(df, str(rules["pushed"]), mode="sql").report.to_json())
    native = json.loads(griffin.spark.validate(df, str(rules["pushed"])).report.to_json())
    assert [e["column"] for e in report["schema_errors"]] == ["qty"]
    assert report["bad_rows"] == report["rows"] == 4000 and report["quality_score"] == 0
    same_reports(without_ran_in(report), native)


def test_unknown_mode_is_refused(spark, data):  # noqa: F811
    import griffin.spark
    path, rules = data
    with pytest.raises(ValueError, match="mode"):
        griffin.spark.validate(spark.read.parquet(str(path)), str(rules["pushed"]), mode="pushdown")


def aggregate_scan(plans):
    """The one file scan line of the first kept plan (the aggregation's, as AQE ran it)."""
    aggregate = plans[0].split("== Initial Plan ==")[0]  # AQE prints the plan it ran, then the one it began with
    scans = [line for line in aggregate.splitlines() if "FileScan parquet" in line]
    assert len(scans) == 1, aggregate
    return scans[0]


def keep_plans(monkeypatch):
    """Records each SQL-mode query's executed plan as Spark ran it."""
    import griffin.spark._sql as spark_sql
    plans = []
    collect = spark_sql._collect_arrow

    def collect_and_keep_the_plan(frame):
        table = collect(frame)
        plans.append(frame._jdf.queryExecution().executedPlan().toString())
        return table
    monkeypatch.setattr(spark_sql, "_collect_arrow", collect_and_keep_the_plan)
    return plans


def sql_and_native_with_the_filter_pushed(df, rules, monkeypatch):
    """SQL mode's report of `df` (filtered on id >= 1000), after asserting that
    its aggregation ran as one scan with that filter pushed and only the rule
    columns read (not `n`); and native mode's report of the same rows."""
    import griffin.spark
    plans = keep_plans(monkeypatch)
    sql = griffin.spark.validate(df, str(rules), mode="sql")
    scan = aggregate_scan(plans)
    assert "GreaterThanOrEqual(id,1000)" in scan.split("PushedFilters:")[1], scan
    read_schema = scan.split("ReadSchema:")[1]
    assert all(f"{c}:" in read_schema for c in ("id", "code", "amount", "qty", "day")), read_schema
    assert ",n:" not in read_schema and "<n:" not in read_schema, read_schema
    monkeypatch.undo()
    native = json.loads(griffin.spark.validate(df, str(rules)).report.to_json())
    return json.loads(sql.report.to_json()), native


def test_sql_mode_on_a_delta_table_pushes_the_filter_and_columns_into_its_scan(spark, data, tmp_path,  # noqa: F811
                                                                                monkeypatch):
    """As on Parquet, on a Delta table (delta-spark's source over a table that
    `deltalake` wrote in two commits): one scan of the table's Parquet files
    reading only the rule columns, the DataFrame's filter pushed into it, and
    the counts of native mode on the same rows."""
    from deltalake import write_deltalake
    path, rules = data
    rows = pq.read_table(path)
    table = tmp_path / "delta_pushed"
    write_deltalake(str(table), rows.slice(0, 2000))
    write_deltalake(str(table), rows.slice(2000), mode="append")
    df = spark.read.format("delta").load(str(table)).filter("id >= 1000")
    report, native = sql_and_native_with_the_filter_pushed(df, rules["pushed"], monkeypatch)
    assert report["rows"] == native["rows"] > 0
    for a, b in zip(report["checks"], native["checks"], strict=True):
        assert (a["name"], a.get("violations"), a["passed"]) == (b["name"], b.get("violations"), b["passed"])


def test_sql_mode_scans_once_with_the_filters_and_columns_catalyst_pushes(spark, data, monkeypatch):  # noqa: F811
    """The aggregation's physical plan, as Spark ran it: one Parquet scan that
    reads only the rule columns (not `n`) and has the DataFrame's filter pushed
    into it; the report is native mode's on the same filtered rows."""
    path, rules = data
    df = spark.read.parquet(str(path)).filter("id >= 1000")  # a file scan and a filter: not checkpointed
    report, native = sql_and_native_with_the_filter_pushed(df, rules["pushed"], monkeypatch)
    assert report["rows"] == 3000
    same_reports(without_ran_in(report), native, violations=False)
