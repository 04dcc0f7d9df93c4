"""Great Expectations on Spark (bench/run_spark_bench.py): the suite of
bench/tools/gx.py (the same expectations; the row expression's condition in
Spark SQL, condition_parser "spark") over a Spark DataFrame of the Parquet file,
GX's Spark data source (SparkDFExecutionEngine, its default persist=True: GX
caches the batch's DataFrame). The Parquet copy types amount and label, so their
type checks are 0; created_at's is expect_column_values_to_match_strftime_format,
which GX runs on Spark as a Python UDF (executors' Python workers)."""
from tools import gx

VERSIONS = ["great_expectations", "pyspark"]
NOT_EXPRESSIBLE = {}


def setup(spark):
    context = gx.context()
    asset = context.data_sources.add_spark("bench").add_dataframe_asset("frame")
    return {"spark": spark, "definition": asset.add_batch_definition_whole_dataframe("whole"),
            "suite": gx.add_suite(context, "suite_spark", gx._expectations(False, "spark"))}


def from_parquet(ctx, path):
    from pyspark.sql import functions as F
    # the suite's type check reads created_at_text (as frames.pandas_typed names the text)
    frame = ctx["spark"].read.parquet(str(path)).withColumn("created_at_text", F.col("created_at"))
    batch = ctx["definition"].get_batch(batch_parameters={"dataframe": frame})
    result = batch.validate(ctx["suite"])
    nulls = next(r for r in result.results if r.expectation_config.meta["check"] == "email.null_fraction")
    rows = int(nulls.result["element_count"])   # every row: not_null counts over all of them
    return gx.counts_of(result, rows, False)
