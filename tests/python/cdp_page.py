"""A page in headless Chromium driven over the DevTools protocol (CDP), with the
standard library only: a minimal WebSocket client (RFC 6455, text frames) and
Runtime.evaluate. For tests that click and type in a page, and see every console
message and uncaught exception while they do.

    with CdpPage(path) as page:
        page.evaluate("document.querySelector('th button').click()")
        assert page.problems() == []
"""
import base64
import contextlib
import json
import os
import re
import signal
import socket
import struct
import subprocess
import tempfile
import time

from chromium_page import FLAGS, _url, chromium


class _WebSocket:
    def __init__(self, url, timeout=30):
        match = re.match(r"ws://([^:/]+):(\d+)(/.*)", url)
        host, port, path = match.group(1), int(match.group(2)), match.group(3)
        self.sock = socket.create_connection((host, port), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            assert chunk, "DevTools closed the connection during the handshake"
            head += chunk
        assert head.startswith(b"HTTP/1.1 101"), head

    def _exact(self, n):
        data = b""
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            assert chunk, "DevTools closed the connection"
            data += chunk
        return data

    def send(self, text):
        payload = text.encode()
        header = bytes([0x81])
        if len(payload) < 126:
            header += bytes([0x80 | len(payload)])
        elif len(payload) < 1 << 16:
            header += bytes([0x80 | 126]) + struct.pack("!H", len(payload))
        else:
            header += bytes([0x80 | 127]) + struct.pack("!Q", len(payload))
        mask = os.urandom(4)
        self.sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def receive(self):
        message = b""
        while True:
            first, second = self._exact(2)
            length = second & 0x7F
            if length == 126:
                length = struct.unpack("!H", self._exact(2))[0]
            elif length == 127:
                length = struct.unpack("!Q", self._exact(8))[0]
            payload = self._exact(length)
            opcode = first & 0x0F
            if opcode == 0x8:
                raise ConnectionError("DevTools closed the WebSocket")
            if opcode in (0x9, 0xA):  # ping/pong: not used by DevTools
                continue
            message += payload
            if first & 0x80:
                return message.decode()

    def close(self):
        self.sock.close()


class CdpPage:
    def __init__(self, path, fragment="", timeout=30):
        self.url, self.timeout = _url(path, fragment), timeout
        self.events, self._next_id = [], 0

    def __enter__(self):
        self._profile = tempfile.TemporaryDirectory()
        self.process = subprocess.Popen(
            [chromium(), *[f for f in FLAGS if not f.startswith(("--enable-logging", "--v="))],
             f"--user-data-dir={self._profile.name}", "--remote-debugging-port=0", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
        browser_url = None
        deadline = time.monotonic() + self.timeout
        while browser_url is None and time.monotonic() < deadline:
            line = self.process.stderr.readline().decode(errors="replace")
            assert line, "chromium exited before DevTools listened"
            match = re.search(r"DevTools listening on (ws://\S+)", line)
            if match:
                browser_url = match.group(1)
        assert browser_url, "no DevTools URL from chromium"
        self.ws = _WebSocket(browser_url, self.timeout)
        target = self._call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self._call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        self._call("Runtime.enable", {}, self.session)
        self._call("Log.enable", {}, self.session)
        self._call("Page.enable", {}, self.session)
        self._call("Page.navigate", {"url": self.url}, self.session)
        self.wait_for("document.readyState === 'complete'")
        return self

    def __exit__(self, *exc):
        try:
            self.ws.close()
        finally:
            # The whole group: chromium's helpers (zygote, renderer, crashpad) outlive a
            # kill of the browser process alone and go on writing into the profile, so a
            # removal right after could meet "Directory not empty".
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=30)
            self.process.stderr.close()
            for _ in range(50):
                try:
                    self._profile.cleanup()
                    break
                except OSError:
                    time.sleep(0.1)

    def _call(self, method, params, session=None):
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        self.ws.send(json.dumps(message))
        while True:
            answer = json.loads(self.ws.receive())
            if answer.get("id") == self._next_id:
                assert "error" not in answer, f"{method}: {answer['error']}"
                return answer["result"]
            self.events.append(answer)

    def evaluate(self, expression):
        """The value of a JavaScript expression in the page (JSON-serializable)."""
        result = self._call("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                 "awaitPromise": True}, self.session)
        assert "exceptionDetails" not in result, result["exceptionDetails"]
        return result["result"].get("value")

    def wait_for(self, expression):
        deadline = time.monotonic() + self.timeout
        while not self.evaluate(expression):
            assert time.monotonic() < deadline, f"timed out waiting for {expression}"
            time.sleep(0.02)

    def problems(self):
        """Every console message, uncaught exception and log entry the page caused."""
        self.evaluate("0")  # collect the events sent so far
        kinds = ("Runtime.consoleAPICalled", "Runtime.exceptionThrown", "Log.entryAdded")
        return [event for event in self.events if event.get("method") in kinds]
