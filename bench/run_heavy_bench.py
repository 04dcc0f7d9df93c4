"""Issue 16's heavier suite (heavy.rules.yaml: 30 checks, 2 regexes, 2 `unique`, one
of them composite, a row expression) against the peer suite (suite.rules.yaml, 13
checks) on the benchmark's transactions CSV, `griffin validate --threads 2`: MB/s of
CSV (the file's size over the median wall time), CPU and peak RSS. The target is
>= 150 MB/s for the heavy suite on 2 cores.

    .venv/bin/python bench/run_heavy_bench.py                       # 1M and 10M rows, 5 runs each
    .venv/bin/python bench/run_heavy_bench.py --quick               # CI: 100k rows, 1 run

The two suites alternate, run by run, so the machine's load falls on both alike; the
load average is printed before and after. The CSV is read from the page cache (it was
just generated or read): a rate for the CPU, not the disk. Each run's report must
have one row per generated record, and every run of a suite the same counts."""
import argparse
import os
import pathlib
import statistics
import subprocess
import sys

BENCH_DIR = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH_DIR))

import datasets  # noqa: E402
import measure  # noqa: E402
import run_peers  # noqa: E402

SUITES = {"heavy": BENCH_DIR / "heavy.rules.yaml", "suite": BENCH_DIR / "suite.rules.yaml"}


def run_suite(binary, rules, data, rows, threads):
    argv = [str(binary), "validate", "-r", str(rules), str(data), "--format", "json", "--no-store",
            "--threads", str(threads)]
    run, report = measure.run_validate(argv, rows, f"run_heavy_bench: {rules.name}")
    counts = [(check["name"], check.get("violations", check.get("observed"))) for check in report["checks"]]
    return run, counts


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", default="1000000,10000000")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--quick", action="store_true", help="100k rows, one run (CI: the harness works)")
    args = parser.parse_args(argv)
    sizes = [100_000] if args.quick else [int(float(part)) for part in args.rows.split(",") if part]
    runs = 1 if args.quick else args.runs
    binary = run_peers.griffin_binary()
    print(f"run_heavy_bench: {binary}, --threads {args.threads}, {runs} runs; load {os.getloadavg()}", flush=True)
    for rows in sizes:
        data = datasets.transactions(rows, "csv")
        mb = data.stat().st_size / 1e6
        # Into the page cache, untimed (not through a pipe: a parent that read 1 GB would
        # pass its RSS peak on to the children measured after it).
        subprocess.run(["cat", str(data)], stdout=subprocess.DEVNULL, check=True)
        samples = {name: [] for name in SUITES}
        counts = {}
        for _ in range(runs):
            for name, rules in SUITES.items():
                run, seen = run_suite(binary, rules, data, rows, args.threads)
                samples[name].append(run)
                if counts.setdefault(name, seen) != seen:
                    raise SystemExit(f"run_heavy_bench: {name}: the counts changed between runs")
        print(f"{data.name}: {mb:,.1f} MB, {rows:,} rows")
        for name, rules in SUITES.items():
            wall = statistics.median(r["wall_s"] for r in samples[name])
            cpu = statistics.median(r["cpu_s"] for r in samples[name])
            rss = max(r["peak_rss_mb"] for r in samples[name])
            print(f"  {name:5s} ({len(counts[name]) - 1} checks): wall {wall:6.2f} s = {mb / wall:6.0f} MB/s, "
                  f"CPU {cpu:6.2f} s, peak RSS {rss:6.1f} MB", flush=True)
    print(f"load after {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
