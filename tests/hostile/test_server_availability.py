"""Availability attacks on griffin serve (issue 12), replayed on loopback
against the real server: slowloris (many connections trickling one header
line per second) must not keep /healthz or keyed requests from an answer, and
each slow connection gets 408 once its headers are late; a burst of
concurrent connections must get an answer each (200, or 503 with
Retry-After), within the request timeout, none left hanging.

`make hostile` runs the full form (200 slow connections, 2,000 concurrent
requests); GRIFFIN_HOSTILE_SHORT=1 (scripts/test.sh) runs a short one."""
import asyncio
import os
import pathlib
import re
import socket
import sys
import time

import requests

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "python"))
from server_harness import GriffinServer, TOKENS, auth, config_yaml  # noqa: E402

SHORT = os.environ.get("GRIFFIN_HOSTILE_SHORT") == "1"
SLOW_CONNECTIONS = 50 if SHORT else 200
BURST = 300 if SHORT else 2000
RULES = """griffin: 1
dataset: steps
columns:
  x: {type: float64, not_null: true, min: 0}
  y: {type: int64, in: [0, 1]}
"""
HEADER_TIMEOUT_S = 4
REQUEST_TIMEOUT_S = 10


def server(tmp_path):
    limits = (f"  http_threads: 8\n  header_timeout_s: {HEADER_TIMEOUT_S}\n  request_timeout_s: {REQUEST_TIMEOUT_S}\n"
              "  rate: none\n")
    return GriffinServer(tmp_path, {"steps": RULES}, config=config_yaml(limits=limits), store=False, flight=False)


def address(server_):
    host, port = server_.url.split("//")[1].split(":")
    return host, int(port)


def test_slowloris_does_not_take_healthz_away(tmp_path):
    with server(tmp_path) as s:
        slow = []
        for _ in range(SLOW_CONNECTIONS):
            sock = socket.create_connection(address(s), timeout=10)
            sock.sendall(b"GET /v1/datasets HTTP/1.1\r\nHost: x\r\n")
            slow.append(sock)
        began = time.monotonic()
        latencies = []
        line = 0
        # One header line per second on every slow connection, while /healthz
        # and a keyed request are asked for every quarter second.
        while time.monotonic() - began < HEADER_TIMEOUT_S - 0.5:
            if time.monotonic() - began >= line:
                for sock in slow:
                    sock.sendall(b"X-Slow-%d: 1\r\n" % line)
                line += 1
            asked = time.monotonic()
            health = requests.get(s.url + "/healthz", timeout=2)
            keyed = requests.get(s.url + "/v1/datasets", headers=auth(), timeout=2)
            latencies.append(time.monotonic() - asked)
            assert health.status_code == 200 and keyed.status_code == 200
            time.sleep(0.25)
        assert len(latencies) >= 8 and max(latencies) < 1.0, latencies
        # Their headers are late: each slow connection is answered 408 and closed.
        answers = []
        for sock in slow:
            sock.settimeout(HEADER_TIMEOUT_S + 5)
            data = b""
            try:
                while chunk := sock.recv(4096):
                    data += chunk
            except (ConnectionResetError, socket.timeout):
                pass
            answers.append(data)
            sock.close()
        assert all(a.startswith(b"HTTP/1.1 408 Request Timeout\r\n") for a in answers), \
            [a[:60] for a in answers if not a.startswith(b"HTTP/1.1 408")][:5]
        assert time.monotonic() - began < HEADER_TIMEOUT_S + 5
        assert requests.get(s.url + "/healthz", timeout=2).status_code == 200
        metrics = requests.get(s.url + "/metrics", headers=auth(), timeout=5).text
        counted = re.search(r'griffin_requests_total\{code="408",protocol="http",route="other"\} (\d+)', metrics)
        assert counted and int(counted.group(1)) == SLOW_CONNECTIONS, metrics


async def one_request(host, port, index):
    """(status, has Retry-After, seconds) of one request on its own connection; status 0: no answer."""
    began = time.monotonic()
    body = b"x,y\n1,0\n-1,1\n"
    if index % 2:
        request = b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    else:
        request = (b"POST /v1/datasets/steps/validate HTTP/1.1\r\nHost: x\r\nContent-Type: text/csv\r\n"
                   b"Authorization: Bearer " + TOKENS["trainer"].encode() +
                   b"\r\nConnection: close\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), REQUEST_TIMEOUT_S)
        writer.write(request)
        await writer.drain()
        answer = await asyncio.wait_for(reader.read(), REQUEST_TIMEOUT_S)
        writer.close()
    except (asyncio.TimeoutError, ConnectionError, OSError):
        return 0, False, time.monotonic() - began
    status = int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/1.1 ") else 0
    return status, b"\r\nRetry-After: " in answer, time.monotonic() - began


async def burst(host, port, count):
    return await asyncio.gather(*(one_request(host, port, i) for i in range(count)))


def test_a_burst_of_connections_is_answered_every_one(tmp_path):
    with server(tmp_path) as s:
        host, port = address(s)
        began = time.monotonic()
        results = asyncio.run(burst(host, port, BURST))
        elapsed = time.monotonic() - began
        statuses = [r[0] for r in results]
        unanswered = statuses.count(0)
        assert unanswered == 0, f"{unanswered} of {BURST} had no answer"
        assert set(statuses) <= {200, 503}, sorted(set(statuses))
        assert all(has_retry for status, has_retry, _ in results if status == 503)
        assert max(r[2] for r in results) < REQUEST_TIMEOUT_S
        assert statuses.count(200) >= 100, statuses.count(200)
        print(f"burst of {BURST}: {statuses.count(200)} answered 200, {statuses.count(503)} 503, in {elapsed:.1f} s")
        assert requests.get(s.url + "/healthz", timeout=2).status_code == 200
