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

from confluent_kafka import Producer

from griffin_cli import require_binary
from kafka_harness import Stream, committed_offsets, create_topics, produce, read_committed
from stream_harness import RULES, free_port, make_record, metric, mid_of, wait_consumed
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


def windowed_input(address, t, tmp_path, window, total, seed, partitions=1):
    """Topics (one partition unless told), a rule file with table checks and
    `stream.window: window`, a store path and `total` make_record records (not produced yet)."""
    create_topics(address, [t["raw"], t["clean"], t["dlq"]], partitions=partitions)
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


# Several input partitions (docs/semantics.md, "Windows over several partitions"): a
# window belongs to the validator, not to a partition; it gathers the batches it
# committed from every partition it reads, and its lineage says which offsets.

PARTITIONS = 3


def keyed_partition(index, key):
    """The partition a record goes to: its key's (every key's records in one partition,
    as a keyed producer would do), round-robin for records without a key."""
    return (int(key[1:]) if key else index) % PARTITIONS


def produce_keyed(address, topic, records, first, last, by_partition):
    """Produces records[first:last] to their keyed_partition, in order, appending each
    value to by_partition[its partition] (which so lists each partition's values by offset)."""
    producer = Producer({"bootstrap.servers": address, "linger.ms": 5, "enable.idempotence": True})
    for index in range(first, last):
        key, value = records[index]
        partition = keyed_partition(index, key.decode() if key else None)
        producer.produce(topic, value=value, key=key, partition=partition)
        by_partition.setdefault(partition, []).append(value)
    assert producer.flush(60) == 0


def parse_etag(etag):
    """'p0:0-120 p2:40-90' -> {0: (0, 120), 2: (40, 90)}."""
    ranges = {}
    for part in etag.split():
        partition, span = part[1:].split(":")
        first, end = span.split("-")
        ranges[int(partition)] = (int(first), int(end))
    return ranges


def assert_windows_tile(runs, start, end):
    """Per partition the windows' offset ranges follow each other with no gap and no
    overlap, from start[p] to end[p]: every record read is in exactly one window."""
    at = dict(start)
    for _, _, etag in runs:
        for partition, (first, last) in sorted(parse_etag(etag).items()):
            assert first == at[partition], (etag, at)
            assert last > first
            at[partition] = last
    assert at == end


def window_sizes(runs):
    return [sum(end - first for first, end in parse_etag(etag).values()) for _, _, etag in runs]


def assert_each_window_equals_validate(runs, by_partition, rules, tmp_path):
    """Each window's report as `griffin validate` of exactly the records its lineage
    names (each partition's offsets [first, end))."""
    for i, (_, report, etag) in enumerate(runs):
        values = [value for partition, (first, end) in sorted(parse_etag(etag).items())
                  for value in by_partition[partition][first:end]]
        assert_equals_validate(report, validate_report(rules, values, tmp_path, f"window{i}"))


def test_windows_span_partitions_and_equal_validate_over_their_offsets(topics, tmp_path):
    # 1,500 keyed records over 3 partitions, produced in three rounds while the
    # validator runs, so its batches interleave the partitions; windows of 400
    # records count the messages of all partitions together.
    address, t = topics
    rules, store, records = windowed_input(address, t, tmp_path, window=400, total=1500, seed=41,
                                           partitions=PARTITIONS)
    stream = Stream(address, rules, t["raw"], t["clean"], t["dlq"], t["group"],
                    extra=["--batch-records", "64", "--batch-ms", "20", "--store", str(store)]).start()
    by_partition = {}
    for first in range(0, 1500, 500):
        produce_keyed(address, t["raw"], records, first, first + 500, by_partition)
        time.sleep(0.3)
    wait_consumed(address, t["group"], t["raw"], 1500, partitions=PARTITIONS, process=stream.process)
    status, stderr = stream.stop()
    assert status == 0, stderr

    runs = windows(store)
    sizes = window_sizes(runs)
    assert sizes == [400, 400, 400, 300]  # the last one closed at the stop
    assert_windows_tile(runs, {p: 0 for p in range(PARTITIONS)},
                        {p: len(v) for p, v in by_partition.items()})
    assert any(len(parse_etag(etag)) > 1 for _, _, etag in runs)  # windows mix partitions
    run_ids = [run["run_id"] for run, _, _ in runs]
    assert len(set(run_ids)) == len(run_ids)
    assert_each_window_equals_validate(runs, by_partition, rules, tmp_path)
    for (run, report, _), size in zip(runs, sizes):
        assert run["rows"] == size and run["status"] == "complete"
        assert report["inputs"] == [f"kafka://{address}/{t['raw']}"]


def test_kill_9_mid_window_over_partitions_restarts_at_each_partitions_committed_offset(topics, tmp_path):
    # Killed mid-window, the validator records no run; the restarted one opens its
    # first window at the group's committed offset of every partition, and its
    # windows again tile the partitions and equal `griffin validate`.
    address, t = topics
    rules, store, records = windowed_input(address, t, tmp_path, window=1000, total=2100, seed=43,
                                           partitions=PARTITIONS)
    args = ["--batch-records", "50", "--batch-ms", "20", "--store", str(store)]
    by_partition = {}
    first = Stream(address, rules, t["raw"], t["clean"], t["dlq"], t["group"], extra=args).start()
    produce_keyed(address, t["raw"], records, 0, 900, by_partition)
    wait_consumed(address, t["group"], t["raw"], 900, partitions=PARTITIONS, process=first.process)
    first.kill()
    with sqlite3.connect(store) as db:
        assert db.execute("SELECT count(*) FROM runs").fetchone() == (0,)
    committed = committed_offsets(address, t["group"], t["raw"], PARTITIONS)
    assert committed == {p: len(v) for p, v in by_partition.items()}

    produce_keyed(address, t["raw"], records, 900, 2100, by_partition)
    second = Stream(address, rules, t["raw"], t["clean"], t["dlq"], t["group"], extra=args).start()
    wait_consumed(address, t["group"], t["raw"], 2100, partitions=PARTITIONS, process=second.process)
    status, stderr = second.stop()
    assert status == 0, stderr

    runs = windows(store)
    assert window_sizes(runs) == [1000, 200]
    assert_windows_tile(runs, committed, {p: len(v) for p, v in by_partition.items()})
    assert_each_window_equals_validate(runs, by_partition, rules, tmp_path)
    # Exactly once all the same: every record in clean or dead-letter once (the dead
    # letters by their griffin-source partition and offset).
    index_at, next_offset = {}, {p: 0 for p in range(PARTITIONS)}
    for index, (key, _) in enumerate(records):
        partition = keyed_partition(index, key.decode() if key else None)
        index_at[(partition, next_offset[partition])] = index
        next_offset[partition] += 1
    clean = read_committed(address, t["clean"], len(records), PARTITIONS, timeout_s=20)
    dlq = read_committed(address, t["dlq"], len(records) - len(clean), PARTITIONS, timeout_s=20)
    seen = [mid_of(r["value"], None) for r in clean]
    for record in dlq:
        source = json.loads(record["headers"]["griffin-source"])
        seen.append(index_at[(source["partition"], source["offset"])])
    assert sorted(seen) == list(range(len(records)))
