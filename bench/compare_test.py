"""Tests of bench/compare.py: the count comparison that the quick mode asserts.

    .venv/bin/python -m pytest -q bench/compare_test.py
"""
import copy
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import compare  # noqa: E402
import suite  # noqa: E402

GRIFFIN = {"evaluated_rows": 1000, "malformed_rows": 2, "txn_id.unique": 10, "account_id.not_null": 3,
           "amount.type": 1, "amount.max": 5, "currency.in": 7, "email.regex": 20, "label.type": 1,
           "label.in": 2, "created_at.type": 4, "country.length": 6, "refunds_are_negative": 8,
           "email.null_fraction": 0.02, "label.mean": 0.021}


def results(tool, scenario, **changes):
    counts = {k: v for k, v in GRIFFIN.items() if k != "malformed_rows"}
    counts.update(changes)
    return {"griffin": {"counts": dict(GRIFFIN), "scenario": scenario},
            tool: {"counts": counts, "scenario": scenario}}


def test_equal_counts_pass():
    rows, ok = compare.compare(results("duckdb", suite.CSV), 2)
    assert ok and rows == []


def test_an_undocumented_difference_fails():
    rows, ok = compare.compare(results("duckdb", suite.CSV, **{"currency.in": 8}), 2)
    assert not ok
    assert rows == [{"check": "currency.in", "tool": "duckdb", "griffin": 7, "value": 8,
                     "reason": None, "allowed": False}]


def test_a_table_value_must_agree():
    _, ok = compare.compare(results("polars", suite.MEMORY, **{"label.mean": 0.0211}), 0)
    assert not ok


def test_malformed_bound_holds_and_breaks():
    _, ok = compare.compare(results("polars", suite.CSV, **{"evaluated_rows": 1002, "email.regex": 22}), 2)
    assert ok
    _, ok = compare.compare(results("polars", suite.CSV, **{"email.regex": 23}), 2)
    assert not ok
    _, ok = compare.compare(results("polars", suite.MEMORY, **{"email.regex": 21}), 0)
    assert not ok  # the memory frame has no malformed records to excuse it


def test_all_copies_bound():
    assert compare.compare(results("great-expectations", suite.MEMORY, **{"txn_id.unique": 20}), 0)[1]
    assert not compare.compare(results("great-expectations", suite.MEMORY, **{"txn_id.unique": 21}), 0)[1]
    assert not compare.compare(results("great-expectations", suite.MEMORY, **{"txn_id.unique": 9}), 0)[1]


def test_fewer_bound_and_latency_uses_memory_entries():
    assert compare.compare(results("pandas", "latency", **{"amount.max": 4}), 0)[1]
    assert not compare.compare(results("pandas", "latency", **{"amount.max": 6}), 0)[1]
    assert not compare.compare(results("pandas", suite.CSV, **{"amount.max": 4}), 0)[1]


def test_passed_only_table_checks_compare_as_passed():
    ok_results = results("pandera-pandas", suite.MEMORY, **{"email.null_fraction": True, "label.mean": True})
    assert compare.compare(ok_results, 0)[1]
    bad = copy.deepcopy(ok_results)
    bad["pandera-pandas"]["counts"]["label.mean"] = False
    assert not compare.compare(bad, 0)[1]


def test_every_documented_difference_names_a_known_tool_and_check():
    from tools import TOOLS
    for (tool, scenario, check), (reason, bound) in suite.ALLOWED_DIFFERENCES.items():
        assert (tool in TOOLS or tool in suite.SPARK_JOBS) and scenario in (None, *suite.SCENARIOS)
        assert check is None or check in suite.ALL_NAMES
        assert reason and bound in (suite.MALFORMED, suite.ALL_COPIES_BOUND, suite.FEWER)
