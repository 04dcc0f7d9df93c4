"""s3:// as --quarantine and --clean outputs against a real S3 server (moto):
the objects hold the bytes a local run writes, they appear only when the run
completes (multipart upload completed at the end, aborted on failure, never
completed when the process is killed), and the run store records the input
object's URI, ETag and size and the output object's URI, size and hash."""
import hashlib
import os
import re
import signal
import sqlite3
import subprocess
import time
import urllib.request

import pytest

from griffin_cli import require_binary
from objectstore_servers import s3_server  # noqa: F401 (fixture)
from test_objectstore_inputs import RULES, file_bytes

OUTPUTS = [".csv", ".tsv", ".jsonl", ".parquet", ".arrow"]


def griffin(args, env, timeout=180):
    return subprocess.run([str(require_binary()), *map(str, args)], capture_output=True, env=env, timeout=timeout)


def in_progress_uploads(server, bucket):
    """The keys of the bucket's multipart uploads that were neither completed nor aborted."""
    xml = urllib.request.urlopen(f"{server.endpoint}/{bucket}?uploads", timeout=10).read().decode()
    return re.findall(r"<Upload>.*?<Key>(.*?)</Key>", xml, flags=re.S)


@pytest.mark.parametrize("suffix", OUTPUTS)
def test_outputs_in_s3_hold_the_bytes_of_local_outputs(s3_server, tmp_path, suffix):
    bucket = s3_server.bucket("outputs")
    rules = tmp_path / "rules.yaml"
    rules.write_text(RULES)
    source = "data.parquet" if suffix in (".parquet", ".arrow") else "data.tsv" if suffix == ".tsv" else "data.csv"
    local_in = tmp_path / source
    local_in.write_bytes(file_bytes(source))
    s3_server.put(f"{bucket}/in/{source}", local_in.read_bytes())
    local = griffin(["validate", "-r", rules, local_in, "--no-store", "--format", "json",
                     "--quarantine", tmp_path / f"q{suffix}", "--clean", tmp_path / f"c{suffix}"], s3_server.env)
    remote = griffin(["validate", "-r", rules, f"s3://{bucket}/in/{source}", "--no-store", "--format", "json",
                      "--quarantine", f"s3://{bucket}/out/q{suffix}", "--clean", f"s3://{bucket}/out/c{suffix}"],
                     s3_server.env)
    assert local.returncode == remote.returncode == 1, remote.stderr.decode()
    assert s3_server.get(f"{bucket}/out/q{suffix}") == (tmp_path / f"q{suffix}").read_bytes()
    assert s3_server.get(f"{bucket}/out/c{suffix}") == (tmp_path / f"c{suffix}").read_bytes()
    assert in_progress_uploads(s3_server, bucket) == []


def test_the_store_records_object_lineage(s3_server, tmp_path):
    bucket = s3_server.bucket("lineage")
    rules = tmp_path / "rules.yaml"
    rules.write_text(RULES)
    data = file_bytes("data.csv")
    s3_server.put(f"{bucket}/in/day.csv", data)
    etag = s3_server.fs.open_input_file(f"{bucket}/in/day.csv").metadata()["ETag"].decode().strip("\"")
    done = griffin(["validate", "-r", rules, f"s3://{bucket}/in/day.csv", "--store", tmp_path / "s.db",
                    "--clean", f"s3://{bucket}/out/clean.csv"], s3_server.env)
    assert done.returncode == 1, done.stderr.decode()
    db = sqlite3.connect(tmp_path / "s.db")
    assert db.execute("SELECT path, size_bytes, etag FROM run_inputs").fetchall() == [
        (f"s3://{bucket}/in/day.csv", len(data), etag)]
    clean = s3_server.get(f"{bucket}/out/clean.csv")
    clean_etag = s3_server.fs.open_input_file(f"{bucket}/out/clean.csv").metadata()["ETag"].decode().strip("\"")
    assert db.execute("SELECT path, kind, size_bytes, sha256, etag FROM run_outputs").fetchall() == [
        (f"s3://{bucket}/out/clean.csv", "clean", len(clean), hashlib.sha256(clean).hexdigest(), clean_etag)]


def big_csv(rows):
    return ("id,amount,city\n" + "".join(f"{i},{i % 50}.5,Pune\n" for i in range(rows))).encode()


def test_a_run_that_fails_mid_write_leaves_no_object(s3_server, tmp_path):
    # The first input sends ~20 MB of clean rows (several parts uploaded), then
    # the second input is corrupt: the run fails and the upload is aborted.
    bucket = s3_server.bucket("failed")
    rules = tmp_path / "rules.yaml"
    rules.write_text(RULES)
    s3_server.put(f"{bucket}/in/a.csv", big_csv(1_000_000))
    s3_server.put(f"{bucket}/in/b.csv.gz", b"\x1f\x8b\x08\x00" + os.urandom(2000))
    done = griffin(["validate", "-r", rules, f"s3://{bucket}/in/a.csv", f"s3://{bucket}/in/b.csv.gz", "--no-store",
                    "--clean", f"s3://{bucket}/out/clean.csv", "--quarantine", f"s3://{bucket}/out/bad.csv"],
                   s3_server.env)
    assert done.returncode == 3, done.stderr.decode()
    assert f"s3://{bucket}/in/b.csv.gz" in done.stderr.decode()
    assert not s3_server.exists(f"{bucket}/out/clean.csv")
    assert not s3_server.exists(f"{bucket}/out/bad.csv")
    assert in_progress_uploads(s3_server, bucket) == []


def test_a_killed_run_leaves_no_object(s3_server, tmp_path):
    bucket = s3_server.bucket("killed")
    rules = tmp_path / "rules.yaml"
    rules.write_text(RULES)
    s3_server.put(f"{bucket}/in/a.csv", big_csv(3_000_000))
    process = subprocess.Popen([str(require_binary()), "validate", "-r", str(rules), f"s3://{bucket}/in/a.csv",
                                "--no-store", "--threads", "1", "--clean", f"s3://{bucket}/out/clean.csv"],
                               env=s3_server.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while "out/clean.csv" not in in_progress_uploads(s3_server, bucket):
            assert process.poll() is None, "the run ended before its upload was seen in progress"
            assert time.monotonic() < deadline
            time.sleep(0.02)
        process.send_signal(signal.SIGKILL)
    finally:
        process.wait(timeout=30)
    assert process.returncode == -signal.SIGKILL
    assert not s3_server.exists(f"{bucket}/out/clean.csv")


def test_wrong_outputs(s3_server, tmp_path):
    bucket = s3_server.bucket("wrongout")
    rules = tmp_path / "rules.yaml"
    rules.write_text(RULES)
    s3_server.put(f"{bucket}/in/a.csv", file_bytes("data.csv"))
    source = f"s3://{bucket}/in/a.csv"
    missing = griffin(["validate", "-r", rules, source, "--no-store", "--clean", "s3://no-bucket-out/c.csv"],
                      s3_server.env)
    err = missing.stderr.decode()
    assert missing.returncode == 3 and err.count("\n") == 1 and "s3://no-bucket-out/c.csv" in err, err
    prefix = griffin(["validate", "-r", rules, source, "--no-store", "--clean", f"s3://{bucket}/out/"], s3_server.env)
    assert prefix.returncode == 2, prefix.stderr.decode()
    same = griffin(["validate", "-r", rules, source, "--no-store", "--quarantine", source + "?region=us-east-1"],
                   s3_server.env)
    assert same.returncode == 2 and "is the input" in same.stderr.decode(), same.stderr.decode()
    assert s3_server.get(f"{bucket}/in/a.csv") == file_bytes("data.csv")
