"""A small local stand-in for the Griffin service's POST /metrics (until the
real `griffin serve` is tested against, in test_server*.py): a real HTTP
server on a loopback port, in a thread, that answers from a script of
statuses and records every request (arrival time, headers, JSON body)."""
import http.server
import json
import threading
import time


class MetricsStandIn:
    """`script`: a list of (status, headers, body) or (status, headers, body,
    delay seconds) answered in order; after the script, every request gets
    `default`. Use as a context manager."""

    def __init__(self, script=(), default=(200, {}, {"quality_score": 1.0, "passed": True, "reasons": []})):
        self.script = list(script)
        self.default = default
        self.requests = []       # (monotonic arrival, headers dict, parsed body)
        self._lock = threading.Lock()
        standin = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self):  # noqa: N802
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length) or b"null")
                with standin._lock:
                    standin.requests.append((time.monotonic(), dict(self.headers), body))
                    entry = standin.script.pop(0) if standin.script else standin.default
                status, headers, answer, delay = (tuple(entry) + (0.0,))[:4]
                time.sleep(delay)
                data = answer if isinstance(answer, bytes) else json.dumps(answer).encode()
                try:
                    self.send_response(status)
                    for key, value in headers.items():
                        self.send_header(key, value)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except OSError:
                    self.close_connection = True     # the client gave up waiting (a timeout test)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = "http://127.0.0.1:%d" % self.server.server_address[1]
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()
        self._thread.join()
