#!/usr/bin/env python3
"""The quality service's benchmark (issue 5): the real `griffin serve` on
loopback, driven by wrk (Debian) and by pyarrow.flight, against the same
validation in process (griffin.Validator) in the same run.

  1. POST /metrics at 1,000 requests/s (an open-loop Python client: each
     request due at a fixed time, latency from that time): p50 / p99 / p99.9,
     and the server's own latency histogram. Steady state of a
     training loop: the batch is known by its batch_hash, the loss is checked.
  2. POST /metrics at the maximum rate (wrk, 2 threads, 32 connections):
     requests/s, by hash and with 100 records inline.
  3. Validate a 10,000-row Arrow batch: over HTTP (wrk, one connection, the
     Arrow IPC stream as the body), over Flight (a long DoExchange, one batch
     per round trip; and one DoPut per batch), and in process
     (griffin.Validator.validate on the same pyarrow Table, 1 thread like the
     server): p50 / p99, and the network path's overhead over in-process.

The machine's load (os.getloadavg) is printed with every section: other
engineers compile on it; repeat a run whose load was high.

    .venv/bin/python bench/run_service_bench.py            # full (~1 minute)
    .venv/bin/python bench/run_service_bench.py --quick    # CI: every path runs and answers, no timing asserts
    .venv/bin/python bench/run_service_bench.py --json     # one JSON summary line at the end
"""
import argparse
import hashlib
import json
import os
import pathlib
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import numpy as np
import pyarrow as pa
import pyarrow.flight as flight

import griffin

REPO = pathlib.Path(__file__).resolve().parents[1]
GRIFFIN = os.environ.get("GRIFFIN_BIN", str(REPO / "build" / "griffin"))
TOKEN = "bench-token-5b1f"
DATASET = "bench_service"
RULES = """griffin: 1
dataset: bench_service
columns:
  txn_id: {type: string, not_null: true, unique: true, regex: '^TX[0-9]{10}$'}
  amount: {type: float64, finite: true, min: 0, max: 1000000}
  currency: {type: string, in: [USD, EUR, GBP, JPY]}
  label: {type: int64, in: [0, 1]}
  created_at: {type: timestamp, max: now}
  country: {type: string, length: {min: 2, max: 2}}
rows:
  - name: big_needs_label
    expr: "amount < 10000 or label == 1"
training:
  loss: {finite: true, max: 100, spike: {sigma: 6, window: 100, min_history: 10}}
"""

WRK_LUA = """
wrk.method = "POST"
wrk.headers["Content-Type"] = "%(content_type)s"
wrk.headers["Authorization"] = "Bearer %(token)s"
local f = io.open("%(body)s", "rb")
wrk.body = f:read("*all")
f:close()
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRK {"requests": %%d, "duration_us": %%d, "p50_us": %%d, "p99_us": %%d, "p999_us": %%d, ' ..
    '"mean_us": %%f, "errors": %%d}\\n', summary.requests, summary.duration, latency:percentile(50),
    latency:percentile(99), latency:percentile(99.9), latency.mean,
    e.connect + e.read + e.write + e.status + e.timeout))
end
"""


def load():
    return "load %.2f %.2f %.2f on %d cores" % (*os.getloadavg(), os.cpu_count())


def percentile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def batch_table(rows, seed):
    """A typed batch with about 1% bad rows; ids are unique across seeds (up to 10^6 rows a batch)."""
    rng = np.random.default_rng(seed)
    ids = np.char.mod("TX%010d", np.arange(seed * 10 ** 6, seed * 10 ** 6 + rows)).astype(object)
    amount = rng.gamma(2.0, 60.0, rows)
    bad = rng.random(rows) < 0.01
    amount[bad] = -amount[bad]
    currency = rng.choice(["USD", "EUR", "GBP", "JPY"], rows)
    label = rng.integers(0, 2, rows)
    created = pa.array(1_700_000_000_000_000 + rng.integers(0, 10 ** 12, rows), pa.timestamp("us", tz="UTC"))
    country = rng.choice(["US", "DE", "FR", "GB", "JP"], rows)
    return pa.table({"txn_id": ids, "amount": amount, "currency": currency, "label": label, "created_at": created,
                     "country": country})


class Server:
    def __init__(self, workdir):
        rules = workdir / "rules"
        rules.mkdir()
        (rules / "bench_service.yaml").write_text(RULES)
        digest = hashlib.sha256(TOKEN.encode()).hexdigest()
        (workdir / "serve.yaml").write_text(
            f"keys:\n  - {{id: bench, sha256: {digest}, rate: none}}\nlimits:\n  http_threads: 64\n"
            f"  max_concurrent: 64\n  max_body_bytes: 67108864\nstore: {{metrics_sample: 0}}\n")
        self.process = subprocess.Popen(
            [GRIFFIN, "serve", "--rules-dir", str(rules), "--config", str(workdir / "serve.yaml"), "--listen",
             "127.0.0.1:0", "--flight", "127.0.0.1:0", "--store", str(workdir / "runs.db")],
            stderr=subprocess.PIPE, stdout=subprocess.DEVNULL)
        lines = []
        for raw in self.process.stderr:
            lines.append(raw.decode().strip())
            if "ready (" in lines[-1] or lines[-1].startswith("griffin: "):
                break
        log = "\n".join(lines)
        if "ready (" not in log:
            raise SystemExit("griffin serve did not start:\n" + log)
        self.url = re.search(r"listening on (http://\S+)", log).group(1)
        self.flight_url = re.search(r"flight on (\S+)", log).group(1)
        threading.Thread(target=lambda: [None for _ in self.process.stderr], daemon=True).start()

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        return self.process.wait(60)


def wrk(url, body_path, threads, connections, seconds, content_type="application/json"):
    """wrk's numbers for POST url with the body in body_path (closed loop: as fast as it goes)."""
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write(WRK_LUA % {"token": TOKEN, "body": body_path, "content_type": content_type})
    done = subprocess.run(["wrk", "-t", str(threads), "-c", str(connections), "-d", "%ds" % seconds, "-s", script.name,
                           "--timeout", "10s", url], capture_output=True, text=True, timeout=seconds + 60)
    os.unlink(script.name)
    line = next((l for l in done.stdout.splitlines() if l.startswith("WRK ")), None)
    if line is None:
        raise SystemExit("wrk failed: " + done.stdout + done.stderr)
    result = json.loads(line[4:])
    result["rps"] = result["requests"] / (result["duration_us"] / 1e6)
    return result


def paced(url, body, rate, seconds, connections=2):
    """An open-loop load at exactly `rate` requests/s: request k is due at
    start + k / rate; `connections` threads (keep-alive) take the next due
    request, wait for its time, send it. Latency runs from the due time to the
    answer, so a late start counts (no coordinated omission). Python's own
    per-request cost (~0.1 ms) is in the figures."""
    import http.client
    import urllib.parse

    parts = urllib.parse.urlsplit(url)
    total = int(rate * seconds)
    lock = threading.Lock()
    next_index = [0]
    latencies, errors = [], [0]
    start = time.perf_counter() + 0.1

    def worker():
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
        headers = {"Authorization": "Bearer " + TOKEN, "Content-Type": "application/json"}
        while True:
            with lock:
                k = next_index[0]
                next_index[0] += 1
            if k >= total:
                break
            due = start + k / rate
            wait = due - time.perf_counter()
            if wait > 0:
                time.sleep(wait)
            connection.request("POST", parts.path, body=body, headers=headers)
            response = connection.getresponse()
            response.read()
            done = time.perf_counter()
            with lock:
                latencies.append(done - due)
                errors[0] += response.status != 200

    threads = [threading.Thread(target=worker) for _ in range(connections)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - start
    us = [x * 1e6 for x in latencies]
    return {"requests": len(us), "rps": len(us) / elapsed, "p50_us": statistics.median(us),
            "p99_us": percentile(us, 0.99), "p999_us": percentile(us, 0.999), "errors": errors[0]}


def server_histogram(client, route):
    """griffin serve's own latency histogram of an HTTP route: {le: count}."""
    text = client.prometheus()
    pattern = r'griffin_request_duration_seconds_bucket\{protocol="http",route="%s",le="([^"]+)"\} (\S+)' % route
    return {le: float(count) for le, count in re.findall(pattern, text)}


def share_within(before, after, bound):
    total = after["+Inf"] - before.get("+Inf", 0)
    return (after[bound] - before.get(bound, 0)) / total if total else float("nan")


def exchange_round_trips(client, options, tables):
    """Per-batch round trips of one long DoExchange, the client waiting for each
    result. The batches must differ: the run spans the stream, so a batch sent
    twice would repeat every unique id."""
    writer, reader = client.do_exchange(flight.FlightDescriptor.for_command(
        json.dumps({"dataset": DATASET, "store": False, "max_violations": 100})), options=options)
    batches = [t.combine_chunks().to_batches()[0] for t in tables]
    times = []
    with writer:
        writer.begin(batches[0].schema)
        for batch in batches:
            start = time.perf_counter()
            writer.write_batch(batch)
            result = reader.read_chunk().data
            times.append(time.perf_counter() - start)
            assert result.num_rows == 1
        writer.done_writing()
        final = json.loads(reader.read_chunk().app_metadata.to_pybytes())
    assert final["rows"] == sum(t.num_rows for t in tables), final["rows"]
    return times, final


def put_calls(client, options, table, count):
    times = []
    descriptor = flight.FlightDescriptor.for_command(json.dumps({"dataset": DATASET, "store": False,
                                                                 "max_violations": 100}))
    for _ in range(count):
        start = time.perf_counter()
        writer, reader = client.do_put(descriptor, table.schema, options=options)
        writer.write_table(table)
        writer.done_writing()
        report = json.loads(reader.read().to_pybytes())
        writer.close()
        times.append(time.perf_counter() - start)
        assert report["rows"] == table.num_rows
    return times


def in_process(table, count):
    validator = griffin.Validator.from_yaml(RULES)
    times = []
    for _ in range(count):
        start = time.perf_counter()
        report = validator.validate(table, max_violations=100, threads=1)
        times.append(time.perf_counter() - start)
        assert report.rows == table.num_rows
    return times, report


def in_process_stream(tables):
    """One run over all of `tables` (as one DoExchange is: `unique` spans the
    stream); -> the mean time per batch in microseconds."""
    validator = griffin.Validator.from_yaml(RULES)
    batches = [t.combine_chunks().to_batches()[0] for t in tables]
    start = time.perf_counter()
    report = validator.validate(pa.RecordBatchReader.from_batches(batches[0].schema, batches),
                                max_violations=100, threads=1)
    elapsed = time.perf_counter() - start
    assert report.rows == sum(t.num_rows for t in tables)
    return elapsed / len(batches) * 1e6


def summary(times):
    us = [t * 1e6 for t in times]
    return {"p50_us": statistics.median(us), "p99_us": percentile(us, 0.99), "n": len(us)}


def json_records(table):
    """Rows as JSON-ready dicts (timestamps as ISO text)."""
    rows = table.to_pylist()
    for row in rows:
        for key, value in row.items():
            if hasattr(value, "isoformat"):
                row[key] = value.isoformat()
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="short runs for CI (correctness only)")
    parser.add_argument("--json", action="store_true", help="print one JSON summary line at the end")
    args = parser.parse_args()
    seconds = 1 if args.quick else 10
    calls = 20 if args.quick else 400
    results = {"machine": load()}
    workdir = pathlib.Path(tempfile.mkdtemp(prefix="griffin_service_bench_"))
    server = Server(workdir)
    try:
        client = griffin.Client(server.url, TOKEN, flight_url=server.flight_url)
        table = batch_table(10_000, seed=1)
        records = json_records(batch_table(100, seed=2))
        # The batch the /metrics benchmark names by hash, validated once.
        client.validate(DATASET, table, batch_hash="bench-batch", store=False)
        by_hash = workdir / "metrics_hash.json"
        by_hash.write_text(json.dumps({"dataset": DATASET, "step": None, "batch_hash": "bench-batch", "loss": 0.5}))
        inline = workdir / "metrics_records.json"
        inline.write_text(json.dumps({"dataset": DATASET, "loss": 0.5, "records": records}))
        arrow_body = workdir / "batch.arrows"
        sink = pa.BufferOutputStream()
        with pa.ipc.new_stream(sink, table.schema) as w:
            w.write_table(table)
        arrow_body.write_bytes(sink.getvalue().to_pybytes())

        print("griffin serve benchmark (%s)" % results["machine"])
        print("\n1. POST /metrics by batch_hash at 1,000 requests/s (an open-loop Python client, 2 keep-alive "
              "connections)  [%s]" % load())
        before = server_histogram(client, "score")
        paced_run = paced(server.url + "/metrics", by_hash.read_bytes(), 1000, seconds)
        after = server_histogram(client, "score")
        paced_run["server_within_500us"] = share_within(before, after, "0.0005")
        paced_run["server_within_1ms"] = share_within(before, after, "0.001")
        results["metrics_paced"] = paced_run
        print("   %.0f requests/s: p50 %d us, p99 %d us, p99.9 %d us, errors %d (client side, from each request's due time)"
              % (paced_run["rps"], paced_run["p50_us"], paced_run["p99_us"], paced_run["p999_us"], paced_run["errors"]))
        print("   server side (its histogram, headers read to answer written): %.2f%% within 0.5 ms, %.2f%% within 1 ms"
              % (100 * paced_run["server_within_500us"], 100 * paced_run["server_within_1ms"]))

        print("\n2. POST /metrics, maximum rate (wrk -t2 -c32)  [%s]" % load())
        fast = wrk(server.url + "/metrics", by_hash, 2, 32, seconds)
        rich = wrk(server.url + "/metrics", inline, 2, 32, seconds)
        results["metrics_max"], results["metrics_max_records"] = fast, rich
        print("   by batch_hash:        %8.0f requests/s (p50 %d us, p99 %d us), errors %d"
              % (fast["rps"], fast["p50_us"], fast["p99_us"], fast["errors"]))
        print("   with 100 records:     %8.0f requests/s (p50 %d us, p99 %d us), errors %d"
              % (rich["rps"], rich["p50_us"], rich["p99_us"], rich["errors"]))

        print("\n3. Validate a 10,000-row Arrow batch (%d bytes as IPC)  [%s]" % (arrow_body.stat().st_size, load()))
        http = wrk(server.url + "/v1/datasets/%s/validate?store=false&max_violations=100" % DATASET, arrow_body, 1, 1,
                   seconds, content_type="application/vnd.apache.arrow.stream")
        results["validate_http"] = http
        options = flight.FlightCallOptions(headers=[(b"authorization", ("Bearer " + TOKEN).encode())])
        flight_client = flight.FlightClient(server.flight_url)
        stream = [batch_table(10_000, seed=10 + k) for k in range(calls)]
        exchange_round_trips(flight_client, options, stream[:5])   # warm up
        exchanged, final = exchange_round_trips(flight_client, options, stream)
        results["validate_flight_exchange"] = summary(exchanged)
        results["exchange_bad_rows"] = final["bad_rows"]
        results["validate_flight_put"] = summary(put_calls(flight_client, options, table, calls // 2))
        local_times, report = in_process(table, calls)
        results["validate_in_process"] = summary(local_times)
        results["bad_rows_per_batch"] = report.bad_rows
        local = results["validate_in_process"]["p50_us"]
        rows = [("HTTP POST (wrk -c1)", http["p50_us"], http["p99_us"]),
                ("Flight DoExchange round trip", results["validate_flight_exchange"]["p50_us"],
                 results["validate_flight_exchange"]["p99_us"]),
                ("Flight DoPut per batch", results["validate_flight_put"]["p50_us"],
                 results["validate_flight_put"]["p99_us"]),
                ("in process (griffin.Validator)", local, results["validate_in_process"]["p99_us"])]
        for name, p50, p99 in rows:
            extra = "" if name.startswith("in process") else \
                "   network path +%.0f us (%.2fx in-process)" % (p50 - local, p50 / local)
            print("   %-32s p50 %7.0f us  p99 %7.0f us%s" % (name, p50, p99, extra))
        stream_mean = in_process_stream(stream)
        results["validate_in_process_stream_mean_us"] = stream_mean
        exchange_mean = statistics.mean(exchanged) * 1e6
        print("   in process, one run over the exchange's %d batches: %.0f us per batch (mean; DoExchange's mean "
              "%.0f us: network path +%.0f us)" % (len(stream), stream_mean, exchange_mean, exchange_mean - stream_mean))
        print("   (%d bad rows per batch; HTTP errors %d)  [%s]" % (report.bad_rows, http["errors"], load()))
        errors = paced_run["errors"] + fast["errors"] + rich["errors"] + http["errors"]
        if errors:
            raise SystemExit("%d requests failed" % errors)
        client.close()
    finally:
        status = server.stop()
        shutil.rmtree(workdir, ignore_errors=True)
    if status != 0:
        raise SystemExit("griffin serve exited %d" % status)
    if args.json:
        print(json.dumps(results))


if __name__ == "__main__":
    main()
