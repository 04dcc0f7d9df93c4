#!/usr/bin/env python3
"""One profiler in its own process, run by bench/run_profile_bench.py:

    python bench/profile_peer.py whylogs DATA.parquet --runs 3 --warmup 1
    python bench/profile_peer.py reference DATA.parquet

whylogs (in .venv-bench): each run reads the Parquet file into pandas and logs it
(why.log(df).view()), timed whole (read_s and profile_s are also given apart).
reference (in .venv): the exact statistics, with pyarrow.compute and numpy, untimed:
what both tools are compared with.

Prints one JSON object: {"tool", "versions", "wall_s": [...], "read_s": [...],
"profile_s": [...], "own_rss_kib", "columns": {name: {"rows", "missing" (nulls, and
NaN in a float column: pandas cannot tell them apart), "min", "max", "mean",
"stddev" (sample), "distinct", "distinct_lower", "distinct_upper", "quantiles":
{"p1": ...}}}}; the reference adds "grid": a numeric column's nearest-rank
percentiles every 0.5% (for judging approximate quantiles by rank).
"""
import argparse
import importlib.metadata
import json
import math
import pathlib
import sys
import time

BENCH_DIR = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH_DIR))

import measure  # noqa: E402

QUANTILES = {"p1": 0.01, "p5": 0.05, "p25": 0.25, "p50": 0.5, "p75": 0.75, "p95": 0.95, "p99": 0.99}
WHYLOGS_QUANTILES = {"p1": "q_01", "p5": "q_05", "p25": "q_25", "p50": "median", "p75": "q_75", "p95": "q_95",
                     "p99": "q_99"}


def _version(name):
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def _number(value):
    """A JSON-safe float: None for NaN (a statistic the tool does not have)."""
    if value is None:
        return None
    value = float(value)
    return None if math.isnan(value) else value


def nearest_rank(sorted_values, q):
    n = len(sorted_values)
    return float(sorted_values[min(max(math.ceil(q * n) - 1, 0), n - 1)])


def reference(path):
    import numpy as np
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    table = pq.read_table(path)
    columns = {}
    for name in table.column_names:
        column = table[name]
        stats = {"rows": len(column), "missing": column.null_count}
        stats["distinct"] = pc.count_distinct(column, mode="only_valid").as_py()
        if pc.count(column).as_py() and (column.type.equals("double") or column.type.equals("int64")):
            values = column.drop_null().to_numpy().astype("float64")
            nan = int(np.isnan(values).sum())
            stats["missing"] += nan
            stats["distinct"] -= 1 if nan else 0  # pandas and whylogs see NaN as missing
            finite = np.sort(values[np.isfinite(values)])
            stats.update(min=float(finite[0]), max=float(finite[-1]), mean=float(finite.mean()),
                         stddev=float(finite.std(ddof=1)),
                         quantiles={k: nearest_rank(finite, q) for k, q in QUANTILES.items()},
                         grid=[nearest_rank(finite, i / 200) for i in range(1, 201)])
        columns[name] = stats
    return {"tool": "reference", "versions": {"pyarrow": _version("pyarrow"), "numpy": _version("numpy")},
            "columns": columns}


def whylogs_columns(view):
    summary = view.to_pandas()
    columns = {}
    for name, row in summary.iterrows():
        stats = {"rows": int(row["counts/n"]), "missing": int(row["counts/null"]),
                 "distinct": _number(row["cardinality/est"]), "distinct_lower": _number(row["cardinality/lower_1"]),
                 "distinct_upper": _number(row["cardinality/upper_1"])}
        if _number(row.get("distribution/n")):
            stats.update(min=_number(row["distribution/min"]), max=_number(row["distribution/max"]),
                         mean=_number(row["distribution/mean"]), stddev=_number(row["distribution/stddev"]),
                         quantiles={k: _number(row["distribution/" + v]) for k, v in WHYLOGS_QUANTILES.items()})
        columns[str(name)] = stats
    return columns


def run_whylogs(path, runs, warmup):
    import numpy as np
    # whylogs 1.6.4 (the newest, 2024-12) still names np.unicode_, which NumPy 2
    # removed; np.str_ is what it was an alias of. Nothing else is patched.
    if not hasattr(np, "unicode_"):
        np.unicode_ = np.str_
    import pandas as pd
    import whylogs as why

    out = {"tool": "whylogs", "versions": {n: _version(n) for n in ("whylogs", "whylogs-sketching", "pandas", "numpy")},
           "wall_s": [], "read_s": [], "profile_s": []}
    for i in range(warmup + runs):
        started = time.perf_counter()
        frame = pd.read_parquet(path)
        read = time.perf_counter() - started
        view = why.log(frame).view()
        wall = time.perf_counter() - started
        print(f"progress: whylogs {'warm-up' if i < warmup else 'run'} {wall:.2f} s", file=sys.stderr, flush=True)
        if i >= warmup:
            out["wall_s"].append(wall)
            out["read_s"].append(read)
            out["profile_s"].append(wall - read)
        del frame
    out["columns"] = whylogs_columns(view)
    return out


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("tool", choices=["whylogs", "reference"])
    parser.add_argument("data")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--warmup", type=int, default=1)
    args = parser.parse_args(argv)
    result = reference(args.data) if args.tool == "reference" else run_whylogs(args.data, args.runs, args.warmup)
    result["own_rss_kib"] = measure.peak_rss_kib()
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
