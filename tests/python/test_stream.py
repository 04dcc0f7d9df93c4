"""`griffin stream` against a real Kafka broker (scripts/kafka_test_cluster.sh).

Every test makes its own topics and group, produces its input with confluent-kafka,
runs the griffin binary, and reads the outputs back with read_committed. Verdicts are
compared with `griffin validate` on the same records written as a JSON-lines file.
"""
import hashlib
import json
import os
import random
import subprocess
import time
import urllib.request

from griffin_cli import require_binary
from kafka_harness import Stream, committed_offsets, create_topics, produce, read_committed, unique
from stream_harness import (RULES, free_port, good, make_record, metric, mid_of, quarantine_by_row,
                            wait_consumed, with_topics)
from stream_harness import topics  # noqa: F401 (the pytest fixture the tests take)

UNIQUE_RULES = """griffin: 1
dataset: uniques
columns:
  mid: {type: int64}
  id: {type: string, unique: true}
  n: {type: int64, unique: true, min: 0}
"""


def test_clean_and_dead_letter_equal_validate_with_headers(topics, tmp_path):
    address, t = topics
    partitions = 3
    rules = with_topics(address, t, tmp_path, partitions)
    rng = random.Random(17)
    records = [make_record(i, rng) for i in range(3000)]
    produce(address, t["raw"], records, partitions=partitions)

    stream = Stream(address, rules, t["raw"], t["clean"], t["dlq"], t["group"],
                    extra=["--batch-records", "400", "--batch-ms", "50"]).start()
    wait_consumed(address, t["group"], t["raw"], len(records), partitions, process=stream.process)
    status, stderr = stream.stop()
    assert status == 0, stderr
    assert "3000 records in" in stderr

    expected_bad = quarantine_by_row(rules, [value for _, value in records], tmp_path)
    assert 300 < len(expected_bad) < 1500  # the generator makes a real mix
    clean = read_committed(address, t["clean"], len(records) - len(expected_bad), partitions)
    dlq = read_committed(address, t["dlq"], len(expected_bad), partitions)
    assert len(clean) + len(dlq) == len(records)

    # Input record i went to partition i % 3 at offset i // 3.
    source_of = {(i % partitions, i // partitions): i for i in range(len(records))}
    rules_sha = hashlib.sha256(RULES.encode()).hexdigest()
    clean_rows = set()
    for record in clean:
        row = mid_of(record["value"], None)
        assert row is not None and row not in expected_bad, record
        assert (record["key"], record["value"]) == records[row]
        assert record["partition"] == row % partitions
        assert record["headers"]["griffin-rules"].decode() == rules_sha
        clean_rows.add(row)
    assert clean_rows == set(range(len(records))) - set(expected_bad)
    dlq_rows = set()
    for record in dlq:
        source = json.loads(record["headers"]["griffin-source"])
        assert source["topic"] == t["raw"]
        row = source_of[(source["partition"], source["offset"])]
        assert (record["key"], record["value"]) == records[row]
        assert json.loads(record["headers"]["griffin-errors"]) == expected_bad[row], row
        assert record["headers"]["griffin-rules"].decode() == rules_sha
        assert "griffin-version" not in record["headers"]
        dlq_rows.add(row)
    assert dlq_rows == set(expected_bad)

    # Versions: 1..N, each once; increasing along every partition.
    versions = [int(r["headers"]["griffin-version"]) for r in clean]
    assert sorted(versions) == list(range(1, len(clean) + 1))
    for p in range(partitions):
        along = [int(r["headers"]["griffin-version"]) for r in clean if r["partition"] == p]
        assert along == sorted(along)


def test_csv_messages_equal_validate_on_a_csv_file(topics, tmp_path):
    address, t = topics
    create_topics(address, [t["raw"], t["clean"], t["dlq"]])
    rules = tmp_path / "rules.yaml"
    rules.write_text("griffin: 1\ndataset: csvs\nsource: {format: csv}\ncolumns:\n"
                     "  id: {type: string, not_null: true}\n  qty: {type: int64, min: 1}\n")
    rng = random.Random(3)
    lines = [rng.choice([f"e{i},{rng.randint(-2, 9)}", f",{i}", f"e{i},x", f"e{i},1,2", f'"e{i}\nz",3'])
             for i in range(500)]
    produce(address, t["raw"], [(None, line.encode()) for line in lines])
    stream = Stream(address, rules, t["raw"], t["clean"], t["dlq"], t["group"],
                    extra=["--batch-records", "64", "--batch-ms", "20"]).start()
    wait_consumed(address, t["group"], t["raw"], len(lines), process=stream.process)
    status, stderr = stream.stop()
    assert status == 0, stderr

    data = tmp_path / "records.csv"
    data.write_text("id,qty\n" + "".join(line + "\n" for line in lines))
    quarantine = tmp_path / "quarantine.jsonl"
    done = subprocess.run([str(require_binary()), "validate", "-r", str(rules), str(data), "--no-store",
                           "--quarantine", str(quarantine)], capture_output=True, timeout=60)
    assert done.returncode in (0, 1), done.stderr
    expected = {}
    for line in quarantine.read_text().splitlines():
        row = json.loads(line)
        expected[row["_griffin_row"]] = row["_griffin_errors"]
    assert 50 < len(expected) < 450
    dlq = read_committed(address, t["dlq"], len(expected))
    got = {json.loads(r["headers"]["griffin-source"])["offset"]: json.loads(r["headers"]["griffin-errors"])
           for r in dlq}
    assert got == expected
    clean = read_committed(address, t["clean"], len(lines) - len(expected))
    assert [r["value"].decode() for r in clean] == [l for i, l in enumerate(lines) if i not in expected]


def test_metrics_count_what_the_topics_hold(topics, tmp_path):
    address, t = topics
    rules = with_topics(address, t, tmp_path)
    rng = random.Random(11)
    records = [make_record(i, rng) for i in range(1000)]
    produce(address, t["raw"], records)
    port = free_port()
    stream = Stream(address, rules, t["raw"], t["clean"], t["dlq"], t["group"],
                    extra=["--batch-records", "100", "--metrics-listen", f"127.0.0.1:{port}"]).start()
    wait_consumed(address, t["group"], t["raw"], len(records), process=stream.process)
    deadline = time.monotonic() + 10
    while True:  # the lag gauge follows the last batch's commit
        text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10).read().decode()
        if metric(text, "griffin_stream_lag") == 0 or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    status, stderr = stream.stop()
    assert status == 0, stderr
    dlq_count = len(quarantine_by_row(rules, [value for _, value in records], tmp_path))
    clean_count = len(records) - dlq_count
    assert len(read_committed(address, t["clean"], clean_count)) == clean_count
    assert metric(text, "griffin_stream_records_in_total") == len(records)
    assert metric(text, "griffin_stream_clean_total") == clean_count
    assert metric(text, "griffin_stream_dead_letter_total") == dlq_count
    assert metric(text, 'griffin_stream_transactions_total{result="committed"}') >= 10
    assert metric(text, "griffin_stream_lag") == 0
    assert 0 < metric(text, "griffin_stream_batch_quality_score") <= 1
    assert metric(text, "griffin_stream_batch_seconds_count") >= 10


def test_a_changed_rule_file_takes_over_between_transactions(topics, tmp_path):
    address, t = topics
    rules = with_topics(address, t, tmp_path)
    stricter = RULES.replace("qty: {type: int64, gt: 0}", "qty: {type: int64, gt: 4}")

    def replace_rules(text):  # a complete file renamed into place, its mtime settled
        fresh = tmp_path / "rules.yaml.new"
        fresh.write_text(text)
        past = time.time() - 5
        os.utime(fresh, (past, past))
        os.replace(fresh, rules)

    stream = Stream(address, rules, t["raw"], t["clean"], t["dlq"], t["group"], extra=["--batch-ms", "20"]).start()
    produce(address, t["raw"], [(None, good(i, qty=i % 8 + 1)) for i in range(40)])
    wait_consumed(address, t["group"], t["raw"], 40, process=stream.process)
    replace_rules(stricter)
    time.sleep(2)  # the rule file is looked at once a second, between transactions
    produce(address, t["raw"], [(None, good(i, qty=i % 8 + 1)) for i in range(40, 80)])
    wait_consumed(address, t["group"], t["raw"], 80, process=stream.process)
    replace_rules("griffin: 1\ndataset: events\ncolumns:\n  id: {type: nope}\n")
    time.sleep(2)
    produce(address, t["raw"], [(None, good(i, qty=i % 8 + 1)) for i in range(80, 120)])
    wait_consumed(address, t["group"], t["raw"], 120, process=stream.process)
    status, stderr = stream.stop()
    assert status == 0, stderr
    assert f"griffin: stream: loaded {rules} (rules sha256 {hashlib.sha256(stricter.encode()).hexdigest()})" in stderr
    assert f"griffin: stream: refused {rules}, keeping the rules in use: {rules}:4" in stderr, stderr

    old_sha, new_sha = hashlib.sha256(RULES.encode()).hexdigest(), hashlib.sha256(stricter.encode()).hexdigest()
    expected_clean = [i for i in range(120) if i < 40 or (i % 8 + 1) > 4]
    clean = read_committed(address, t["clean"], len(expected_clean))
    assert [mid_of(r["value"], None) for r in clean] == expected_clean
    for record in clean:
        mid = mid_of(record["value"], None)
        assert record["headers"]["griffin-rules"].decode() == (old_sha if mid < 40 else new_sha), mid
    dlq = read_committed(address, t["dlq"], 120 - len(expected_clean))
    assert all([e["check"] for e in json.loads(r["headers"]["griffin-errors"])] == ["qty.gt"] for r in dlq)
    assert all(r["headers"]["griffin-rules"].decode() == new_sha for r in dlq)


def test_store_records_windows_that_history_shows(topics, tmp_path):
    address, t = topics
    rules = with_topics(address, t, tmp_path)
    store = tmp_path / "runs.db"
    rng = random.Random(21)
    records = [make_record(i, rng) for i in range(900)]
    stream = Stream(address, rules, t["raw"], t["clean"], t["dlq"], t["group"],
                    extra=["--batch-ms", "20", "--store", str(store), "--window-s", "1"]).start()
    for wave in range(3):
        produce(address, t["raw"], records[wave * 300:(wave + 1) * 300])
        wait_consumed(address, t["group"], t["raw"], (wave + 1) * 300, process=stream.process)
        time.sleep(1.2)
    status, stderr = stream.stop()
    assert status == 0, stderr
    done = subprocess.run([str(require_binary()), "history", "events", "--store", str(store), "--format", "json"],
                          capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr
    runs = json.loads(done.stdout)["runs"]
    assert len(runs) >= 2
    expected_bad = quarantine_by_row(rules, [value for _, value in records], tmp_path)
    assert sum(run["rows"] for run in runs) == len(records)
    assert sum(run["bad_rows"] for run in runs) == len(expected_bad)
    assert all(run["status"] == "complete" for run in runs)
    newest = subprocess.run([str(require_binary()), "show", runs[0]["run_id"], "--store", str(store),
                             "--format", "json"], capture_output=True, timeout=60)
    assert newest.returncode in (0, 1), newest.stderr
    report = json.loads(newest.stdout)
    assert report["inputs"] == [f"kafka://{address}/{t['raw']}"]
    assert report["rows"] == runs[0]["rows"]


def test_unique_spans_batches_and_kill_9_restarts_as_validate_on_one_file(topics, tmp_path):
    # --unique-state: `unique` keys committed with each batch's transaction into a
    # compacted topic; duplicates split across 100-record batches and across kill -9s
    # are caught as `griffin validate` catches them in one file of the same records.
    # One partition, so "first" means the same order in both.
    address, t = topics
    state = unique("state")
    create_topics(address, [t["raw"], t["clean"], t["dlq"]])
    create_topics(address, [state], config={"cleanup.policy": "compact"})
    rules = tmp_path / "rules.yaml"
    rules.write_text(UNIQUE_RULES)
    rng = random.Random(23)
    total = 4000
    values = []
    for i in range(total):
        kind = rng.random()
        if kind < 0.03:
            values.append(b"not json %d" % i)
            continue
        record = {"mid": i, "id": f"e{rng.randint(0, 2500)}", "n": rng.randint(0, 3000)}
        if kind < 0.06:
            record["n"] = "bad"          # a type violation: no key
        elif kind < 0.09:
            record["n"] = -1 - i          # below min; its key is new
        elif kind < 0.12:
            del record["id"]             # null: no key
        values.append(json.dumps(record).encode())
    produce(address, t["raw"], [(None, v) for v in values])
    config = tmp_path / "client.properties"
    config.write_text("session.timeout.ms=6000\n")  # a killed member leaves the group soon
    extra = ["--batch-records", "50", "--batch-ms", "20", "--unique-state", f"kafka://{address}/{state}",
             "--commit-timeout", "10", "--config", str(config)]
    started_at = []  # committed input offset when each run started (the killed one's
    for _ in range(4):  # open transaction is aborted by the next one's start)
        stream = Stream(address, rules, t["raw"], t["clean"], t["dlq"], t["group"], extra=extra).start()
        started_at.append(max(committed_offsets(address, t["group"], t["raw"], retry_s=60)[0], 0))
        if len(started_at) == 4:
            break
        wait_consumed(address, t["group"], t["raw"], started_at[-1] + 1, timeout_s=60, process=stream.process)
        time.sleep(rng.uniform(0, 0.2))
        stream.kill()
    assert 0 < started_at[1] < started_at[2] < started_at[3] < total, started_at  # every run had state and work
    wait_consumed(address, t["group"], t["raw"], total, timeout_s=120, process=stream.process)
    time.sleep(1)
    status, stderr = stream.stop()
    assert status == 0, stderr

    expected = quarantine_by_row(rules, values, tmp_path)
    assert sum(1 for errors in expected.values() if any(e["check"] == "id.unique" for e in errors)) > 500
    clean = read_committed(address, t["clean"], total - len(expected))
    dlq = read_committed(address, t["dlq"], len(expected))
    assert sorted(mid_of(r["value"], None) for r in clean) == sorted(set(range(total)) - set(expected))

    def shape(errors):  # a unique message names the first row, which a stream cannot
        return [(e["check"], None if e["check"].endswith(".unique") else e["message"]) for e in errors]

    got = {json.loads(r["headers"]["griffin-source"])["offset"]: json.loads(r["headers"]["griffin-errors"])
           for r in dlq}
    assert len(got) == len(dlq)
    assert {row: shape(errors) for row, errors in got.items()} == {row: shape(e) for row, e in expected.items()}
    assert any(e["message"].endswith("duplicates a record of an earlier batch") for es in got.values() for e in es)
