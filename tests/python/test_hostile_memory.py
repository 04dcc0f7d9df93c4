"""Huge values and long `in:` lists must not blow up a report or memory
(issue 12): a violation's value and message are cut to 1 KiB with an ellipsis
and the full size, a long list is described by its size, and peak RSS stays
bounded. Each test replays an attack through `griffin validate` and bounds the
child's peak RSS (ru_maxrss from wait4, so no other process counts).

Before the fix (the issue's figures): a 1 GB field gave a 2 GB JSON report at
5.9 GB peak; 50 fields of 10 MB reached 2.7 GB; a 100,000-value list over
1,000 rows gave a 1 GB report at 5 GB peak."""
import json
import os
import pathlib
import subprocess
import time

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
GRIFFIN = os.environ.get("GRIFFIN_BIN", str(REPO / "build" / "griffin"))
MIB = 1 << 20
ELLIPSIS = "\u2026"


def run_measured(args, workdir):
    """(exit status, stdout bytes, stderr text, peak RSS in bytes) of one griffin run."""
    out_path, err_path = workdir / "stdout", workdir / "stderr"
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        proc = subprocess.Popen([GRIFFIN, *map(str, args)], stdout=out, stderr=err, cwd=workdir)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait again
    return proc.returncode, out_path.read_bytes(), err_path.read_text(errors="replace"), usage.ru_maxrss * 1024


def baseline_peak(workdir):
    """Peak RSS of a tiny run: the process's fixed cost (libraries, Arrow)."""
    (workdir / "tiny.csv").write_text("id,name\n1,a\n")
    (workdir / "tiny.yaml").write_text("griffin: 1\ndataset: tiny\ncolumns:\n  name: {type: string}\n")
    status, _, err, peak = run_measured(["validate", "-r", "tiny.yaml", "tiny.csv", "--no-store"], workdir)
    assert status == 0, err
    return peak


LONG_RULES = """griffin: 1
dataset: huge
columns:
  id: {type: int64}
  name:
    type: string
    length: {max: 10}
    regex: '^[a-z]{1,10}$'
"""


def test_a_100_mib_field_is_cut_and_memory_is_bounded(tmp_path):
    (tmp_path / "rules.yaml").write_text(LONG_RULES)
    field = 100 * MIB
    with open(tmp_path / "big.csv", "w") as data:
        data.write("id,name\n1,")
        for _ in range(100):
            data.write("x" * MIB)
        data.write("\n2,ok\n")
    base = baseline_peak(tmp_path)
    status, out, err, peak = run_measured(
        ["validate", "-r", "rules.yaml", "big.csv", "--format", "json", "--no-store", "--threads", "2"], tmp_path)
    assert status == 1, err
    assert len(out) < 16 * 1024, len(out)   # was 2x the field
    report = json.loads(out)
    shown = "x" * 1024 + f"{ELLIPSIS}({field} bytes)"
    quoted = "'" + "x" * 256 + f"{ELLIPSIS}({field} bytes)'"
    assert [(v["check"], v["value"], v["message"]) for v in report["violations"]] == [
        ("name.length", shown, f"name {quoted} has length {field}, outside [0, 10]"),
        ("name.regex", shown, f"name {quoted} does not match /^[a-z]{{1,10}}$/"),
    ]
    # The record itself must be read (100 MiB); the report adds nothing near it.
    assert peak - base < 3.5 * field, (peak, base)
    text_status, text_out, text_err, text_peak = run_measured(
        ["validate", "-r", "rules.yaml", "big.csv", "--no-store", "--threads", "2"], tmp_path)
    assert text_status == 1, text_err
    assert len(text_out) < 16 * 1024
    assert text_peak - base < 3.5 * field, (text_peak, base)


def test_fifty_large_fields_are_cut_and_memory_is_bounded(tmp_path):
    # The 50 fields of 10 MB, at 2 MiB each to keep the suite fast.
    (tmp_path / "rules.yaml").write_text(LONG_RULES)
    field, rows = 2 * MIB, 50
    with open(tmp_path / "wide.csv", "w") as data:
        data.write("id,name\n")
        for row in range(rows):
            data.write(f"{row},{chr(ord('a') + row % 26) * field}\n")
    base = baseline_peak(tmp_path)
    for fmt in ("text", "json"):
        status, out, err, peak = run_measured(
            ["validate", "-r", "rules.yaml", "wide.csv", "--format", fmt, "--no-store"], tmp_path)
        assert status == 1, err
        assert len(out) < rows * 2 * 1500 + 16 * 1024, (fmt, len(out))
        assert peak - base < 3 * rows * field, (fmt, peak, base)
        if fmt == "json":
            report = json.loads(out)
            assert len(report["violations"]) == 2 * rows
            assert all(v["value"].endswith(f"{ELLIPSIS}({field} bytes)") for v in report["violations"])
            assert all(len(v["message"].encode()) <= 1024 for v in report["violations"])


def test_a_100000_value_in_list_is_described_by_its_size(tmp_path):
    values = [f"code{i:06d}" for i in range(100_000)]
    (tmp_path / "rules.yaml").write_text(
        "griffin: 1\ndataset: codes\ncolumns:\n  code:\n    type: string\n    in: [" + ", ".join(values) + "]\n")
    (tmp_path / "codes.csv").write_text("code\n" + "".join(f"bad{row}\n" for row in range(1000)))
    base = baseline_peak(tmp_path)
    for fmt in ("text", "json"):
        status, out, err, peak = run_measured(
            ["validate", "-r", "rules.yaml", "codes.csv", "--format", fmt, "--no-store", "--max-violations", "1000"],
            tmp_path)
        assert status == 1, err
        assert len(out) < 1000 * 200 + 16 * 1024, (fmt, len(out))   # was 1 GB
        assert peak - base < 64 * MIB, (fmt, peak, base)              # was 5 GB
        if fmt == "json":
            report = json.loads(out)
            assert len(report["violations"]) == 1000
            assert report["violations"][7]["message"] == "code 'bad7' is not in the 100,000 allowed values"
        else:
            assert b"is not in the 100,000 allowed values" in out


def rss_bytes(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


def test_the_server_returns_to_its_idle_rss_after_long_list_requests(tmp_path):
    """The issue's server attack: the idle RSS grew by about 1 GB per request of
    1,000 rows against a 100,000-value list, to 6.6 GB."""
    import requests
    from server_harness import GriffinServer, auth

    values = ", ".join(f"code{i:06d}" for i in range(100_000))
    rules = "griffin: 1\ndataset: codes\ncolumns:\n  code:\n    type: string\n    in: [" + values + "]\n"
    body = "code\n" + "".join(f"bad{row}\n" for row in range(1000))
    with GriffinServer(tmp_path, {"codes": rules}, flight=False) as server:
        url = server.url + "/v1/datasets/codes/validate"
        headers = {**auth(), "Content-Type": "text/csv"}

        def one_request():
            answer = requests.post(url, data=body, headers=headers, timeout=60)
            assert answer.status_code == 200, answer.text
            report = answer.json()
            assert report["bad_rows"] == 1000
            assert report["violations"][0]["message"] == "code 'bad0' is not in the 100,000 allowed values"
            assert len(answer.content) < 1000 * 300
            return report

        one_request()  # warm: the first request allocates the pools every later one reuses
        base = rss_bytes(server.process.pid)
        for _ in range(10):
            one_request()
        time.sleep(0.5)  # the recorder writes in the background
        grown = rss_bytes(server.process.pid) - base
        assert grown < 64 * MIB, (grown, base)
