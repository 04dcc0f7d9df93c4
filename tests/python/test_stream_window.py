"""`griffin stream` windows (`stream.window:`) against a real Kafka broker: a window's
table checks are evaluated over its merged partial state, so each closed window's
report equals `griffin validate` on the same records written to a file; windows of N
records close at exact offsets; the Prometheus window score; restarts.
"""
import json
import math
import random
import sqlite3
import subprocess
import time
import urllib.request

from griffin_cli import require_binary
from kafka_harness import Stream, create_topics, produce
from stream_harness import RULES, free_port, make_record, metric, wait_consumed
from stream_harness import topics  # noqa: F401 (the pytest fixture the tests take)

TABLE_CHECKS = """table:
  - row_count: {min: 1}
  - null_fraction: {column: amount, max: 0.05}
  - distinct_count: {column: status, max: 3}
  - mean: {column: amount, max: 2400}
  - stddev: {column: qty, min: 0}
  - sum: {column: qty, min: 0}
  - min: {column: amount, min: -0.5}
  - max: {column: qty, max: 9}
  - quantile: {column: amount, q: 0.9, max: 4500}
"""


def windowed_input(address, t, tmp_path, window, total, seed):
    """One-partition topics, a rule file with table checks and `stream.window: window`,
    a store path and `total` make_record records (not produced yet)."""
    create_topics(address, [t["raw"], t["clean"], t["dlq"]])
    rules = tmp_path / "rules.yaml"
    rules.write_text(RULES + TABLE_CHECKS + f"stream:\n  window: {window}\n")
    rng = random.Random(seed)
    return rules, tmp_path / "runs.db", [make_record(i, rng) for i in range(total)]


def validate_report(rules, values, tmp_path, name):
    data = tmp_path / f"{name}.jsonl"
    data.write_bytes(b"".join(v + b"\n" for v in values))
    done = subprocess.run([str(require_binary()), "validate", "-r", str(rules), str(data), "--no-store",
                           "--format", "json"], capture_output=True, timeout=120)
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)


def windows(store):
    """The store's runs, oldest first, each with its report and its input offsets."""
    runs = json.loads(subprocess.run([str(require_binary()), "history", "events", "--store", str(store),
                                      "--format", "json"], capture_output=True, timeout=60, check=True).stdout)
    result = []
    for run in reversed(runs["runs"]):
        shown = subprocess.run([str(require_binary()), "show", run["run_id"], "--store", str(store),
                                "--format", "json"], capture_output=True, timeout=60)
        assert shown.returncode in (0, 1), shown.stderr
        with sqlite3.connect(store) as db:
            (etag,), = db.execute("SELECT etag FROM run_inputs WHERE run_id = ?", (run["run_id"],)).fetchall()
        result.append((run, json.loads(shown.stdout), etag))
    return result


def same_number(a, b):
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)
    return a == b


def assert_equals_validate(window_report, file_report):
    """Every check (table checks over the window included) as `griffin validate` says."""
    assert window_report["rows"] == file_report["rows"]
    assert window_report["bad_rows"] == file_report["bad_rows"]
    assert math.isclose(window_report["quality_score"], file_report["quality_score"])
    assert window_report["passed"] == file_report["passed"]
    # In order: a table `min` of a column and its column check `min` share a name.
    assert [c["name"] for c in window_report["checks"]] == [c["name"] for c in file_report["checks"]]
    table_checks = 0
    for check, expected in zip(window_report["checks"], file_report["checks"]):
        for key in ("observed", "evaluated", "violations", "passed"):
            assert same_number(check.get(key), expected.get(key)), (check, expected)
        table_checks += "observed" in check
    assert table_checks == 9


def test_windows_of_n_records_equal_validate_and_publish_their_score(topics, tmp_path):
    # 1,250 records in micro-batches of at most 64 and windows of 500: the windows
    # end at offsets 500 and 1000 exactly (a batch is cut where a window ends); SIGTERM
    # closes the last, partial one. Three partitions would make "first" records differ
    # in order; table checks do not depend on order, but one partition keeps the
    # offsets simple.
    address, t = topics
    rules, store, records = windowed_input(address, t, tmp_path, window=500, total=1250, seed=31)
    port = free_port()
    stream = Stream(address, rules, t["raw"], t["clean"], t["dlq"], t["group"],
                    extra=["--batch-records", "64", "--batch-ms", "20", "--store", str(store),
                           "--metrics-listen", f"127.0.0.1:{port}"]).start()
    produce(address, t["raw"], records)
    wait_consumed(address, t["group"], t["raw"], len(records), process=stream.process)
    time.sleep(0.5)
    text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10).read().decode()
    status, stderr = stream.stop()
    assert status == 0, stderr

    assert metric(text, "griffin_stream_windows_total") == 2
    assert metric(text, "griffin_stream_records_in_total") == len(records)
    runs = windows(store)
    assert [etag for _, _, etag in runs] == ["p0:0-500", "p0:500-1000", "p0:1000-1250"]
    values = [value for _, value in records]
    reports = []
    for i, (run, report, _) in enumerate(runs):
        first, last = i * 500, min((i + 1) * 500, len(records))
        expected = validate_report(rules, values[first:last], tmp_path, f"window{i}")
        assert_equals_validate(report, expected)
        assert run["rows"] == last - first and run["status"] == "complete" and run["rules_version"] == 1
        reports.append(report)
    # The gauge is the last closed window's score (the second: the third closed at stop).
    assert math.isclose(metric(text, "griffin_stream_window_quality_score"), reports[1]["quality_score"])
    # Table checks over the window, not its last micro-batch: the window's row_count.
    row_count = next(c for c in reports[0]["checks"] if c["name"] == "table.row_count")
    assert row_count["observed"] == 500


def test_kill_9_loses_the_open_window_and_the_next_starts_at_the_committed_offsets(topics, tmp_path):
    # The window lives in memory (docs/semantics.md): a validator killed mid-window
    # records no run for it; its records were routed exactly once all the same, and
    # the restarted validator opens a new window at the group's committed offsets.
    address, t = topics
    rules, store, records = windowed_input(address, t, tmp_path, window=1000, total=1700, seed=37)
    args = ["--batch-records", "100", "--batch-ms", "20", "--store", str(store)]
    first = Stream(address, rules, t["raw"], t["clean"], t["dlq"], t["group"], extra=args).start()
    produce(address, t["raw"], records[:600])
    wait_consumed(address, t["group"], t["raw"], 600, process=first.process)
    first.kill()
    with sqlite3.connect(store) as db:  # opened at start, no run recorded
        assert db.execute("SELECT count(*) FROM runs").fetchone() == (0,)

    produce(address, t["raw"], records[600:1500])
    second = Stream(address, rules, t["raw"], t["clean"], t["dlq"], t["group"], extra=args).start()
    wait_consumed(address, t["group"], t["raw"], 1500, process=second.process)
    produce(address, t["raw"], records[1500:])
    wait_consumed(address, t["group"], t["raw"], 1700, process=second.process)
    status, stderr = second.stop()
    assert status == 0, stderr
    runs = windows(store)
    assert [etag for _, _, etag in runs] == ["p0:600-1600", "p0:1600-1700"]
    values = [value for _, value in records]
    assert_equals_validate(runs[0][1], validate_report(rules, values[600:1600], tmp_path, "after_restart"))
