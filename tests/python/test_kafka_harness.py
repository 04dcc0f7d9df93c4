"""The Kafka test harness's own contract: what committed_offsets answers while a
transaction holds offsets for the group (the state a killed validator leaves)."""
import time

import pytest
from confluent_kafka import Consumer, Producer, TopicPartition

from kafka_harness import broker, committed_offsets, create_topics, unique


def test_committed_offsets_reads_past_an_open_transaction_only_when_told():
    address = broker()
    topic, group = unique("raw"), unique("group")
    create_topics(address, [topic])
    producer = Producer({"bootstrap.servers": address, "transactional.id": unique("txn"),
                         "transaction.timeout.ms": 60000})
    producer.init_transactions(30)
    metadata = Consumer({"bootstrap.servers": address, "group.id": group}).consumer_group_metadata()
    for offset, commit in ((20, True), (30, False)):  # 20 committed, 30 left open
        producer.begin_transaction()
        producer.produce(topic, b"v")
        producer.send_offsets_to_transaction([TopicPartition(topic, 0, offset)], metadata, 30)
        if commit:
            producer.commit_transaction(30)
    try:
        started = time.monotonic()
        assert committed_offsets(address, group, topic, wait_for_open_transactions=False) == {0: 20}
        assert time.monotonic() - started < 5
        with pytest.raises(AssertionError, match=r"last ones committed are \{0: 20\}.*transaction open"):
            committed_offsets(address, group, topic, retry_s=0)
    finally:
        producer.abort_transaction(30)
    assert committed_offsets(address, group, topic) == {0: 20}
