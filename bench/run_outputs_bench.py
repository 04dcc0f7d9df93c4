"""The cost of --clean/--quarantine outputs: `griffin validate` with the suite on the
benchmark CSV, plain (no outputs) and with both outputs as Parquet and as CSV, for this
build and optionally a baseline build (--before BINARY), in one run, the runs of every
case interleaved so that the machine's load falls on all of them alike.

    .venv/bin/python bench/run_outputs_bench.py --rows 1000000 --runs 5 --before /path/to/old/griffin

Prints per binary and case the median wall and CPU seconds and their ratios to the same
binary's plain run. `plain-all` is the plain run decoding every column
(GRIFFIN_NO_CSV_PROJECTION=1), as a run with outputs must. `plain-store` and `csv-store`
record the run in a run store (SQLite, in the temporary directory) instead of
`--no-store`: with a store the outputs are hashed (sha256) for its lineage. Fails when a case's report
differs from the plain run's, when a binary's output bytes differ between its runs, or
(with --before) when an output's content differs between the two binaries: the bytes for
text outputs, the rows and schema read back for Parquet (whose encoding choices, such as
dictionary or plain pages, may change between versions)."""
import argparse
import hashlib
import json
import os
import pathlib
import statistics
import sys
import tempfile

BENCH_DIR = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH_DIR))

import datasets  # noqa: E402
import measure  # noqa: E402
import run_peers  # noqa: E402
import suite  # noqa: E402

CASES = {  # name: (output extension or None, extra environment, recorded in a store)
    "plain": (None, {}, False),
    "plain-all": (None, {"GRIFFIN_NO_CSV_PROJECTION": "1"}, False),
    "parquet": (".parquet", {}, False),
    "csv": (".csv", {}, False),
    "plain-store": (None, {}, True),
    "csv-store": (".csv", {}, True),
}
VOLATILE = ("run_id", "started_at", "finished_at", "elapsed_s", "outputs")


def command(binary, data, out_dir, ext, threads, store=False):
    argv = [str(binary), "validate", "-r", str(suite.RULES_PATH), str(data), "--format", "json"]
    argv += ["--store", str(out_dir / "runs.db")] if store else ["--no-store"]
    if threads:
        argv += ["--threads", str(threads)]
    if ext:
        argv += ["--clean", str(out_dir / f"clean{ext}"), "--quarantine", str(out_dir / f"quarantine{ext}")]
    return argv


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def content_digest(path):
    """A Parquet file's rows and schema (as Arrow IPC bytes), else the file's bytes."""
    if path.suffix != ".parquet":
        return digest(path)
    import pyarrow as pa
    import pyarrow.parquet as pq
    table = pq.read_table(path)
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table)
    return hashlib.sha256(sink.getvalue().to_pybytes()).hexdigest()


def run_case(binary, data, out_dir, case, threads):
    ext, extra_env, store = CASES[case]
    env = dict(os.environ, **extra_env)
    argv = command(binary, data, out_dir, ext, threads, store)
    run = measure.run_child(argv, env=env)
    if run["status"] not in (0, 1):
        raise SystemExit(f"{case}: exit {run['status']}: {' '.join(argv)}")
    report = json.loads(run["stdout"])
    for key in VOLATILE + (("history",) if store else ()):
        report.pop(key, None)
    outputs = [out_dir / f"{name}{ext}" for name in ("clean", "quarantine")] if ext else []
    return run["wall_s"], run["cpu_s"], report, outputs


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--threads", type=int, default=0, help="--threads for griffin (0: its default)")
    parser.add_argument("--before", help="a baseline griffin binary, measured in the same run")
    parser.add_argument("--cases", default=",".join(CASES))
    args = parser.parse_args(argv)
    data = datasets.transactions(args.rows, "csv")
    binaries = {"after": run_peers.griffin_binary()}
    if args.before:
        binaries = {"before": pathlib.Path(args.before), **binaries}
    cases = [c for c in args.cases.split(",") if c]
    print(f"{data.name}: {data.stat().st_size / 1e6:,.1f} MB; load {os.getloadavg()[0]:.1f}", flush=True)
    results = {(b, c): {"wall": [], "cpu": []} for b in binaries for c in cases}
    reports, digests, contents = {}, {}, {}
    with tempfile.TemporaryDirectory(prefix="griffin-outputs-bench-") as tmp:
        for index in range(args.runs + 1):  # the first round warms the caches
            for binary_name, binary in binaries.items():
                for case in cases:
                    out_dir = pathlib.Path(tmp) / binary_name
                    out_dir.mkdir(exist_ok=True)
                    wall, cpu, report, outputs = run_case(binary, data, out_dir, case, args.threads)
                    reports.setdefault(binary_name, report)
                    if report != reports[binary_name]:
                        raise SystemExit(f"{binary_name} {case}: the report differs from the plain run's")
                    if outputs:
                        files = [digest(path) for path in outputs]
                        known = digests.setdefault((binary_name, case), files)
                        if known != files:
                            raise SystemExit(f"{binary_name} {case}: output bytes differ from an earlier run's "
                                             f"({known} vs {files})")
                        if index == 0:
                            content = [content_digest(path) for path in outputs]
                            if contents.setdefault(case, content) != content:
                                raise SystemExit(f"{binary_name} {case}: the outputs' rows differ from the "
                                                 f"other binary's")
                    if index:
                        results[(binary_name, case)]["wall"].append(wall)
                        results[(binary_name, case)]["cpu"].append(cpu)
    print(f"load after {os.getloadavg()[0]:.1f}; medians of {args.runs} runs", flush=True)
    for binary_name in binaries:
        base = results[(binary_name, cases[0])]
        base_wall, base_cpu = statistics.median(base["wall"]), statistics.median(base["cpu"])
        for case in cases:
            wall = statistics.median(results[(binary_name, case)]["wall"])
            cpu = statistics.median(results[(binary_name, case)]["cpu"])
            print(f"{binary_name:6s} {case:11s} wall {wall:6.2f} s ({wall / base_wall:4.2f}x {cases[0]})  "
                  f"cpu {cpu:6.2f} s ({cpu / base_cpu:4.2f}x)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
