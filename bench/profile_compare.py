"""Compares profiles before any timing counts (bench/run_profile_bench.py): Griffin's
`griffin profile --format json` and a peer's statistics (bench/profile_peer.py) with
the exact reference computed from the same Parquet file. Standard library only (the
measuring parent stays small, see measure.py).

Each tool is held to what it claims:
- Griffin: exact rows, missing values, min, max; mean and stddev to 1e-9 relative;
  distinct exact (its exact mode: up to 100,000 per column) or within three
  standard errors of its HyperLogLog (2^12 registers: 1.04 / 64 = 1.6%, so 4.9%);
  quantiles exact (nearest rank) while quantiles_exact, else within 1% in rank of
  the exact ones.
- whylogs: exact rows, missing values, min and max (its KLL sketch keeps them);
  mean and stddev to 1e-6 relative; distinct within three standard errors of its
  HyperLogLog (lg_k 12, the same 4.9%); quantiles (KLL) within 2% in rank.

Counted differently, on purpose, and so allowed:
- A float column's NaN is one of Griffin's distinct values (`numbers.nan` counts
  them; `nulls` does not); pandas, and so whylogs, read NaN as missing. Griffin's
  missing is nulls + NaN, and its distinct one more when there is a NaN.
"""
import bisect
import math

RANK_TOLERANCE = {"griffin": 0.01, "whylogs": 0.02}
DISTINCT_TOLERANCE = 3 * 1.04 / 2 ** 6  # three standard errors of a 2^12-register HyperLogLog
MEAN_TOLERANCE = {"griffin": 1e-9, "whylogs": 1e-6}
QUANTILE_RANKS = {"p1": 0.01, "p5": 0.05, "p25": 0.25, "p50": 0.5, "p75": 0.75, "p95": 0.95, "p99": 0.99}


def griffin_columns(profile):
    """Griffin's profile JSON in the peers' form (profile_peer.py)."""
    columns = {}
    for column in profile["columns"]:
        numbers = column.get("numbers") or {}
        nan = numbers.get("nan") or 0
        stats = {"rows": column["rows"], "missing": column["nulls"] + nan,
                 "distinct": column["distinct"] - (1 if nan else 0), "distinct_exact": column["distinct_exact"]}
        if numbers.get("count"):
            stats.update(min=numbers["min"], max=numbers["max"], mean=numbers["mean"], stddev=numbers["stddev"],
                         quantiles=numbers["quantiles"], quantiles_exact=numbers["quantiles_exact"])
        columns[column["name"]] = stats
    return columns


def _rank_range(grid, value):
    """The ranks (0..1, in 0.5% steps) at which the exact percentiles equal `value`."""
    low = bisect.bisect_left(grid, value)
    high = bisect.bisect_right(grid, value)
    return low / len(grid), high / len(grid)


def _close(a, b, rel):
    return a is not None and b is not None and math.isclose(a, b, rel_tol=rel, abs_tol=rel)


def compare(tool, columns, reference):
    """Every way `columns` (a tool's statistics) misses the reference, as lines
    'column: what'; an empty list when it agrees."""
    problems = []
    for name, ref in reference.items():
        got = columns.get(name)
        if got is None:
            problems.append(f"{name}: not profiled")
            continue
        for key in ("rows", "missing"):
            if got[key] != ref[key]:
                problems.append(f"{name}: {key} {got[key]}, exact {ref[key]}")
        exact_distinct = tool == "griffin" and got.get("distinct_exact")
        if exact_distinct and got["distinct"] != ref["distinct"]:
            problems.append(f"{name}: distinct {got['distinct']}, exact {ref['distinct']}")
        elif not exact_distinct and not _close(got["distinct"], ref["distinct"], DISTINCT_TOLERANCE):
            problems.append(f"{name}: distinct {got['distinct']}, exact {ref['distinct']} (more than 3 standard errors off)")
        if "mean" not in ref:
            continue
        if "mean" not in got:
            problems.append(f"{name}: no numeric statistics")
            continue
        for key in ("min", "max"):
            if got[key] != ref[key]:
                problems.append(f"{name}: {key} {got[key]}, exact {ref[key]}")
        for key in ("mean", "stddev"):
            if not _close(got[key], ref[key], MEAN_TOLERANCE[tool]):
                problems.append(f"{name}: {key} {got[key]}, exact {ref[key]}")
        for key, rank in QUANTILE_RANKS.items():
            value = got["quantiles"].get(key)
            if tool == "griffin" and got.get("quantiles_exact"):
                if value != ref["quantiles"][key]:
                    problems.append(f"{name}: {key} {value}, exact {ref['quantiles'][key]}")
                continue
            low, high = _rank_range(ref["grid"], value) if value is not None else (-1, -1)
            slack = RANK_TOLERANCE[tool] + 0.005  # the grid's step
            if not (low - slack <= rank <= high + slack):
                problems.append(f"{name}: {key} {value} lies at rank {low:.3f}..{high:.3f}, not {rank}")
    return problems
