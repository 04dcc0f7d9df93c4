"""Starting the real `griffin serve` for tests: a rules directory, a config
with API keys (stored as sha256), free loopback ports (the server binds port
0 and prints what it bound), its stderr collected line by line, SIGTERM to stop.

    with GriffinServer(tmp_path, {"steps": RULES}) as server:
        requests.get(server.url + "/healthz")
        server.wait_for_log("reloaded dataset steps")
"""
import hashlib
import os
import pathlib
import re
import signal
import subprocess
import threading
import time

REPO = pathlib.Path(__file__).resolve().parents[2]
GRIFFIN = os.environ.get("GRIFFIN_BIN", str(REPO / "build" / "griffin"))

TOKENS = {"trainer": "tok-trainer-3f9a1c", "reader": "tok-reader-77b2e0", "limited": "tok-limited-c41d88"}


def sha256(text):
    return hashlib.sha256(text.encode()).hexdigest()


def config_yaml(limits="", extra_keys="", datasets_for_reader=("steps",), tls=None, store=""):
    keys = (f"  - {{id: trainer, sha256: {sha256(TOKENS['trainer'])}}}\n"
            f"  - {{id: reader, sha256: {sha256(TOKENS['reader'])}, datasets: [{', '.join(datasets_for_reader)}]}}\n"
            f"  - {{id: limited, sha256: {sha256(TOKENS['limited'])}, rate: {{per_second: 5, burst: 5}}}}\n"
            + extra_keys)
    text = "keys:\n" + keys
    if limits:
        text += "limits:\n" + limits
    if tls:
        text += f"tls: {{cert: {tls[0]}, key: {tls[1]}}}\n"
    if store:
        text += "store:\n" + store
    return text


def auth(name="trainer"):
    return {"Authorization": "Bearer " + TOKENS[name]}


class GriffinServer:
    """`griffin serve` on free loopback ports; a context manager."""

    def __init__(self, workdir, rules, config=None, store=True, flight=True, args=(), env=None):
        self.workdir = pathlib.Path(workdir)
        self.rules_dir = self.workdir / "rules"
        self.rules_dir.mkdir(exist_ok=True)
        for name, text in rules.items():
            (self.rules_dir / f"{name}.yaml").write_text(text)
        self.config_path = self.workdir / "serve.yaml"
        self.config_path.write_text(config if config is not None else config_yaml(limits="  reload_interval_s: 0.05\n"))
        self.store_path = self.workdir / "runs.db"
        command = [GRIFFIN, "serve", "--rules-dir", str(self.rules_dir), "--config", str(self.config_path),
                   "--listen", "127.0.0.1:0"]
        if isinstance(store, str):
            command += ["--store", store]   # a URI (PostgreSQL)
        else:
            command += ["--store", str(self.store_path)] if store else ["--no-store"]
        if flight:
            command += ["--flight", "127.0.0.1:0"]
        self.command = command + list(args)
        self.env = env
        self.lines = []
        self._cond = threading.Condition()
        self.process = None
        self.url = self.flight_url = None

    def start(self, timeout=30):
        self.process = subprocess.Popen(self.command, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                        cwd=self.workdir, env=self.env)
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        ready = self.wait_for_log(r"ready \(|^griffin: ", timeout)
        if not ready.startswith("griffin serve: ready"):
            raise RuntimeError("griffin serve did not start: " + "\n".join(self.lines))
        http = self.find_log(r"listening on (https?://\S+)")
        self.url = re.search(r"listening on (https?://\S+)", http).group(1)
        grpc = self.find_log(r"flight on (\S+)")
        self.flight_url = re.search(r"flight on (\S+)", grpc).group(1) if grpc else None
        return self

    def _read(self):
        for raw in self.process.stderr:
            with self._cond:
                self.lines.append(raw.decode(errors="replace").rstrip("\n"))
                self._cond.notify_all()
        with self._cond:
            self._cond.notify_all()

    def find_log(self, pattern, start=0):
        with self._cond:
            for line in self.lines[start:]:
                if re.search(pattern, line):
                    return line
        return None

    def wait_for_log(self, pattern, timeout=10, start=0):
        """The first stderr line from index `start` on that matches `pattern`."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                for line in self.lines[start:]:
                    if re.search(pattern, line):
                        return line
                left = deadline - time.monotonic()
                if left <= 0 or (self.process.poll() is not None and not self._pending()):
                    raise AssertionError("no log line matching %r within %ss; log:\n%s"
                                         % (pattern, timeout, "\n".join(self.lines)))
                self._cond.wait(min(left, 0.1))

    def _pending(self):
        return self.process.stderr is not None and not self.process.stderr.closed

    def write_rules(self, name, text):
        """Replaces a rule file atomically (a complete file renamed into place)."""
        tmp = self.rules_dir / f".{name}.yaml.tmp"
        tmp.write_text(text)
        os.replace(tmp, self.rules_dir / f"{name}.yaml")

    def stop(self, timeout=30):
        """SIGTERM; the exit status. On return every line the server wrote to stderr is
        in `lines` (the reader has reached end of file), so find_log sees the last one."""
        if self.process is None:
            return None
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
                raise
        self._reader.join(timeout)
        return self.process.returncode

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
