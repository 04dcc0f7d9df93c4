"""gs:// inputs and outputs against a real GCS emulator (fake-gcs-server): the
same verdicts, quarantine and clean as the local file, prefixes, outputs that
appear only when the run completes, lineage with the object's generation, and
wrong inputs as one line naming the URI, exit 3."""
import hashlib
import os
import signal
import sqlite3
import subprocess
import time

import pyarrow.fs as pafs
import pytest

from griffin_cli import require_binary
from objectstore_servers import gcs_server  # noqa: F401 (fixture)
from test_objectstore_inputs import RULES, file_bytes, griffin, one_line_error, validate
from test_objectstore_outputs import big_csv


@pytest.mark.parametrize("name", ["data.csv.gz", "data.jsonl", "data.parquet", "data.arrow"])
def test_an_object_gives_the_verdicts_and_outputs_of_the_same_local_file(gcs_server, tmp_path, name):
    bucket = gcs_server.bucket("gformats")
    data = file_bytes(name)
    local = tmp_path / name
    local.write_bytes(data)
    gcs_server.put(f"{bucket}/in/{name}", data)
    out = ".parquet" if name.endswith((".parquet", ".arrow")) else ".csv" if ".csv" in name else ".jsonl"
    want = validate([local], tmp_path, gcs_server.env, out)
    got = validate([f"gs://{bucket}/in/{name}"], tmp_path, gcs_server.env, out)
    assert got[0] == want[0] == 1
    assert got[1] == want[1]
    assert got[2] == want[2] and got[3] == want[3]


def test_a_prefix_and_outputs_in_gcs(gcs_server, tmp_path):
    bucket = gcs_server.bucket("gprefix")
    folder = tmp_path / "folder"
    folder.mkdir()
    for key in ("a.csv", "b.parquet"):
        (folder / key).write_bytes(file_bytes("data" + os.path.splitext(key)[1]))
        gcs_server.put(f"{bucket}/day/{key}", (folder / key).read_bytes())
    gcs_server.put(f"{bucket}/day/_SUCCESS", b"")
    want = validate([folder], tmp_path, gcs_server.env)
    assert validate([f"gs://{bucket}/day/"], tmp_path, gcs_server.env)[1] == want[1]

    rules = tmp_path / "rules.yaml"
    local = griffin(["validate", "-r", rules, folder / "a.csv", "--store", tmp_path / "local.db",
                     "--quarantine", tmp_path / "q.csv",
                     "--clean", tmp_path / "c.parquet"], gcs_server.env)
    remote = griffin(["validate", "-r", rules, f"gs://{bucket}/day/a.csv", "--store", tmp_path / "s.db",
                      "--quarantine", f"gs://{bucket}/out/q.csv", "--clean", f"gs://{bucket}/out/c.parquet"],
                     gcs_server.env)
    assert local.returncode == remote.returncode == 1, remote.stderr.decode()
    assert gcs_server.get(f"{bucket}/out/q.csv") == (tmp_path / "q.csv").read_bytes()
    assert gcs_server.get(f"{bucket}/out/c.parquet") == (tmp_path / "c.parquet").read_bytes()
    listed = [info.base_name for info in gcs_server.fs.get_file_info(
        pafs.FileSelector(f"{bucket}/out"))]
    assert sorted(listed) == ["c.parquet", "q.csv"]  # no temporary object left
    generation = gcs_server.fs.open_input_file(f"{bucket}/day/a.csv").metadata()["generation"].decode()
    db = sqlite3.connect(tmp_path / "s.db")
    assert db.execute("SELECT path, size_bytes, etag FROM run_inputs").fetchall() == [
        (f"gs://{bucket}/day/a.csv", len(file_bytes("data.csv")), generation)]
    clean = gcs_server.get(f"{bucket}/out/c.parquet")
    clean_generation = gcs_server.fs.open_input_file(f"{bucket}/out/c.parquet").metadata()["generation"].decode()
    assert db.execute("SELECT path, size_bytes, sha256, etag FROM run_outputs WHERE kind = 'clean'").fetchall() == [
        (f"gs://{bucket}/out/c.parquet", len(clean), hashlib.sha256(clean).hexdigest(), clean_generation)]


def test_failed_and_killed_runs_leave_no_final_object(gcs_server, tmp_path):
    bucket = gcs_server.bucket("gfailed")
    rules = tmp_path / "rules.yaml"
    rules.write_text(RULES)
    gcs_server.put(f"{bucket}/in/a.csv", big_csv(300_000))
    gcs_server.put(f"{bucket}/in/b.csv.gz", b"\x1f\x8b\x08\x00" + os.urandom(2000))
    failed = griffin(["validate", "-r", rules, f"gs://{bucket}/in/a.csv", f"gs://{bucket}/in/b.csv.gz",
                      "--no-store", "--clean", f"gs://{bucket}/out/clean.csv"], gcs_server.env)
    assert failed.returncode == 3, failed.stderr.decode()
    assert not gcs_server.exists(f"{bucket}/out/clean.csv")
    out = pafs.FileSelector(f"{bucket}/out", allow_not_found=True)
    assert gcs_server.fs.get_file_info(out) == []  # the temporary object was deleted too

    gcs_server.put(f"{bucket}/in/big.csv", big_csv(2_000_000))
    process = subprocess.Popen([str(require_binary()), "validate", "-r", str(rules), f"gs://{bucket}/in/big.csv",
                                "--no-store", "--threads", "1", "--clean", f"gs://{bucket}/out/killed.csv"],
                               env=gcs_server.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while not [i for i in gcs_server.fs.get_file_info(out) if ".griffin-tmp-" in i.base_name]:
            assert process.poll() is None, "the run ended before its temporary object was seen"
            assert time.monotonic() < deadline
            time.sleep(0.02)
        process.send_signal(signal.SIGKILL)
    finally:
        process.wait(timeout=30)
    assert not gcs_server.exists(f"{bucket}/out/killed.csv")


def test_wrong_inputs_give_one_line_naming_the_uri_and_exit_3(gcs_server, tmp_path):
    bucket = gcs_server.bucket("gwrong")
    rules = tmp_path / "rules.yaml"
    rules.write_text(RULES)
    gcs_server.put(f"{bucket}/notes.txt", b"x")
    cut = gcs_server.bucket("gcut")  # uploads cut short
    parquet = file_bytes("data.parquet")
    gcs_server.put(f"{cut}/x.parquet", parquet[: len(parquet) // 2])
    gz = file_bytes("data.csv.gz")
    gcs_server.put(f"{cut}/x.csv.gz", gz[: len(gz) // 2])
    for uri, words in {"gs://no-such-gcs-bucket/x.csv": "no such bucket",
                       f"gs://{bucket}/missing.csv": "no such object",
                       f"gs://{bucket}/": "prefix holds no supported input files",
                       f"gs://{cut}/x.parquet": "",
                       f"gs://{cut}/x.csv.gz": "truncated gzip stream"}.items():
        err = one_line_error(griffin(["validate", "-r", rules, uri, "--no-store"], gcs_server.env), uri)
        assert words in err, err


def test_an_emulator_that_is_down_fails_within_seconds(gcs_server, tmp_path):
    from objectstore_servers import free_port
    rules = tmp_path / "rules.yaml"
    rules.write_text(RULES)
    env = dict(gcs_server.env, STORAGE_EMULATOR_HOST=f"http://127.0.0.1:{free_port()}")
    started = time.monotonic()
    one_line_error(griffin(["validate", "-r", rules, "gs://bucket/x.csv", "--no-store"], env, timeout=60),
                   "gs://bucket/x.csv")
    assert time.monotonic() - started < 30


def test_unusable_credentials_give_one_line_and_exit_3(gcs_server, tmp_path):
    # No emulator: Application Default Credentials from a file that is not a
    # usable key. The client refuses before sending anything (no network needed).
    rules = tmp_path / "rules.yaml"
    rules.write_text(RULES)
    key = tmp_path / "key.json"
    key.write_text('{"type": "service_account", "project_id": "p"}')
    env = {k: v for k, v in gcs_server.env.items() if k != "STORAGE_EMULATOR_HOST"}
    for path in (key, tmp_path / "missing.json"):
        started = time.monotonic()
        done = griffin(["validate", "-r", rules, "gs://bucket/x.csv", "--no-store"],
                       dict(env, GOOGLE_APPLICATION_CREDENTIALS=str(path)), timeout=60)
        err = one_line_error(done, "gs://bucket/x.csv")
        assert str(path) in err and "error_info" not in err, err
        assert time.monotonic() - started < 30
