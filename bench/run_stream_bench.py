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
    .venv/bin/python bench/run_stream_bench.py --repeat 3 --floor   # + the loops that validate nothing: the ceiling
    .venv/bin/python bench/run_stream_bench.py --repeat 3 --before OLD/build/griffin   # + another build, alternating

The floor (--floor) measures the ceiling of the ratio to the peer on this machine:
build/stream_floor (bench/tools/stream_floor.cc) is the same transactional
consume-produce loop in C++ on librdkafka with griffin stream's client settings,
validating nothing; "griffin-no-checks" is griffin stream with a rule file of no
checks (bench/stream_floor.rules.yaml: the JSON is still read); "python-no-checks"
is the peer with its pydantic model skipped. No validator's loop with these client
settings can be faster than the floor, so floor / peer bounds griffin / peer.

Besides the wall-clock rate, each run reports the rate after the first commit
(startup excluded: process start, group join, init_transactions) and the CPU
seconds the tool and the broker used: on a machine whose cores also run the broker
(and other work), the CPU seconds say where the time goes when the wall clock is noisy.

The broker: $GRIFFIN_TEST_KAFKA, else one started (and stopped) with
scripts/kafka_test_cluster.sh. The peer runs in .venv-bench (pydantic, confluent-kafka).
"""
import argparse
import datetime
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
import urllib.request

from confluent_kafka import Consumer, Producer, TopicPartition

REPO = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "python"))
from kafka_harness import committed_offsets, create_topics, produce, unique  # noqa: E402
from stream_harness import free_port  # noqa: E402

RULES = REPO / "bench" / "stream.rules.yaml"
NO_CHECKS_RULES = REPO / "bench" / "stream_floor.rules.yaml"
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


def broker_state(name):
    """A value (PID, DIR) of the test broker's state file (scripts/kafka_test_cluster.sh), or None."""
    state = os.environ.get("GRIFFIN_KAFKA_STATE", os.path.join(os.environ.get("TMPDIR", "/tmp"),
                                                                "griffin-kafka-test.state"))
    try:
        with open(state) as lines:
            for line in lines:
                if line.startswith(name + "="):
                    return line.split("=", 1)[1].strip()
    except OSError:
        pass
    return None


def broker_pid():
    pid = broker_state("PID")
    return int(pid) if pid else None


def broker_gc_pauses(since, until):
    """The test broker's GC pauses (ms) between two time.time() values, from its gc.log
    (lines like "[2026-12-06T07:30:01.123+0000] GC(12) Pause Young (Allocation Failure)
    100M->20M(300M) 12.345ms"); None when there is no log (a broker not started by
    scripts/kafka_test_cluster.sh)."""
    folder = broker_state("DIR")
    if not folder or not os.path.exists(os.path.join(folder, "gc.log")):
        return None
    pauses = []
    with open(os.path.join(folder, "gc.log")) as log:
        for line in log:
            if " Pause " not in line or not line.rstrip().endswith("ms"):
                continue
            stamp = line[1:line.index("]")]
            at = datetime.datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%S.%f%z").timestamp()
            if since <= at <= until:
                pauses.append(float(line.rstrip().rsplit(" ", 1)[1][:-2]))
    return pauses


def reap(process, block):
    """The process's exit status, CPU seconds and minor page faults (os.wait4), or None while it runs."""
    pid, status, usage = os.wait4(process.pid, 0 if block else os.WNOHANG)
    if pid == 0:
        return None
    process.returncode = os.waitstatus_to_exitcode(status)
    return process.returncode, usage.ru_utime + usage.ru_stime, usage.ru_minflt


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
            "cpu_s": round(reaped[1], 2), "broker_cpu_s": round(broker_cpu, 2), "page_faults": reaped[2]}


def floor_settings(path):
    """A --config file's librdkafka settings (key=value lines, # comments) as the floor's -X arguments."""
    if not path:
        return []
    settings = []
    with open(path) as lines:
        for line in lines:
            line = line.strip()
            if line and not line.startswith("#"):
                settings += ["-X", "=".join(part.strip() for part in line.split("=", 1))]
    return settings


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


def offered_load(griffin, broker, seconds, batch_ms, rate=5000, extra=(), reader_settings=None, warmup=10):
    """griffin stream under a fixed offered load: each message carries its produce time;
    a read_committed reader of the clean topic measures produce -> visible. The load
    starts once a first message has come through (griffin has joined its group and
    committed once), and the clock `warmup` seconds later: a broker just started takes
    that long to settle (the first 30 s after a start measured p99 ~340 ms against
    ~60-120 ms after it, in its append: bench/README.md). Each latency is split in three: produce -> in the raw topic (the
    raw topic keeps the broker's append time: LogAppendTime; a second reader of it),
    -> griffin wrote it (the clean record's timestamp is griffin's produce time), ->
    visible (the commit and the reader). A probe thread records how late the bench's
    own 5 ms sleeps wake (its CPU and GIL starvation: the readers stamp arrival times).
    Returns a dict: latencies (s), parts per message (appended, written, visible
    minus sent; None where the raw reader missed it), send times, griffin's RSS (kB)
    once a second, the probe's worst wake-up per second, messages sent, rate offered,
    and griffin's batch-seconds histogram from its metrics."""
    raw, clean, dlq, group = (unique(p) for p in ("lat-raw", "lat-clean", "lat-dlq", "lat-group"))
    create_topics(broker, [raw], partitions=PARTITIONS, config={"message.timestamp.type": "LogAppendTime"})
    create_topics(broker, [clean, dlq], partitions=PARTITIONS)
    port = free_port()
    process = subprocess.Popen([griffin, "stream", "-r", str(RULES), "--from", f"kafka://{broker}/{raw}",
                                "--to", f"kafka://{broker}/{clean}", "--dead-letter", f"kafka://{broker}/{dlq}",
                                "--group", group, "--metrics-listen", f"127.0.0.1:{port}",
                                *(["--batch-ms", str(batch_ms)] if batch_ms else []), *extra],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    visible, appended, stop, warm = {}, {}, threading.Event(), threading.Event()

    def read_clean():
        consumer = Consumer({"bootstrap.servers": broker, "group.id": unique("lat-reader"),
                             "isolation.level": "read_committed", **(reader_settings or {})})
        consumer.assign([TopicPartition(clean, p, 0) for p in range(PARTITIONS)])
        while not stop.is_set():
            message = consumer.poll(0.1)
            if message is not None and not message.error():
                now = time.time()
                sent = sent_of(message.value())
                if sent < 0:
                    warm.set()
                else:
                    visible[sent] = (message.timestamp()[1] / 1000, now)
        consumer.close()

    def read_raw():
        consumer = Consumer({"bootstrap.servers": broker, "group.id": unique("lat-raw-reader"),
                             **(reader_settings or {})})
        consumer.assign([TopicPartition(raw, p, 0) for p in range(PARTITIONS)])
        while not stop.is_set():
            message = consumer.poll(0.1)
            if message is not None and not message.error():
                appended[sent_of(message.value())] = message.timestamp()[1] / 1000

    stalls = {}

    def probe():  # the bench's own starvation: how late a 5 ms sleep wakes, worst per second
        while not stop.is_set():
            before = time.monotonic()
            time.sleep(0.005)
            late = time.monotonic() - before - 0.005
            second = int(time.time())  # as the send times below
            stalls[second] = max(stalls.get(second, 0.0), late)

    threads = [threading.Thread(target=f) for f in (read_clean, read_raw)]
    for thread in threads:
        thread.start()
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
            for thread in threads:
                thread.join()
            process.kill()
            raise SystemExit(f"griffin stream did not come up: {process.stderr.read().decode()[-2000:]}")
        producer.produce(raw, value=bodies[0] + b"-1}", partition=0)
        producer.flush(10)
        warm.wait(1)
    prober = threading.Thread(target=probe)
    prober.start()
    rss, sends, index = [], [], 0
    started = time.monotonic()
    next_sample, measured_from, wall_started = started, None, None
    while True:
        now = time.monotonic()
        if measured_from is None and now - started >= warmup:
            measured_from, first_measured, wall_started = now, index, time.time()
        if now - started >= warmup + seconds:
            break
        due = int((now - started) * rate)  # paced by the clock: a late tick catches up
        while index < due:
            sent = time.time()
            body = bodies[index % len(bodies)] + repr(sent).encode() + b"}"
            while True:
                try:
                    producer.produce(raw, value=body, partition=index % PARTITIONS)
                    break
                except BufferError:
                    producer.poll(0.01)
            if measured_from is not None:
                sends.append(sent)
            index += 1
        producer.poll(0)
        if now >= next_sample:
            rss.append(rss_kb(process.pid))
            next_sample += 1
        time.sleep(0.002)
    offered = (index - first_measured) / (time.monotonic() - measured_from)
    producer.flush(30)
    time.sleep(2)
    try:
        metrics = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10).read().decode()
    except OSError:
        metrics = ""
    stop.set()
    for thread in threads + [prober]:
        thread.join()
    process.terminate()
    process.wait(60)
    latencies, parts, times = [], [], []
    for sent in sends:
        if sent in visible:
            written, seen = visible[sent]
            latencies.append(seen - sent)
            times.append(sent)
            parts.append((appended[sent] - sent if sent in appended else None, written - sent, seen - sent))
    histogram = [(line.split('le="')[1].split('"')[0], float(line.split()[-1]))
                 for line in metrics.splitlines() if line.startswith("griffin_stream_batch_seconds_bucket")]
    return {"latencies": latencies, "parts": parts, "times": times, "rss": rss, "sent": len(sends),
            "offered": offered, "stalls": stalls, "batch_histogram": histogram, "warmup": warmup,
            "broker_gc_ms": broker_gc_pauses(wall_started, time.time())}


def sent_of(value):
    """The "sent" stamp at the end of a bench message (faster than parsing its JSON)."""
    return float(value[value.rindex(b":") + 1:-1])


def print_latency(result, seconds, batch_ms):
    latencies, parts = result["latencies"], result["parts"]
    cuts = statistics.quantiles(latencies, n=100)
    print(f"{result['sent']} messages over {seconds} s after {result['warmup']} s of warm-up (offered {result['offered']:,.0f}/s of 5,000/s), "
          f"--batch-ms {batch_ms or 'default'}: produce -> visible (read_committed) "
          f"p50 {cuts[49] * 1000:.0f} ms, p99 {cuts[98] * 1000:.0f} ms, max {max(latencies) * 1000:.0f} ms")
    split = [p for p in parts if p[0] is not None]
    stages = (("produce -> in the raw topic (bench producer, broker append)", [a for a, _, _ in split]),
              ("raw topic -> griffin wrote it (its fetch, batch, loop)", [w - a for a, w, _ in split]),
              ("griffin wrote it -> visible (commit, markers, reader)", [v - w for _, w, v in split]))
    for name, values in stages:
        part = statistics.quantiles(values, n=100)
        print(f"  {name}: p50 {part[49] * 1000:.0f} ms, p99 {part[98] * 1000:.0f} ms, max {max(values) * 1000:.0f} ms")
    # The tail: which seconds its messages were sent in, and what each stage took there.
    threshold = cuts[98]
    by_second, first = {}, int(result["times"][0])
    for at, latency, part in zip(result["times"], latencies, parts):
        if latency >= threshold:
            by_second.setdefault(int(at), []).append(part)
    worst = sorted(by_second.items(), key=lambda item: -len(item[1]))[:6]
    print(f"  the slowest 1% (>= {threshold * 1000:.0f} ms) were sent in {len(by_second)} of {seconds} seconds; "
          f"the busiest: " + "; ".join(
              f"s{second - first}: {len(items)} msgs, worst stage maxima "
              f"{max((p[0] or 0) for p in items) * 1000:.0f}/{max(p[1] - (p[0] or 0) for p in items) * 1000:.0f}/"
              f"{max(p[2] - p[1] for p in items) * 1000:.0f} ms, bench wake-up late "
              f"{result['stalls'].get(second, 0) * 1000:.0f} ms" for second, items in worst))
    late = sorted(late for second, late in result["stalls"].items() if second >= first)
    if late:
        print(f"  the bench's own 5 ms sleeps woke late by up to {late[-1] * 1000:.0f} ms "
              f"(median of the per-second worst {statistics.median(late) * 1000:.0f} ms)")
    if result["broker_gc_ms"] is not None:
        pauses = result["broker_gc_ms"]
        print(f"  the broker's GC: {len(pauses)} pauses, {sum(pauses):.0f} ms in all, the longest "
              f"{max(pauses, default=0):.0f} ms")
    if result["batch_histogram"]:
        total = result["batch_histogram"][-1][1]
        print("  griffin's batches, first message polled to commit (cumulative): " +
              ", ".join(f"<= {le} s: {count:.0f}" for le, count in result["batch_histogram"]) + f" of {total:.0f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--count", type=int)
    parser.add_argument("--repeat", type=int, default=1, help="runs of each tool, alternating (medians reported)")
    parser.add_argument("--latency", type=int, metavar="SECONDS", help="latency at 5,000 messages/s")
    parser.add_argument("--soak", type=int, metavar="SECONDS", help="RSS over a run at 5,000 messages/s")
    parser.add_argument("--batch-ms", type=int, help="griffin stream's --batch-ms (latency, soak; default: its own)")
    parser.add_argument("--warmup", type=int, default=10,
                        help="seconds of offered load before the clock starts (latency, soak; default 10)")
    parser.add_argument("--reader-fetch-wait-ms", type=int,
                        help="the bench's readers' fetch.wait.max.ms (default: librdkafka's, 500)")
    parser.add_argument("--config", help="griffin stream's --config file of librdkafka settings (every griffin run; "
                                         "the floor gets the same settings)")
    parser.add_argument("--before", metavar="GRIFFIN",
                        help="also this griffin binary (a build before a change), alternating: \"griffin-before\"")
    parser.add_argument("--floor", action="store_true",
                        help="also the loops that validate nothing (the ceiling): build/stream_floor, griffin with "
                             "no checks, the peer without its model; alternating with the others")
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
            extra = ["--config", args.config] if args.config else []
            reader = {"fetch.wait.max.ms": args.reader_fetch_wait_ms} if args.reader_fetch_wait_ms else {}
            result = offered_load(griffin, broker, seconds, args.batch_ms, extra=extra, reader_settings=reader,
                                  warmup=args.warmup)
            if len(result["latencies"]) < result["sent"] * 0.9:
                raise SystemExit(f"only {len(result['latencies'])} of {result['sent']} messages became visible")
            print_latency(result, seconds, args.batch_ms)
            rss = result["rss"]
            half = len(rss) // 2
            print(f"griffin stream RSS: first {rss[0] // 1024} MiB, peak {max(rss) // 1024} MiB, "
                  f"first half peak {max(rss[:half] or rss) // 1024} MiB, second half peak {max(rss[half:]) // 1024} MiB, "
                  f"last {rss[-1] // 1024} MiB")
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
        if args.before:
            runs["griffin-before"] = []
        if args.floor:
            runs.update({"floor": [], "griffin-no-checks": [], "python-no-checks": []})
        config = ["--config", args.config] if args.config else []
        floor = os.environ.get("STREAM_FLOOR_BIN", str(REPO / "build" / "stream_floor"))
        for _ in range(args.repeat):  # alternating, so both see the same machine load over time
            for name in runs:
                clean, dlq, group = unique("bench-clean"), unique("bench-dlq"), unique("bench-group")
                create_topics(broker, [clean, dlq], partitions=PARTITIONS)
                if name.startswith("griffin"):
                    rules = NO_CHECKS_RULES if name == "griffin-no-checks" else RULES
                    command = [args.before if name == "griffin-before" else griffin, "stream", "-r", str(rules), "--from", f"kafka://{broker}/{raw}",
                               "--to", f"kafka://{broker}/{clean}", "--dead-letter", f"kafka://{broker}/{dlq}",
                               "--group", group, *config]
                    if name == "griffin-windows":
                        command[1:2] = ["stream", "--metrics-listen", "127.0.0.1:0"]
                elif name == "floor":
                    command = [floor, "--broker", broker, "--from", raw, "--to", clean, "--group", group,
                               "--count", str(count), *floor_settings(args.config)]
                else:
                    command = [str(peer_python), str(PEER), "--broker", broker, "--from", raw, "--to", clean,
                               "--dead-letter", dlq, "--group", group, "--count", str(count),
                               *(["--no-validate"] if name == "python-no-checks" else [])]
                result = run_one(name, command, broker, raw, group, count, timeout_s=1200)
                runs[name].append(result)
                print(f"{name:>16}: {count} messages in {result['seconds']} s, {result['messages_per_s']} messages/s "
                      f"({result['after_first_commit_per_s'] or 'n/a '}/s after the first commit at {result['first_commit_s']} s); "
                      f"CPU {result['cpu_s']} s, broker CPU {result['broker_cpu_s']} s, "
                      f"{result['page_faults']} page faults", flush=True)
        medians = {name: {key: median_of_measured(r[key] for r in results)
                          for key in ("seconds", "messages_per_s", "after_first_commit_per_s", "cpu_s", "broker_cpu_s",
                                      "page_faults")}
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
        if args.before:
            b = medians["griffin-before"]
            print(f"griffin / griffin-before (median of {args.repeat}): {g['messages_per_s'] / b['messages_per_s']:.2f}x "
                  f"messages/s, CPU per 100k messages {g['cpu_s'] * 1e5 / count:.2f} s vs {b['cpu_s'] * 1e5 / count:.2f} s, "
                  f"broker's {g['broker_cpu_s'] * 1e5 / count:.2f} s vs {b['broker_cpu_s'] * 1e5 / count:.2f} s, "
                  f"page faults per 100k messages {g['page_faults'] * 1e5 / count:,.0f} vs "
                  f"{b['page_faults'] * 1e5 / count:,.0f}")
        if args.floor:
            f, n, q = medians["floor"], medians["griffin-no-checks"], medians["python-no-checks"]
            per_100k = {name: m["cpu_s"] * 1e5 / count for name, m in medians.items()}
            print(f"the ceiling (median of {args.repeat}): floor / python {f['messages_per_s'] / p['messages_per_s']:.1f}x "
                  f"messages/s (griffin / python {ratio:.1f}x; griffin reaches {g['messages_per_s'] / f['messages_per_s']:.0%} "
                  f"of the floor, griffin-no-checks {n['messages_per_s'] / f['messages_per_s']:.0%}, python-no-checks "
                  f"{q['messages_per_s'] / f['messages_per_s']:.0%}); CPU s per 100k messages: " +
                  ", ".join(f"{name} {value:.2f}" for name, value in per_100k.items()) +
                  "; broker per 100k: " + ", ".join(f"{name} {m['broker_cpu_s'] * 1e5 / count:.2f}"
                                                    for name, m in medians.items()))
        print(json.dumps({"runs": runs, "medians": medians, "ratio": round(ratio, 2),
                          "ratio_after_first_commit": None if steady_ratio is None else round(steady_ratio, 2)}))
    finally:
        if started_broker:
            subprocess.run([str(REPO / "scripts" / "kafka_test_cluster.sh"), "stop"], check=False)


if __name__ == "__main__":
    main()
