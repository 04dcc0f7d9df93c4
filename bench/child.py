#!/usr/bin/env python3
"""One tool in its own process, run by bench/run_peers.py (which reads this
process's peak RSS from os.wait4; run one job per process when RSS matters).

    python bench/child.py TOOL --job csv=DATA.csv [--job memory=DATA.parquet]
                               [--job latency=SMALL.parquet] --runs 5 --warmup 1

csv: each run is from_csv (read the file + count). memory: the Parquet file is
loaded once into the tool's frame (untimed), each run is from_frame. latency: as
memory on a small file; up to --latency-calls calls (at most --latency-seconds
of them after the first), each timed alone.

Prints one JSON object: per job the counts (every run must agree), wall_s and
cpu_s per timed run (CPU: this process's threads plus the tool's helper
processes), load_s; and setup_s, own_rss_kib (this process's VmHWM),
helper_rss_kib, versions, not_expressible, table_as_passed.
"""
import argparse
import importlib
import importlib.metadata
import json
import os
import pathlib
import sys
import time

BENCH_DIR = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH_DIR))

import measure  # noqa: E402
import suite  # noqa: E402
from tools import TOOLS  # noqa: E402


def _versions(names):
    found = {}
    for name in names:
        try:
            found[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            found[name] = "not installed"
    return found


def _timed(tool, ctx, once, runs, warmup, max_seconds=None):
    counts = None
    for _ in range(warmup):
        started = time.perf_counter()
        counts = once()
        print(f"progress: warm-up {time.perf_counter() - started:.3f} s", file=sys.stderr, flush=True)
    wall, cpu = [], []
    budget_started = time.perf_counter()
    for _ in range(runs):
        cpu_started = time.process_time() + tool.cpu_extra_s(ctx)
        started = time.perf_counter()
        result = once()
        wall.append(time.perf_counter() - started)
        if max_seconds is None:
            print(f"progress: run {wall[-1]:.3f} s", file=sys.stderr, flush=True)
        cpu.append(time.process_time() + tool.cpu_extra_s(ctx) - cpu_started)
        if counts is not None and not suite.same_counts(result, counts):
            raise SystemExit(f"counts changed between runs: {counts} vs {result}")
        counts = result
        if max_seconds is not None and time.perf_counter() - budget_started > max_seconds:
            break
    return {"counts": counts, "wall_s": wall, "cpu_s": cpu}


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("tool", choices=sorted(TOOLS))
    parser.add_argument("--job", action="append", required=True, help="csv|memory|latency=PATH")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--warmup", type=int, default=1)
    parser.add_argument("--latency-calls", type=int, default=200)
    parser.add_argument("--latency-seconds", type=float, default=20.0)
    args = parser.parse_args(argv)
    # Only the JSON goes to stdout: tools (py4j, the JVM) print to fd 1, so fd 1
    # is stderr while they work.
    result_out = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    tool = importlib.import_module("tools." + TOOLS[args.tool][0])

    started = time.perf_counter()
    ctx = tool.setup()
    out = {"tool": args.tool, "setup_s": time.perf_counter() - started, "jobs": {}}
    for job in args.job:
        scenario, path = job.split("=", 1)
        load_s = 0.0
        if scenario == "csv":
            def once():
                return tool.from_csv(ctx, path)
        elif scenario in ("memory", "latency"):
            started = time.perf_counter()
            frame = tool.load(ctx, path)
            load_s = time.perf_counter() - started

            def once(frame=frame):
                return tool.from_frame(ctx, frame)
        else:
            raise SystemExit(f"unknown job {job!r}")
        if scenario == "latency":
            result = _timed(tool, ctx, once, args.latency_calls, max(args.warmup, 3), args.latency_seconds)
        else:
            result = _timed(tool, ctx, once, args.runs, args.warmup)
        result["load_s"] = load_s
        out["jobs"][scenario] = result
        del once
    out.update(own_rss_kib=measure.peak_rss_kib(), helper_rss_kib=tool.rss_extra_kib(ctx), versions=_versions(tool.VERSIONS),
               not_expressible=tool.NOT_EXPRESSIBLE, how=" ".join((tool.__doc__ or "").split()),
               table_as_passed=getattr(tool, "TABLE_AS_PASSED", False))
    tool.teardown(ctx)
    result_out.write(json.dumps(out) + "\n")
    result_out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
