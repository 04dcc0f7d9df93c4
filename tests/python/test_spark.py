"""griffin.spark (issue 14) on a real Spark cluster: local-cluster[2,1,1024]
(two executor JVMs, one core each), executors' Python workers importing the
installed griffin package (PYSPARK_PYTHON = this venv's python, not the
source tree). Reports from 1, 2 and 8 partitions equal `griffin validate` on
the same Parquet file check by check, `unique` with key= included (and a CSV
DataFrame, a view by name, a JDBC DataFrame from PostgreSQL and a Delta
DataFrame, each against the CLI on the same rows); clean and
quarantine hold every row exactly once; .save() records the run; a missing
column and a column type that cannot hold the rule's type give the CLI's
schema errors; `griffin validate --engine spark` and the example job run
through spark-submit; an executor without griffin fails naming the fix.

One SparkSession for the module (a cluster start costs 20-40 s)."""
import json
import os
import pathlib
import subprocess
import sys

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import griffin
from griffin_cli import require_binary

pyspark = pytest.importorskip("pyspark", reason="pyspark is installed by scripts/setup_spark.sh")

REPO = pathlib.Path(__file__).resolve().parents[2]

RULES = """griffin: 1
dataset: spark_orders
columns:
  id: {type: int64, unique: true}
  code: {type: string, unique: true, regex: '^[a-z]+[0-9]*$'}
  amount: {type: float64, min: 0, max: 1000}
  qty: {type: int64, not_null: true, in: [1, 2, 3, 4, 5]}
rows:
  - name: code_qty_unique
    unique: [code, qty]
    severity: warn
  - name: big_orders_are_few
    expr: "amount < 900 or qty <= 2"
table:
  - row_count: {min: 100}
  - mean: {column: amount, max: 600}
  - distinct_count: {column: code, min: 10}
  - quantile: {column: amount, q: 0.9, max: 950}
  - null_fraction: {column: qty, max: 0.05}
  - max: {column: id, max: 100000}
"""


def generated_rows(n=3000):
    rows = []
    for i in range(n):
        code = "c%d" % (i * 7 % 1500) if i % 11 else ("Bad-%d" % i if i % 3 else None)
        amount = float((i * 37) % 1100) + (0.25 if i % 2 else 0.0)
        qty = None if i % 97 == 0 else (i % 6) + (1 if i % 13 else 0)
        rows.append((i if i % 500 else i - 1, code, amount, qty))   # ids 499, 999, ... repeat
    return rows


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    folder = tmp_path_factory.mktemp("spark")
    rows = generated_rows()
    table = pa.table({"id": pa.array([r[0] for r in rows], pa.int64()),
                      "code": pa.array([r[1] for r in rows], pa.string()),
                      "amount": pa.array([r[2] for r in rows], pa.float64()),
                      "qty": pa.array([r[3] for r in rows], pa.int64())})
    path, rules = folder / "orders.parquet", folder / "rules.yaml"
    pq.write_table(table, path, row_group_size=500)
    rules.write_text(RULES)
    return path, rules


@pytest.fixture(scope="module")
def spark():
    from pyspark.sql import SparkSession
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    master = os.environ.get("GRIFFIN_SPARK_MASTER", "local-cluster[2,1,1024]")
    jars = subprocess.run([str(REPO / "scripts" / "fetch_spark_test_jars.sh")], capture_output=True, text=True,
                          check=True, timeout=300).stdout.strip()   # PostgreSQL's JDBC driver, Delta
    session = (SparkSession.builder.master(master).appName("griffin-tests")
               .config("spark.jars", jars)
               .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
               .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog")
               .config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1")
               .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
               .config("spark.sql.shuffle.partitions", "4")
               .config("spark.executorEnv.PYSPARK_PYTHON", sys.executable)
               .getOrCreate())
    yield session
    session.stop()


def cli_report(rules, *paths):
    out = subprocess.run([str(require_binary()), "validate", "-r", str(rules), *map(str, paths), "--format", "json",
                          "--no-store"], capture_output=True, text=True, timeout=120)
    assert out.returncode in (0, 1), out.stderr
    return json.loads(out.stdout)


def same_checks(ours, theirs):
    for a, b in zip(ours["checks"], theirs["checks"], strict=True):
        if isinstance(b.get("observed"), float):
            assert a["observed"] == pytest.approx(b["observed"], rel=1e-12), a["name"]
            a, b = dict(a, observed=0), dict(b, observed=0)
        assert a == b
    for field in ("rows", "bad_rows", "quality_score", "passed", "schema_errors"):
        assert ours[field] == theirs[field], field


@pytest.mark.parametrize("partitions,unique_merge", [(1, "shuffle"), (2, "shuffle"), (8, "shuffle"), (8, "driver")])
def test_report_equals_griffin_validate_check_by_check(spark, data, partitions, unique_merge):
    """Each `unique` key's rows meet in one shuffle task (unique_merge="shuffle",
    the default) or on the driver: the same report, the CLI's."""
    import griffin.spark
    path, rules = data
    df = spark.read.parquet(str(path)).repartition(partitions)
    result = griffin.spark.validate(df, str(rules), key="id", unique_merge=unique_merge)
    expected = cli_report(rules, path)
    same_checks(json.loads(result.report.to_json()), expected)
    assert expected["bad_rows"] > 0 and any(c["check"] == "unique" and c["violations"] > 0
                                            for c in expected["checks"])


def test_fewer_key_shards_than_partitions_give_the_same_report(spark, data):
    """The hash shuffle uses one shard per partition, at most
    spark.sql.shuffle.partitions: 8 partitions into 3 shards (each shard
    then merges the keys of all 8) give the CLI's report."""
    import griffin.spark
    from griffin.spark import key_shards
    path, rules = data
    df = spark.read.parquet(str(path)).repartition(8)
    before = spark.conf.get("spark.sql.shuffle.partitions")
    spark.conf.set("spark.sql.shuffle.partitions", "3")
    try:
        assert key_shards(df, 8) == 3
        result = griffin.spark.validate(df, str(rules), key="id")
    finally:
        spark.conf.set("spark.sql.shuffle.partitions", before)
    same_checks(json.loads(result.report.to_json()), cli_report(rules, path))
    assert key_shards(df, 8) == min(8, int(before))


def test_states_sent_in_many_chunks_give_the_same_report(spark, data, monkeypatch):
    """Each partition's state reaches the driver in chunks of STATE_CHUNK_BYTES
    (a 10M-row partition's ~145 MB state sent whole ran the driver's 2 GiB heap
    out of memory): with 512-byte chunks, dozens per partition, the report is
    still griffin validate's, check by check."""
    import griffin.spark
    import griffin.spark._executor as executor
    from pyspark.sql.pandas.types import to_arrow_schema
    monkeypatch.setattr(executor, "STATE_CHUNK_BYTES", 512)
    path, rules = data
    df = spark.read.parquet(str(path)).repartition(2)
    partial_states, merge_shards, _ = executor.executor_functions(rules.read_text(), to_arrow_schema(df.schema), 100,
                                                                  key_shards=2)
    states = df.mapInArrow(partial_states, executor.STATE_SCHEMA)
    kinds = states.groupBy("shard").count().collect()
    assert {r["shard"] for r in kinds} == {-1, 0, 1} and all(r["count"] > 4 for r in kinds)  # states, key shards
    merged = states.repartition(2, "shard").mapInArrow(merge_shards, executor.STATE_SCHEMA)
    assert merged.filter("shard >= 0").select("rows").distinct().collect()[0]["rows"] == 2   # every partition's keys
    for unique_merge in ("shuffle", "driver"):
        result = griffin.spark.validate(df, str(rules), key="id", unique_merge=unique_merge)
        same_checks(json.loads(result.report.to_json()), cli_report(rules, path))


def test_the_report_pass_reads_only_the_rule_columns_and_the_outputs_keep_every_column(spark, data, tmp_path):
    """Columns no rule reads (a wide table's) are pruned from the report's
    pass, as `griffin validate` reads a Parquet file: the scan and the Arrow
    hand-over carry only the rule columns. The report is the CLI's on the
    wide file; clean and quarantine keep every column."""
    import griffin.spark
    from griffin.spark import rule_columns
    path, rules = data
    wide = pq.read_table(path)
    for i in range(3):
        wide = wide.append_column("note_%d" % i, pa.array(["n%d-%d" % (i, r) for r in range(wide.num_rows)]))
    wide_path = tmp_path / "wide.parquet"
    pq.write_table(wide, wide_path, row_group_size=500)
    df = spark.read.parquet(str(wide_path))
    validator = griffin.Validator.from_yaml(str(rules))
    read = rule_columns(df, validator)
    assert read.columns == ["id", "code", "amount", "qty"]
    scan = read._jdf.queryExecution().executedPlan().toString()
    assert "note_0" not in scan and "ReadSchema" in scan, scan   # pruned in the Parquet scan itself
    result = griffin.spark.validate(df.repartition(3), str(rules), key="id")
    same_checks(json.loads(result.report.to_json()), cli_report(rules, wide_path))
    assert result.quarantine.columns == df.columns + ["_griffin_row", "_griffin_errors"]
    assert result.clean.count() + result.quarantine.count() == wide.num_rows
    assert {r["note_2"] for r in result.clean.select("note_2").collect()} <= set(wide.column("note_2").to_pylist())
    assert rule_columns(df.select("note_0"), validator).columns == ["note_0"]   # no rule column: all kept


def cli_quarantine(rules, path, folder):
    out = folder / "cli-quarantine.parquet"
    run = subprocess.run([str(require_binary()), "validate", "-r", str(rules), str(path), "--no-store",
                          "--quarantine", str(out), "--format", "json"], capture_output=True, text=True, timeout=120)
    assert run.returncode in (0, 1), run.stderr
    return pq.read_table(out)


def row_keys(rows):
    """Each row's data and its violated checks, as a sorted list (row ids and
    the 'duplicates row N' messages name rows by position, which differ)."""
    return sorted(repr((r["id"], r["code"], r["amount"], r["qty"], tuple(e["check"] for e in r["_griffin_errors"])))
                  for r in rows)


@pytest.mark.parametrize("partitions,key,unique_merge", [(1, "id", "shuffle"), (2, "id", "shuffle"), (8, "id", "shuffle"),
                                                        (8, None, "shuffle"), (8, None, "driver"),
                                                        (3, ["code", "id"], "shuffle")])
def test_clean_and_quarantine_hold_every_row_exactly_once(spark, data, tmp_path, partitions, key, unique_merge):
    import griffin.spark
    path, rules = data
    df = spark.read.parquet(str(path)).repartition(partitions)
    result = griffin.spark.validate(df, str(rules), key=key, max_violations=10**6, unique_merge=unique_merge)
    clean = result.clean.collect()
    quarantine = result.quarantine.collect()
    assert len(quarantine) == result.report.bad_rows > 0
    assert len(clean) + len(quarantine) == 3000
    everything = sorted(repr(tuple(r[c] for c in ("id", "code", "amount", "qty"))) for r in clean + quarantine)
    assert everything == sorted(map(repr, generated_rows()))
    assert result.quarantine.columns == df.columns + ["_griffin_row", "_griffin_errors"]
    assert len({r["_griffin_row"] for r in quarantine}) == len(quarantine)
    listed = {r["_griffin_row"] for r in quarantine}
    # every listed violation of an error check names a quarantined row, and no other
    error_checks = {c["name"] for c in result.report.checks if c["severity"] == "error"}
    assert {v["row"] for v in result.report.violations if v["check"] in error_checks} == listed
    if key == "id" or partitions == 1:
        # rows in the file's order (the key is the file's order): the CLI's quarantine, row by row
        assert row_keys(quarantine) == row_keys(cli_quarantine(rules, path, tmp_path).to_pylist())
    # a second action gives the same rows (the prepared partitions are kept)
    assert sorted(r["_griffin_row"] for r in result.quarantine.collect()) == sorted(listed)
    assert result.clean.count() == len(clean)


def test_quarantine_names_the_cross_partition_duplicate_with_its_first_row(spark, data):
    import griffin.spark
    path, rules = data
    result = griffin.spark.validate(spark.read.parquet(str(path)).repartition(8), str(rules), key="id")
    rows = result.quarantine.filter("id = 999").collect()
    assert len(rows) == 1   # ids 999 and 999 (row 1000 repeats row 999's id): the second is bad
    messages = [e["message"] for e in rows[0]["_griffin_errors"] if e["check"] == "id.unique"]
    assert messages and messages[0].startswith("id 999 duplicates row ")
    first = int(messages[0].rsplit(" ", 1)[1])
    assert first != rows[0]["_griffin_row"] and first >> griffin.spark.ROW_ID_SHIFT <= rows[0]["_griffin_row"] >> 33


def test_a_plain_file_scan_is_validated_without_a_checkpoint_and_splits_as_the_cli(spark, data, tmp_path):
    """A DataFrame read straight from files reads the same rows in the same
    partitions every time: no localCheckpoint (Catalyst keeps pruning the
    scan), and clean/quarantine still hold every row once, as the CLI's."""
    import griffin.spark
    from griffin.spark._plan import repeatable
    from pyspark.sql import functions as F
    path, rules = data
    spark.conf.set("spark.sql.files.maxPartitionBytes", "8192")   # several row groups: several partitions
    try:
        df = spark.read.parquet(str(path))
        assert repeatable(df) and repeatable(df.filter("qty > 1").select("id", "code"))
        assert not repeatable(df.repartition(2)) and not repeatable(df.withColumn("r", F.rand()))
        assert not repeatable(df.join(df.select("id"), "id"))
        result = griffin.spark.validate(df, str(rules), max_violations=10**6)
        assert result.partitions > 1
        assert "LogicalRDD" not in result._prepared._jdf.queryExecution().optimizedPlan().toString()
        same_checks(json.loads(result.report.to_json()), cli_report(rules, path))
        quarantine = result.quarantine.collect()
        assert len(quarantine) == result.report.bad_rows and result.clean.count() + len(quarantine) == 3000
        assert row_keys(quarantine) == row_keys(cli_quarantine(rules, path, tmp_path).to_pylist())
    finally:
        spark.conf.unset("spark.sql.files.maxPartitionBytes")


def test_a_csv_dataframe_and_a_table_by_name_give_the_cli_report(spark, data, tmp_path):
    """Sources other than a Parquet DataFrame: the same rows as a CSV file read
    by spark.read.csv (with the Parquet's schema; an empty field is null, as in
    the CLI), and the Parquet registered as a view and passed by its name. Each
    report equals `griffin validate` on the same file, check by check, and
    clean + quarantine hold every row once; both scans are repeatable."""
    import pyarrow.csv as pacsv

    import griffin.spark
    from griffin.spark._plan import repeatable
    path, rules = data
    csv = tmp_path / "orders.csv"
    pacsv.write_csv(pq.read_table(path), csv)
    parquet = spark.read.parquet(str(path))
    from_csv = spark.read.csv(str(csv), header=True, schema=parquet.schema)
    assert repeatable(from_csv)
    result = griffin.spark.validate(from_csv, str(rules), max_violations=10**6)
    from_file = cli_report(rules, csv)
    # A text file's report opens with its `malformed` check; Spark hands typed rows over.
    assert from_file["checks"][0]["name"] == "malformed" and from_file["checks"][0]["violations"] == 0
    from_file["checks"] = from_file["checks"][1:]
    same_checks(json.loads(result.report.to_json()), from_file)
    assert result.clean.count() + result.quarantine.count() == 3000
    parquet.createOrReplaceTempView("griffin_orders_view")
    try:
        by_name = griffin.spark.validate("griffin_orders_view", str(rules))
        same_checks(json.loads(by_name.report.to_json()), cli_report(rules, path))
        assert by_name.clean.count() + by_name.quarantine.count() == 3000
    finally:
        spark.catalog.dropTempView("griffin_orders_view")


def test_a_jdbc_dataframe_gives_the_report_of_the_same_postgresql_table(spark, data):
    """The rows in the test PostgreSQL, read by spark.read.jdbc (PostgreSQL's
    JDBC driver, scripts/fetch_spark_test_jars.sh): not repeatable, so
    localCheckpoint()ed; the report equals `griffin validate` on the same table
    read through ADBC (postgresql://...?table=), check by check, and clean +
    quarantine hold every row once."""
    from urllib.parse import unquote, urlparse

    import griffin.spark
    from griffin.spark._plan import repeatable
    from test_sql_sources import postgresql_ingest
    path, rules = data
    uri = postgresql_ingest("griffin_spark", "orders", pq.read_table(path))
    server = urlparse(uri)
    df = spark.read.jdbc(f"jdbc:postgresql://{server.hostname}:{server.port}{server.path}", "griffin_spark.orders",
                         properties={"user": unquote(server.username), "password": unquote(server.password or ""),
                                     "driver": "org.postgresql.Driver"})
    assert not repeatable(df)
    result = griffin.spark.validate(df, str(rules), max_violations=10**6)
    assert "LogicalRDD" in result._prepared._jdf.queryExecution().optimizedPlan().toString()   # the checkpoint
    same_checks(json.loads(result.report.to_json()), cli_report(rules, uri))
    assert result.report.rows == 3000
    assert result.clean.count() + result.quarantine.count() == 3000


def test_a_delta_dataframe_gives_the_report_of_the_same_delta_table(spark, data, tmp_path):
    """A Delta table written by `deltalake` in two commits, read by Spark's own
    Delta source (delta-spark 3.3.2): a file scan, so repeatable. A Delta table
    has no row order, and Spark reads the larger file first where the kernel
    lists the newer one first; which copy of a repeated key is the first (so
    bad_rows) depends on it. So the report equals `griffin validate` on the
    table's data files in Spark's order exactly, and `griffin validate
    delta:PATH` (the kernel's read) in every check's counts; clean +
    quarantine hold every row once."""
    from deltalake import write_deltalake
    from pyspark.sql import functions as F

    import griffin.spark
    from griffin.spark._plan import repeatable
    path, rules = data
    rows = pq.read_table(path)
    table = tmp_path / "orders_delta"
    write_deltalake(str(table), rows.slice(0, 1800))
    write_deltalake(str(table), rows.slice(1800), mode="append")
    df = spark.read.format("delta").load(str(table))
    assert repeatable(df)
    result = griffin.spark.validate(df, str(rules), max_violations=10**6)
    ours = json.loads(result.report.to_json())
    files = [r["file"] for r in df.select(F.input_file_name().alias("file"), F.monotonically_increasing_id().alias("at"))
             .groupBy("file").agg(F.min("at").alias("first")).orderBy("first").collect()]
    assert len(files) == 2
    same_checks(ours, cli_report(rules, *[f.removeprefix("file:") for f in files]))
    from_kernel = cli_report(rules, f"delta:{table}")
    for a, b in zip(ours["checks"], from_kernel["checks"], strict=True):
        assert (a["name"], a.get("violations"), a["passed"]) == (b["name"], b.get("violations"), b["passed"])
        if "observed" in b:
            assert a["observed"] == pytest.approx(b["observed"], rel=1e-12), a["name"]
    assert result.report.rows == 3000
    assert result.clean.count() + result.quarantine.count() == 3000


def test_clean_and_quarantine_refuse_partitions_that_changed_since_the_report(spark, data):
    """The file splits are planned again for each action: when they differ
    from the report's (here spark.sql.files.maxPartitionBytes changed in
    between), the tasks fail naming the fix instead of misplacing rows."""
    import griffin.spark
    path, rules = data
    result = griffin.spark.validate(spark.read.parquet(str(path)), str(rules))
    assert result.partitions == 1
    spark.conf.set("spark.sql.files.maxPartitionBytes", "8192")
    try:
        with pytest.raises(Exception, match="changed since validate"):
            result.quarantine.collect()
    finally:
        spark.conf.unset("spark.sql.files.maxPartitionBytes")


def test_save_records_the_run_and_griffin_history_lists_it(spark, data, tmp_path):
    import griffin.spark
    path, rules = data
    store = tmp_path / "runs.db"
    result = griffin.spark.validate(spark.read.parquet(str(path)).repartition(2), str(rules), key="id")
    run_id = result.save(str(store))
    assert json.loads(result.report.to_json())["run_id"] == run_id
    history = subprocess.run([str(require_binary()), "history", "spark_orders", "--store", str(store),
                              "--format", "json"], capture_output=True, text=True, timeout=60)
    assert history.returncode == 0, history.stderr
    runs = json.loads(history.stdout)
    runs = runs["runs"] if isinstance(runs, dict) else runs
    assert [r["run_id"] for r in runs] == [run_id]
    assert runs[0]["rows"] == 3000 and runs[0]["bad_rows"] == result.report.bad_rows
    shown = subprocess.run([str(require_binary()), "show", run_id, "--store", str(store), "--format", "json"],
                           capture_output=True, text=True, timeout=60)
    assert shown.returncode in (0, 1), shown.stderr
    same_checks(json.loads(shown.stdout), cli_report(rules, path))
    with pytest.raises(griffin.GriffinError, match="runs.txt"):
        result.save(str(tmp_path / "runs.txt"))


def test_missing_column_is_a_schema_error_every_row_bad(spark, data):
    import griffin.spark
    path, rules = data
    df = spark.read.parquet(str(path)).drop("qty").repartition(3)
    result = griffin.spark.validate(df, str(rules))
    report = json.loads(result.report.to_json())
    assert report["bad_rows"] == report["rows"] == 3000 and report["quality_score"] == 0
    assert [e["column"] for e in report["schema_errors"]] == ["qty"]
    assert result.clean.count() == 0 and result.quarantine.count() == 3000


def test_a_column_type_that_cannot_hold_the_rules_type_is_a_schema_error(spark, data):
    import griffin.spark
    path, rules = data
    cli_path = path.parent / "mistyped.parquet"
    df = spark.read.parquet(str(path)).withColumn("amount", __import__("pyspark.sql.functions").sql.functions
                                                  .col("amount").cast("timestamp"))
    df.coalesce(1).write.mode("overwrite").parquet(str(cli_path))
    result = griffin.spark.validate(spark.read.parquet(str(cli_path)).repartition(4), str(rules), key="id")
    report = json.loads(result.report.to_json())
    assert [e["column"] for e in report["schema_errors"]] == ["amount"]
    assert report["schema_errors"][0]["message"].startswith("input type timestamp[us")
    assert report["schema_errors"][0]["message"].endswith("cannot hold float64 without loss")
    assert report["bad_rows"] == report["rows"] == 3000
    # the CLI on the same file: Spark wrote the timestamps as INT96 (read back as timestamp[ns])
    expected = cli_report(rules, cli_path)
    for ours in (report, expected):
        ours["schema_errors"] = [dict(e, message=e["message"].split(" cannot hold")[1]) for e in ours["schema_errors"]]
    same_checks(report, expected)
    assert result.quarantine.count() == 3000 and result.clean.count() == 0


def spark_submit_env(**extra):
    """The environment of a spark-submit child: the project venv's Spark and
    python, this test's griffin (PYTHONPATH, for driver and executors)."""
    env = dict(os.environ, SPARK_LOCAL_IP="127.0.0.1", PYSPARK_PYTHON=sys.executable,
               PYSPARK_DRIVER_PYTHON=sys.executable)
    env["PATH"] = str(pathlib.Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    env.update(extra)
    return env


def test_griffin_validate_engine_spark_submits_the_job(data, tmp_path):
    path, rules = data
    store = tmp_path / "runs.db"
    run = subprocess.run([str(require_binary()), "validate", "--engine", "spark", "--master", "local-cluster[2,1,1024]",
                          "-r", str(rules), str(path), "--key", "id", "--format", "json", "--store", str(store)],
                         capture_output=True, text=True, timeout=600, env=spark_submit_env(), cwd=tmp_path)
    assert run.returncode == 1, run.stderr[-3000:]   # the generated data fails its checks
    report = json.loads(run.stdout[run.stdout.index("{"):])
    same_checks(report, cli_report(rules, path))
    history = subprocess.run([str(require_binary()), "history", "spark_orders", "--store", str(store), "--format",
                              "json"], capture_output=True, text=True, timeout=60)
    assert [r["run_id"] for r in json.loads(history.stdout)["runs"]] == [report["run_id"]]
    refused = subprocess.run([str(require_binary()), "validate", "--engine", "spark", "--master", "local[1]",
                              "-r", str(rules), str(path), "--html", "x.html"], capture_output=True, text=True,
                             timeout=60)
    assert refused.returncode == 2 and "--html: not with --engine spark" in refused.stderr
    local = subprocess.run([str(require_binary()), "validate", "--master", "local[1]", "-r", str(rules), str(path)],
                           capture_output=True, text=True, timeout=60)
    assert local.returncode == 2 and "--master: only with --engine spark" in local.stderr


def test_the_example_job_runs_with_spark_submit(data, tmp_path):
    path, rules = data
    example = pathlib.Path(__file__).resolve().parents[2] / "examples" / "spark_validate.py"
    run = subprocess.run(["spark-submit", "--master", "local-cluster[2,1,1024]", "--conf", "spark.ui.enabled=false",
                          str(example), str(rules), str(path), "--key", "id", "--out", str(tmp_path / "out")],
                         capture_output=True, text=True, timeout=600, env=spark_submit_env(), cwd=tmp_path)
    assert run.returncode == 1, run.stderr[-3000:]
    report = json.loads(run.stdout[run.stdout.index("{"):])
    expected = cli_report(rules, path)
    same_checks(report, expected)
    quarantine = pq.read_table(tmp_path / "out" / "quarantine")
    clean = pq.read_table(tmp_path / "out" / "clean")
    assert quarantine.num_rows == expected["bad_rows"] and quarantine.num_rows + clean.num_rows == 3000


MISSING_WHEEL_JOB = """
import sys
sys.path.insert(0, sys.argv[3]) if sys.argv[3] else None   # this test's griffin, for the driver only
from pyspark.sql import SparkSession
import griffin.spark
spark = SparkSession.builder.getOrCreate()
try:
    griffin.spark.validate(spark.read.parquet(sys.argv[2]), sys.argv[1])
except Exception as error:
    print("FAILED:", error)
    sys.exit(7)
"""


def test_an_executor_without_griffin_fails_naming_the_fix(data, tmp_path):
    path, rules = data
    # The executors' python: the bare interpreter under the venv (no griffin),
    # with only pyarrow, numpy and pandas on its path (mapInArrow needs them).
    site = pathlib.Path(pa.__file__).resolve().parent.parent
    bare_path = tmp_path / "executor-path"
    bare_path.mkdir()
    for name in ("pyarrow", "numpy", "pandas", "dateutil", "six.py", "tzdata", "pytz"):
        if (site / name).exists():
            (bare_path / name).symlink_to(site / name)
    job = tmp_path / "job.py"
    job.write_text(MISSING_WHEEL_JOB)
    driver_griffin = os.environ.get("PYTHONPATH", "")
    env = spark_submit_env(PYSPARK_PYTHON=os.path.realpath(sys.executable))
    env.pop("PYTHONPATH", None)
    run = subprocess.run(["spark-submit", "--master", "local-cluster[2,1,1024]", "--conf", "spark.ui.enabled=false",
                          "--conf", f"spark.executorEnv.PYTHONPATH={bare_path}", "--conf", "spark.task.maxFailures=1",
                          str(job), str(rules), str(path), driver_griffin.split(os.pathsep)[0]],
                         capture_output=True, text=True, timeout=600, env=env, cwd=tmp_path)
    assert run.returncode == 7, run.stderr[-3000:]
    assert "griffin is not installed in this Spark executor's Python" in run.stdout, run.stdout[-3000:]
    assert "spark.archives=griffin-env.tar.gz#env" in run.stdout and "PYSPARK_PYTHON=./env/bin/python" in run.stdout


def test_the_driver_refuses_a_report_from_fewer_states_than_partitions():
    """collect_states: a collect that brings fewer partial states than the
    validated DataFrame has partitions (a collect cut short) is an error naming
    the likely cause, not a report of fewer rows; a full one comes back in
    partition order. No cluster needed: the frame is a stand-in with collect()."""
    from griffin.spark._executor import collect_states

    class Collected:
        def __init__(self, rows):
            self.rows = rows

        def collect(self):
            return self.rows

    # States come in chunks (STATE_CHUNK_BYTES each), in any order: joined in chunk order.
    rows = [{"partition": 1, "rows": 5, "shard": -1, "chunk": 1, "state": b"b2"},
            {"partition": 0, "rows": 7, "shard": -1, "chunk": 0, "state": b"a"},
            {"partition": 1, "rows": 5, "shard": -1, "chunk": 0, "state": b"b1"}]
    assert collect_states(Collected(rows), 2) == ([0, 1], [7, 5], [b"a", b"b1b2"], [])
    with pytest.raises(RuntimeError, match=r"1 partial states reached the driver for 2 partitions.*driver.memory"):
        collect_states(Collected(rows[1:2]), 2)
    # A state missing a chunk is not a state.
    with pytest.raises(RuntimeError, match=r"1 partial states reached the driver for 2 partitions"):
        collect_states(Collected(rows[:2]), 2)
    # Key shards' duplicates (unique_merge="shuffle"): every shard's, whole, in shard order.
    shards = [{"partition": -1, "rows": 2, "shard": 1, "chunk": 0, "state": b"d1"},
              {"partition": -1, "rows": 2, "shard": 0, "chunk": 1, "state": b"0b"},
              {"partition": -1, "rows": 2, "shard": 0, "chunk": 0, "state": b"d0a"}]
    assert collect_states(Collected(rows + shards), 2, 2) == ([0, 1], [7, 5], [b"a", b"b1b2"], [b"d0a0b", b"d1"])
    with pytest.raises(RuntimeError, match=r"the duplicates of 1 unique key shards reached the driver, of 2"):
        collect_states(Collected(rows + shards[:1]), 2, 2)
    with pytest.raises(RuntimeError, match=r"the duplicates of 1 unique key shards reached the driver, of 2"):
        collect_states(Collected(rows + shards[:2]), 2, 2)
