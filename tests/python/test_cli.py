"""The griffin command as a user meets it: help, version, formats, exit codes,
and hostile inputs (truncated gzip, binary data, a 1 MB field) that must give a
clear result and never a crash."""
import gzip
import json
import os
import pathlib
import pty
import select
import subprocess
import xml.etree.ElementTree as ET

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
GRIFFIN = os.environ.get("GRIFFIN_BIN", str(REPO / "build" / "griffin"))
RULES = """griffin: 1
dataset: cli
columns:
  id:
    type: int64
    not_null: true
    unique: true
  name:
    type: string
    length: {max: 10}
"""


def run(*args, stdin=None, cwd=None):
    return subprocess.run([GRIFFIN, *args], input=stdin, capture_output=True, cwd=cwd, timeout=120)


@pytest.fixture
def rules(tmp_path):
    path = tmp_path / "rules.yaml"
    path.write_text(RULES)
    return path


def test_version_and_help():
    version = run("--version")
    assert version.returncode == 0
    assert version.stdout.decode().startswith("griffin 0.1.0")
    helptext = run("validate", "--help")
    assert helptext.returncode == 0
    out = helptext.stdout.decode()
    for needle in ("--rules", "--format", "--max-violations", "--threads", "Exit status", "Examples"):
        assert needle in out


def test_usage_errors_exit_2_with_one_line(rules, tmp_path):
    data = tmp_path / "d.csv"
    data.write_text("id,name\n1,a\n")
    for args in (["validate", str(data)],                      # no rules
                 ["validate", "-r", str(rules), str(data), "--format", "xml"],
                 ["validate", "-r", str(tmp_path / "missing.yaml"), str(data)]):
        proc = run(*args)
        assert proc.returncode == 2, args
        lines = proc.stderr.decode().strip().splitlines()
        assert len(lines) == 1, proc.stderr


def test_truncated_gzip_is_an_input_error(rules, tmp_path):
    body = "id,name\n" + "".join(f"{i},n{i}\n" for i in range(20000))
    packed = gzip.compress(body.encode())
    path = tmp_path / "cut.csv.gz"
    path.write_bytes(packed[: len(packed) // 2])
    proc = run("validate", "-r", str(rules), str(path), "--no-store")
    assert proc.returncode == 3
    line = proc.stderr.decode().strip()
    assert str(path) in line and "truncated" in line and "\n" not in line


def test_binary_file_as_csv_gives_malformed_rows_not_a_crash(rules, tmp_path):
    path = tmp_path / "random.csv"
    rng = __import__("random").Random(5)
    path.write_bytes(b"id,name\n" + bytes(rng.randrange(256) for _ in range(200_000)))
    proc = run("validate", "-r", str(rules), str(path), "--format", "json", "--no-store")
    assert proc.returncode in (0, 1), proc.stderr
    report = json.loads(proc.stdout)
    assert report["malformed_rows"] > 0
    assert report["rows"] >= report["malformed_rows"]
    assert all(v["check"] == "malformed" for v in report["violations"] if v["column"] is None)


def test_one_megabyte_field(rules, tmp_path):
    path = tmp_path / "big.csv"
    path.write_text("id,name\n1,\"" + "x" * (1 << 20) + "\"\n2,ok\n")
    proc = run("validate", "-r", str(rules), str(path), "--format", "json", "--no-store", "--batch-rows", "1")
    assert proc.returncode == 1, proc.stderr
    report = json.loads(proc.stdout)
    assert report["rows"] == 2
    length = next(c for c in report["checks"] if c["name"] == "name.length")
    assert length["violations"] == 1


def test_stdin_and_formats(rules):
    data = b"id,name\n1,a\n1,b\n"
    text = run("validate", "-r", str(rules), "-", "--no-store", stdin=data)
    assert text.returncode == 1
    assert "id.unique" in text.stdout.decode() and "FAILED" in text.stdout.decode()
    junit = run("validate", "-r", str(rules), "-", "--no-store", "--format", "junit", stdin=data)
    root = ET.fromstring(junit.stdout)
    cases = {c.get("name"): c for c in root.iter("testcase")}
    assert cases["id.unique"].find("failure") is not None
    assert cases["id.not_null"].find("failure") is None
    ok = run("validate", "-r", str(rules), "-", "--no-store", "--format", "json", stdin=b"id,name\n1,a\n2,b\n")
    assert ok.returncode == 0 and json.loads(ok.stdout)["passed"] is True


def test_empty_directory_is_an_input_error(rules, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    proc = run("validate", "-r", str(rules), str(empty), "--no-store")
    assert proc.returncode == 3
    assert str(empty) in proc.stderr.decode()


def test_progress_line_on_a_terminal(rules, tmp_path):
    """On a terminal (stderr is a tty) a progress line is drawn and then erased."""
    path = tmp_path / "many.csv"
    path.write_text("id,name\n" + "".join(f"{i},n\n" for i in range(300_000)))
    master, slave = pty.openpty()
    env = dict(os.environ, GRIFFIN_PROGRESS_DELAY="0")
    proc = subprocess.Popen([GRIFFIN, "validate", "-r", str(rules), str(path), "--no-store", "--batch-rows", "1000",
                             "--threads", "1"], stdout=subprocess.DEVNULL, stderr=slave, env=env)
    os.close(slave)
    seen = b""
    while True:
        ready, _, _ = select.select([master], [], [], 30)
        if not ready:
            break
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    proc.wait(timeout=60)
    os.close(master)
    assert proc.returncode == 0
    assert b" rows " in seen and b"MB/s" in seen
    assert seen.endswith(b"\r\x1b[K")  # erased before the report
