#!/usr/bin/env python3
"""Core benchmark: `griffin validate` against DuckDB on the same CSV and checks.

    python bench/run_core_bench.py                      # ~1 GB, all cores
    python bench/run_core_bench.py --quick              # ~20 MB, for CI
    python bench/run_core_bench.py --size-mb 2000 --no-unique --json

Generates (once, cached in bench/data/) a synthetic transactions CSV with
examples/generate_transactions.py, writes bench/core.rules.yaml, then times
  1. griffin validate -r RULES CSV --format json --no-store --threads N
     (wall time; peak RSS of that child from os.wait4), and
  2. one DuckDB query computing the same per-check violation counts
     (bench/core_checks.py), in a child process measured the same way,
and fails (exit 1) unless every per-check count is equal.
--check-reference also runs the slow Python reference (tests/python/reference.py)
on the same file (small sizes only) and compares its counts with DuckDB's; with
--no-griffin it does so without the binary.
"""
import argparse
import json
import os
import pathlib
import sys
import time

BENCH_DIR = pathlib.Path(__file__).resolve().parent
REPO_ROOT = BENCH_DIR.parent
sys.path[:0] = [str(BENCH_DIR), str(REPO_ROOT / "examples"), str(REPO_ROOT / "tests" / "python")]
import core_checks  # noqa: E402
import datasets  # noqa: E402
import measure  # noqa: E402

DATA_DIR = datasets.DATA_DIR
SEED = datasets.SEED
SAMPLE_ROWS = 20_000


def ensure_data(size_mb):
    """The cached CSV of about size_mb megabytes (10**6 bytes), generated if absent.
    Everything runs in child processes: this process stays small, so the peak RSS
    that the measured children inherit from it (bench/measure.py) stays small."""
    path = DATA_DIR / f"transactions_{size_mb:g}mb_seed{SEED}.csv"
    if path.exists():
        return path
    sample = datasets.generate(SAMPLE_ROWS, DATA_DIR / "sample.tmp.csv", SEED)
    bytes_per_row = sample.stat().st_size / SAMPLE_ROWS
    sample.unlink()
    return datasets.generate(max(1000, int(size_mb * 1e6 / bytes_per_row)), path, SEED)


def write_rules(with_unique):
    path = BENCH_DIR / "core.rules.yaml" if with_unique else DATA_DIR / "core.no-unique.rules.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    text = core_checks.rules_text(with_unique)
    if not path.exists() or path.read_text() != text:
        path.write_text(text)
    return path


def run_measured(command):
    """(exit status, stdout bytes, wall seconds, peak RSS in MB) of a child process."""
    result = measure.run_child(command)
    return result["status"], result["stdout"], result["wall_s"], result["peak_rss_mb"]


def griffin_binary():
    return pathlib.Path(os.environ.get("GRIFFIN_BIN", REPO_ROOT / "build" / "griffin"))


def run_griffin(rules, data, threads):
    command = [str(griffin_binary()), "validate", "-r", str(rules), str(data), "--format", "json",
               "--no-store", "--threads", str(threads)]
    status, stdout, wall, rss = run_measured(command)
    if status not in (0, 1):
        raise SystemExit(f"griffin exited {status}: {' '.join(command)}")
    report = json.loads(stdout)
    counts = {c["name"]: c["violations"] for c in report["checks"] if "violations" in c}
    counts["evaluated_rows"] = report["rows"] - report["malformed_rows"]
    return {"wall_s": wall, "peak_rss_mb": rss, "counts": counts,
            "rows": report["rows"], "exit_status": status}


def duckdb_child(data, threads, with_unique):
    """Runs in a child process: the query, then its counts and time as JSON on stdout."""
    import duckdb
    connection = duckdb.connect()
    connection.execute("SET TimeZone = 'UTC'")
    connection.execute(f"SET threads = {threads}")
    sql = core_checks.query(str(data), with_unique)
    started = time.perf_counter()
    cursor = connection.execute(sql)
    row = cursor.fetchone()
    elapsed = time.perf_counter() - started
    names = [d[0] for d in cursor.description]
    print(json.dumps({"query_s": elapsed, "counts": dict(zip(names, row))}))


def run_duckdb(data, threads, with_unique):
    command = [sys.executable, str(pathlib.Path(__file__).resolve()), "--duckdb-child", str(data),
               "--threads", str(threads)] + ([] if with_unique else ["--no-unique"])
    status, stdout, wall, rss = run_measured(command)
    if status != 0:
        raise SystemExit(f"the DuckDB child exited {status}")
    result = json.loads(stdout)
    return {"wall_s": wall, "query_s": result["query_s"], "peak_rss_mb": rss,
            "counts": result["counts"]}


def run_reference(rules, data):
    import reference
    report = reference.validate(pathlib.Path(rules).read_text(), [str(data)], max_violations=0)
    counts = {c["name"]: c["violations"] for c in report["checks"] if "violations" in c}
    counts["evaluated_rows"] = report["rows"] - report["malformed_rows"]
    return {"counts": counts}


def print_table(names, results):
    engines = list(results)
    print(f"{'check':<24}" + "".join(f"{e:>14}" for e in engines) + "  same")
    all_same = True
    for name in names:
        values = [results[e]["counts"].get(name) for e in engines]
        same = len(set(values)) == 1
        all_same &= same
        print(f"{name:<24}" + "".join(f"{v if v is not None else '-':>14}" for v in values)
              + ("" if same else "  DIFFERENT"))
    return all_same


def main(argv=None):
    parser = argparse.ArgumentParser(description="Griffin vs DuckDB on the core checks")
    parser.add_argument("--size-mb", type=float, default=1000)
    parser.add_argument("--quick", action="store_true", help="a ~20 MB input (CI)")
    parser.add_argument("--no-unique", action="store_true", help="drop txn_id.unique (memory)")
    parser.add_argument("--threads", type=int, default=os.cpu_count())
    parser.add_argument("--json", action="store_true", help="print a JSON summary last")
    parser.add_argument("--no-griffin", action="store_true", help="skip the Griffin run")
    parser.add_argument("--check-reference", action="store_true",
                        help="also compare with tests/python/reference.py (slow: small sizes)")
    parser.add_argument("--duckdb-child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    with_unique = not args.no_unique
    if args.duckdb_child:
        duckdb_child(args.duckdb_child, args.threads, with_unique)
        return 0
    size_mb = 20 if args.quick else args.size_mb
    data = ensure_data(size_mb)
    rules = write_rules(with_unique)
    size_bytes = data.stat().st_size
    results = {}
    if not args.no_griffin:
        if not griffin_binary().is_file():
            raise SystemExit(f"no griffin binary at {griffin_binary()} (set GRIFFIN_BIN, or --no-griffin)")
        results["griffin"] = run_griffin(rules, data, args.threads)
    results["duckdb"] = run_duckdb(data, args.threads, with_unique)
    if args.check_reference:
        results["reference"] = run_reference(rules, data)
    names = ["evaluated_rows"] + core_checks.check_names(with_unique)
    all_same = print_table(names, results)
    summary = {"input": str(data.relative_to(REPO_ROOT)), "size_mb": size_bytes / 1e6,
               "threads": args.threads, "unique": with_unique, "counts_equal": all_same}
    print()
    for engine in ("griffin", "duckdb"):
        if engine not in results:
            continue
        result = results[engine]
        seconds = result.get("query_s", result["wall_s"])  # DuckDB: its query, no startup
        rows = result["counts"]["evaluated_rows"]
        summary[engine] = {"seconds": round(seconds, 3), "process_wall_s": round(result["wall_s"], 3),
                           "peak_rss_mb": round(result["peak_rss_mb"], 1),
                           "mb_per_s": round(size_bytes / 1e6 / seconds, 1),
                           "rows_per_s": round(rows / seconds)}
        print(f"{engine:<8} {seconds:8.2f} s  {size_bytes / 1e6 / seconds:9.1f} MB/s"
              f"  {rows / seconds:14,.0f} rows/s  peak RSS {result['peak_rss_mb']:8.1f} MB"
              + ("  (query only; process %.2f s)" % result["wall_s"] if "query_s" in result else
                 "  (process wall)"))
    if "griffin" in results:
        ratio = results["duckdb"]["query_s"] / results["griffin"]["wall_s"]
        summary["duckdb_over_griffin"] = round(ratio, 3)
        print(f"DuckDB query / Griffin wall = {ratio:.2f} (above 1: Griffin is faster)")
    if args.json:
        print(json.dumps(summary, indent=1))
    if not all_same:
        print("per-check counts differ", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
