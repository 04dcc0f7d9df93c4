"""Real object store servers for the tests, started and stopped by the tests.

moto's S3 server (PyPI moto[server]) and fake-gcs-server (a Go module), installed
by scripts/setup_objectstore.sh into a cache outside the clone, listen on
127.0.0.1 and a free port. `gcs_server` is like `s3_server` below. The
fixture `s3_server` yields an S3Server whose `fs` is a pyarrow S3FileSystem on it
(for putting and reading objects) and whose `env` is what a griffin process
needs to reach it (credentials in the environment, as the AWS chain reads them).
`running_imds` serves instance profile credentials from AWS's metadata emulator.
"""
import contextlib
import datetime
import json
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


def server_program(name):
    """The path of `name` (moto_server, fake-gcs-server) as scripts/setup_objectstore.sh installed it."""
    done = subprocess.run([str(REPO / "scripts" / "setup_objectstore.sh")], capture_output=True, text=True,
                          timeout=1800)
    if done.returncode != 0:
        pytest.fail(f"scripts/setup_objectstore.sh failed: {done.stderr}")
    programs = dict(line.split(" ", 1) for line in done.stdout.strip().splitlines())
    return programs[name]


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

    def fs_with_keys(self, access_key, secret_key, session_token=None):
        """A pyarrow S3FileSystem on this server signing with other keys (an IAM user's, a role's)."""
        return pafs.S3FileSystem(access_key=access_key, secret_key=secret_key, session_token=session_token,
                                 region="us-east-1", endpoint_override=f"127.0.0.1:{self.port}", scheme="http",
                                 allow_bucket_creation=True)

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


class GcsServer(S3Server):
    """fake-gcs-server: anonymous access over http, as an emulator is reached."""

    def __init__(self, port):  # noqa: super().__init__ is S3's
        self.port = port
        self.endpoint = f"http://127.0.0.1:{port}"
        self.env = dict(os.environ, STORAGE_EMULATOR_HOST=self.endpoint)
        self.fs = pafs.GcsFileSystem(anonymous=True, scheme="http", endpoint_override=f"127.0.0.1:{port}",
                                     retry_time_limit=datetime.timedelta(seconds=5), project_id="griffin-tests")


@contextlib.contextmanager
def running_server(argv, port, ready_path, make, log=None):
    """Starts argv, waits until http://127.0.0.1:port/ready_path answers, yields make(port), stops it.
    The server's output goes to the file `log` when given."""
    sink = open(log, "wb") if log else subprocess.DEVNULL
    process = subprocess.Popen(argv, stdout=sink, stderr=subprocess.STDOUT if log else subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/{ready_path}", timeout=2).read()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"{argv[0]} did not start on 127.0.0.1:{port}")
                time.sleep(0.2)
        yield make(port)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if log:
            sink.close()


def running_moto():
    port = free_port()
    return running_server([server_program("moto_server"), "-H", "127.0.0.1", "-p", str(port)], port,
                          "moto-api/", S3Server)


def running_fake_gcs():
    port = free_port()
    return running_server([server_program("fake-gcs-server"), "-scheme", "http", "-host", "127.0.0.1",
                           "-port", str(port), "-backend", "memory", "-public-host", f"127.0.0.1:{port}",
                           "-log-level", "error"], port, "storage/v1/b", GcsServer)


class ImdsServer:
    """AWS's instance metadata emulator (amazon-ec2-metadata-mock): `endpoint` is what
    AWS_EC2_METADATA_SERVICE_ENDPOINT names, `log` its request log."""

    def __init__(self, port, log):
        self.port = port
        self.endpoint = f"http://127.0.0.1:{port}"
        self.log = log


def running_imds(tmp_path, role, access_key, secret_key, token):
    """The metadata emulator serving (access_key, secret_key, token) as the
    instance profile role `role`'s credentials, valid for a day."""
    expiration = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=1))
    values = {"iam-security-credentials-role": role, "iam-security-credentials": {
        "Code": "Success", "LastUpdated": expiration.strftime("%Y-%m-%dT%H:%M:%SZ"), "Type": "AWS-HMAC",
        "AccessKeyId": access_key, "SecretAccessKey": secret_key, "Token": token,
        "Expiration": expiration.strftime("%Y-%m-%dT%H:%M:%SZ")}}
    config = tmp_path / f"imds-{role}.json"
    config.write_text(json.dumps({"metadata": {"values": values}}))
    port = free_port()
    log = tmp_path / f"imds-{role}.log"
    return running_server([server_program("ec2-metadata-mock"), "-n", "127.0.0.1", "-p", str(port), "-c",
                           str(config)], port, "latest/meta-data/", lambda p: ImdsServer(p, log), log=log)


@pytest.fixture(scope="module")
def s3_server():
    with running_moto() as server:
        yield server


@pytest.fixture(scope="module")
def gcs_server():
    with running_fake_gcs() as server:
        yield server
