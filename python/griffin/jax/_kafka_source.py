"""The clean topic of `griffin stream` as a source of griffin.jax.batches().

    stream = batches("kafka://HOST:PORT/clean?group=trainer", validator, batch_size=256)
    for batch in stream: ...train...
    save_checkpoint(..., griffin_version=stream.kafka.last_version)
    stream.kafka.commit()          # the group continues after what was read

A snapshot: the records between the group's committed offsets (the start when
it has none) and the end of each partition when batches() is called, read with
isolation.level=read_committed (records of aborted or open transactions are
never seen), in partition order. Resuming idempotently: commit() after the
checkpoint, and after_version=the checkpoint's last_version skips records whose
griffin-version is not above it, so a commit lost in a crash repeats nothing.
The values (one JSON object per message) are written to a private JSON-lines
file that the validator reads like any input; it is removed with the stream.
"""
from __future__ import annotations

import os
import tempfile
import time
from typing import Any, Dict, List, Optional, Tuple
from urllib.parse import parse_qs, urlsplit

VERSION_HEADER = "griffin-version"


def is_kafka_uri(source: Any) -> bool:
    return isinstance(source, str) and source.startswith("kafka://")


def parse_kafka_uri(uri: str) -> Tuple[str, str, str]:
    """(bootstrap host:port, topic, group) of kafka://HOST:PORT/TOPIC?group=G."""
    parts = urlsplit(uri)
    topic = parts.path.lstrip("/")
    groups = parse_qs(parts.query).get("group", [])
    unknown = sorted(set(parse_qs(parts.query)) - {"group"})
    if not parts.netloc or ":" not in parts.netloc or not topic or "/" in topic:
        raise ValueError(f"{uri}: expected kafka://HOST:PORT/TOPIC?group=GROUP")
    if len(groups) != 1 or not groups[0] or unknown:
        raise ValueError(f"{uri}: needs exactly one ?group=GROUP (the trainer's consumer group), and nothing else")
    return parts.netloc, topic, groups[0]


class KafkaSnapshot:
    """What a kafka:// batches() read (BatchStream.kafka)."""

    def __init__(self, uri: str, consumer: Any, offsets: List[Any], records: int, skipped: int,
                 last_version: Optional[int], directory: tempfile.TemporaryDirectory) -> None:
        self.uri = uri
        self.records = records            # messages written to the validator's input
        self.skipped = skipped            # messages at or below after_version
        self.last_version = last_version  # the largest griffin-version read (None: none)
        self._consumer = consumer
        self._offsets = offsets            # TopicPartitions at the snapshot's end
        self._directory = directory

    @property
    def offsets(self) -> Dict[int, int]:
        """{partition: next offset} at the snapshot's end (what commit() stores)."""
        return {tp.partition: tp.offset for tp in self._offsets}

    def commit(self) -> None:
        """Stores the snapshot's end as the group's offsets (synchronously)."""
        self._consumer.commit(offsets=self._offsets, asynchronous=False)

    def close(self) -> None:
        self._consumer.close()
        self._directory.cleanup()


def read_snapshot(uri: str, after_version: Optional[int] = None, timeout_s: float = 30.0) -> Tuple[str, KafkaSnapshot]:
    """Reads the snapshot into a JSON-lines file: (its path, the KafkaSnapshot)."""
    try:
        from confluent_kafka import Consumer, KafkaError, KafkaException, TopicPartition
    except ImportError as error:
        raise ImportError("griffin.jax.batches from kafka:// needs confluent-kafka (pip install confluent-kafka)") from error
    bootstrap, topic, group = parse_kafka_uri(uri)
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": group, "isolation.level": "read_committed",
                         "enable.auto.commit": False, "auto.offset.reset": "earliest",
                         "enable.partition.eof": True})
    try:
        metadata = consumer.list_topics(topic, timeout=timeout_s)
        described = metadata.topics.get(topic)
        if described is None or described.error is not None or not described.partitions:
            raise ValueError(f"{uri}: topic '{topic}' does not exist")
        partitions = sorted(described.partitions)
        committed = consumer.committed([TopicPartition(topic, p) for p in partitions], timeout=timeout_s)
        end_of = {}
        for tp in committed:
            low, high = consumer.get_watermark_offsets(tp, timeout=timeout_s)
            tp.offset = tp.offset if tp.offset >= 0 else low
            end_of[tp.partition] = high
        next_of = {tp.partition: tp.offset for tp in committed}  # what commit() stores
        pending = {tp.partition for tp in committed if tp.offset < end_of[tp.partition]}
        consumer.assign(committed)
    except KafkaException as error:
        consumer.close()
        raise OSError(f"{uri}: {error.args[0].str() if error.args else error}") from error
    except BaseException:
        consumer.close()
        raise
    directory = tempfile.TemporaryDirectory(prefix="griffin-kafka-")
    path = os.path.join(directory.name, topic + ".jsonl")
    records = skipped = 0
    last_version = None
    deadline = time.monotonic() + timeout_s
    with open(path, "wb") as out:
        while pending:
            message = consumer.poll(0.5)
            if message is None:
                if time.monotonic() > deadline:
                    consumer.close()
                    directory.cleanup()
                    raise OSError(f"{uri}: no records for {timeout_s} s before the snapshot's end "
                                  f"(partitions {sorted(pending)})")
                continue
            deadline = time.monotonic() + timeout_s
            if message.error():
                if message.error().code() == KafkaError._PARTITION_EOF:  # read_committed: the stable end
                    pending.discard(message.partition())
                    continue
                consumer.close()
                directory.cleanup()
                raise OSError(f"{uri}: {message.error().str()}")
            if message.offset() >= end_of[message.partition()]:
                pending.discard(message.partition())  # past the snapshot
                continue
            next_of[message.partition()] = message.offset() + 1
            if message.offset() + 1 >= end_of[message.partition()]:
                pending.discard(message.partition())
            version = _version_of(message)
            if version is not None and after_version is not None and version <= after_version:
                skipped += 1
                continue
            if version is not None and (last_version is None or version > last_version):
                last_version = version
            # griffin stream sends a JSON value with a raw line break inside a string to the
            # dead-letter topic, so a clean one's line breaks are whitespace.
            value = message.value() or b""
            out.write(value.replace(b"\n", b" ") + b"\n")
            records += 1
    ends = [TopicPartition(topic, partition, offset) for partition, offset in sorted(next_of.items())]
    snapshot = KafkaSnapshot(uri, consumer, ends, records, skipped, last_version, directory)
    return path, snapshot


def _version_of(message: Any) -> Optional[int]:
    for name, value in message.headers() or []:
        if name == VERSION_HEADER:
            try:
                return int(value)
            except (TypeError, ValueError):
                return None
    return None
