"""Peak RSS and wall time of `griffin validate` as the input grows: the benchmark suite
(suite.rules.yaml) on the benchmark CSV at 1M, 10M and 100M rows, under the default
--memory-limit (issue 16's target: peak RSS within 1.2x of the smallest size's).

    .venv/bin/python bench/run_rss_bench.py                 # make bench-rss: 1M, 10M, 100M
    .venv/bin/python bench/run_rss_bench.py --quick         # CI: 100k and 1M, and a forced spill
    .venv/bin/python bench/run_rss_bench.py --rows 1000000,10000000 --runs 3

Each size's CSV comes from examples/generate_transactions.py (datasets.py), written to
disk chunk by chunk in a child process. A file this run generated past --keep-max-rows
(10M) is deleted when its size is done, unless --keep-data; the free disk space is checked
first (the CSV, ~105 bytes a row, and what a spilled `unique` writes, ~40 bytes a row).
At every size griffin runs with its default limit ("default"); up to --no-limit-max-rows
(10M) also with --memory-limit 0 ("no-limit"), interleaved, which is what spilling costs;
--quick adds a tiny limit ("spill-4MB") so that CI spills. Every case's report must equal
the no-limit run's (but for the "spill" field, elapsed_s and run_id), and have one row per
generated record, else the run fails. Peak RSS is the child's ru_maxrss (measure.py); wall
is the median of --runs; MB/s is the CSV's size over it (the file is in the page cache when
this run just wrote it: a rate for the CPU, not the disk).
Prints the load average before and after; writes bench/data/rss_results.json."""
import argparse
import json
import os
import pathlib
import shutil
import statistics
import sys
import time

BENCH_DIR = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH_DIR))

import datasets  # noqa: E402
import measure  # noqa: E402
import run_peers  # noqa: E402
import suite  # noqa: E402

CSV_BYTES_PER_ROW = 105    # generate_transactions.py: 1M rows are ~104 MB
SPILL_BYTES_PER_ROW = 40   # a spilled txn_id occurrence: ~37 bytes, and a split rewrites it once
SLACK_BYTES = 2 << 30
VOLATILE = ("run_id", "elapsed_s", "spill")
CASES = {"default": [], "no-limit": ["--memory-limit", "0"], "spill-4MB": ["--memory-limit", "4MB"]}


def parse_rows(text):
    return [int(float(part)) for part in text.split(",") if part]


def check_disk(rows, directory):
    """Exits with one line when `directory` cannot hold the CSV and the spill files."""
    directory.mkdir(parents=True, exist_ok=True)
    need = rows * (CSV_BYTES_PER_ROW + SPILL_BYTES_PER_ROW) + SLACK_BYTES
    free = shutil.disk_usage(directory).free
    if free < need:
        raise SystemExit(f"run_rss_bench: {rows:,} rows need about {need / 1e9:.1f} GB free under {directory}, "
                         f"{free / 1e9:.1f} GB are")


def command(binary, data, threads, extra):
    return [str(binary), "validate", "-r", str(suite.RULES_PATH), str(data), "--format", "json", "--no-store",
            "--threads", str(threads), *extra]


def run_case(binary, data, rows, threads, case):
    run, report = measure.run_validate(command(binary, data, threads, CASES[case]), rows, f"run_rss_bench: {case}")
    spill = report.get("spill", {}).get("bytes", 0)
    comparable = json.dumps({k: v for k, v in report.items() if k not in VOLATILE}, sort_keys=True)
    return {"wall_s": run["wall_s"], "cpu_s": run["cpu_s"], "peak_rss_mb": run["peak_rss_mb"],
            "spill_bytes": spill}, comparable


def measure_size(binary, rows, cases, runs, threads):
    data = datasets.transactions(rows, "csv")
    print(f"{data.name}: {data.stat().st_size / 1e6:,.1f} MB; load {os.getloadavg()[0]:.1f}", flush=True)
    samples = {case: [] for case in cases}
    reports = {}
    for _ in range(runs):
        for case in cases:  # interleaved: the machine's load falls on every case alike
            sample, report = run_case(binary, data, rows, threads, case)
            samples[case].append(sample)
            reports.setdefault(case, report)
            if report != reports[case]:
                raise SystemExit(f"run_rss_bench: {rows:,} rows, {case}: the report changed between runs")
    reference = reports.get("no-limit", reports[cases[0]])
    for case, report in reports.items():
        if report != reference:
            raise SystemExit(f"run_rss_bench: {rows:,} rows: the {case} report differs from the "
                             f"{'no-limit' if 'no-limit' in reports else cases[0]} one")
    result = {"rows": rows, "csv_mb": data.stat().st_size / 1e6, "cases": {}}
    for case, runs_of_case in samples.items():
        result["cases"][case] = {
            "wall_s": statistics.median(s["wall_s"] for s in runs_of_case),
            "cpu_s": statistics.median(s["cpu_s"] for s in runs_of_case),
            "peak_rss_mb": max(s["peak_rss_mb"] for s in runs_of_case),
            "spill_bytes": runs_of_case[0]["spill_bytes"],
        }
        r = result["cases"][case]
        r["mb_per_s"] = result["csv_mb"] / r["wall_s"]
        print(f"  {case:9s} wall {r['wall_s']:7.2f} s  cpu {r['cpu_s']:7.2f} s  peak RSS {r['peak_rss_mb']:7.1f} MB"
              f"  spilled {r['spill_bytes'] / 1e6:8.1f} MB  {r['mb_per_s']:6.0f} MB/s", flush=True)
    return data, result


def summarize(results, target):
    """Lines comparing each size's default-limit peak RSS (and no-limit wall) with the smallest's."""
    lines = []
    base = results[0]
    base_rss = base["cases"]["default"]["peak_rss_mb"]
    worst = 1.0
    for result in results:
        rss = result["cases"]["default"]["peak_rss_mb"]
        ratio = rss / base_rss
        worst = max(worst, ratio)
        line = f"{result['rows']:>12,} rows: peak RSS {rss:7.1f} MB = {ratio:4.2f}x {base['rows']:,} rows'"
        if "no-limit" in result["cases"]:
            default, unlimited = result["cases"]["default"], result["cases"]["no-limit"]
            line += (f"; wall {default['wall_s']:.2f} s vs {unlimited['wall_s']:.2f} s with no limit "
                     f"({default['wall_s'] / unlimited['wall_s']:.2f}x), peak RSS with no limit "
                     f"{unlimited['peak_rss_mb']:.1f} MB")
        lines.append(line)
    verdict = "met" if worst <= target else "missed"
    lines.append(f"largest ratio {worst:.2f}x, target {target}x: {verdict}")
    for case in [c for c in base["cases"] if c.startswith("limit-")]:
        peaks = [result["cases"][case]["peak_rss_mb"] for result in results]
        lines.append(f"with --memory-limit {case[len('limit-'):]}: peak RSS "
                     + " / ".join(f"{peak:.1f}" for peak in peaks)
                     + f" MB, largest ratio to the default run at {base['rows']:,} rows "
                     + f"{max(peaks) / base_rss:.2f}x")
    return lines, worst <= target


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=parse_rows, default=[1_000_000, 10_000_000, 100_000_000])
    parser.add_argument("--quick", action="store_true", help="100k and 1M rows, one run, plus a forced spill")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--no-limit-max-rows", type=int, default=10_000_000,
                        help="also run --memory-limit 0 up to this many rows (what spilling costs)")
    parser.add_argument("--keep-max-rows", type=int, default=10_000_000,
                        help="a CSV this run generated past this many rows is deleted afterwards")
    parser.add_argument("--keep-data", action="store_true", help="delete no CSV")
    parser.add_argument("--limit", metavar="SIZE", action="append", default=[],
                        help="also run with --memory-limit SIZE at every size (e.g. 64MB; repeatable)")
    parser.add_argument("--target", type=float, default=1.2)
    parser.add_argument("--require-flat", action="store_true", help="exit 1 when the target is missed")
    args = parser.parse_args(argv)
    rows_list = [100_000, 1_000_000] if args.quick else sorted(args.rows)
    binary = run_peers.griffin_binary()
    started = time.time()
    print(f"run_rss_bench: {binary}, --threads {args.threads}; load {os.getloadavg()}", flush=True)
    results = []
    for rows in rows_list:
        path = datasets.DATA_DIR / f"transactions_{rows}r_seed{datasets.SEED}.csv"
        existed = path.exists()
        if not existed:
            check_disk(rows, datasets.DATA_DIR)
        cases = ["default"]
        if rows <= args.no_limit_max_rows:
            cases.append("no-limit")
        if args.quick:
            cases.append("spill-4MB")
        for size in args.limit:
            CASES[f"limit-{size}"] = ["--memory-limit", size]
            cases.append(f"limit-{size}")
        try:
            _, result = measure_size(binary, rows, cases, args.runs, args.threads)
        finally:
            if not existed and not args.keep_data and rows > args.keep_max_rows and path.exists():
                path.unlink()
                print(f"  deleted {path.name}", flush=True)
        results.append(result)
    lines, flat = summarize(results, args.target)
    for line in lines:
        print(line)
    print(f"load after {os.getloadavg()}; {time.time() - started:.0f} s in all", flush=True)
    out = datasets.DATA_DIR / "rss_results.json"
    out.write_text(json.dumps({"binary": str(binary), "threads": args.threads, "results": results,
                               "summary": lines}, indent=2))
    if args.quick:
        spilled = results[-1]["cases"]["spill-4MB"]["spill_bytes"]
        if spilled <= 0:
            raise SystemExit("run_rss_bench: --memory-limit 4MB did not spill at 1M rows")
    return 1 if args.require_flat and not flat else 0


if __name__ == "__main__":
    sys.exit(main())
