"""What the `griffin stream` tests share: the rule file, generated records, the
topics fixture, waiting for commits, and the checks that every record came out once.
"""
import json
import random
import socket
import subprocess
import time

import pytest

from griffin_cli import require_binary
from kafka_harness import broker, committed_offsets, create_topics, produce, read_committed, unique


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
    """Waits until the group has committed `total` records of `topic` or more; returns how many."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        offsets = committed_offsets(address, group, topic, partitions)
        committed = sum(max(o, 0) for o in offsets.values())
        if committed >= total:
            return committed
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


def run_stream_expecting_failure(command, timeout_s=60):
    started = time.monotonic()
    done = subprocess.run(command, capture_output=True, timeout=timeout_s)
    return done.returncode, done.stderr.decode(errors="replace"), time.monotonic() - started


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def metric(text, name):
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    raise AssertionError(f"{name} not in metrics:\n{text}")
