"""PyDeequ on Spark local[2]: one VerificationSuite (Deequ 2.0.7-spark-3.5, the
jar from bench/fetch_deequ.sh) over a Spark DataFrame typed with Spark SQL as
rules-v1 types text. Native constraints: hasSize, isComplete (not_null),
hasDistinctness (unique), hasCompleteness (null_fraction), hasMean; the rest are
`satisfies` SQL predicates (types, range, in, regex via RLIKE, length, the row
expression). Deequ reports ratios: a count is round(rows * (1 - ratio)), exact at
these sizes. The JVM is a child of this process: its peak RSS (VmHWM) and CPU
time are read from /proc and added to this process's (rss_extra_kib, cpu_extra_s)."""
import os
import pathlib
import subprocess

import measure
import suite

VERSIONS = ["pyspark", "pydeequ"]
NOT_EXPRESSIBLE = {}
SPARK_VERSION = "3.5"
BENCH_DIR = pathlib.Path(__file__).resolve().parent.parent


def jar():
    """The Deequ jar's path (bench/fetch_deequ.sh fetches it once)."""
    return subprocess.run([str(BENCH_DIR / "fetch_deequ.sh")], check=True, capture_output=True,
                          text=True).stdout.strip()


def setup(spark=None):
    """`spark`: a session started with jar() in spark.jars (bench/run_spark_bench.py's
    cluster); None starts run_peers.py's local[2]."""
    os.environ.setdefault("SPARK_VERSION", SPARK_VERSION)  # pydeequ reads it at import
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")  # loopback only
    if spark is not None:
        return {"spark": spark, "jvm_pid": spark.sparkContext._gateway.proc.pid}
    from pyspark.sql import SparkSession
    spark = (SparkSession.builder.master("local[2]").appName("griffin-bench")
             .config("spark.jars", jar())
             .config("spark.driver.memory", os.environ.get("GRIFFIN_BENCH_SPARK_MEMORY", "8g"))
             .config("spark.sql.session.timeZone", "UTC")
             .config("spark.sql.legacy.timeParserPolicy", "CORRECTED")  # invalid dates -> null
             .config("spark.ui.enabled", "false")
             .config("spark.ui.showConsoleProgress", "false")
             .config("spark.sql.shuffle.partitions", "4")
             # With column pruning on, DROPMALFORMED keeps short records when only
             # some columns are read (count() and collect() then disagree).
             .config("spark.sql.csv.parser.columnPruning.enabled", "false")
             .getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    return {"spark": spark, "jvm_pid": spark.sparkContext._gateway.proc.pid}


def load(ctx, path):
    frame = ctx["spark"].read.parquet(str(path)).cache()
    frame.count()  # materialize the cache: the frame is in memory before timing
    return frame


def _typed(frame, text_input):
    from pyspark.sql import functions as F
    from pyspark.sql.types import DoubleType, LongType

    def parsed(column, pattern, cast):
        text = F.trim(F.col(column))
        return F.when(text.rlike("^(?:" + pattern + ")$"), cast(text))

    columns = {"created_at_text": F.col("created_at"),
               "created_at": F.when(F.col("created_at").rlike("^(?:" + suite.TIMESTAMP_RE + ")$"),
                                    F.to_timestamp(F.col("created_at"), "yyyy-MM-dd'T'HH:mm:ssX"))}
    if text_input:
        columns.update({"amount_text": F.col("amount"), "label_text": F.col("label"),
                        "amount": parsed("amount", suite.FLOAT_RE, lambda t: t.cast(DoubleType())),
                        "label": parsed("label", suite.INT_RE, lambda t: t.cast(LongType()))})
    return frame.withColumns(columns)


def _run(ctx, frame, text_input):
    from pydeequ.checks import Check, CheckLevel
    from pydeequ.verification import VerificationResult, VerificationSuite
    spark = ctx["spark"]
    df = _typed(frame, text_input)
    currencies = ", ".join(f"'{c}'" for c in suite.CURRENCIES)
    # check -> Spark SQL that holds on a passing row (null = fails, as Deequ's Compliance counts)
    holds = {
        "amount.max": f"amount IS NULL OR amount <= {suite.AMOUNT_MAX}",  # Spark: NaN > any number
        "currency.in": f"currency IS NULL OR currency IN ({currencies})",
        "email.regex": "email IS NULL OR email RLIKE '" + suite.EMAIL_RE.replace("\\", "\\\\") + "'",
        "label.in": "label IS NULL OR label IN (0, 1)",
        "created_at.type": "created_at_text IS NULL OR created_at IS NOT NULL",
        "country.length": f"country IS NULL OR char_length(country) = {suite.COUNTRY_LENGTH}",
        "refunds_are_negative": "coalesce(NOT (kind = 'refund' AND amount IS NOT NULL AND NOT (amount < 0)), true)",
    }
    if text_input:
        holds["amount.type"] = "amount_text IS NULL OR amount IS NOT NULL"
        holds["label.type"] = "label_text IS NULL OR label IS NOT NULL"
    check = (Check(spark, CheckLevel.Error, "suite").hasSize(lambda n: n >= 0)
             .hasDistinctness(["txn_id"], lambda d: d == 1.0)
             .isComplete("account_id")
             .hasCompleteness("email", lambda c: c >= 0.95)
             .hasMean("label", lambda m: m <= 0.05))
    for name, sql in holds.items():
        check = check.satisfies(sql, name, lambda ratio: ratio == 1.0)
    result = VerificationSuite(spark).onData(df).addCheck(check).run()
    metrics = VerificationResult.successMetricsAsJson(spark, result)
    by_key = {(m["name"], m["instance"]): m["value"] for m in metrics}
    rows = int(by_key[("Size", "*")])
    counts = {"evaluated_rows": rows}

    def violations(ratio):
        return int(round(rows * (1.0 - ratio)))

    nonnull_ids = rows  # txn_id is never null in this data; Distinctness divides by all rows
    counts["txn_id.unique"] = int(round(nonnull_ids * (1.0 - by_key[("Distinctness", "txn_id")])))
    counts["account_id.not_null"] = violations(by_key[("Completeness", "account_id")])
    for name in holds:
        counts[name] = violations(by_key[("Compliance", name)])
    if not text_input:
        counts["amount.type"] = counts["label.type"] = 0
    counts["email.null_fraction"] = 1.0 - by_key[("Completeness", "email")]
    counts["label.mean"] = float(by_key[("Mean", "label")])
    return counts


def from_csv(ctx, path):
    """Spark's CSV reader, every column as text (the header's names), records
    with the wrong field count dropped (DROPMALFORMED), RFC 4180 quotes."""
    from pyspark.sql.types import StringType, StructField, StructType
    with open(path, encoding="utf-8") as file:
        header = file.readline().rstrip("\r\n").split(",")
    schema = StructType([StructField(name, StringType()) for name in header])
    frame = ctx["spark"].read.csv(str(path), schema=schema, header=True, mode="DROPMALFORMED",
                                  quote='"', escape='"', encoding="UTF-8")
    return _run(ctx, frame, text_input=True)


def from_frame(ctx, frame):
    return _run(ctx, frame, text_input=dict(frame.dtypes)["amount"] == "string")


def rss_extra_kib(ctx):
    return measure.peak_rss_kib(ctx["jvm_pid"])


def cpu_extra_s(ctx):
    fields = pathlib.Path(f"/proc/{ctx['jvm_pid']}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def teardown(ctx):
    # pydeequ's assertion lambdas started py4j's callback server (a non-daemon
    # thread): without its shutdown the process would never exit.
    ctx["spark"].sparkContext._gateway.shutdown_callback_server()
    ctx["spark"].stop()
