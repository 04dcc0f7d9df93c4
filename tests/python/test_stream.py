"""`griffin stream` against a real Kafka broker (scripts/kafka_test_cluster.sh).

Every test makes its own topics and group, produces its input with confluent-kafka,
runs the griffin binary, and reads the outputs back with read_committed. Verdicts are
compared with `griffin validate` on the same records written as a JSON-lines file.
"""
import hashlib
import json
import os
import random
import socket
import subprocess
import time
import urllib.request

import pytest

from griffin_cli import REPO_ROOT, require_binary
from kafka_harness import (Stream, broker, committed_offsets, create_topics, produce, read_committed,
                           unique)

RULES = """griffin: 1
dataset: events
columns:
  id: {type: string, not_null: true, regex: '^e[0-9]+$'}
  amount: {type: float64, min: 0, max: 1000000}
  qty: {type: int64, gt: 0}
  status: {type: string, in: [new, paid, shipped]}
  email: {type: string, regex: {pattern: '^[^@ ]+@[^@ ]+$', severity: warn}}
rows:
  - name: paid_has_amount
    expr: "status != 'paid' or amount is not null"
"""


def make_record(index, rng):
    """(key, value bytes) with a mix of clean, bad and malformed messages; every value
    that is a JSON object carries its own id in "mid" so records can be told apart."""
    kind = rng.random()
    record = {"mid": index, "id": f"e{index}", "amount": round(rng.uniform(0, 5000), 2),
              "qty": rng.randint(1, 9), "status": rng.choice(["new", "paid", "shipped"]),
              "email": f"u{index}@x.org"}
    if kind < 0.05:
        value = b"not json " + str(index).encode()
    elif kind < 0.08:
        value = json.dumps([index, "an array"]).encode()
    elif kind < 0.12:
        record["amount"] = -1
    elif kind < 0.16:
        record["qty"] = "three"
    elif kind < 0.20:
        record["status"] = "lost"
    elif kind < 0.23:
        del record["id"]
    elif kind < 0.26:
        record["email"] = "no-at-sign"          # warn only: stays clean
    elif kind < 0.29:
        record["status"], record["amount"] = "paid", None
    if kind >= 0.08:
        value = json.dumps(record).encode()
    key = f"k{index % 17}".encode() if index % 5 else None
    return key, value


def good(index, **changes):
    """A clean record (every column present: a required column absent from a whole
    micro-batch is a schema error of that batch, as of any input)."""
    record = {"mid": index, "id": f"e{index}", "amount": 1.5, "qty": 1, "status": "new", "email": "a@b"}
    record.update(changes)
    return json.dumps(record).encode()


def mid_of(value, fallback):
    try:
        parsed = json.loads(value)
        if isinstance(parsed, dict):
            return parsed["mid"]
    except (ValueError, KeyError):
        pass
    return fallback


def quarantine_by_row(rules_path, values, tmp_path):
    """`griffin validate` on the values as a JSON-lines file: {row: [error dicts]} of its quarantine."""
    data = tmp_path / "records.jsonl"
    data.write_bytes(b"".join(v + b"\n" for v in values))
    quarantine = tmp_path / "quarantine.jsonl"
    done = subprocess.run([str(require_binary()), "validate", "-r", str(rules_path), str(data), "--no-store",
                           "--quarantine", str(quarantine), "--format", "json"], capture_output=True, timeout=120)
    assert done.returncode in (0, 1), done.stderr
    bad = {}
    for line in quarantine.read_text().splitlines():
        row = json.loads(line)
        bad[row["_griffin_row"]] = row["_griffin_errors"]
    return bad


def wait_consumed(address, group, topic, total, partitions=1, timeout_s=90, process=None):
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        offsets = committed_offsets(address, group, topic, partitions)
        if sum(max(o, 0) for o in offsets.values()) >= total:
            return
        if process is not None and process.poll() is not None:
            pytest.fail(f"griffin stream exited {process.returncode}: {process.stderr.read().decode()}")
        time.sleep(0.5)
    pytest.fail(f"griffin stream did not consume {total} records in {timeout_s} s")


@pytest.fixture
def topics():
    address = broker()
    names = {"raw": unique("raw"), "clean": unique("clean"), "dlq": unique("dlq"), "group": unique("group")}
    return address, names


def with_topics(address, t, tmp_path, partitions=1):
    """Creates raw, clean and dlq with `partitions` partitions; returns the rule file's path."""
    create_topics(address, [t["raw"], t["clean"], t["dlq"]], partitions=partitions)
    rules = tmp_path / "rules.yaml"
    rules.write_text(RULES)
    return rules


def with_mixed_input(address, t, tmp_path, partitions, total, seed):
    """with_topics, and `total` make_record messages produced to raw; returns the rule file's path."""
    rules = with_topics(address, t, tmp_path, partitions)
    rng = random.Random(seed)
    produce(address, t["raw"], [make_record(i, rng) for i in range(total)], partitions=partitions)
    return rules


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


def test_sigterm_commits_the_open_batch_and_a_restart_continues_the_versions(topics, tmp_path):
    address, t = topics
    rules = with_topics(address, t, tmp_path)
    first = [(None, good(i)) for i in range(50)]
    produce(address, t["raw"], first)
    # A batch that would wait 60 s: SIGTERM cuts and commits it.
    stream = Stream(address, rules, t["raw"], t["clean"], t["dlq"], t["group"],
                    extra=["--batch-records", "1000", "--batch-ms", "60000"]).start()
    time.sleep(4)
    status, stderr = stream.stop(timeout_s=30)
    assert status == 0, stderr
    assert committed_offsets(address, t["group"], t["raw"]) == {0: 50}

    second = [(None, good(i)) for i in range(50, 80)]
    produce(address, t["raw"], second)
    stream = Stream(address, rules, t["raw"], t["clean"], t["dlq"], t["group"], extra=["--batch-ms", "20"]).start()
    wait_consumed(address, t["group"], t["raw"], 80, process=stream.process)
    status, stderr = stream.stop()
    assert status == 0, stderr
    clean = read_committed(address, t["clean"], 80)
    assert [mid_of(r["value"], None) for r in clean] == list(range(80))
    assert [int(r["headers"]["griffin-version"]) for r in clean] == list(range(1, 81))


def assert_each_record_once(address, t, total, partitions):
    """Input record i (partition i % partitions, offset i // partitions) is in clean or
    dead-letter exactly once; versions are 1..N once each, increasing along each partition."""
    clean = read_committed(address, t["clean"], total, partitions, timeout_s=30)
    dlq = read_committed(address, t["dlq"], total - len(clean), partitions, timeout_s=10)
    seen = [mid_of(r["value"], None) for r in clean]
    for record in dlq:
        source = json.loads(record["headers"]["griffin-source"])
        seen.append(source["offset"] * partitions + source["partition"])
    assert sorted(seen) == list(range(total))
    assert sorted(int(r["headers"]["griffin-version"]) for r in clean) == list(range(1, len(clean) + 1))
    for p in range(partitions):
        along = [int(r["headers"]["griffin-version"]) for r in clean if r["partition"] == p]
        assert along == sorted(along)
        mids = [mid_of(r["value"], None) for r in clean if r["partition"] == p]
        assert mids == sorted(mids)  # partition order kept


def finish_and_check_each_record_once(stream, address, t, total, partitions):
    """Lets the running `stream` consume all `total` input records, stops it, checks the outputs."""
    wait_consumed(address, t["group"], t["raw"], total, partitions, timeout_s=120, process=stream.process)
    time.sleep(1)
    status, stderr = stream.stop()
    assert status == 0, stderr
    assert_each_record_once(address, t, total, partitions)


# GRIFFIN_STREAM_FULL=1: the full size, 20 kills in a 200,000-message run
# (several minutes); by default 6 kills in 10,000 messages.
FULL = os.environ.get("GRIFFIN_STREAM_FULL") == "1"


def test_kill_9_at_random_points_loses_and_repeats_nothing(topics, tmp_path):
    address, t = topics
    partitions = 2
    rules = with_topics(address, t, tmp_path, partitions)
    rng = random.Random(9)
    total, kill_count = (200_000, 20) if FULL else (10_000, 6)
    records = [make_record(i, rng) for i in range(total)]
    produce(address, t["raw"], records, partitions=partitions)
    extra = ["--batch-records", "200" if FULL else "500", "--batch-ms", "20"]
    kills = 0
    for _ in range(kill_count):
        stream = Stream(address, rules, t["raw"], t["clean"], t["dlq"], t["group"], extra=extra).start()
        time.sleep(rng.uniform(0.5, 2.5) if FULL else rng.uniform(1.0, 3.0))
        if stream.process.poll() is not None:
            pytest.fail(f"griffin stream exited {stream.process.returncode}: {stream.wait()[1]}")
        stream.kill()
        kills += 1
    stream = Stream(address, rules, t["raw"], t["clean"], t["dlq"], t["group"], extra=extra).start()
    wait_consumed(address, t["group"], t["raw"], total, partitions, timeout_s=600 if FULL else 120,
                  process=stream.process)
    time.sleep(2)  # the killed ones may have done it all: let this one start before SIGTERM
    status, stderr = stream.stop()
    assert status == 0, stderr

    assert_each_record_once(address, t, total, partitions)


def run_stream_expecting_failure(command, timeout_s=60):
    started = time.monotonic()
    done = subprocess.run(command, capture_output=True, timeout=timeout_s)
    return done.returncode, done.stderr.decode(errors="replace"), time.monotonic() - started


def test_broker_down_at_start_fails_fast_with_one_line(tmp_path):
    rules = tmp_path / "rules.yaml"
    rules.write_text(RULES)
    dead = "127.0.0.1:1"
    status, stderr, elapsed = run_stream_expecting_failure(
        [str(require_binary()), "stream", "-r", str(rules), "--from", f"kafka://{dead}/raw",
         "--to", f"kafka://{dead}/clean", "--dead-letter", f"kafka://{dead}/dlq", "--group", "g",
         "--startup-timeout", "3"])
    assert status == 3, stderr
    assert stderr.count("\n") == 1, stderr
    assert stderr.startswith(f"griffin: kafka://{dead}/raw: no Kafka broker answered within 3 s"), stderr
    assert elapsed < 15


def test_missing_topic_is_exit_3_naming_it(topics, tmp_path):
    address, t = topics
    create_topics(address, [t["raw"], t["clean"]])
    rules = tmp_path / "rules.yaml"
    rules.write_text(RULES)
    stream = Stream(address, rules, t["raw"], t["clean"], t["dlq"], t["group"])
    status, stderr, _ = run_stream_expecting_failure(stream.command)
    assert status == 3, stderr
    assert stderr == f"griffin: kafka://{address}/{t['dlq']}: topic '{t['dlq']}' does not exist\n"


def test_bad_config_key_and_bad_rules_are_exit_2(topics, tmp_path):
    address, t = topics
    rules = tmp_path / "rules.yaml"
    rules.write_text(RULES)
    config = tmp_path / "client.properties"
    config.write_text("# tuning\nlinger.ms=10\nno.such.key=1\n")
    stream = Stream(address, rules, t["raw"], t["clean"], t["dlq"], t["group"], extra=["--config", str(config)])
    status, stderr, _ = run_stream_expecting_failure(stream.command)
    assert status == 2, stderr
    assert stderr == f"griffin: {config}:3: Kafka client setting 'no.such.key': No such configuration property: \"no.such.key\"\n"

    config.write_text("linger.ms\n")
    status, stderr, _ = run_stream_expecting_failure(stream.command)
    assert status == 2 and f"{config}:1: expected key=value" in stderr, stderr

    rules.write_text("griffin: 1\ndataset: x\ncolumns:\n  id: {type: nonsense}\n")
    stream = Stream(address, rules, t["raw"], t["clean"], t["dlq"], t["group"])
    status, stderr, _ = run_stream_expecting_failure(stream.command)
    assert status == 2 and str(rules) in stderr, stderr

    stream = Stream(address, rules, t["raw"], t["clean"], t["dlq"], t["group"])
    stream.command[stream.command.index("--from") + 1] = "kafka://nohost/raw"
    status, stderr, _ = run_stream_expecting_failure(stream.command)
    assert status == 2 and "kafka://nohost/raw: host 'nohost' has no port" in stderr, stderr


def test_poison_messages_go_to_the_dead_letter_topic(topics, tmp_path):
    address, t = topics
    rules = with_topics(address, t, tmp_path)
    big = good(3, blob="x" * (10 * 1024 * 1024))
    records = [(b"a", b""), (b"b", b"{\"id\": \"e1\xff\"}"), (None, b"  "), (b"big", big),
               (None, good(4, qty=0))]
    produce(address, t["raw"], records)
    stream = Stream(address, rules, t["raw"], t["clean"], t["dlq"], t["group"]).start()
    wait_consumed(address, t["group"], t["raw"], len(records), process=stream.process)
    status, stderr = stream.stop()
    assert status == 0, stderr
    clean = read_committed(address, t["clean"], 1)
    assert [(r["key"], r["value"]) for r in clean] == [(b"big", big)]
    dlq = read_committed(address, t["dlq"], 4)
    assert [(r["key"], r["value"]) for r in dlq] == [records[0], records[1], records[2], records[4]]
    reasons = [json.loads(r["headers"]["griffin-errors"]) for r in dlq]
    assert reasons[0] == [{"check": "malformed", "message": "empty message"}]
    assert reasons[1][0]["check"] == "malformed" and "invalid UTF-8" in reasons[1][0]["message"]
    assert reasons[2] == [{"check": "malformed", "message": "empty message"}]
    assert [e["check"] for e in reasons[3]] == ["qty.gt"]


def test_record_too_large_for_the_output_is_exit_3_and_loses_nothing(topics, tmp_path):
    address, t = topics
    create_topics(address, [t["raw"], t["clean"]])
    create_topics(address, [t["dlq"]], config={"max.message.bytes": "100000"})
    rules = tmp_path / "rules.yaml"
    rules.write_text(RULES)
    records = [(None, b"x" * 500_000)]  # malformed, and too large for the dead-letter topic
    produce(address, t["raw"], records)
    stream = Stream(address, rules, t["raw"], t["clean"], t["dlq"], t["group"])
    status, stderr, _ = run_stream_expecting_failure(stream.command, timeout_s=120)
    assert status == 3, stderr
    assert stderr.count("\n") == 1 and f"'{t['dlq']}' refused a record" in stderr, stderr
    assert committed_offsets(address, t["group"], t["raw"]) == {0: -1001}  # nothing committed


def test_a_second_validator_fences_the_first(topics, tmp_path):
    # Two partitions, so that after the rebalance each validator has work: the first
    # learns it is fenced at its next transaction (an idle one would learn it when
    # work reaches it; it can never commit).
    address, t = topics
    partitions = 2
    rules = with_topics(address, t, tmp_path, partitions)
    batch = lambda lo, hi: [(None, good(i)) for i in range(lo, hi)]
    produce(address, t["raw"], batch(0, 100), partitions=partitions)
    first = Stream(address, rules, t["raw"], t["clean"], t["dlq"], t["group"], extra=["--batch-ms", "20"]).start()
    wait_consumed(address, t["group"], t["raw"], 100, partitions, process=first.process)
    second = Stream(address, rules, t["raw"], t["clean"], t["dlq"], t["group"], extra=["--batch-ms", "20"]).start()
    time.sleep(5)
    for start in range(100, 400, 20):  # keep both busy until the first stops
        produce(address, t["raw"], batch(start, start + 20), partitions=partitions)
        time.sleep(0.2)
    status, stderr = first.wait(timeout_s=60)
    assert status == 3, stderr
    assert "fenced: another griffin stream took over transactional id" in stderr, stderr
    assert stderr.count("\n") == 1, stderr
    wait_consumed(address, t["group"], t["raw"], 400, partitions, process=second.process)
    status, stderr = second.stop()
    assert status == 0, stderr
    clean = read_committed(address, t["clean"], 400, partitions)
    assert sorted(mid_of(r["value"], None) for r in clean) == list(range(400))
    assert sorted(int(r["headers"]["griffin-version"]) for r in clean) == list(range(1, 401))


def test_broker_restart_mid_run_loses_and_repeats_nothing(topics, tmp_path):
    address, t = topics
    partitions, total = 2, 10000
    rules = with_mixed_input(address, t, tmp_path, partitions, total, seed=5)
    extra = ["--batch-records", "200", "--batch-ms", "20", "--commit-timeout", "60", "--startup-timeout", "30"]
    stream = Stream(address, rules, t["raw"], t["clean"], t["dlq"], t["group"], extra=extra).start()
    time.sleep(1.5)
    script = REPO_ROOT / "scripts" / "kafka_test_cluster.sh"
    restarted = subprocess.run([str(script), "restart"], capture_output=True, timeout=120)
    assert restarted.returncode == 0, restarted.stderr
    # It recovers by itself, or fails with one clear line (and a new one continues).
    if stream.process.poll() is not None:
        status, stderr = stream.wait()
        assert status == 3 and stderr.count("\n") == 1, stderr
        stream = Stream(address, rules, t["raw"], t["clean"], t["dlq"], t["group"], extra=extra).start()
    finish_and_check_each_record_once(stream, address, t, total, partitions)


def test_broker_gone_for_good_after_a_commit_is_exit_3_in_bounded_time_and_loses_nothing(topics, tmp_path):
    # The broker is killed (SIGKILL) right after a commit and stays down: librdkafka 2.0.2
    # can then block forever inside send_offsets_to_transaction (it ignores its timeout
    # when the group coordinator is gone); the watchdog turns that into exit 3 with one
    # line. Two rounds (it hung in about half of them before the watchdog), then the
    # broker comes back and a last validator finishes: every record once.
    address, t = topics
    partitions, total = 2, 6000
    rules = with_mixed_input(address, t, tmp_path, partitions, total, seed=11)
    # The killed validator stays a group member until its session times out: 6 s (the
    # broker's minimum), so the next one gets the partitions soon after it starts.
    config = tmp_path / "client.properties"
    config.write_text("session.timeout.ms=6000\n")
    extra = ["--batch-records", "100", "--batch-ms", "20", "--commit-timeout", "10", "--startup-timeout", "30",
             "--config", str(config)]
    script = REPO_ROOT / "scripts" / "kafka_test_cluster.sh"
    down = False
    try:
        for round_ in range(2):
            before = sum(max(o, 0) for o in committed_offsets(address, t["group"], t["raw"], partitions).values())
            stream = Stream(address, rules, t["raw"], t["clean"], t["dlq"], t["group"], extra=extra).start()
            wait_consumed(address, t["group"], t["raw"], before + 1, partitions, timeout_s=60, process=stream.process)
            time.sleep(random.uniform(0, 0.3))
            crashed = subprocess.run([str(script), "crash"], capture_output=True, timeout=60)
            assert crashed.returncode == 0, crashed.stderr
            down, gone = True, time.monotonic()
            try:
                status, stderr = stream.wait(timeout_s=45)  # commit timeout 10 s, a stuck call 10 + 5 s
            except subprocess.TimeoutExpired:
                stream.kill()
                pytest.fail(f"round {round_}: griffin stream still running 45 s after the broker went away")
            assert status == 3, stderr
            assert stderr.count("\n") == 1 and stderr.startswith("griffin: kafka://"), stderr
            assert "a restart continues" in stderr, stderr
            assert time.monotonic() - gone < 45
            restarted = subprocess.run([str(script), "restart"], capture_output=True, timeout=120)
            assert restarted.returncode == 0, restarted.stderr
            down = False
    finally:
        if down:  # the other tests need it
            subprocess.run([str(script), "restart"], capture_output=True, timeout=120)
    stream = Stream(address, rules, t["raw"], t["clean"], t["dlq"], t["group"], extra=extra).start()
    finish_and_check_each_record_once(stream, address, t, total, partitions)


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


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def metric(text, name):
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    raise AssertionError(f"{name} not in metrics:\n{text}")


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


UNIQUE_RULES = """griffin: 1
dataset: uniques
columns:
  mid: {type: int64}
  id: {type: string, unique: true}
  n: {type: int64, unique: true, min: 0}
"""


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
