"""griffin stream's throughput against a Python peer, end to end with transactions.

Both read the same topic of ~1 KB JSON messages (13 checks, bench/stream.rules.yaml)
with their own consumer group, validate, and write clean and dead-letter topics in
Kafka transactions with the offsets committed inside them; the broker runs on this
machine too. Time: from the process's start until it has committed every input offset
(griffin: the group's committed offsets, polled; the peer exits when done).

    .venv/bin/python bench/run_stream_bench.py            # 200,000 messages, each tool once
    .venv/bin/python bench/run_stream_bench.py --repeat 3 # ... three times each, alternating; medians (make stream-bench)
    .venv/bin/python bench/run_stream_bench.py --quick    # 20,000: correctness only (CI)
    .venv/bin/python bench/run_stream_bench.py --latency 30   # p50/p99 produce -> visible (read_committed) at 5,000/s (make stream-latency)
    .venv/bin/python bench/run_stream_bench.py --soak 600     # RSS of griffin stream over 10 minutes at 5,000/s

Besides the wall-clock rate, each run reports the rate after the first commit
(startup excluded: process start, group join, init_transactions) and the CPU
seconds the tool and the broker used: on a machine whose cores also run the broker
(and other work), the CPU seconds say where the time goes when the wall clock is noisy.

The broker: $GRIFFIN_TEST_KAFKA, else one started (and stopped) with
scripts/kafka_test_cluster.sh. The peer runs in .venv-bench (pydantic, confluent-kafka).
"""
import argparse
import json
import os
import pathlib
import random
import signal
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


def cpu_seconds(pid):
    """utime + stime of a live process (all its threads), 0 when it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def broker_pid():
    state = os.environ.get("GRIFFIN_KAFKA_STATE", os.path.join(os.environ.get("TMPDIR", "/tmp"),
                                                                "griffin-kafka-test.state"))
    try:
        with open(state) as lines:
            for line in lines:
                if line.startswith("PID="):
                    return int(line.split("=", 1)[1])
    except OSError:
        pass
    return None


def reap(process, block):
    """The process's exit status and CPU seconds (os.wait4), or None while it runs."""
    pid, status, usage = os.wait4(process.pid, 0 if block else os.WNOHANG)
    if pid == 0:
        return None
    process.returncode = os.waitstatus_to_exitcode(status)
    return process.returncode, usage.ru_utime + usage.ru_stime


def run_one(name, command, broker, raw, group, count, timeout_s):
    """One tool over the topic: wall seconds from its start until the group has committed
    every input offset, the first commit's time, and the CPU seconds of the tool and the broker."""
    broker_process = broker_pid()
    broker_cpu = cpu_seconds(broker_process) if broker_process else 0.0
    started = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline, first, done, reaped = started + timeout_s, None, None, None
    while done is None:
        if time.monotonic() > deadline:
            process.kill()
            raise SystemExit(f"{name}: not done in {timeout_s} s")
        committed = sum(max(o, 0) for o in committed_offsets(broker, group, raw, PARTITIONS).values())
        now = time.monotonic()
        if committed > 0 and first is None:
            first = (now - started, committed)
        if committed >= count:
            done = now
            break
        reaped = reaped or reap(process, block=False)
        if reaped and reaped[0] != 0:
            raise SystemExit(f"{name} exited {reaped[0]}: {process.stderr.read().decode()}")
        time.sleep(0.05)
    broker_cpu = (cpu_seconds(broker_process) - broker_cpu) if broker_process else float("nan")
    if reaped is None:
        # os.kill, not process.terminate(): terminate() polls first and, when the tool
        # has just exited by itself, reaps it, so wait4 below would find no child and
        # its CPU time would be lost. Only reap() waits on the pid, so until it does the
        # pid is this (possibly exited) child's and the signal cannot reach another.
        os.kill(process.pid, signal.SIGTERM)
        reaped = reap(process, block=True)
    seconds = done - started
    # No rate after the first commit when that commit held every message (a short run).
    steady = (count - first[1]) / max(seconds - first[0], 1e-3) if first[1] < count else None
    return {"tool": name, "messages": count, "seconds": round(seconds, 2), "messages_per_s": round(count / seconds),
            "first_commit_s": round(first[0], 2),
            "after_first_commit_per_s": None if steady is None else round(steady),
            "cpu_s": round(reaped[1], 2), "broker_cpu_s": round(broker_cpu, 2)}


def median_of_measured(values):
    """The median of the values that were measured (not None); None when none was."""
    measured = [v for v in values if v is not None]
    return statistics.median(measured) if measured else None


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def offered_load(griffin, broker, seconds, batch_ms, rate=5000):
    """griffin stream under a fixed offered load: each message carries its produce time;
    a read_committed reader of the clean topic measures produce -> visible. The clock
    starts once a warm-up message has come through (griffin has joined its group and
    committed once). Returns the latencies (s), griffin's RSS (kB) sampled once a
    second, the messages sent and the rate actually offered."""
    raw, clean, dlq, group = (unique(p) for p in ("lat-raw", "lat-clean", "lat-dlq", "lat-group"))
    create_topics(broker, [raw, clean, dlq], partitions=PARTITIONS)
    process = subprocess.Popen([griffin, "stream", "-r", str(RULES), "--from", f"kafka://{broker}/{raw}",
                                "--to", f"kafka://{broker}/{clean}", "--dead-letter", f"kafka://{broker}/{dlq}",
                                "--group", group, *(["--batch-ms", str(batch_ms)] if batch_ms else [])],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    latencies, parts, stop, warm = [], [], threading.Event(), threading.Event()

    def read():
        consumer = Consumer({"bootstrap.servers": broker, "group.id": unique("lat-reader"),
                             "isolation.level": "read_committed"})
        consumer.assign([TopicPartition(clean, p, 0) for p in range(PARTITIONS)])
        while not stop.is_set():
            message = consumer.poll(0.1)
            if message is not None and not message.error():
                sent = json.loads(message.value())["sent"]
                if sent < 0:
                    warm.set()
                else:
                    now = time.time()
                    latencies.append(now - sent)
                    # The clean record's timestamp is griffin's produce time: split the latency there.
                    written = message.timestamp()[1] / 1000
                    parts.append((written - sent, now - written))
        consumer.close()

    reader = threading.Thread(target=read)
    reader.start()
    producer = Producer({"bootstrap.servers": broker, "linger.ms": 1})
    rng = random.Random(2)
    # The payloads are made before the clock starts; "sent" is spliced in at produce time.
    bodies = []
    for index in range(min(rate * 10, rate * seconds)):
        record = json.loads(message(index, rng))
        record["currency"] = "USD"
        bodies.append(json.dumps(record)[:-1].encode() + b', "sent": ')
    deadline = time.monotonic() + 120
    while not warm.is_set():
        if process.poll() is not None or time.monotonic() > deadline:
            stop.set()
            reader.join()
            process.kill()
            raise SystemExit(f"griffin stream did not come up: {process.stderr.read().decode()[-2000:]}")
        producer.produce(raw, value=bodies[0] + b"-1}", partition=0)
        producer.flush(10)
        warm.wait(1)
    rss, index = [], 0
    started = time.monotonic()
    next_sample = started
    while True:
        now = time.monotonic()
        if now - started >= seconds:
            break
        due = int((now - started) * rate)  # paced by the clock: a late tick catches up
        while index < due:
            body = bodies[index % len(bodies)] + repr(time.time()).encode() + b"}"
            while True:
                try:
                    producer.produce(raw, value=body, partition=index % PARTITIONS)
                    break
                except BufferError:
                    producer.poll(0.01)
            index += 1
        producer.poll(0)
        if now >= next_sample:
            rss.append(rss_kb(process.pid))
            next_sample += 1
        time.sleep(0.002)
    offered = index / (time.monotonic() - started)
    producer.flush(30)
    time.sleep(2)
    stop.set()
    reader.join()
    process.terminate()
    process.wait(60)
    return latencies, parts, rss, index, offered


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--count", type=int)
    parser.add_argument("--repeat", type=int, default=1, help="runs of each tool, alternating (medians reported)")
    parser.add_argument("--latency", type=int, metavar="SECONDS", help="latency at 5,000 messages/s")
    parser.add_argument("--soak", type=int, metavar="SECONDS", help="RSS over a run at 5,000 messages/s")
    parser.add_argument("--batch-ms", type=int, help="griffin stream's --batch-ms (latency, soak; default: its own)")
    parser.add_argument("--windows", action="store_true",
                        help="also griffin with windows kept (--metrics-listen: each batch's partial state merged "
                             "into its window's), alternating with the plain runs")
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
            latencies, parts, rss, sent, offered = offered_load(griffin, broker, seconds, args.batch_ms)
            if len(latencies) < sent * 0.9:
                raise SystemExit(f"only {len(latencies)} of {sent} messages became visible")
            cuts = statistics.quantiles(latencies, n=100)
            print(f"{sent} messages over {seconds} s (offered {offered:,.0f}/s of 5,000/s), --batch-ms {args.batch_ms or 'default'}: "
                  f"produce -> visible (read_committed) "
                  f"p50 {cuts[49] * 1000:.0f} ms, p99 {cuts[98] * 1000:.0f} ms, max {max(latencies) * 1000:.0f} ms")
            for name, values in (("produce -> griffin wrote it (in its transaction)", [a for a, _ in parts]),
                                 ("griffin wrote it -> visible (commit, reader)", [b for _, b in parts])):
                part = statistics.quantiles(values, n=100)
                print(f"  {name}: p50 {part[49] * 1000:.0f} ms, p99 {part[98] * 1000:.0f} ms")
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
        runs = {"griffin": [], "python-pydantic": []}
        if args.windows:
            runs["griffin-windows"] = []
        for _ in range(args.repeat):  # alternating, so both see the same machine load over time
            for name in runs:
                clean, dlq, group = unique("bench-clean"), unique("bench-dlq"), unique("bench-group")
                create_topics(broker, [clean, dlq], partitions=PARTITIONS)
                if name.startswith("griffin"):
                    command = [griffin, "stream", "-r", str(RULES), "--from", f"kafka://{broker}/{raw}",
                               "--to", f"kafka://{broker}/{clean}", "--dead-letter", f"kafka://{broker}/{dlq}",
                               "--group", group]
                    if name == "griffin-windows":
                        command[1:2] = ["stream", "--metrics-listen", "127.0.0.1:0"]
                else:
                    command = [str(peer_python), str(PEER), "--broker", broker, "--from", raw, "--to", clean,
                               "--dead-letter", dlq, "--group", group, "--count", str(count)]
                result = run_one(name, command, broker, raw, group, count, timeout_s=1200)
                runs[name].append(result)
                print(f"{name:>16}: {count} messages in {result['seconds']} s, {result['messages_per_s']} messages/s "
                      f"({result['after_first_commit_per_s'] or 'n/a '}/s after the first commit at {result['first_commit_s']} s); "
                      f"CPU {result['cpu_s']} s, broker CPU {result['broker_cpu_s']} s", flush=True)
        medians = {name: {key: median_of_measured(r[key] for r in results)
                          for key in ("seconds", "messages_per_s", "after_first_commit_per_s", "cpu_s", "broker_cpu_s")}
                   for name, results in runs.items()}
        g, p = medians["griffin"], medians["python-pydantic"]
        ratio = g["messages_per_s"] / p["messages_per_s"]
        steady_ratio = (g["after_first_commit_per_s"] / p["after_first_commit_per_s"]
                        if g["after_first_commit_per_s"] and p["after_first_commit_per_s"] else None)
        steady_text = "n/a (a first commit held every message)" if steady_ratio is None else f"{steady_ratio:.1f}x"
        print(f"griffin / python (median of {args.repeat}): {ratio:.1f}x end to end from process start, "
              f"{steady_text} after the first commit; CPU seconds per 100k messages: griffin "
              f"{g['cpu_s'] * 1e5 / count:.2f}, python {p['cpu_s'] * 1e5 / count:.2f}, broker (griffin's runs) "
              f"{g['broker_cpu_s'] * 1e5 / count:.2f}")
        if args.windows:
            w = medians["griffin-windows"]
            print(f"griffin with windows / without (median of {args.repeat}): "
                  f"{w['messages_per_s'] / g['messages_per_s']:.2f}x messages/s, CPU per 100k messages "
                  f"{w['cpu_s'] * 1e5 / count:.2f} s vs {g['cpu_s'] * 1e5 / count:.2f} s")
        print(json.dumps({"runs": runs, "medians": medians, "ratio": round(ratio, 2),
                          "ratio_after_first_commit": None if steady_ratio is None else round(steady_ratio, 2)}))
    finally:
        if started_broker:
            subprocess.run([str(REPO / "scripts" / "kafka_test_cluster.sh"), "stop"], check=False)


if __name__ == "__main__":
    main()
