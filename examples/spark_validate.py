"""Validate a Parquet dataset on Spark with Griffin's rules, and split it.

    spark-submit --master local-cluster[2,1,1024] examples/spark_validate.py \\
        examples/transactions.rules.yaml transactions.parquet --key txn_id --out out/

Prints the JSON report (the same as `griffin validate --format json` on the
same rows), writes out/clean and out/quarantine (Parquet folders) when --out
is given, and exits 0 when the run passed, 1 when it failed its checks.
On a cluster, ship the griffin wheel in a packed venv (docs/spark.md):
    --archives griffin-env.tar.gz#env --conf spark.pyspark.python=./env/bin/python \
    --conf spark.pyspark.driver.python=python   (the driver's own python, with griffin and pyspark)
"""
import argparse
import sys

from pyspark.sql import SparkSession

import griffin.spark


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("rules")
    parser.add_argument("data", nargs="+")
    parser.add_argument("--key", help="a column that orders the rows (the first occurrence of a key passes)")
    parser.add_argument("--out", help="a folder for the clean and quarantine Parquet outputs")
    parser.add_argument("--store", help="record the run in this run store (griffin history lists it)")
    args = parser.parse_args()

    spark = SparkSession.builder.appName("griffin example").getOrCreate()
    df = spark.read.parquet(*args.data)
    result = griffin.spark.validate(df, args.rules, key=args.key)
    if args.store:
        result.save(args.store)   # the report's run_id is the recorded run's
    print(result.report.to_json())
    if args.out:
        result.clean.write.mode("overwrite").parquet(args.out + "/clean")
        result.quarantine.write.mode("overwrite").parquet(args.out + "/quarantine")
    spark.stop()
    return 0 if result.report.passed else 1


if __name__ == "__main__":
    sys.exit(main())
