#!/usr/bin/env python3
"""One tool of bench/run_spark_bench.py in its own process (and its own Spark
session on --master, bench/spark_cluster.py), under the venv that holds it.

    python bench/spark_child.py griffin|pydeequ|gx|griffin-local --master M --data P.parquet --runs 3 --warmup 1

Each timed run starts from the Parquet file (spark.read.parquet: Catalyst may
prune its columns) and ends with the counts on the driver. A tool with several
jobs (griffin: native and sql; griffin-local: the file and the Arrow table)
runs them interleaved. Prints one JSON object: per job the counts (every run
must agree) and wall_s per run; setup_s, versions, not_expressible, notes.
"""
import argparse
import json
import os
import pathlib
import sys
import time

BENCH_DIR = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH_DIR))

import suite  # noqa: E402
from child import _versions  # noqa: E402


def _griffin(args):
    import griffin.spark
    import spark_cluster
    from tools.griffin_py import counts_of
    spark = spark_cluster.session(args.master, "griffin-bench")
    notes = {}

    def run(mode, key=None, unique_merge="shuffle"):
        def once():
            frame = spark.read.parquet(args.data)
            result = griffin.spark.validate(frame, str(suite.RULES_PATH), mode=mode, key=key, max_violations=0,
                                            unique_merge=unique_merge)
            notes[mode] = {"partitions": result.partitions,
                           "ran_in_spark_sql": sorted(k for k, v in result.ran_in.items() if v == "database")}
            return counts_of(result.report.to_dict())
        return once
    # griffin-native-key: key= orders rows by txn_id first (a range shuffle and Spark's
    # sampling job): what that costs. The counts are order-free, so they still equal.
    # griffin-native-driver: unique's key sets merged on the driver instead of by a
    # hash shuffle of the keys (unique_merge="driver").
    return ({"griffin-native": run("native"), "griffin-native-driver": run("native", unique_merge="driver"),
             "griffin-native-key": run("native", "txn_id"), "griffin-sql": run("sql")},
            notes, spark.stop, ["griffin", "pyspark"])


def _griffin_local(args):
    import griffin
    import pyarrow.parquet as pq
    from tools.griffin_py import counts_of
    validator = griffin.Validator.from_yaml(str(suite.RULES_PATH))
    table = pq.read_table(args.data)   # untimed: the Arrow table is in memory before timing
    return ({"in-process-file": lambda: counts_of(validator.validate(args.data, max_violations=0).to_dict()),
             "in-process-table": lambda: counts_of(validator.validate(table, max_violations=0).to_dict())},
            {"threads": os.cpu_count()}, lambda: None, ["griffin", "pyarrow"])


def _pydeequ(args):
    import spark_cluster
    from tools import deequ
    spark = spark_cluster.session(args.master, "pydeequ-bench", jars=[deequ.jar()])
    ctx = deequ.setup(spark)
    return ({"pydeequ": lambda: deequ.from_frame(ctx, spark.read.parquet(args.data))}, {},
            lambda: deequ.teardown(ctx), deequ.VERSIONS)


def _gx(args):
    import spark_cluster
    from tools import gx_spark
    spark = spark_cluster.session(args.master, "gx-bench")
    ctx = gx_spark.setup(spark)
    return ({"gx-spark": lambda: gx_spark.from_parquet(ctx, args.data)}, {}, spark.stop, gx_spark.VERSIONS)


TOOLS = {"griffin": _griffin, "griffin-local": _griffin_local, "pydeequ": _pydeequ, "gx": _gx}


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("tool", choices=sorted(TOOLS))
    parser.add_argument("--master", default="local-cluster[2,1,1024]")
    parser.add_argument("--data", required=True)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--warmup", type=int, default=1)
    args = parser.parse_args(argv)
    # Only the JSON goes to stdout: the JVM and py4j print to fd 1.
    result_out = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    started = time.perf_counter()
    jobs, notes, stop, versions = TOOLS[args.tool](args)
    out = {"tool": args.tool, "master": args.master, "setup_s": time.perf_counter() - started, "jobs": {}}
    for name, once in jobs.items():
        for _ in range(args.warmup):
            started = time.perf_counter()
            once()
            print(f"progress: {name} warm-up {time.perf_counter() - started:.2f} s", file=sys.stderr, flush=True)
        out["jobs"][name] = {"counts": None, "wall_s": []}
    for _ in range(args.runs):
        for name, once in jobs.items():
            started = time.perf_counter()
            counts = once()
            seconds = time.perf_counter() - started
            print(f"progress: {name} run {seconds:.2f} s", file=sys.stderr, flush=True)
            job = out["jobs"][name]
            if job["counts"] is not None and not suite.same_counts(job["counts"], counts):
                raise SystemExit(f"{name}: counts changed between runs: {job['counts']} vs {counts}")
            job["counts"] = counts
            job["wall_s"].append(seconds)
    out.update(notes=notes, versions=_versions(versions))
    stop()
    result_out.write(json.dumps(out) + "\n")
    result_out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
