"""griffin stream's throughput against a Python peer, end to end with transactions.

Both read the same topic of ~1 KB JSON messages (13 checks, bench/stream.rules.yaml)
with their own consumer group, validate, and write clean and dead-letter topics in
Kafka transactions with the offsets committed inside them; the broker runs on this
machine too. Time: from the process's start until it has committed every input offset
(griffin: the group's committed offsets, polled; the peer exits when done).

    .venv/bin/python bench/run_stream_bench.py            # 200,000 messages
    .venv/bin/python bench/run_stream_bench.py --quick    # 20,000: correctness only (CI)

The broker: $GRIFFIN_TEST_KAFKA, else one started (and stopped) with
scripts/kafka_test_cluster.sh. The peer runs in .venv-bench (pydantic, confluent-kafka).
"""
import argparse
import json
import os
import pathlib
import random
import subprocess
import sys
import time

REPO = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "python"))
from kafka_harness import committed_offsets, create_topics, produce, unique  # noqa: E402

RULES = REPO / "bench" / "stream.rules.yaml"
PEER = REPO / "bench" / "tools" / "stream_peer.py"
PARTITIONS = 2


def message(index, rng):
    record = {"txn_id": f"TX{index:010d}", "account_id": f"A{rng.randint(1, 5000)}",
              "amount": round(rng.uniform(-500, 5000), 2), "currency": rng.choice(["USD", "EUR", "GBP", "JPY"]),
              "email": f"user{index}@example.com", "label": rng.choice([0, 0, 0, 1]),
              "created_at": "2026-11-30T12:34:56Z", "country": rng.choice(["US", "DE", "FR", "GB"]),
              "kind": rng.choice(["sale"] * 9 + ["refund"])}
    if rng.random() < 0.02:
        record["currency"] = "XXX"
    record["note"] = "x" * max(0, 1000 - len(json.dumps(record)) - 12)
    return json.dumps(record).encode()


def wait_committed(broker, group, topic, count, process, timeout_s):
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        offsets = committed_offsets(broker, group, topic, PARTITIONS)
        if sum(max(o, 0) for o in offsets.values()) >= count:
            return time.monotonic()
        if process.poll() is not None and process.returncode != 0:
            raise SystemExit(f"{process.args[0]} exited {process.returncode}: {process.stderr.read().decode()}")
        time.sleep(0.05)
    raise SystemExit(f"not done in {timeout_s} s")


def run_one(name, command, broker, raw, group, count, timeout_s):
    started = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    done = wait_committed(broker, group, raw, count, process, timeout_s)
    if process.poll() is None:
        process.terminate()
    process.wait(60)
    seconds = done - started
    return {"tool": name, "messages": count, "seconds": round(seconds, 2), "messages_per_s": round(count / seconds)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--count", type=int)
    args = parser.parse_args()
    count = args.count or (20_000 if args.quick else 200_000)
    griffin = os.environ.get("GRIFFIN_BIN", str(REPO / "build" / "griffin"))
    peer_python = REPO / ".venv-bench" / "bin" / "python"
    broker = os.environ.get("GRIFFIN_TEST_KAFKA", "")
    started_broker = not broker
    if started_broker:
        broker = subprocess.check_output([str(REPO / "scripts" / "kafka_test_cluster.sh"), "start"], text=True).strip()
    try:
        raw = unique("bench-raw")
        create_topics(broker, [raw], partitions=PARTITIONS)
        rng = random.Random(1)
        produce(broker, raw, [(None, message(i, rng)) for i in range(count)], partitions=PARTITIONS)
        results = []
        for name in ("griffin", "python-pydantic"):
            clean, dlq, group = unique("bench-clean"), unique("bench-dlq"), unique("bench-group")
            create_topics(broker, [clean, dlq], partitions=PARTITIONS)
            if name == "griffin":
                command = [griffin, "stream", "-r", str(RULES), "--from", f"kafka://{broker}/{raw}",
                           "--to", f"kafka://{broker}/{clean}", "--dead-letter", f"kafka://{broker}/{dlq}",
                           "--group", group]
            else:
                command = [str(peer_python), str(PEER), "--broker", broker, "--from", raw, "--to", clean,
                           "--dead-letter", dlq, "--group", group, "--count", str(count)]
            results.append(run_one(name, command, broker, raw, group, count, timeout_s=1200))
        ratio = results[0]["messages_per_s"] / results[1]["messages_per_s"]
        for result in results:
            print(f"{result['tool']:>16}: {result['messages']} messages in {result['seconds']} s, "
                  f"{result['messages_per_s']} messages/s")
        print(f"griffin / python: {ratio:.1f}x")
        print(json.dumps({"results": results, "ratio": round(ratio, 2)}))
    finally:
        if started_broker:
            subprocess.run([str(REPO / "scripts" / "kafka_test_cluster.sh"), "stop"], check=False)


if __name__ == "__main__":
    main()
