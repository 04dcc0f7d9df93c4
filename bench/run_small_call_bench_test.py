"""bench/run_small_call_bench.py's arithmetic: percentiles of per-call times."""
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import run_small_call_bench as bench  # noqa: E402


def test_percentiles_are_in_microseconds():
    seconds = [i / 1e6 for i in range(1, 201)]  # 1..200 µs
    p50, p99 = bench.percentiles(seconds)
    assert p50 == 100.5
    assert p99 == 199.0


def test_one_call_is_its_own_median_and_p99():
    assert bench.percentiles([0.002]) == (2000.0, 2000.0)


def test_time_calls_counts_every_call():
    calls = []
    p50, p99, cpu = bench.time_calls(lambda: calls.append(1), 30, warmup=5)
    assert len(calls) == 35
    assert 0 <= p50 <= p99 and cpu >= 0
