"""A wide CSV: the benchmark data plus --extra columns no rule reads, validated with
the suite by `griffin validate` decoding only the rule columns (the default), by the
same binary decoding every column (GRIFFIN_NO_CSV_PROJECTION=1: the engine before
projection), and by DuckDB and polars (each reads the whole file as it does), in one run.

    .venv/bin/python bench/run_wide_csv_bench.py --rows 1000000 --extra 20 --runs 3

Prints one line per tool (median wall, CPU) and the ratios; fails when the two
Griffin reports differ or a peer's counts differ from Griffin's beyond
suite.ALLOWED_DIFFERENCES (compare.py)."""
import argparse
import json
import os
import pathlib
import statistics
import sys

BENCH_DIR = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH_DIR))

import compare  # noqa: E402
import datasets  # noqa: E402
import measure  # noqa: E402
import run_peers  # noqa: E402
import suite  # noqa: E402


def widen(source, extra, out):
    """`source` with `extra` columns appended: ints, decimals and words, some not parseable."""
    if out.exists() and out.stat().st_mtime > source.stat().st_mtime:
        return out
    partial = out.with_suffix(".partial")
    with open(source, encoding="utf-8") as rows, open(partial, "w", encoding="utf-8") as wide:
        header = next(rows).rstrip("\n")
        wide.write(header + "".join(f",extra_{i}" for i in range(extra)) + "\n")
        for n, line in enumerate(rows):
            cells = []
            for i in range(extra):
                kind = i % 3
                if kind == 0:
                    cells.append(str((n * 31 + i) % 100000) if n % 97 else "n/a")
                elif kind == 1:
                    cells.append(f"{(n * 7 + i) % 10000}.{n % 100:02d}")
                else:
                    cells.append(("alpha", "beta", "gamma delta", "")[(n + i) % 4])
            wide.write(line.rstrip("\n") + "," + ",".join(cells) + "\n")
    partial.rename(out)
    return out


def griffin_runs(path, runs, env):
    command = [str(run_peers.griffin_binary()), "validate", "-r", str(suite.RULES_PATH), str(path),
               "--format", "json", "--no-store", "--max-violations", "0"]
    walls, cpus, report = [], [], None
    old = dict(os.environ)
    os.environ.update(env)
    try:
        for index in range(runs + 1):  # one warm-up
            run = measure.run_child(command)
            if run["status"] not in (0, 1):
                raise SystemExit(f"exit {run['status']}: {' '.join(command)}")
            got = json.loads(run["stdout"])
            for key in ("run_id", "started_at", "finished_at", "elapsed_s"):
                got.pop(key, None)
            if report is not None and got != report:
                raise SystemExit("griffin's report changed between runs")
            report = got
            if index:
                walls.append(run["wall_s"])
                cpus.append(run["cpu_s"])
    finally:
        os.environ.clear()
        os.environ.update(old)
    return {"wall_s": walls, "cpu_s": cpus, "report": report}


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--extra", type=int, default=20)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--tools", default="duckdb,polars")
    args = parser.parse_args(argv)
    source = datasets.transactions(args.rows, "csv")
    path = widen(source, args.extra, datasets.DATA_DIR / f"wide{args.extra}_{source.name}")
    print(f"{path.name}: {path.stat().st_size / 1e6:,.1f} MB", flush=True)

    projected = griffin_runs(path, args.runs, {})
    whole = griffin_runs(path, args.runs, {"GRIFFIN_NO_CSV_PROJECTION": "1"})
    if projected["report"] != whole["report"]:
        raise SystemExit("the reports differ with and without projection")
    rows = [("griffin (rule columns)", projected), ("griffin (every column)", whole)]
    peer_args = argparse.Namespace(runs=args.runs, warmup=1, latency_calls=0)
    from tools.griffin_py import counts_of
    ours = counts_of(projected["report"])
    for tool in [t for t in args.tools.split(",") if t]:
        result = run_peers.run_tool(tool, {"csv": path}, peer_args, timeout=1800)
        if "error" in result:
            raise SystemExit(f"{tool}: {result['error']}")
        csv = result["csv"]
        differences, ok = compare.compare({"griffin": {"counts": ours}, tool: csv}, ours["malformed_rows"])
        if not ok:
            raise SystemExit(f"{tool}: counts differ beyond suite.ALLOWED_DIFFERENCES: {differences}")
        rows.append((tool, csv))
    base = statistics.median(projected["wall_s"])
    for name, result in rows:
        wall = statistics.median(result["wall_s"])
        print(f"{name:24s} wall {wall:6.2f} s  cpu {statistics.median(result['cpu_s']):6.2f} s  "
              f"{wall / base:5.2f}x griffin (rule columns)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
