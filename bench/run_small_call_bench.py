#!/usr/bin/env python3
"""The 10,000-row call (issue 16 "Small calls"), in one run on this machine:
the benchmark suite (bench/suite.rules.yaml: 13 checks with the e-mail regex)
over bench/data/transactions_10000r_seed20240601.parquet held in memory.

- C++: build/griffin_benchmarks BM_ValidatorSuite/1 (Validator::ValidateReader
  on the Arrow table, per-row errors collected, as the Python package asks);
- Python: griffin.Validator.validate(table, max_violations=0) (this process,
  .venv), and the same followed by Report.to_dict() (what bench/run_peers.py's
  latency scenario times);
- peer: polars evaluating the same checks on the same rows in memory
  (bench/tools/polars_hand.py through bench/child.py, in .venv-bench).

Each call is timed alone; prints p50 and p99 per call (wall), the CPU time
per call (C++: the benchmark's mean; Python and polars: the median; polars
runs on all cores), the load average, and the ratios.

    .venv/bin/python bench/run_small_call_bench.py [--calls 2000] [--no-peer]
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

import datasets  # noqa: E402
import suite  # noqa: E402
from tools import griffin_py  # noqa: E402


def percentiles(seconds):
    """(p50, p99) in microseconds of per-call wall times in seconds."""
    ordered = sorted(seconds)
    return (statistics.median(ordered) * 1e6, ordered[min(len(ordered) - 1, len(ordered) * 99 // 100)] * 1e6)


def time_calls(call, calls, warmup=20):
    """(p50, p99, median CPU) in microseconds of `calls` calls timed alone."""
    for _ in range(warmup):
        call()
    wall, cpu = [], []
    for _ in range(calls):
        cpu_started = time.process_time()
        started = time.perf_counter()
        call()
        wall.append(time.perf_counter() - started)
        cpu.append(time.process_time() - cpu_started)
    return (*percentiles(wall), statistics.median(cpu) * 1e6)


def cpp_latency(binary, seconds):
    """BM_ValidatorSuite/1's (p50, p99, mean CPU) in microseconds, from the benchmark binary."""
    done = subprocess.run([str(binary), "--benchmark_filter=^BM_ValidatorSuite/1/", f"--benchmark_min_time={seconds}",
                           "--benchmark_format=json"], cwd=REPO_ROOT, capture_output=True, text=True, check=True)
    run = json.loads(done.stdout)["benchmarks"][0]
    if run.get("error_occurred"):
        raise SystemExit("BM_ValidatorSuite: " + run.get("error_message", "failed"))
    return run["p50_us"], run["p99_us"], run["cpu_time"]


def polars_latency(path, calls):
    """polars' per-call wall times (seconds) and counts, from bench/child.py in .venv-bench."""
    python = REPO_ROOT / ".venv-bench" / "bin" / "python"
    done = subprocess.run([str(python), str(BENCH_DIR / "child.py"), "polars", "--job", f"latency={path}",
                           "--latency-calls", str(calls), "--latency-seconds", "60", "--warmup", "20"],
                          capture_output=True, text=True, check=True)
    out = json.loads(done.stdout)
    job = out["jobs"]["latency"]
    return (*percentiles(job["wall_s"]), statistics.median(job["cpu_s"]) * 1e6), job["counts"], out["versions"]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--cpp-seconds", type=float, default=3.0, help="BM_ValidatorSuite's --benchmark_min_time")
    parser.add_argument("--cpp-binary", action="append", type=pathlib.Path,
                        help="griffin_benchmarks to run (repeatable, e.g. a build of main beside this one; "
                             "default build/griffin_benchmarks)")
    parser.add_argument("--no-peer", dest="peer", action="store_false")
    args = parser.parse_args(argv)
    import griffin
    import pyarrow.parquet as pq

    path = datasets.transactions(10_000, "parquet")
    table = pq.read_table(path)
    validator = griffin.Validator.from_yaml(str(suite.RULES_PATH))
    rows = {}
    load = os.getloadavg()
    binaries = args.cpp_binary or [REPO_ROOT / "build" / "griffin_benchmarks"]
    for binary in binaries:
        rows[f"C++ {binary}"] = cpp_latency(binary.resolve(), args.cpp_seconds)
    rows["Python validate()"] = time_calls(lambda: validator.validate(table, max_violations=0), args.calls)
    rows["Python validate().to_dict()"] = time_calls(lambda: validator.validate(table, max_violations=0).to_dict(),
                                                     args.calls)
    griffin_counts = griffin_py.from_frame(validator, table)
    if args.peer:
        figures, counts, versions = polars_latency(path, args.calls)
        rows[f"polars {versions.get('polars', '?')} (same checks)"] = figures
        shared = griffin_counts.keys() & counts.keys()
        if not suite.same_counts({k: griffin_counts[k] for k in shared}, {k: counts[k] for k in shared}):
            print(f"note: counts differ: griffin {griffin_counts} polars {counts}", file=sys.stderr)
    cpp_p50 = rows[f"C++ {binaries[-1]}"][0]  # the last binary given: this build
    print(f"load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}, after: "
          + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    print(f"10,000 rows, {len(griffin_counts) - 2} checks, {args.calls} calls each (C++: BM_ValidatorSuite/1, "
          f"--benchmark_min_time={args.cpp_seconds})")
    print(f"{'':<48} {'p50 µs':>9} {'p99 µs':>9} {'p99/p50':>8} {'CPU µs':>8}")
    for name, (p50, p99, cpu) in rows.items():
        print(f"{name:<48} {p50:9.1f} {p99:9.1f} {p99 / p50:8.2f} {cpu:8.1f}")
    python_p50 = rows["Python validate()"][0]
    print(f"Python validate() adds {python_p50 - cpp_p50:.1f} µs to the C++ call")
    for name, (p50, _, _) in rows.items():
        if name.startswith("polars"):
            print(f"polars / Griffin (p50): C++ {p50 / cpp_p50:.2f}x, Python validate() {p50 / python_p50:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
