"""Tests of bench/run_peers.py's merge of an earlier run's sizes (--merge).

    .venv/bin/python -m pytest -q bench/run_peers_test.py
"""
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import run_peers  # noqa: E402


def size(rows, scenarios, started):
    return {"rows": rows, "started": started, "loadavg_before": [1.0, 1.0, 1.0],
            "loadavg_after": [2.0, 2.0, 2.0], "runs": 5, "warmup": 1,
            "scenarios": {s: {"griffin": {"median_s": started}} for s in scenarios}}


def test_a_new_size_comes_after_the_earlier_ones():
    merged = run_peers.merge_sizes([size(1_000_000, ["csv", "memory"], "a")],
                                   [size(10_000_000, ["csv", "memory"], "b")], "abc")
    assert [s["rows"] for s in merged] == [1_000_000, 10_000_000]
    assert "reruns" not in merged[0]


def test_a_rerun_replaces_only_its_scenarios_and_is_recorded():
    earlier = [size(1_000_000, ["csv", "memory", "latency"], "a"), size(10_000_000, ["csv"], "c")]
    merged = run_peers.merge_sizes(earlier, [size(1_000_000, ["latency"], "b")], "abc")
    assert len(merged) == 2
    first = merged[0]
    assert first["scenarios"]["latency"]["griffin"]["median_s"] == "b"
    assert first["scenarios"]["csv"]["griffin"]["median_s"] == "a"
    assert first["started"] == "a"
    assert first["reruns"] == [{"started": "b", "loadavg_before": [1.0, 1.0, 1.0],
                                "loadavg_after": [2.0, 2.0, 2.0], "runs": 5, "warmup": 1,
                                "scenarios": ["latency"], "commit": "abc"}]
