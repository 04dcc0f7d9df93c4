"""The Spark session every tool of bench/run_spark_bench.py runs on: the same
master (local-cluster[N,1,1024]: N executor JVMs of one core and 1 GiB each,
as tests/python/test_spark.py starts them), on loopback only, with the Python
workers running this process's interpreter (PYSPARK_PYTHON: .venv for Griffin,
.venv-bench for the peers). Identical settings for every tool."""
import os
import sys

DRIVER_MEMORY = "2g"


def session(master, app, jars=None):
    from pyspark.sql import SparkSession
    os.environ["SPARK_LOCAL_IP"] = "127.0.0.1"
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    builder = (SparkSession.builder.master(master).appName(app)
               .config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1")
               .config("spark.driver.memory", DRIVER_MEMORY)
               .config("spark.executorEnv.PYSPARK_PYTHON", sys.executable)
               .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
               .config("spark.sql.shuffle.partitions", "4")
               .config("spark.sql.session.timeZone", "UTC")
               .config("spark.sql.legacy.timeParserPolicy", "CORRECTED"))   # invalid dates -> null
    if jars:
        builder = builder.config("spark.jars", ",".join(jars))
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark
