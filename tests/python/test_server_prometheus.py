"""griffin serve's request telemetry against the real server: a malformed
request (raw-socket garbage) is counted under route "malformed", never in the
latency histogram (it has no start time: it once showed the process uptime,
about 1,948 s), and the shutdown summary's received and answered counts agree
with the answers the clients got."""
import re
import socket

import requests

from server_harness import GriffinServer, auth

RULES = {"steps": """griffin: 1
dataset: steps
columns:
  x: {type: float64, min: 0}
"""}


def answers_to(server, data):
    """Sends bytes on a fresh connection and reads until the server closes it
    (or a second of silence); the status codes of every answer read."""
    host, port = server.url.split("//")[1].split(":")
    received = b""
    with socket.create_connection((host, int(port)), timeout=1) as s:
        s.sendall(data)
        try:
            while chunk := s.recv(65536):
                received += chunk
        except (ConnectionResetError, socket.timeout):
            pass
    return [int(code) for code in re.findall(rb"HTTP/1\.1 (\d{3}) ", received)]


def sample(text, name, labels):
    """The value of one Prometheus sample, or None."""
    for line in text.splitlines():
        if line.startswith(name + "{") and all(f'{k}="{v}"' in line for k, v in labels.items()):
            return float(line.rsplit(" ", 1)[1])
    return None


def test_malformed_requests_are_counted_apart_and_never_timed(tmp_path):
    with GriffinServer(tmp_path, RULES, store=False, flight=False) as server:
        garbage = answers_to(server, b"garbage\r\n\r\n")
        more = answers_to(server, b"\x00\xff\x10 nonsense \x7f\r\n\r\n")
        assert garbage and set(garbage) == {400} and more and set(more) == {400}, (garbage, more)
        malformed = len(garbage) + len(more)
        healthy = [requests.get(server.url + "/healthz", timeout=5).status_code for _ in range(3)]
        assert healthy == [200, 200, 200]

        text = requests.get(server.url + "/metrics", headers=auth(), timeout=5).text
        assert sample(text, "griffin_requests_total", {"route": "malformed", "code": "400"}) == malformed, text
        assert sample(text, "griffin_requests_total", {"route": "healthz", "code": "200"}) == 3, text
        # No latency for them: no series of their own, and nothing slow anywhere.
        assert 'route="malformed",le=' not in text and 'route="other",le=' not in text, text
        assert sample(text, "griffin_request_duration_seconds_count", {"route": "healthz"}) == 3, text
        assert sample(text, "griffin_request_duration_seconds_sum", {"route": "healthz"}) < 1.0, text
        assert sample(text, "griffin_request_duration_seconds_bucket", {"route": "healthz", "le": "1"}) == 3, text

        assert server.stop() == 0
        stopped = server.find_log(r"stopped: \d+ HTTP requests? received")
        received, answered = map(int, re.search(r"(\d+) HTTP requests? received, (\d+) answered", stopped).groups())
        # malformed + 3 health checks + the scrape: every one read was answered.
        assert received == answered == malformed + 3 + 1, (stopped, malformed)
