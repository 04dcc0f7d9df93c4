"""A Kafka client for `griffin stream`'s tests: topics, producing inputs, reading outputs.

The broker is $GRIFFIN_TEST_KAFKA (host:port; scripts/kafka_test_cluster.sh start prints
it, and scripts/test.sh exports it). Tests fail when it is unset, unless GRIFFIN_NO_KAFKA=1
says to skip them. The client is confluent-kafka (its wheel bundles its own librdkafka),
so the tests do not read back through the library they test.
"""
import os
import signal
import subprocess
import time
import uuid

import pytest
from confluent_kafka import Consumer, KafkaException, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

from griffin_cli import require_binary


def broker():
    address = os.environ.get("GRIFFIN_TEST_KAFKA", "")
    if address:
        return address
    if os.environ.get("GRIFFIN_NO_KAFKA") == "1":
        pytest.skip("GRIFFIN_NO_KAFKA=1")
    pytest.fail("GRIFFIN_TEST_KAFKA is not set: export GRIFFIN_TEST_KAFKA=$(scripts/kafka_test_cluster.sh start)")


def unique(prefix):
    return f"{prefix}-{uuid.uuid4().hex[:12]}"


def create_topics(address, names, partitions=1, config=None):
    admin = AdminClient({"bootstrap.servers": address})
    futures = admin.create_topics(
        [NewTopic(name, num_partitions=partitions, replication_factor=1, config=config or {}) for name in names])
    for future in futures.values():
        future.result(timeout=30)


def produce(address, topic, records, partitions=1):
    """records: (key bytes or None, value bytes); record i goes to partition i % partitions."""
    producer = Producer({"bootstrap.servers": address, "linger.ms": 20, "message.max.bytes": 20_000_000})
    for index, (key, value) in enumerate(records):
        while True:
            try:
                producer.produce(topic, value=value, key=key, partition=index % partitions)
                break
            except BufferError:
                producer.poll(0.1)
    assert producer.flush(60) == 0


def read_committed(address, topic, expected, partitions=1, timeout_s=60):
    """Every record of `topic` visible to read_committed, once `expected` have arrived (or after
    timeout_s), as dicts with partition, offset, key, value and headers (name -> bytes), in
    partition order. A wait for more than `expected` ends 2 s after the last arrival."""
    consumer = Consumer({"bootstrap.servers": address, "group.id": unique("reader"),
                         "isolation.level": "read_committed", "enable.auto.commit": False,
                         "fetch.max.bytes": 100_000_000, "receive.message.max.bytes": 200_000_000})
    consumer.assign([TopicPartition(topic, p, 0) for p in range(partitions)])
    records = []
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline and len(records) < expected:
        message = consumer.poll(0.5)
        if message is None or message.error():
            continue
        records.append({"partition": message.partition(), "offset": message.offset(), "key": message.key(),
                        "value": message.value(), "headers": dict(message.headers() or [])})
    # Anything past `expected` would be a duplicate: give it a moment to show.
    settle = time.monotonic() + 2
    while time.monotonic() < settle:
        message = consumer.poll(0.2)
        if message is not None and not message.error():
            records.append({"partition": message.partition(), "offset": message.offset(), "key": message.key(),
                            "value": message.value(), "headers": dict(message.headers() or [])})
    consumer.close()
    records.sort(key=lambda r: (r["partition"], r["offset"]))
    return records


def committed_offsets(address, group, topic, partitions=1, retry_s=90, wait_for_open_transactions=True):
    """{partition: offset} the group committed (negative: none). A coordinator that is
    still loading (after a broker restart) is asked again for up to retry_s.

    By default (read_committed: librdkafka asks for stable offsets) the answer waits while
    a transaction holds offsets for the group: a commit in flight, or the open transaction
    of a validator that was killed or lost its broker, which the broker aborts only when
    the next validator with its transactional id starts, or after the transaction timeout
    and the broker's next sweep (every 10 s, once it serves again). With
    wait_for_open_transactions=False (read_uncommitted) it is the last offsets committed,
    at once: for a test that asks before it starts the next validator."""
    isolation = "read_committed" if wait_for_open_transactions else "read_uncommitted"
    started = time.monotonic()
    deadline = started + retry_s
    while True:
        consumer = Consumer({"bootstrap.servers": address, "group.id": group, "isolation.level": isolation})
        try:
            offsets = consumer.committed([TopicPartition(topic, p) for p in range(partitions)], timeout=10)
            return {tp.partition: tp.offset for tp in offsets}
        except KafkaException as error:
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"group {group}: its committed offsets of {topic} were unreadable for "
                    f"{time.monotonic() - started:.0f} s ({error})"
                    + (f"; the last ones committed are {stable_offsets_or_error(address, group, topic, partitions)}"
                       ", so the broker still holds a transaction open on them" if wait_for_open_transactions else ""))
            time.sleep(0.5)
        finally:
            consumer.close()


def stable_offsets_or_error(address, group, topic, partitions):
    """For a failure message: the offsets committed so far, or why they are unreadable too."""
    try:
        return committed_offsets(address, group, topic, partitions, retry_s=0, wait_for_open_transactions=False)
    except AssertionError as error:
        return f"unreadable as well ({error})"


class Stream:
    """One `griffin stream` process over fresh topics raw, clean and dlq."""

    def __init__(self, address, rules, raw, clean, dlq, group, extra=()):
        self.command = [str(require_binary()), "stream", "-r", str(rules),
                        "--from", f"kafka://{address}/{raw}", "--to", f"kafka://{address}/{clean}",
                        "--dead-letter", f"kafka://{address}/{dlq}", "--group", group, *extra]
        self.process = None

    def start(self):
        self.process = subprocess.Popen(self.command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        return self

    def stop(self, timeout_s=60):
        """SIGTERM, then (exit status, stderr text)."""
        self.process.send_signal(signal.SIGTERM)
        return self.wait(timeout_s)

    def kill(self):
        self.process.kill()
        self.process.wait(30)

    def wait(self, timeout_s=60):
        _, stderr = self.process.communicate(timeout=timeout_s)
        return self.process.returncode, stderr.decode(errors="replace")
