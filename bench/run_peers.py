#!/usr/bin/env python3
"""Griffin against its peers: the same 13 checks (bench/suite.rules.yaml), the
same data, the same counts, in one run. `make bench` runs the full version.

    python bench/run_peers.py --quick                   # CI: 20k rows, 1 run, counts only
    python bench/run_peers.py                           # 1M and 10M rows, 5 runs; writes docs/
    python bench/run_peers.py --rows 1000000 --tools griffin,duckdb,polars --no-docs

For each size: the generator's CSV and its Parquet copy (bench/datasets.py).
Scenarios: csv (from the CSV on disk to counts), memory (from the tool's frame
of the Parquet copy to counts) and latency (10,000 rows in memory, per call).
Every tool runs in its own child process (bench/child.py; one process per
scenario in the full run, so peak RSS is per tool and scenario), under the venv
that holds it (bench/tools/__init__.py). Griffin's CLI runs as a process per run.

Exits 1 when a count differs from Griffin's without a documented reason
(bench/suite.py ALLOWED_DIFFERENCES), or when an installed tool failed to run;
with --require-all (CI) also when a tool is not installed. Never on speed.
This process imports no numpy/pyarrow: its RSS would leak into the children's
ru_maxrss (bench/measure.py).
"""
import argparse
import json
import os
import pathlib
import statistics
import subprocess
import sys
import time

BENCH_DIR = pathlib.Path(__file__).resolve().parent
REPO_ROOT = BENCH_DIR.parent
sys.path.insert(0, str(BENCH_DIR))

import compare  # noqa: E402
import datasets  # noqa: E402
import machine  # noqa: E402
import measure  # noqa: E402
import suite  # noqa: E402
from tools import TOOLS  # noqa: E402

LATENCY_ROWS = 10_000
CLI = "griffin-cli"
RESULTS = datasets.DATA_DIR / "peers_results.json"


def griffin_binary():
    return pathlib.Path(os.environ.get("GRIFFIN_BIN", REPO_ROOT / "build" / "griffin"))


def interpreter(tool):
    return REPO_ROOT / TOOLS[tool][1] / "bin" / "python"


def run_tool(tool, jobs, args, timeout):
    """One child running `jobs` ({scenario: path}); -> {scenario: result} or {"error"}."""
    python = interpreter(tool)
    if not python.exists():
        return {"error": f"not installed ({python.relative_to(REPO_ROOT)} is missing)", "missing": True}
    command = [str(python), str(BENCH_DIR / "child.py"), tool, "--runs", str(args.runs),
               "--warmup", str(args.warmup), "--latency-calls", str(args.latency_calls)]
    for scenario, path in jobs.items():
        command += ["--job", f"{scenario}={path}"]
    command = ["timeout", "-s", "KILL", str(timeout)] + command
    log = datasets.DATA_DIR / f"child-{tool}.log"
    with open(log, "wb") as stderr:
        run = measure.run_child(command, stderr=stderr)
    if run["status"] != 0:
        lines = log.read_text(errors="replace").strip().splitlines()
        if run["status"] in (-9, 137):  # the time limit: say how far it got
            done = [line.split(": ", 1)[1] for line in lines if line.startswith("progress: ")]
            return {"timed_out": True, "error": f"stopped at the {timeout} s limit per process after: "
                             + (", ".join(done) if done else "no complete run")}
        tail = lines[-3:]
        missing = any("ModuleNotFoundError" in line for line in tail)
        return {"error": ("not installed: " if missing else f"exit {run['status']}: ") + " | ".join(tail)[-400:],
                "missing": missing}
    out = json.loads(run["stdout"])
    peak_kib = out["own_rss_kib"] + out["helper_rss_kib"]  # Spark: Python + the JVM
    results = {}
    for scenario, job in out["jobs"].items():
        results[scenario] = dict(job, scenario=scenario, peak_rss_mb=peak_kib / 1024,
                                 versions=out["versions"], not_expressible=out["not_expressible"],
                                 how=out.get("how", ""),
                                 setup_s=out["setup_s"], table_as_passed=out["table_as_passed"])
    return results


def run_cli(csv_path, args):
    """griffin validate as a process per run: wall, CPU and peak RSS from wait4."""
    from tools.griffin_py import counts_of
    command = [str(griffin_binary()), "validate", "-r", str(suite.RULES_PATH), str(csv_path),
               "--format", "json", "--no-store", "--max-violations", "0"]
    if not griffin_binary().is_file():
        return {"error": f"no griffin binary at {griffin_binary()}"}
    runs, counts = [], None
    for index in range(args.warmup + args.runs):
        run = measure.run_child(command)
        if run["status"] not in (0, 1):
            return {"error": f"exit {run['status']}: {' '.join(command)}"}
        report = json.loads(run["stdout"])
        counts = counts_of(report)
        if index >= args.warmup:
            runs.append(run)
    version = subprocess.run([str(griffin_binary()), "--version"], capture_output=True, text=True).stdout
    return {"scenario": "csv", "counts": counts, "wall_s": [r["wall_s"] for r in runs],
            "cpu_s": [r["cpu_s"] for r in runs], "peak_rss_mb": max(r["peak_rss_mb"] for r in runs),
            "versions": {"griffin": version.strip()},
            "not_expressible": {}, "load_s": 0.0, "setup_s": 0.0}


def summarize(result, size_bytes):
    wall = result.get("wall_s") or []
    if not wall:
        return
    median = statistics.median(wall)
    result.update(median_s=median, cpu_median_s=statistics.median(result["cpu_s"]), n_runs=len(wall),
                  rows_per_s=result["counts"]["evaluated_rows"] / median, mb_per_s=size_bytes / 1e6 / median)
    if result["scenario"] == "latency":
        ordered = sorted(wall)
        result["p99_s"] = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def run_size(rows, tools, args, timeout, with_latency):
    started, load_before = time.strftime("%Y-%m-%d %H:%M:%S %Z"), os.getloadavg()
    csv_path = datasets.transactions(rows, "csv")
    parquet_path = datasets.transactions(rows, "parquet")
    latency_path = datasets.transactions(LATENCY_ROWS, "parquet") if with_latency else None
    by_scenario = {s: {} for s in suite.SCENARIOS + (["latency"] if latency_path else [])
                   if s in args.scenarios}
    for tool in tools:
        if tool == CLI:  # the CLI has the csv scenario only
            if "csv" in by_scenario:
                by_scenario["csv"][CLI] = run_cli(csv_path, args)
            continue
        jobs = {s: p for s, p in (("csv", csv_path), ("memory", parquet_path), ("latency", latency_path))
                if p and s in by_scenario}
        groups = [jobs] if args.quick else [{s: p} for s, p in jobs.items()]
        for group in groups:
            group_start = time.perf_counter()
            outcome = run_tool(tool, group, args, timeout)
            for scenario in group:
                by_scenario[scenario][tool] = outcome.get(scenario, outcome)
            print(f"  {tool:<20} {','.join(group):<20} {time.perf_counter() - group_start:7.1f} s"
                  + (f"  {outcome['error']}" if "error" in outcome else ""), file=sys.stderr, flush=True)
    sizes = {"csv": csv_path.stat().st_size, "memory": csv_path.stat().st_size,
             "latency": latency_path.stat().st_size if latency_path else 0}
    for scenario, results in by_scenario.items():
        for result in results.values():
            if "counts" in result:
                summarize(result, sizes[scenario])
    return {"rows": rows, "started": started, "loadavg_before": load_before, "loadavg_after": os.getloadavg(),
            "runs": args.runs, "warmup": args.warmup, "timeout_s": timeout, "csv_bytes": csv_path.stat().st_size,
            "csv": str(csv_path.relative_to(REPO_ROOT)),
            "parquet": str(parquet_path.relative_to(REPO_ROOT)), "scenarios": by_scenario}


def check_counts(size_result):
    """Prints each scenario's count table and differences; -> True when all are explained."""
    ok = True
    for scenario, results in size_result["scenarios"].items():
        ran = {t: r for t, r in results.items() if "counts" in r}
        if "griffin" not in ran:
            print(f"{scenario}: Griffin did not run; nothing to compare", file=sys.stderr)
            ok = False
            continue
        print(f"\n== counts, {scenario}, {size_result['rows']:,} rows")
        print(compare.count_table(ran))
        rows, same = compare.compare(ran, ran["griffin"]["counts"]["malformed_rows"])
        size_result.setdefault("differences", {})[scenario] = rows
        ok &= same
        for row in rows:
            print(f"  {row['tool']:<20} {row['check']:<22} griffin {compare.format_value(row['griffin']):>10}"
                  f"  tool {compare.format_value(row['value']):>10}  "
                  + (row["reason"] or "UNDOCUMENTED DIFFERENCE")
                  + ("" if row["allowed"] else "  <- FAIL"))
    return ok


def merge_sizes(earlier, new, commit):
    """Earlier sizes first. A new size with the rows of an earlier one (a rerun of some
    of its scenarios, --scenarios) replaces just those scenarios there, and the earlier
    size records the rerun (its time, load and commit) under "reruns"."""
    merged = list(earlier)
    for size in new:
        same = next((s for s in merged if s["rows"] == size["rows"]), None)
        if same is None:
            merged.append(size)
            continue
        same["scenarios"].update(size["scenarios"])
        for scenario, rows in size.get("differences", {}).items():
            same.setdefault("differences", {})[scenario] = rows
        same.setdefault("reruns", []).append(
            {key: size[key] for key in ("started", "loadavg_before", "loadavg_after", "runs", "warmup")}
            | {"scenarios": sorted(size["scenarios"]), "commit": commit})
    return merged


def main(argv=None):
    parser = argparse.ArgumentParser(description="Griffin vs its peers: counts, time, memory")
    parser.add_argument("--quick", action="store_true", help="CI: 20,000 rows, 1 run, no warm-up")
    parser.add_argument("--rows", type=int, action="append", help="sizes (default 1M and 10M)")
    parser.add_argument("--tools", help="comma-separated (default: all)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--warmup", type=int, default=1)
    parser.add_argument("--latency-calls", type=int, default=200)
    parser.add_argument("--no-latency", dest="latency", action="store_false")
    parser.add_argument("--scenarios", default="csv,memory,latency",
                        help="comma-separated subset of csv,memory,latency (default: all three)")
    parser.add_argument("--timeout", type=int, default=3600, help="seconds per child process")
    parser.add_argument("--require-all", action="store_true", help="fail when a tool is not installed")
    parser.add_argument("--no-docs", dest="docs", action="store_false", help="do not write docs/")
    parser.add_argument("--merge", metavar="RESULTS_JSON",
                        help="put the sizes of an earlier run's results first (each keeps its own time and load)")
    args = parser.parse_args(argv)
    args.scenarios = args.scenarios.split(",")
    if set(args.scenarios) - {"csv", "memory", "latency"}:
        parser.error(f"unknown scenarios in --scenarios {','.join(args.scenarios)}")
    if args.quick:
        args.rows, args.runs, args.warmup, args.latency_calls = args.rows or [20_000], 1, 0, 20
        args.docs = False
    tools = args.tools.split(",") if args.tools else ["griffin", CLI] + [t for t in TOOLS if t != "griffin"]
    unknown = [t for t in tools if t != CLI and t not in TOOLS]
    if unknown or "griffin" not in tools:
        parser.error(f"unknown tools {unknown}" if unknown else "griffin is the reference: keep it in --tools")
    commit = subprocess.run(["git", "-C", str(REPO_ROOT), "describe", "--always", "--dirty"],
                            capture_output=True, text=True).stdout.strip()
    builds = {str(p.relative_to(REPO_ROOT)): time.strftime("%Y-%m-%d %H:%M", time.gmtime(p.stat().st_mtime))
              for p in [griffin_binary(), *REPO_ROOT.glob(".venv/lib/python3*/site-packages/griffin/_griffin*.so")]
              if p.exists() and p.is_relative_to(REPO_ROOT)}
    run = {"machine": machine.describe(), "started": time.strftime("%Y-%m-%d %H:%M:%S %Z"), "commit": commit,
           "griffin_builds": builds,
           "loadavg_before": os.getloadavg(), "runs": args.runs, "warmup": args.warmup,
           "command": " ".join([os.path.relpath(sys.executable, REPO_ROOT)] + sys.argv), "sizes": []}
    ok = True
    for index, rows in enumerate(args.rows or [1_000_000, 10_000_000]):
        print(f"== {rows:,} rows", file=sys.stderr)
        size_result = run_size(rows, tools, args, 300 if args.quick else args.timeout,
                               with_latency=args.latency and index == 0)
        run["sizes"].append(size_result)
        ok &= check_counts(size_result)
        for scenario, results in size_result["scenarios"].items():
            for tool, result in results.items():
                # A full run reports a tool stopped at --timeout in the page; CI fails on it.
                if "error" in result and (args.quick or not result.get("timed_out")) and (
                        not result.get("missing") or args.require_all):
                    print(f"{tool} ({scenario}) did not run: {result['error']}", file=sys.stderr)
                    ok = False
    run["loadavg_after"] = os.getloadavg()
    if args.merge:
        earlier = json.loads(pathlib.Path(args.merge).read_text())
        for size in earlier["sizes"]:  # runs from before per-size records: the run's own
            for key in ("started", "loadavg_before", "loadavg_after", "runs", "warmup"):
                size.setdefault(key, earlier[key])
        run["sizes"] = merge_sizes(earlier["sizes"], run["sizes"], commit)
    RESULTS.write_text(json.dumps(run, indent=1, default=str))
    import report
    print("\n" + report.summary_text(run))
    if args.docs:
        report.write_docs(run, REPO_ROOT / "docs" / "benchmarks.md", REPO_ROOT / "docs" / "benchmarks.png")
    print("\ncounts: " + ("every difference is documented" if ok else "FAILED (see above)"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
