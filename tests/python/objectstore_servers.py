"""Real object store servers for the tests, started and stopped by the tests.

moto's S3 server (PyPI moto[server], installed by scripts/setup_objectstore.sh
into a cache outside the clone) listens on 127.0.0.1 and a free port. The
fixture `s3_server` yields an S3Server whose `fs` is a pyarrow S3FileSystem on it
(for putting and reading objects) and whose `env` is what a griffin process
needs to reach it (credentials in the environment, as the AWS chain reads them).
"""
import contextlib
import os
import pathlib
import socket
import subprocess
import time
import urllib.request

import pyarrow.fs as pafs
import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
ACCESS_KEY = "testing-access-key"
SECRET_KEY = "testing-secret-key"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def moto_program():
    done = subprocess.run([str(REPO / "scripts" / "setup_objectstore.sh")], capture_output=True, text=True,
                          timeout=900)
    if done.returncode != 0:
        pytest.fail(f"scripts/setup_objectstore.sh failed: {done.stderr}")
    return done.stdout.strip().splitlines()[-1]


class S3Server:
    def __init__(self, port):
        self.port = port
        self.endpoint = f"http://127.0.0.1:{port}"
        self.env = dict(os.environ, AWS_ACCESS_KEY_ID=ACCESS_KEY, AWS_SECRET_ACCESS_KEY=SECRET_KEY,
                        AWS_REGION="us-east-1", AWS_EC2_METADATA_DISABLED="true",
                        AWS_ENDPOINT_URL=self.endpoint)
        for name in ("AWS_PROFILE", "AWS_SESSION_TOKEN", "AWS_ENDPOINT_URL_S3"):
            self.env.pop(name, None)
        self.fs = pafs.S3FileSystem(access_key=ACCESS_KEY, secret_key=SECRET_KEY, region="us-east-1",
                                    endpoint_override=f"127.0.0.1:{port}", scheme="http",
                                    allow_bucket_creation=True, allow_bucket_deletion=True)

    def bucket(self, name):
        """A fresh, empty bucket called `name`."""
        with contextlib.suppress(OSError):
            self.fs.delete_dir(name)
        self.fs.create_dir(name)
        return name

    def put(self, path, data):
        with self.fs.open_output_stream(path, compression=None) as out:
            out.write(data)

    def get(self, path):
        with self.fs.open_input_stream(path, compression=None) as f:
            return f.read()

    def exists(self, path):
        return self.fs.get_file_info(path).type == pafs.FileType.File


@contextlib.contextmanager
def running_moto():
    port = free_port()
    process = subprocess.Popen([moto_program(), "-H", "127.0.0.1", "-p", str(port)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/moto-api/", timeout=2).read()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"moto_server did not start on 127.0.0.1:{port}")
                time.sleep(0.2)
        yield S3Server(port)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="module")
def s3_server():
    with running_moto() as server:
        yield server
