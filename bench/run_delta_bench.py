#!/usr/bin/env python3
"""A Delta table, in one run (issue 18): `griffin validate -r bench/suite.rules.yaml
TABLE` against the `deltalake` package reading the same table into polars and polars
computing the suite's checks (bench/tools/polars_hand.py, the peer benchmark's polars
expression of the suite). Target: Griffin >= 2x faster. The counts are compared first
(bench/suite.py same_counts): a faster wrong answer is no result.

  1. deltalake + polars: DeltaTable(TABLE).to_pyarrow_table(columns=the suite's)
     -> polars -> the suite's expressions in one select (polars on all cores);
  2. griffin validate TABLE (delta-kernel-rs: log replay, the scan, the checks), a
     fresh process, --no-store, all cores;
  3. griffin validate on the table's Parquet files named one by one: the engine
     without the Delta kernel, so (2) - (3) is the kernel's share (log replay, scan).

The table is the benchmark's transactions Parquet (bench/datasets.py) appended by
`deltalake` in 10 commits of rows/10 into bench/data/delta_<rows>r_seed<seed>/
(git-ignored, kept for the next run). The machine's load is printed: other engineers
compile on it; CPU seconds are the steadier figure there.

    .venv/bin/python bench/run_delta_bench.py                  # 10 M rows (~3 GB RAM, a few minutes)
    .venv/bin/python bench/run_delta_bench.py --quick          # CI: 20k rows; counts compared, no timing claims
    .venv/bin/python bench/run_delta_bench.py --rows 1000000 --repeat 3   # fastest of 3, interleaved
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

import datasets  # noqa: E402
import suite  # noqa: E402
from tools import griffin_py, polars_hand  # noqa: E402
from wall_cpu import timed  # noqa: E402

GRIFFIN = os.environ.get("GRIFFIN_BIN", str(REPO / "build" / "griffin"))
# The columns the suite reads (Griffin reads only the rules' columns too).
COLUMNS = ["txn_id", "account_id", "amount", "currency", "email", "kind", "label", "created_at", "country"]
COMMITS = 10


def delta_table(rows):
    """bench/data/delta_<rows>r_seed<seed>/, written once by `deltalake` (COMMITS appends)."""
    import deltalake
    import pyarrow.parquet as pq
    path = datasets.DATA_DIR / f"delta_{rows}r_seed{datasets.SEED}"
    if (path / "_delta_log").exists():
        return path
    source = pq.ParquetFile(datasets.transactions(rows, "parquet"))
    partial = path.with_name(path.name + ".partial")
    if partial.exists():
        import shutil
        shutil.rmtree(partial)
    started = time.perf_counter()
    for batch in source.iter_batches(batch_size=max(1, -(-rows // COMMITS))):
        deltalake.write_deltalake(partial, batch, mode="append")
    partial.rename(path)
    print(f"wrote {path.name}: {rows:,} rows in {COMMITS} commits in {time.perf_counter() - started:.1f} s",
          file=sys.stderr)
    return path


def griffin_counts(inputs):
    command = [GRIFFIN, "validate", "-r", str(suite.RULES_PATH), *map(str, inputs), "--no-store", "--no-progress",
               "--format", "json", "--max-violations", "0"]
    done = subprocess.run(command, capture_output=True, timeout=1800)
    if done.returncode not in (0, 1):
        raise SystemExit(f"griffin exited {done.returncode}: {done.stderr.decode()}")
    report = json.loads(done.stdout)
    counts = griffin_py.counts_of(report)
    counts.pop("malformed_rows")
    return counts, report.get("table_versions", [])


def peer_counts(table):
    import deltalake
    import polars as pl
    frame = pl.from_arrow(deltalake.DeltaTable(str(table)).to_pyarrow_table(columns=COLUMNS))
    return polars_hand.from_frame(None, frame)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="20k rows; compare counts, no timing claims")
    parser.add_argument("--rows", type=int, default=None)
    parser.add_argument("--repeat", type=int, default=1, help="time each N times, interleaved; report the fastest")
    parser.add_argument("--json", action="store_true", help="one JSON summary line at the end")
    args = parser.parse_args()
    rows = args.rows or (20_000 if args.quick else 10_000_000)
    table = delta_table(rows)
    files = sorted(table.glob("*.parquet"))
    peer_counts(table)  # warm-up: imports, the page cache
    load_before = os.getloadavg()
    peer_s = griffin_s = files_s = peer_cpu = griffin_cpu = files_cpu = float("inf")
    for _ in range(max(1, args.repeat)):
        seconds, cpu, peer = timed(lambda: peer_counts(table))
        peer_s, peer_cpu = min(peer_s, seconds), min(peer_cpu, cpu)
        seconds, cpu, (griffin, versions) = timed(lambda: griffin_counts([table]))
        griffin_s, griffin_cpu = min(griffin_s, seconds), min(griffin_cpu, cpu)
        seconds, cpu, (on_files, _) = timed(lambda: griffin_counts(files))
        files_s, files_cpu = min(files_s, seconds), min(files_cpu, cpu)
    load_after = os.getloadavg()
    if versions != [{"table": str(table), "role": "input", "version": COMMITS - 1}]:
        raise SystemExit(f"griffin did not read the table's last version: {versions}")
    if griffin["evaluated_rows"] != rows:
        raise SystemExit(f"rows: griffin {griffin['evaluated_rows']}, written {rows}")
    for name, other in (("deltalake + polars", peer), ("griffin on the Parquet files", on_files)):
        if not suite.same_counts(griffin, other):
            differ = {k: (griffin.get(k), other.get(k)) for k in griffin.keys() | other.keys()
                      if not suite.same_value(griffin.get(k), other.get(k))}
            raise SystemExit(f"counts differ, (griffin on the table, {name}): {differ}")
    summary = {
        "rows": rows, "files": len(files), "commits": COMMITS,
        "deltalake_polars_s": round(peer_s, 3), "griffin_delta_s": round(griffin_s, 3),
        "griffin_parquet_files_s": round(files_s, 3), "kernel_share_s": round(griffin_s - files_s, 3),
        "speedup": round(peer_s / griffin_s, 2) if griffin_s > 0 else None,
        "deltalake_polars_cpu_s": round(peer_cpu, 3), "griffin_delta_cpu_s": round(griffin_cpu, 3),
        "griffin_parquet_files_cpu_s": round(files_cpu, 3),
        "loadavg_before": load_before, "loadavg_after": load_after, "repeat": args.repeat,
    }
    print(f"{rows:,} rows, a Delta table of {len(files)} files in {COMMITS} commits, {os.cpu_count()} cores, "
          f"load {load_before[0]:.1f} -> {load_after[0]:.1f}"
          + (f", fastest of {args.repeat}" if args.repeat > 1 else ""))
    print("                                        wall       CPU")
    print(f"  deltalake + polars (the suite)    {peer_s:8.2f} s {peer_cpu:8.2f} s")
    print(f"  griffin validate TABLE            {griffin_s:8.2f} s {griffin_cpu:8.2f} s"
          f"  ({summary['speedup']}x faster)")
    print(f"  griffin on its Parquet files      {files_s:8.2f} s {files_cpu:8.2f} s  (the engine, no kernel)")
    print(f"  the Delta kernel's share          {griffin_s - files_s:8.2f} s {griffin_cpu - files_cpu:8.2f} s")
    print(f"  counts identical (griffin, deltalake + polars, griffin on the files): {len(griffin)} counts, "
          f"{rows:,} rows")
    if args.json:
        print(json.dumps(summary))


if __name__ == "__main__":
    main()
