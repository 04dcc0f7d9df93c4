#!/usr/bin/env python3
"""`griffin profile` against whylogs (and ydata-profiling, where it installs) on the
same data, in one run: the statistics are compared with an exact reference first,
then timed.

    python bench/run_profile_bench.py --quick                 # CI: 20k rows, 1 run, statistics only
    python bench/run_profile_bench.py --rows 1000000          # 3 runs after 1 warm-up
    python bench/run_profile_bench.py                         # 1M and 10M rows

Data: the transactions generator's Parquet copy (bench/datasets.py, seed 20240601:
10 columns, 2 numeric; nulls, NaN, repeated ids), cached in bench/data/. Each tool
runs in its own child process (measure.py): Griffin as `griffin profile DATA.parquet
--format json` (all cores), whylogs in .venv-bench as pandas.read_parquet + why.log
(profile_peer.py; one thread, as whylogs runs). Wall time is the median of --runs;
peak RSS is the child's. The reference (profile_peer.py reference, in .venv) is
exact, from pyarrow and numpy; profile_compare.py says what each tool is held to.
Any disagreement fails the run (exit 1) before any figure is printed.

ydata-profiling is measured when .venv-bench can import it. It cannot today:
ydata-profiling 4.18.4 (the newest) requires pandas<3.0, numpy<2.4, scipy<1.17,
matplotlib<=3.10 and numba<0.63, and bench/requirements.txt pins pandas 3.1.1,
numpy 2.4.6, scipy 1.17.1 and matplotlib 3.11.2 (the versions every tool of
bench/run_peers.py shares); so the run says it was not measured, and why.

Results: bench/data/profile_results.json; the figures go to bench/README.md by hand.
"""
import argparse
import json
import os
import pathlib
import statistics
import subprocess
import sys

BENCH_DIR = pathlib.Path(__file__).resolve().parent
REPO_ROOT = BENCH_DIR.parent
sys.path.insert(0, str(BENCH_DIR))

import datasets  # noqa: E402
import machine  # noqa: E402
import measure  # noqa: E402
import profile_compare  # noqa: E402

PEER_VENV = REPO_ROOT / ".venv-bench" / "bin" / "python"
REFERENCE_VENV = REPO_ROOT / ".venv" / "bin" / "python"
YDATA_NOT_INSTALLABLE = ("ydata-profiling 4.18.4 (the newest) requires pandas<3.0, numpy<2.4, scipy<1.17, "
                         "matplotlib<=3.10 and numba<0.63; bench/requirements.txt pins pandas 3.1.1, numpy 2.4.6, "
                         "scipy 1.17.1 and matplotlib 3.11.2")
TARGET_SPEEDUP = 20


def griffin_binary():
    return pathlib.Path(os.environ.get("GRIFFIN_BIN", REPO_ROOT / "build" / "griffin"))


def run_griffin(data, runs, warmup):
    command = [str(griffin_binary()), "profile", str(data), "--format", "json"]
    walls, cpus, rss, profile = [], [], [], None
    for i in range(warmup + runs):
        result = measure.run_child(command)
        if result["status"] != 0:
            raise SystemExit(f"griffin profile exited {result['status']}: {' '.join(command)}")
        print(f"progress: griffin {'warm-up' if i < warmup else 'run'} {result['wall_s']:.2f} s", file=sys.stderr)
        if i >= warmup:
            walls.append(result["wall_s"])
            cpus.append(result["cpu_s"])
            rss.append(result["peak_rss_mb"])
        profile = json.loads(result["stdout"])
    return {"wall_s": walls, "cpu_s": cpus, "peak_rss_mb": max(rss),
            "columns": profile_compare.griffin_columns(profile)}


def run_peer(python, tool, data, runs, warmup):
    command = [str(python), str(BENCH_DIR / "profile_peer.py"), tool, str(data), "--runs", str(runs),
               "--warmup", str(warmup)]
    result = measure.run_child(command)
    if result["status"] != 0:
        raise SystemExit(f"{tool} exited {result['status']}: {' '.join(command)}")
    out = json.loads(result["stdout"])
    out["peak_rss_mb"] = result["peak_rss_mb"]
    out["cpu_s_total"] = result["cpu_s"]
    return out


def ydata_installed():
    if not PEER_VENV.exists():
        return False
    done = subprocess.run([str(PEER_VENV), "-c", "import ydata_profiling"], capture_output=True)
    return done.returncode == 0


def one_size(rows, args):
    data = datasets.transactions(rows, "parquet")
    print(f"\n{rows:,} rows: {data.name} ({data.stat().st_size / 1e6:,.1f} MB)", file=sys.stderr)
    reference = run_peer(REFERENCE_VENV, "reference", data, 0, 0)["columns"]
    results = {"griffin": run_griffin(data, args.runs, args.warmup)}
    if "whylogs" in args.tools.split(","):
        if not PEER_VENV.exists():
            raise SystemExit(f"{PEER_VENV} is missing: scripts/setup.sh installs bench/requirements.txt there")
        results["whylogs"] = run_peer(PEER_VENV, "whylogs", data, args.runs, args.warmup)
    not_measured = {}
    if "ydata-profiling" in args.tools.split(","):
        if ydata_installed():
            raise SystemExit("ydata-profiling imports in .venv-bench now: add its child to profile_peer.py")
        not_measured["ydata-profiling"] = YDATA_NOT_INSTALLABLE
    problems = {tool: profile_compare.compare(tool, r["columns"], reference) for tool, r in results.items()}
    return {"rows": rows, "data": data.name, "results": results, "not_measured": not_measured, "problems": problems}


def print_size(size, timed):
    print(f"\n{size['rows']:,} rows ({size['data']})")
    for tool, problems in size["problems"].items():
        print(f"  statistics of {tool}: " + ("equal to the exact reference (within its claims)" if not problems
                                              else f"{len(problems)} DIFFERENCES"))
        for problem in problems:
            print(f"    {problem}")
    for tool, why in size["not_measured"].items():
        print(f"  {tool}: not measured: {why}")
    if not timed:
        return
    print(f"  {'tool':<10}{'wall s (median)':>17}{'CPU s':>9}{'peak RSS MB':>13}  versions")
    for tool, r in size["results"].items():
        cpu = statistics.median(r["cpu_s"]) if "cpu_s" in r else r["cpu_s_total"] / max(len(r["wall_s"]), 1)
        versions = ", ".join(f"{k} {v}" for k, v in r.get("versions", {}).items())
        print(f"  {tool:<10}{statistics.median(r['wall_s']):>17.3f}{cpu:>9.2f}{r['peak_rss_mb']:>13.0f}  {versions}")
        if "profile_s" in r:
            print(f"  {'':<10}  of which pandas.read_parquet {statistics.median(r['read_s']):.3f} s, "
                  f"why.log {statistics.median(r['profile_s']):.3f} s")
    griffin = size["results"]["griffin"]
    peers = {t: r for t, r in size["results"].items() if t != "griffin"}
    if peers:
        fastest = min(peers, key=lambda t: statistics.median(peers[t]["wall_s"]))
        speedup = statistics.median(peers[fastest]["wall_s"]) / statistics.median(griffin["wall_s"])
        lower_memory = griffin["peak_rss_mb"] < peers[fastest]["peak_rss_mb"]
        print(f"  griffin is {speedup:.1f}x faster than the fastest peer ({fastest}), target {TARGET_SPEEDUP}x: "
              f"{'met' if speedup >= TARGET_SPEEDUP else 'MISSED'}; peak memory "
              f"{griffin['peak_rss_mb']:.0f} vs {peers[fastest]['peak_rss_mb']:.0f} MB: "
              f"{'lower' if lower_memory else 'NOT lower'}")


def main(argv=None):
    parser = argparse.ArgumentParser(description="griffin profile against whylogs and ydata-profiling")
    parser.add_argument("--rows", type=int, nargs="+", default=[1_000_000, 10_000_000])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--warmup", type=int, default=1)
    parser.add_argument("--tools", default="griffin,whylogs,ydata-profiling")
    parser.add_argument("--quick", action="store_true", help="CI: 20,000 rows, one run, statistics only")
    args = parser.parse_args(argv)
    if args.quick:
        args.rows, args.runs, args.warmup = [20_000], 1, 0
    if not griffin_binary().is_file():
        raise SystemExit(f"no griffin binary at {griffin_binary()} (set GRIFFIN_BIN)")
    sizes = [one_size(rows, args) for rows in args.rows]
    failed = any(problems for size in sizes for problems in size["problems"].values())
    for size in sizes:
        print_size(size, timed=not args.quick and not failed)
    out = datasets.DATA_DIR / "profile_results.json"
    out.write_text(json.dumps({"machine": machine.describe(), "load_average": os.getloadavg(),
                               "sizes": sizes}, indent=1) + "\n")
    print(f"\nresults: {out.relative_to(REPO_ROOT)}")
    if failed:
        print("FAILED: a tool's statistics differ from the exact reference (above)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
