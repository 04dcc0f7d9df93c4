#!/usr/bin/env python3
"""S3 through moto, in one run (issue 18): `griffin validate` on Parquet objects
against pyarrow.dataset reading the same objects into memory, and the store's
share of Griffin's time.

  1. pyarrow.dataset: the S3 prefix read into one in-memory Table (the read alone);
  2. griffin validate s3://bench/parquet/ (list, HEAD, ranged reads with
     pre-buffering, the checks), a fresh process, --no-store;
  3. griffin validate on the same files from local disk: the engine alone.
  The store's overhead is (2) - (3): listing, metadata requests and transfers.

moto (PyPI moto[server], scripts/setup_objectstore.sh) serves on 127.0.0.1 and a
free port, started and stopped here. The machine's load is printed: other
engineers compile on it; repeat a run whose load was high.

    .venv/bin/python bench/run_objectstore_bench.py            # 10 M rows in 8 objects (~1-2 minutes)
    .venv/bin/python bench/run_objectstore_bench.py --quick    # CI: 40k rows; reports compared, no timing asserts
    .venv/bin/python bench/run_objectstore_bench.py --rows 2000000 --repeat 5   # a loaded machine: best of 5

With --repeat N each of the three is timed N times, interleaved, and the
fastest of each is reported (the machine's other load only adds time).
"""
import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile

import numpy as np
import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.fs as pafs
import pyarrow.parquet as pq

REPO = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "python"))
from objectstore_servers import running_moto  # noqa: E402  (the tests' server fixture)
sys.path.insert(0, str(REPO / "bench"))
from wall_cpu import timed  # noqa: E402

GRIFFIN = os.environ.get("GRIFFIN_BIN", str(REPO / "build" / "griffin"))
RULES = """griffin: 1
dataset: bench_objects
columns:
  id: {type: int64, not_null: true, unique: true}
  amount: {type: float64, finite: true, min: 0, max: 1000}
  currency: {type: string, in: [USD, EUR, GBP, JPY]}
  label: {type: int64, in: [0, 1]}
  country: {type: string, length: {min: 2, max: 2}}
"""


def table(rows, start, rng):
    return pa.table({
        "id": pa.array(np.arange(start, start + rows, dtype=np.int64)),
        "amount": pa.array(rng.gamma(2.0, 60.0, rows)),
        "currency": pa.array(rng.choice(["USD", "EUR", "GBP", "JPY", "usd"], rows, p=[.4, .3, .15, .149, .001])),
        "label": pa.array(rng.integers(0, 2, rows)),
        "country": pa.array(rng.choice(["US", "DE", "GB", "JP", "FRA"], rows, p=[.4, .3, .15, .1499, .0001])),
    })


def griffin_report(inputs, rules, env):
    command = [GRIFFIN, "validate", "-r", str(rules), *inputs, "--format", "json", "--no-store", "--no-progress"]
    done = subprocess.run(command, capture_output=True, env=env, timeout=1800)
    if done.returncode not in (0, 1):
        raise SystemExit(f"griffin exited {done.returncode}: {done.stderr.decode()}")
    report = json.loads(done.stdout)
    return {k: v for k, v in report.items() if k not in ("run_id", "elapsed_s", "inputs")}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="40k rows; compare reports, no timing claims")
    parser.add_argument("--rows", type=int, default=None)
    parser.add_argument("--objects", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=1, help="time each N times, interleaved; report the fastest")
    parser.add_argument("--json", action="store_true", help="one JSON summary line at the end")
    args = parser.parse_args()
    rows = args.rows or (40_000 if args.quick else 10_000_000)
    rng = np.random.default_rng(18)
    with tempfile.TemporaryDirectory() as tmp, running_moto() as s3:
        tmp = pathlib.Path(tmp)
        rules = tmp / "rules.yaml"
        rules.write_text(RULES)
        local = tmp / "parquet"
        local.mkdir()
        s3.bucket("bench")
        per_object = rows // args.objects
        total_bytes = 0
        for i in range(args.objects):
            part = table(per_object if i < args.objects - 1 else rows - per_object * i, i * per_object, rng)
            path = local / f"part-{i:03d}.parquet"
            pq.write_table(part, path, row_group_size=1 << 20)
            total_bytes += path.stat().st_size
            s3.put(f"bench/parquet/{path.name}", path.read_bytes())
        load_before = os.getloadavg()
        read_s = remote_s = local_s = read_cpu = remote_cpu = local_cpu = float("inf")
        for _ in range(max(1, args.repeat)):
            seconds, cpu, read_table = timed(
                lambda: ds.dataset("bench/parquet/", filesystem=s3.fs, format="parquet").to_table())
            read_s, read_cpu = min(read_s, seconds), min(read_cpu, cpu)
            seconds, cpu, remote = timed(lambda: griffin_report(["s3://bench/parquet/"], rules, s3.env))
            remote_s, remote_cpu = min(remote_s, seconds), min(remote_cpu, cpu)
            seconds, cpu, local_report = timed(lambda: griffin_report([str(local)], rules, s3.env))
            local_s, local_cpu = min(local_s, seconds), min(local_cpu, cpu)
        load_after = os.getloadavg()
        if remote != local_report:
            raise SystemExit("the report of the S3 objects differs from the local files' report")
        if remote["rows"] != read_table.num_rows or remote["rows"] != rows:
            raise SystemExit(f"rows: griffin {remote['rows']}, pyarrow.dataset {read_table.num_rows}, written {rows}")
        summary = {
            "rows": rows, "objects": args.objects, "bytes": total_bytes, "bad_rows": remote["bad_rows"],
            "pyarrow_dataset_read_s": round(read_s, 3), "griffin_s3_s": round(remote_s, 3),
            "griffin_local_s": round(local_s, 3), "store_overhead_s": round(remote_s - local_s, 3),
            "griffin_vs_read": round(remote_s / read_s, 3) if read_s > 0 else None,
            "pyarrow_dataset_read_cpu_s": round(read_cpu, 3), "griffin_s3_cpu_s": round(remote_cpu, 3),
            "griffin_local_cpu_s": round(local_cpu, 3),
            "loadavg_before": load_before, "loadavg_after": load_after, "repeat": args.repeat,
        }
        print(f"{rows:,} rows in {args.objects} Parquet objects ({total_bytes / 1e6:.1f} MB) on moto, "
              f"load {load_before[0]:.1f} -> {load_after[0]:.1f}"
              + (f", fastest of {args.repeat}" if args.repeat > 1 else ""))
        print("                                       wall      CPU (this side; moto's not counted)")
        print(f"  pyarrow.dataset read into memory   {read_s:8.2f} s {read_cpu:8.2f} s")
        print(f"  griffin validate s3://bench/...    {remote_s:8.2f} s {remote_cpu:8.2f} s"
              f"  ({summary['griffin_vs_read']}x the read)")
        print(f"  griffin validate local files       {local_s:8.2f} s {local_cpu:8.2f} s  (the engine)")
        print(f"  store round trips and transfer     {remote_s - local_s:8.2f} s {remote_cpu - local_cpu:8.2f} s")
        print(f"  reports identical (S3 and local); rows {rows:,}, bad rows {remote['bad_rows']:,}")
        if args.json:
            print(json.dumps(summary))


if __name__ == "__main__":
    main()
