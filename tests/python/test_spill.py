"""--memory-limit (issue 16): past the limit, exact `unique` and `distinct_count`
states spill hash partitions of their keys to unnamed files under --tmp-dir, and
the report is the in-memory one (byte for byte, but for the additive "spill"
field), across threads and batch sizes; nothing is left in the directory, also
when the run is killed."""
import json
import os
import pathlib
import signal
import subprocess
import sys
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from griffin_cli import REPO_ROOT, require_binary

VOLATILE = ("run_id", "elapsed_s", "spill", "threads")

# The benchmark suite plus what spills: a composite unique, a numeric unique
# and exact distinct counts of a string, a float and a timestamp column.
SPILL_RULES = (REPO_ROOT / "bench" / "suite.rules.yaml").read_text() + """
  - distinct_count: {column: account_id, min: 1}
  - distinct_count: {column: amount, min: 1}
  - distinct_count: {column: created_at, min: 1}
"""


def spill_rules(tmp_path):
    text = SPILL_RULES.replace("rows:\n", "rows:\n  - name: account_time_unique\n    unique: [account_id, created_at]\n", 1)
    text = text.replace("  label:\n    type: int64\n", "  label:\n    type: int64\n    unique: {value: true, severity: warn}\n", 1)
    path = tmp_path / "spill.rules.yaml"
    path.write_text(text)
    return path


@pytest.fixture(scope="module")
def transactions(tmp_path_factory):
    path = tmp_path_factory.mktemp("spill") / "transactions.csv"
    subprocess.run([sys.executable, str(REPO_ROOT / "examples" / "generate_transactions.py"), "--rows", "60000",
                    "--seed", "16", "--out", str(path)], check=True, stdout=subprocess.DEVNULL)
    return path


def validate(rules, inputs, *extra, expect_spill=None):
    command = [str(require_binary()), "validate", "-r", str(rules), *map(str, inputs), "--format", "json",
               "--no-store", *extra]
    done = subprocess.run(command, capture_output=True, timeout=300)
    assert done.returncode in (0, 1), f"{command}: {done.returncode} {done.stderr.decode(errors='replace')}"
    report = json.loads(done.stdout)
    if expect_spill is not None:
        assert ("spill" in report) == expect_spill, report.get("spill")
    return json.dumps({k: v for k, v in report.items() if k not in VOLATILE}), report


def test_bench_data_spilled_report_is_the_in_memory_one(transactions, tmp_path):
    rules = spill_rules(tmp_path)
    baseline, report = validate(rules, [transactions], "--threads", "2", expect_spill=False)
    assert report["violations"], "the data should have violations to list"
    unique_checks = {"txn_id.unique", "label.unique", "account_time_unique"}
    assert unique_checks <= {c["name"] for c in report["checks"]}
    spill_dir = tmp_path / "spill"
    spill_dir.mkdir()
    for threads in ("1", "2"):
        for batch_rows in ("1000", "65536"):
            for max_violations in ("0", "7", "100"):
                if max_violations == "0" and threads == "2":
                    continue
                expected = baseline if max_violations == "100" else validate(
                    rules, [transactions], "--threads", "1", "--max-violations", max_violations)[0]
                got, spilled = validate(rules, [transactions], "--threads", threads, "--batch-rows", batch_rows,
                                        "--max-violations", max_violations, "--memory-limit", "1",
                                        "--tmp-dir", str(spill_dir), expect_spill=True)
                assert got == expected, (threads, batch_rows, max_violations)
                assert spilled["spill"]["bytes"] > 0
                assert unique_checks <= set(spilled["spill"]["checks"])
                assert list(spill_dir.iterdir()) == []
    # A limit that some states pass mid-run; and one above them all.
    assert validate(rules, [transactions], "--memory-limit", "600K", "--batch-rows", "4096")[0] == baseline
    assert validate(rules, [transactions], "--memory-limit", "512MB", expect_spill=False)[0] == baseline
    # With --clean, row verdicts leave batch by batch: the run reads its input twice
    # (the first pass spills every state and logs the repeats), with the same report.
    clean = tmp_path / "clean.csv"
    got, spilled = validate(rules, [transactions], "--threads", "2", "--memory-limit", "1", "--clean", str(clean),
                            expect_spill=True)
    assert got == baseline
    assert unique_checks <= set(spilled["spill"]["checks"]) and spilled["spill"]["passes"] == 2


def run_outputs(rules, inputs, tmp_path, name, suffix, *extra, stdin=None):
    """`griffin validate` with --clean and --quarantine of `suffix` under tmp_path/name:
    (report, stderr, {output: bytes})."""
    out = tmp_path / name
    out.mkdir()
    outputs = {"clean": out / f"clean{suffix}", "quarantine": out / f"bad{suffix}"}
    command = [str(require_binary()), "validate", "-r", str(rules), *map(str, inputs), "--format", "json",
               "--no-store", "--clean", str(outputs["clean"]), "--quarantine", str(outputs["quarantine"]), *extra]
    done = subprocess.run(command, capture_output=True, timeout=300, stdin=stdin)
    assert done.returncode in (0, 1), f"{command}: {done.returncode} {done.stderr.decode(errors='replace')}"
    report = json.loads(done.stdout)
    written = {kind: path.read_bytes() for kind, path in outputs.items()}
    return report, done.stderr.decode(), written


def strip_volatile(report):
    return {k: v for k, v in report.items() if k not in VOLATILE}


@pytest.mark.parametrize("suffix", [".csv", ".parquet", ".jsonl"])
def test_outputs_past_the_limit_are_written_in_two_passes_byte_for_byte(transactions, tmp_path, suffix):
    rules = spill_rules(tmp_path)
    spill_dir = tmp_path / "spill"
    spill_dir.mkdir()
    base_report, base_err, base_out = run_outputs(rules, [transactions], tmp_path, "base", suffix,
                                                  "--memory-limit", "0")
    assert "spill" not in base_report and base_err == ""
    assert base_report["bad_rows"] > 0 and any(c["name"] == "txn_id.unique" and c["violations"] > 0
                                               for c in base_report["checks"])
    for threads, batch_rows, limit in (("1", "1000", "1"), ("2", "65536", "1"), ("2", "4096", "600K")):
        name = f"t{threads}b{batch_rows}l{limit}"
        report, err, written = run_outputs(rules, [transactions], tmp_path, name, suffix, "--threads", threads,
                                           "--batch-rows", batch_rows, "--memory-limit", limit,
                                           "--tmp-dir", str(spill_dir))
        assert strip_volatile(report) == strip_volatile(base_report), name
        assert report["spill"]["passes"] == 2 and "txn_id.unique" in report["spill"]["checks"], report["spill"]
        lines = err.strip().splitlines()
        assert len(lines) == 1 and "reading the inputs twice" in lines[0], err
        for kind in written:
            assert written[kind] == base_out[kind], (name, kind)
        assert list(spill_dir.iterdir()) == []


def test_a_schema_error_found_at_the_end_is_known_from_the_first_row_of_the_second_pass(transactions, tmp_path):
    # JSON lines where `country` (a checked column) appears in no line: the one-pass run
    # learns it at the end and rewrites its outputs; the two-pass run knows it from the
    # first pass. Every row is bad either way, and the outputs are the same bytes.
    import csv
    narrow = tmp_path / "narrow.jsonl"
    with open(transactions, newline="") as source, open(narrow, "w") as out:
        for i, row in enumerate(csv.DictReader(source)):
            if i == 20000:
                break
            row.pop("country")
            out.write(json.dumps(row) + "\n")
    rules = spill_rules(tmp_path)
    base_report, _, base_out = run_outputs(rules, [narrow], tmp_path, "base", ".jsonl", "--memory-limit", "0",
                                           "--batch-rows", "4096")
    assert base_report["schema_errors"] and base_report["bad_rows"] == base_report["rows"] == 20000
    report, err, written = run_outputs(rules, [narrow], tmp_path, "two", ".jsonl", "--memory-limit", "1",
                                       "--batch-rows", "4096")
    assert "reading the inputs twice" in err
    assert strip_volatile(report) == strip_volatile(base_report)
    assert written == base_out
    assert written["clean"] == b""


def test_a_unique_state_past_the_limit_on_standard_input_is_a_warning(transactions, tmp_path):
    """Standard input cannot be read twice: the state is held past the limit, with one line."""
    rules = spill_rules(tmp_path)
    with open(transactions, "rb") as data:
        quiet, quiet_err, quiet_out = run_outputs(rules, ["-"], tmp_path, "quiet", ".csv", stdin=data)
    with open(transactions, "rb") as data:
        loud, loud_err, loud_out = run_outputs(rules, ["-"], tmp_path, "loud", ".csv", "--memory-limit", "600K",
                                               stdin=data)
    assert "warning" not in quiet_err, quiet_err
    lines = loud_err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("griffin: warning: unique state grew to "), loud_err
    assert ("past --memory-limit 600 KB: it cannot spill in a run that writes --clean or --quarantine from "
            "standard input") in lines[0]
    # The run itself is the same run: the warning changes nothing else.
    assert strip_volatile(loud) == strip_volatile(quiet) and loud_out == quiet_out


def test_text_report_says_it_spilled(transactions, tmp_path):
    done = subprocess.run([str(require_binary()), "validate", "-r", str(spill_rules(tmp_path)), str(transactions),
                           "--no-store", "--memory-limit", "1"], capture_output=True, text=True, timeout=300)
    assert done.returncode in (0, 1), done.stderr
    assert "spilled " in done.stdout and "txn_id.unique" in done.stdout


def test_bad_memory_limit_and_tmp_dir_are_usage_errors(transactions, tmp_path):
    rules = spill_rules(tmp_path)
    for extra, word in ((["--memory-limit", "lots"], "--memory-limit"),
                        (["--tmp-dir", str(tmp_path / "missing")], "--tmp-dir")):
        done = subprocess.run([str(require_binary()), "validate", "-r", str(rules), str(transactions), "--no-store",
                               *extra], capture_output=True, text=True, timeout=60)
        assert done.returncode == 2, done.stderr
        assert word in done.stderr and len(done.stderr.strip().splitlines()) == 1


def _spill_files_open(pid, directory):
    """The process's open files under `directory` (unnamed or unlinked: '(deleted)')."""
    found = []
    try:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            try:
                target = os.readlink(f"/proc/{pid}/fd/{fd}")
            except OSError:
                continue
            if target.startswith(str(directory) + "/"):
                found.append(target)
    except FileNotFoundError:
        pass
    return found


def test_killed_run_leaves_no_spill_file(tmp_path):
    data = tmp_path / "big.csv"
    subprocess.run([sys.executable, str(REPO_ROOT / "examples" / "generate_transactions.py"), "--rows", "400000",
                    "--seed", "3", "--out", str(data)], check=True, stdout=subprocess.DEVNULL)
    spill_dir = tmp_path / "spill"
    spill_dir.mkdir()
    process = subprocess.Popen([str(require_binary()), "validate", "-r", str(spill_rules(tmp_path)), str(data),
                                "--no-store", "--format", "json", "--threads", "1", "--batch-rows", "2000",
                                "--memory-limit", "1", "--tmp-dir", str(spill_dir)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        open_files = []
        while not open_files and process.poll() is None and time.monotonic() < deadline:
            open_files = _spill_files_open(process.pid, spill_dir)
            time.sleep(0.002)
        assert open_files, "the run never had a spill file open"
        assert all(name.endswith("(deleted)") for name in open_files), open_files
        assert list(spill_dir.iterdir()) == []  # open, written, and nameless
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert list(spill_dir.iterdir()) == []


KEYS = st.sampled_from(["a", "b", "c", "é", "", " a", "1", "01", "1.0", "-0", "0", "nan", "2024-01-02", "x,y"])


@st.composite
def tables(draw):
    rows = draw(st.integers(0, 300))
    cells = st.one_of(KEYS, st.integers(-5, 5).map(str), st.just(None))
    return [[draw(cells) for _ in range(4)] for _ in range(rows)]


def _csv_cell(value):
    if value is None:
        return ""
    if any(ch in value for ch in ',"\n') or value == "":
        return '"' + value.replace('"', '""') + '"'
    return value


RANDOM_RULES = """griffin: 1
dataset: spill_random
columns:
  s: {type: string, unique: true}
  i: {type: int64, unique: {value: true, severity: warn}}
  f: {type: float64, unique: true}
  t: {type: string}
rows:
  - name: pair
    unique: [s, t]
table:
  - distinct_count: {column: s, min: 0}
  - distinct_count: {column: f, min: 0}
"""


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(table=tables(), threads=st.sampled_from(["1", "2", "3"]), batch_rows=st.sampled_from(["1", "3", "17", "65536"]),
       max_violations=st.sampled_from(["0", "2", "100"]), limit=st.sampled_from(["1", "20K", "100K"]))
def test_random_data_spilled_report_is_the_in_memory_one(tmp_path, table, threads, batch_rows, max_violations, limit):
    rules = tmp_path / "random.rules.yaml"
    rules.write_text(RANDOM_RULES)
    data = tmp_path / "random.csv"
    data.write_text("s,i,f,t\n" + "".join(",".join(_csv_cell(v) for v in row) + "\n" for row in table))
    baseline, _ = validate(rules, [data], "--threads", "1", "--max-violations", max_violations, "--memory-limit", "0",
                           expect_spill=False)
    got, _ = validate(rules, [data], "--threads", threads, "--batch-rows", batch_rows, "--max-violations",
                      max_violations, "--memory-limit", limit, "--tmp-dir", str(tmp_path))
    assert got == baseline


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(table=tables(), threads=st.sampled_from(["1", "2"]), batch_rows=st.sampled_from(["1", "3", "17", "65536"]),
       suffix=st.sampled_from([".csv", ".jsonl", ".parquet"]))
def test_random_data_outputs_in_two_passes_are_the_in_memory_ones(tmp_path, table, threads, batch_rows, suffix):
    """A 1-byte limit makes every run with a `unique` key read its input twice: the
    outputs and the report must be the one-pass run's, byte for byte."""
    import tempfile
    example = pathlib.Path(tempfile.mkdtemp(dir=tmp_path))
    rules = example / "random.rules.yaml"
    rules.write_text(RANDOM_RULES)
    data = example / "random.csv"
    data.write_text("s,i,f,t\n" + "".join(",".join(_csv_cell(v) for v in row) + "\n" for row in table))
    base_report, _, base_out = run_outputs(rules, [data], example, "base", suffix, "--threads", "1",
                                           "--memory-limit", "0")
    report, err, written = run_outputs(rules, [data], example, "two", suffix, "--threads", threads,
                                       "--batch-rows", batch_rows, "--memory-limit", "1", "--tmp-dir", str(example))
    assert strip_volatile(report) == strip_volatile(base_report)
    assert written == base_out
    if any(row[0] is not None for row in table):  # a `unique` key was held: the run took two passes
        assert report["spill"]["passes"] == 2 and "reading the inputs twice" in err, (report.get("spill"), err)
