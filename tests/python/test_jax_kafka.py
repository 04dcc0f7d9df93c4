"""griffin.jax.batches over a `griffin stream` clean topic (kafka://HOST:PORT/TOPIC?group=G),
against the real test broker: the rows equal `griffin validate`'s clean rows of the same
records, and the group's offsets and the griffin-version tags let a trainer resume
without repeating a record."""
import json
import random
import subprocess

import numpy as np
import pytest

import griffin
from griffin.jax import batches
from griffin_cli import require_binary
from kafka_harness import Stream, broker, create_topics, produce, unique
from stream_harness import wait_consumed

RULES = """griffin: 1
dataset: trainfeed
columns:
  id: {type: int64, not_null: true, min: 0}
  x: {type: float64, not_null: true, max: 90}
  code: {type: string, not_null: true, in: [USD, EUR, GBP]}
"""


def records(first, count, rng):
    values = []
    for i in range(first, first + count):
        row = {"id": i, "x": round(rng.uniform(0, 100), 3), "code": rng.choice(["USD", "EUR", "GBP", "XXX"])}
        if rng.random() < 0.05:
            row["id"] = -i
        values.append(b"not json" if rng.random() < 0.02 else json.dumps(row).encode())
    return values


def validate_clean_ids(rules, values, tmp_path):
    """`griffin validate --clean` on the values as one JSON-lines file: the clean rows' ids."""
    data, clean = tmp_path / "records.jsonl", tmp_path / "clean.jsonl"
    data.write_bytes(b"".join(v + b"\n" for v in values))
    done = subprocess.run([str(require_binary()), "validate", "-r", str(rules), str(data), "--no-store",
                           "--clean", str(clean)], capture_output=True, timeout=120)
    assert done.returncode in (0, 1), done.stderr
    return sorted(json.loads(line)["id"] for line in clean.read_text().splitlines())


def collect_ids(stream):
    ids = [np.asarray(batch["id"]) for batch in stream]
    return sorted(np.concatenate(ids).tolist()) if ids else []


def run_stream(address, rules, t, total):
    stream = Stream(address, rules, t["raw"], t["clean"], t["dlq"], t["group"], extra=["--batch-ms", "20"]).start()
    wait_consumed(address, t["group"], t["raw"], total, partitions=2, process=stream.process)
    status, stderr = stream.stop()
    assert status == 0, stderr


def test_batches_from_the_clean_topic_equal_validate_and_resume_by_offsets_and_versions(tmp_path):
    address = broker()
    t = {"raw": unique("raw"), "clean": unique("clean"), "dlq": unique("dlq"), "group": unique("group")}
    create_topics(address, [t["raw"], t["clean"], t["dlq"]], partitions=2)
    rules = tmp_path / "rules.yaml"
    rules.write_text(RULES)
    validator = griffin.Validator.from_yaml(rules)
    rng = random.Random(7)
    first = records(0, 1500, rng)
    produce(address, t["raw"], [(None, v) for v in first], partitions=2)
    run_stream(address, rules, t, len(first))

    uri = f"kafka://{address}/{t['clean']}?group={unique('trainer')}"
    expected_first = validate_clean_ids(rules, first, tmp_path)
    assert 800 < len(expected_first) < 1400  # a real mix of clean and bad
    with batches(uri, validator, batch_size=64, columns=["id", "x", "code"], drop_remainder=False) as stream:
        assert collect_ids(stream) == expected_first
        assert stream.kafka.records == len(expected_first)
        assert stream.kafka.last_version == len(expected_first)  # versions 1..N, each once
        stream.kafka.commit()
        checkpoint = stream.kafka.last_version

    second = records(1500, 500, rng)
    produce(address, t["raw"], [(None, v) for v in second], partitions=2)
    run_stream(address, rules, t, len(first) + len(second))
    expected_second = validate_clean_ids(rules, second, tmp_path)

    # The same group continues after its commit: only the new records.
    with batches(uri, validator, batch_size=64, columns=["id"], drop_remainder=False) as stream:
        assert collect_ids(stream) == expected_second
        assert stream.kafka.last_version == checkpoint + len(expected_second)
    # A trainer whose commit was lost (a new group) resumes from its checkpoint's version.
    lost = f"kafka://{address}/{t['clean']}?group={unique('trainer')}"
    with batches(lost, validator, batch_size=64, columns=["id"], drop_remainder=False,
                 after_version=checkpoint) as stream:
        assert collect_ids(stream) == expected_second
        assert stream.kafka.skipped == len(expected_first)


def test_bad_kafka_uris_and_options_are_value_errors(tmp_path):
    rules = tmp_path / "rules.yaml"
    rules.write_text(RULES)
    validator = griffin.Validator.from_yaml(rules)
    with pytest.raises(ValueError, match="needs exactly one \\?group=GROUP"):
        batches("kafka://127.0.0.1:9/clean", validator)
    with pytest.raises(ValueError, match="expected kafka://HOST:PORT/TOPIC"):
        batches("kafka://nohost/clean?group=g", validator)
    with pytest.raises(ValueError, match="after_version: only for a kafka:// source"):
        batches([str(rules)], validator, after_version=3)


def test_a_missing_topic_is_named(tmp_path):
    rules = tmp_path / "rules.yaml"
    rules.write_text(RULES)
    topic = unique("absent")
    with pytest.raises(ValueError, match=f"topic '{topic}' does not exist"):
        batches(f"kafka://{broker()}/{topic}?group=g", griffin.Validator.from_yaml(rules))
