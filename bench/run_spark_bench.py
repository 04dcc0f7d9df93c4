#!/usr/bin/env python3
"""Griffin on Spark against PyDeequ and Great Expectations on Spark (issue 14),
in one run, on the same cluster settings and the same Parquet file
(bench/datasets.py's transactions, bench/suite.rules.yaml's 13 checks):

  griffin-native   griffin.spark.validate(df, rules, mode="native"): mapInArrow, the engine per partition,
                   unique's keys merged by a hash shuffle of the keys (unique_merge="shuffle", the default)
  griffin-native-driver  the same with unique_merge="driver": every partition's key set merged on the driver
  griffin-native-key  the same with key="txn_id": rows range-partitioned and sorted by the key first
                   (one shuffle plus Spark's sampling job): what key= costs
  griffin-sql      griffin.spark.validate(df, rules, mode="sql"): one Spark SQL aggregation + the engine
                   for what Spark SQL cannot judge (here the regex, the row expression, the timestamp
                   type and, with them, the error-severity unique; the report's ran_in says which)
  pydeequ          bench/tools/deequ.py's VerificationSuite (Deequ 2.0.7-spark-3.5)
  gx-spark         bench/tools/gx_spark.py: the GX suite of the peer benchmark on GX's Spark data source
  in-process       griffin.Validator.validate in one process, no Spark: on the Parquet file, and on the
                   same rows as an Arrow table loaded before timing (the mapInArrow overhead's baseline)

Each Spark tool runs in its own process (bench/spark_child.py) and its own session
on the same master, local-cluster[N,1,1024] (N executor JVMs, one core and 1 GiB each,
loopback only: bench/spark_cluster.py), Griffin's in .venv, the peers' in .venv-bench.
Every timed run starts from spark.read.parquet(FILE) and ends with the counts on the
driver; max_violations=0 for Griffin (no violation samples: the peers gather none).

Correctness first: every tool's count of every check it can express must equal
`griffin validate -r bench/suite.rules.yaml FILE` (bench/compare.py; a documented
difference must keep to its bound, bench/suite.py); otherwise the run fails before
any time is shown. Then the medians of --runs wall times (after --warmup), the ratios
to griffin-native, the scaling from 1 executor to 2 and the mapInArrow overhead.

    .venv/bin/python bench/run_spark_bench.py --rows 1000000           # make spark-bench
    .venv/bin/python bench/run_spark_bench.py --rows 10000000 --runs 1
    .venv/bin/python bench/run_spark_bench.py --quick                   # 20k rows, 2 executors, counts only
    .venv/bin/python bench/run_spark_bench.py --rows 10000000 --runs 1 --tools griffin pydeequ   # a run split by tool
"""
import argparse
import json
import os
import pathlib
import subprocess
import sys
import time

REPO = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))

import compare  # noqa: E402
import datasets  # noqa: E402
import suite  # noqa: E402
from run_delta_bench import griffin_counts  # noqa: E402

CHILD = REPO / "bench" / "spark_child.py"
# child tool -> its venv
VENVS = {"griffin": ".venv", "griffin-local": ".venv", "pydeequ": ".venv-bench", "gx": ".venv-bench"}
SPARK_TOOLS = ["griffin", "pydeequ", "gx"]
MASTERS = ["local-cluster[2,1,1024]", "local-cluster[1,1,1024]"]
JOBS = suite.SPARK_JOBS


def run_child(tool, master, data, runs, warmup):
    command = [str(REPO / VENVS[tool] / "bin" / "python"), str(CHILD), tool, "--master", master,
               "--data", str(data), "--runs", str(runs), "--warmup", str(warmup)]
    print(f"# {tool} on {master}", file=sys.stderr, flush=True)
    done = subprocess.run(command, stdout=subprocess.PIPE, timeout=7200)
    if done.returncode != 0:
        raise SystemExit(f"{tool} on {master} exited {done.returncode} (its stderr is above)")
    return json.loads(done.stdout)


def median(values):
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def check_counts(reference, results):
    """Every job's counts against griffin validate's; exits on an undocumented difference."""
    jobs = {"griffin": {"counts": reference}}
    for name, job in results.items():
        jobs[name] = {"counts": job["counts"], "scenario": "parquet", "not_expressible": {}}
    rows, ok = compare.compare(jobs, malformed_rows=0)
    print(compare.count_table(jobs))
    for row in rows:
        print(f"  {row['tool']} {row['check']}: {compare.format_value(row['value'])} vs griffin validate "
              f"{compare.format_value(row['griffin'])}: {row['reason'] or 'UNDOCUMENTED'}"
              + ("" if row["allowed"] else " (outside its bound)"))
    if not ok:
        raise SystemExit("counts differ from griffin validate's (above): no timing is shown")
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="20k rows, 2 executors, 1 run, counts only")
    parser.add_argument("--rows", type=int, default=None, help="default 1,000,000 (20,000 with --quick)")
    parser.add_argument("--runs", type=int, default=None, help="timed runs per job (default 3; 1 with --quick)")
    parser.add_argument("--warmup", type=int, default=None, help="untimed runs first (default 1; 0 with --quick)")
    parser.add_argument("--masters", nargs="+", default=None, help="Spark masters (default: 2 executors, then 1)")
    parser.add_argument("--tools", nargs="+", choices=SPARK_TOOLS, default=SPARK_TOOLS,
                        help="the Spark tools to run (default all; split a long run by tool)")
    parser.add_argument("--json", metavar="PATH", help="the raw results (default bench/data/spark_results_ROWS.json)")
    parser.add_argument("--report", metavar="PATH", help="print the tables of a --json file again; run nothing")
    args = parser.parse_args()
    if args.report:
        return report(json.loads(pathlib.Path(args.report).read_text()), quick=args.quick)
    rows = args.rows or (20_000 if args.quick else 1_000_000)
    runs = args.runs or (1 if args.quick else 3)
    warmup = args.warmup if args.warmup is not None else (0 if args.quick else 1)
    masters = args.masters or (MASTERS[:1] if args.quick else MASTERS)
    data = datasets.transactions(rows, "parquet")
    reference, _ = griffin_counts([data])
    if reference["evaluated_rows"] != rows:
        raise SystemExit(f"griffin validate evaluated {reference['evaluated_rows']} rows of {rows}")
    load_before = os.getloadavg()
    started = time.perf_counter()
    local = run_child("griffin-local", "none", data, runs, warmup)
    by_master = {}
    for master in masters:
        jobs = {}
        for tool in args.tools:
            child = run_child(tool, master, data, runs, warmup)
            for name, job in child["jobs"].items():
                jobs[name] = dict(job, notes=child["notes"], versions=child["versions"], setup_s=child["setup_s"])
        by_master[master] = jobs
    load_after = os.getloadavg()
    summary = {"rows": rows, "file_mb": round(data.stat().st_size / 1e6, 1), "runs": runs, "warmup": warmup,
               "cores": os.cpu_count(), "loadavg_before": load_before, "loadavg_after": load_after,
               "total_s": round(time.perf_counter() - started), "masters": masters, "reference": reference,
               "in_process": local, "by_master": by_master}
    out = pathlib.Path(args.json or datasets.DATA_DIR / f"spark_results_{rows}.json")
    out.write_text(json.dumps(summary, indent=1))
    print(f"raw results: {out}", file=sys.stderr)
    report(summary, quick=args.quick)


def report(summary, quick):
    """Counts first (exits on an undocumented difference), then the timing tables."""
    print(f"{summary['rows']:,} rows ({summary['file_mb']:,.1f} MB Parquet), {summary['cores']} cores, "
          f"load average {summary['loadavg_before'][0]:.1f} -> {summary['loadavg_after'][0]:.1f}, "
          f"{summary['total_s']} s in all")
    for master, jobs in summary["by_master"].items():
        print(f"\ncounts on {master} (first column: griffin validate on the file)")
        check_counts(summary["reference"], {**jobs, **summary["in_process"]["jobs"]})
    if quick:
        print("\nquick: counts only (no timing claims)")
        return
    print_table(summary["by_master"], summary["in_process"], summary["masters"], summary["runs"])


def print_table(by_master, local, masters, runs):
    first = masters[0]
    has_native = "griffin-native" in by_master[first]
    native = median(by_master[first]["griffin-native"]["wall_s"]) if has_native else None
    in_file = median(local["jobs"]["in-process-file"]["wall_s"])
    in_table = median(local["jobs"]["in-process-table"]["wall_s"])
    header = ["tool"] + [f"{m} s" for m in masters] + ["/ griffin-native"]
    if len(masters) > 1:
        header.append(f"speedup {masters[1]} -> {first}")
    print(f"\nwall time, median of {runs} (seconds)\n| " + " | ".join(header) + " |")
    print("|" + " --- |" * len(header))
    for name in [job for job in JOBS if all(job in by_master[m] for m in masters)]:
        times = [median(by_master[m][name]["wall_s"]) for m in masters]
        cells = [name] + [f"{t:.2f}" for t in times] + [f"{times[0] / native:.2f}" if native else "-"]
        if len(masters) > 1:
            cells.append(f"{times[1] / times[0]:.2f}")
        print("| " + " | ".join(cells) + " |")
    if not has_native:
        return
    print(f"\nmapInArrow overhead (griffin-native on {first} vs the same validation in one process):")
    print(f"| in-process on the file s | in-process on the Arrow table s | griffin-native s | "
          f"native / file | native / table |\n| --- | --- | --- | --- | --- |")
    print(f"| {in_file:.2f} | {in_table:.2f} | {native:.2f} | {native / in_file:.2f} | {native / in_table:.2f} |")
    if "griffin-sql" not in by_master[first]:
        return
    sql = by_master[first]["griffin-sql"]["notes"].get("sql", {})
    print(f"\ngriffin-sql: in Spark SQL {', '.join(sql.get('ran_in_spark_sql', []))}; the rest in the engine")
    print(f"partitions: {by_master[first]['griffin-native']['notes'].get('native', {}).get('partitions')}")


if __name__ == "__main__":
    main()
