"""`griffin stream` when things go wrong, against a real Kafka broker: SIGTERM, kill -9,
a broker down, restarted or gone, missing topics, bad settings, poison and oversized
records, and a second validator fencing the first. Every record comes out exactly once.
"""
import json
import os
import random
import subprocess
import time

import pytest

from griffin_cli import REPO_ROOT, require_binary
from kafka_harness import Stream, committed_offsets, create_topics, produce, read_committed
from stream_harness import (RULES, assert_each_record_once, finish_and_check_each_record_once, good,
                            make_record, mid_of, run_stream_expecting_failure, wait_consumed,
                            with_mixed_input, with_topics)
from stream_harness import topics  # noqa: F401 (the pytest fixture the tests take)

# GRIFFIN_STREAM_FULL=1: the full size, 20 kills in a 200,000-message run
# (several minutes); by default 6 kills in 10,000 messages.
FULL = os.environ.get("GRIFFIN_STREAM_FULL") == "1"


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


def test_an_idle_validator_waits_for_its_broker_and_continues_when_it_is_back(topics, tmp_path):
    # With no transaction open there is nothing to time out: as any Kafka consumer does, an
    # idle validator keeps reconnecting while its broker is down, longer than its commit
    # timeout, then takes what is produced once the broker is back. Every record once.
    address, t = topics
    rules = with_topics(address, t, tmp_path)
    produce(address, t["raw"], [(None, good(i)) for i in range(100)])
    stream = Stream(address, rules, t["raw"], t["clean"], t["dlq"], t["group"],
                    extra=["--batch-ms", "20", "--commit-timeout", "5"]).start()
    wait_consumed(address, t["group"], t["raw"], 100, process=stream.process)
    script = REPO_ROOT / "scripts" / "kafka_test_cluster.sh"
    crashed = subprocess.run([str(script), "crash"], capture_output=True, timeout=60)
    assert crashed.returncode == 0, crashed.stderr
    try:
        time.sleep(8)  # past the 5 s commit timeout
        if stream.process.poll() is not None:
            status, stderr = stream.wait()
            pytest.fail(f"an idle griffin stream exited {status} while its broker was down: {stderr}")
    finally:
        restarted = subprocess.run([str(script), "restart"], capture_output=True, timeout=120)
    assert restarted.returncode == 0, restarted.stderr
    produce(address, t["raw"], [(None, good(i)) for i in range(100, 200)])
    finish_and_check_each_record_once(stream, address, t, 200, 1)


def test_broker_gone_for_good_after_a_commit_is_exit_3_in_bounded_time_and_loses_nothing(topics, tmp_path):
    # The broker is killed (SIGKILL) right after a commit and stays down: librdkafka 2.0.2
    # can then block forever inside send_offsets_to_transaction (it ignores its timeout
    # when the group coordinator is gone); the watchdog turns that into exit 3 with one
    # line. Two rounds (it hung in about half of them before the watchdog), then the
    # broker comes back and a last validator finishes: every record once. Each round needs
    # the validator busy when the broker goes (an idle one waits for the broker to come
    # back, as a Kafka consumer does): 12,000 records, of which a round takes about 1,200.
    address, t = topics
    partitions, total = 2, 12000
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
            # The previous round's validator left its transaction open when the broker went:
            # count what was committed without waiting for the broker to abort it.
            committed = committed_offsets(address, t["group"], t["raw"], partitions, wait_for_open_transactions=False)
            before = sum(max(o, 0) for o in committed.values())
            stream = Stream(address, rules, t["raw"], t["clean"], t["dlq"], t["group"], extra=extra).start()
            seen = wait_consumed(address, t["group"], t["raw"], before + 1, partitions, timeout_s=60,
                                 process=stream.process)
            assert seen < total - 2000, f"round {round_}: {seen} of {total} records committed before the crash"
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
