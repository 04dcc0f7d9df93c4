"""griffin stream's throughput against a Python peer, end to end with transactions.

Both read the same topic of ~1 KB JSON messages (13 checks, bench/stream.rules.yaml)
with their own consumer group, validate, and write clean and dead-letter topics in
Kafka transactions with the offsets committed inside them; the broker runs on this
machine too. Time: from the process's start until it has committed every input offset
(griffin: the group's committed offsets, polled; the peer exits when done).

    .venv/bin/python bench/run_stream_bench.py            # 200,000 messages
    .venv/bin/python bench/run_stream_bench.py --quick    # 20,000: correctness only (CI)
    .venv/bin/python bench/run_stream_bench.py --latency 30   # p50/p99 produce -> visible (read_committed) at 5,000/s
    .venv/bin/python bench/run_stream_bench.py --soak 600     # RSS of griffin stream over 10 minutes at 5,000/s

The broker: $GRIFFIN_TEST_KAFKA, else one started (and stopped) with
scripts/kafka_test_cluster.sh. The peer runs in .venv-bench (pydantic, confluent-kafka).
"""
import argparse
import json
import os
import pathlib
import random
import statistics
import subprocess
import sys
import threading
import time

from confluent_kafka import Consumer, Producer, TopicPartition

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


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def offered_load(griffin, broker, seconds, batch_ms, rate=5000):
    """griffin stream under a fixed offered load: each message carries its produce time;
    a read_committed reader of the clean topic measures produce -> visible. Returns the
    latencies (s) and griffin's RSS (kB) sampled once a second."""
    raw, clean, dlq, group = (unique(p) for p in ("lat-raw", "lat-clean", "lat-dlq", "lat-group"))
    create_topics(broker, [raw, clean, dlq], partitions=PARTITIONS)
    process = subprocess.Popen([griffin, "stream", "-r", str(RULES), "--from", f"kafka://{broker}/{raw}",
                                "--to", f"kafka://{broker}/{clean}", "--dead-letter", f"kafka://{broker}/{dlq}",
                                "--group", group, "--batch-ms", str(batch_ms)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    latencies, stop = [], threading.Event()

    def read():
        consumer = Consumer({"bootstrap.servers": broker, "group.id": unique("lat-reader"),
                             "isolation.level": "read_committed"})
        consumer.assign([TopicPartition(clean, p, 0) for p in range(PARTITIONS)])
        while not stop.is_set():
            message = consumer.poll(0.1)
            if message is not None and not message.error():
                sent = json.loads(message.value())["sent"]
                latencies.append(time.time() - sent)
        consumer.close()

    reader = threading.Thread(target=read)
    reader.start()
    time.sleep(3)  # griffin joins its group
    producer = Producer({"bootstrap.servers": broker, "linger.ms": 1})
    rng, rss, index = random.Random(2), [], 0
    started = time.monotonic()
    next_sample = started
    while time.monotonic() - started < seconds:
        tick = time.monotonic()
        for _ in range(rate // 100):  # 100 ticks a second
            record = json.loads(message(index, rng))
            record["currency"] = "USD"
            record["sent"] = time.time()
            producer.produce(raw, value=json.dumps(record).encode(), partition=index % PARTITIONS)
            index += 1
        producer.poll(0)
        if tick >= next_sample:
            rss.append(rss_kb(process.pid))
            next_sample += 1
        time.sleep(max(0.0, 0.01 - (time.monotonic() - tick)))
    producer.flush(30)
    time.sleep(2)
    stop.set()
    reader.join()
    process.terminate()
    process.wait(60)
    return latencies, rss, index


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--count", type=int)
    parser.add_argument("--latency", type=int, metavar="SECONDS", help="latency at 5,000 messages/s")
    parser.add_argument("--soak", type=int, metavar="SECONDS", help="RSS over a run at 5,000 messages/s")
    parser.add_argument("--batch-ms", type=int, default=100, help="griffin stream's --batch-ms (latency, soak)")
    args = parser.parse_args()
    count = args.count or (20_000 if args.quick else 200_000)
    griffin = os.environ.get("GRIFFIN_BIN", str(REPO / "build" / "griffin"))
    peer_python = REPO / ".venv-bench" / "bin" / "python"
    broker = os.environ.get("GRIFFIN_TEST_KAFKA", "")
    started_broker = not broker
    if started_broker:
        broker = subprocess.check_output([str(REPO / "scripts" / "kafka_test_cluster.sh"), "start"], text=True).strip()
    try:
        if args.latency or args.soak:
            seconds = args.latency or args.soak
            latencies, rss, sent = offered_load(griffin, broker, seconds, args.batch_ms)
            if len(latencies) < sent * 0.9:
                raise SystemExit(f"only {len(latencies)} of {sent} messages became visible")
            cuts = statistics.quantiles(latencies, n=100)
            print(f"{sent} messages at 5,000/s over {seconds} s, --batch-ms {args.batch_ms}: "
                  f"produce -> visible (read_committed) "
                  f"p50 {cuts[49] * 1000:.0f} ms, p99 {cuts[98] * 1000:.0f} ms")
            half = len(rss) // 2
            print(f"griffin stream RSS: first {rss[0] // 1024} MiB, peak {max(rss) // 1024} MiB, "
                  f"first half peak {max(rss[:half] or rss) // 1024} MiB, second half peak {max(rss[half:]) // 1024} MiB")
            if args.soak and max(rss[half:]) > 1.25 * max(rss[:half] or rss) + 16 * 1024:
                raise SystemExit("griffin stream's memory grew over the soak")
            return
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
