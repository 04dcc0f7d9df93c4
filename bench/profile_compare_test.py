"""Tests of profile_compare: what the profile benchmark holds each tool to."""
import copy

import profile_compare

GRID = [float(i) for i in range(1, 201)]  # the exact percentiles of 1..200: p(i/200) = i
REFERENCE = {
    "x": {"rows": 205, "missing": 5, "distinct": 200, "min": 1.0, "max": 200.0, "mean": 100.5, "stddev": 57.88,
          "quantiles": {"p1": 2.0, "p5": 10.0, "p25": 50.0, "p50": 100.0, "p75": 150.0, "p95": 190.0, "p99": 198.0},
          "grid": GRID},
    "s": {"rows": 205, "missing": 0, "distinct": 3},
}


def griffin_profile(nan=2, quantiles_exact=True):
    return {"columns": [
        {"name": "x", "rows": 205, "nulls": 5 - nan, "distinct": 200 + (1 if nan else 0), "distinct_exact": True,
         "numbers": {"count": 200 + nan, "nan": nan, "min": 1.0, "max": 200.0, "mean": 100.5, "stddev": 57.88,
                     "quantiles": dict(REFERENCE["x"]["quantiles"]), "quantiles_exact": quantiles_exact}},
        {"name": "s", "rows": 205, "nulls": 0, "distinct": 3, "distinct_exact": True, "numbers": None}]}


def test_griffin_agrees_counting_nan_as_missing_and_not_distinct():
    assert profile_compare.compare("griffin", profile_compare.griffin_columns(griffin_profile()), REFERENCE) == []
    assert profile_compare.compare("griffin", profile_compare.griffin_columns(griffin_profile(nan=0)), REFERENCE) == []


def test_griffin_exact_fields_must_be_exact():
    profile = griffin_profile()
    profile["columns"][0]["nulls"] += 1
    profile["columns"][0]["numbers"]["max"] = 199.0
    profile["columns"][0]["numbers"]["quantiles"]["p50"] = 101.0
    profile["columns"][1]["distinct"] = 4
    problems = profile_compare.compare("griffin", profile_compare.griffin_columns(profile), REFERENCE)
    assert problems == ["x: missing 6, exact 5", "x: max 199.0, exact 200.0", "x: p50 101.0, exact 100.0",
                        "s: distinct 4, exact 3"]


def test_sketched_quantiles_are_judged_by_rank():
    profile = griffin_profile(quantiles_exact=False)
    profile["columns"][0]["numbers"]["quantiles"]["p50"] = 101.0  # rank 0.505: within 1%
    assert profile_compare.compare("griffin", profile_compare.griffin_columns(profile), REFERENCE) == []
    profile["columns"][0]["numbers"]["quantiles"]["p50"] = 110.0  # rank 0.55
    [problem] = profile_compare.compare("griffin", profile_compare.griffin_columns(profile), REFERENCE)
    assert problem.startswith("x: p50 110.0 lies at rank")


def test_whylogs_tolerances():
    columns = {"x": {"rows": 205, "missing": 5, "distinct": 204.0, "min": 1.0, "max": 200.0, "mean": 100.5000001,
                     "stddev": 57.88, "quantiles": {"p1": 3.0, "p5": 11.0, "p25": 52.0, "p50": 99.0, "p75": 151.0,
                                                    "p95": 191.0, "p99": 199.0}},
               "s": {"rows": 205, "missing": 0, "distinct": 3.00001}}
    assert profile_compare.compare("whylogs", columns, REFERENCE) == []
    worse = copy.deepcopy(columns)
    worse["x"]["distinct"] = 190.0  # 5% off
    worse["x"]["quantiles"]["p25"] = 60.0
    del worse["s"]
    assert profile_compare.compare("whylogs", worse, REFERENCE) == [
        "x: distinct 190.0, exact 200 (more than 3 standard errors off)", "x: p25 60.0 lies at rank 0.295..0.300, not 0.25",
        "s: not profiled"]
