"""Data and records that were lost (issue 12), each attack replayed:
- --clean / --quarantine naming an input or the rule file (also through a
  symbolic or hard link) replaced it: now exit 2 before anything is written;
- a report written to a full disk or a closed standard output gave exit 0/1
  and no error: now exit 3 with one line;
- a CLI run whose record failed stayed `running`: now it is `record_failed`
  (the server's side: test_server_record_failed.py).
The store failure is real: a trigger in the store database refuses to mark a
run complete, as a full disk or a report past the database's size limit would."""
import json
import os
import pathlib
import sqlite3
import subprocess

import pytest

from test_store_cli import fresh_pg_database, require_pg

REPO = pathlib.Path(__file__).resolve().parents[2]
GRIFFIN = os.environ.get("GRIFFIN_BIN", str(REPO / "build" / "griffin"))
RULES = """griffin: 1
dataset: ledger
columns:
  id: {type: int64, unique: true}
  amount: {type: float64, min: 0}
"""
DATA = "id,amount\n1,5\n2,-1\n2,3\n"
REFUSE_COMPLETE_SQLITE = ("CREATE TRIGGER refuse_complete BEFORE UPDATE OF status ON runs"
                          " WHEN NEW.status = 'complete'"
                          " BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END")


def run(*args, cwd, **kwargs):
    return subprocess.run([GRIFFIN, *map(str, args)], capture_output=True, cwd=cwd, timeout=120, **kwargs)


@pytest.fixture
def workdir(tmp_path):
    (tmp_path / "rules.yaml").write_text(RULES)
    (tmp_path / "d.csv").write_text(DATA)
    return tmp_path


def one_line(proc, status):
    assert proc.returncode == status, (proc.returncode, proc.stderr)
    lines = proc.stderr.decode().strip().splitlines()
    assert len(lines) == 1, proc.stderr
    return lines[0]


# --- output over input -------------------------------------------------------

@pytest.mark.parametrize("option", ["--clean", "--quarantine"])
def test_an_output_that_is_an_input_is_refused(workdir, option):
    (workdir / "link.csv").symlink_to(workdir / "d.csv")
    os.link(workdir / "d.csv", workdir / "hard.csv")
    (workdir / "sub").mkdir()
    for output, named in (("d.csv", "input"), ("link.csv", "input"), ("hard.csv", "input"),
                          ("sub/../d.csv", "input"), ("rules.yaml", "rule file")):
        line = one_line(run("validate", "-r", "rules.yaml", "d.csv", option, output, "--no-store", cwd=workdir), 2)
        assert line.startswith(f"griffin: {option} {output}: is the {named} "), line
        assert "(the same file)" in line
        assert (workdir / "d.csv").read_text() == DATA
        assert (workdir / "rules.yaml").read_text() == RULES
    assert sorted(p.name for p in workdir.iterdir()) == ["d.csv", "hard.csv", "link.csv", "rules.yaml", "sub"]
    # An input found in a directory counts too; the store saw no run.
    line = one_line(run("validate", "-r", "rules.yaml", ".", option, "d.csv", cwd=workdir), 2)
    assert "is the input" in line
    assert not (workdir / ".griffin").exists()


def test_clean_and_quarantine_that_are_one_file_are_refused(workdir):
    (workdir / "out.csv").write_text("old\n")
    (workdir / "alias.csv").symlink_to(workdir / "out.csv")
    line = one_line(run("validate", "-r", "rules.yaml", "d.csv", "--clean", "out.csv", "--quarantine", "alias.csv",
                        "--no-store", cwd=workdir), 2)
    assert "(the same file)" in line
    assert (workdir / "out.csv").read_text() == "old\n"
    ok = run("validate", "-r", "rules.yaml", "d.csv", "--clean", "good.csv", "--quarantine", "bad.csv", "--no-store",
             cwd=workdir)
    assert ok.returncode == 1, ok.stderr


# --- the report lost on a failed standard output ------------------------------

@pytest.mark.parametrize("fmt", ["text", "json", "junit"])
def test_a_report_to_a_full_disk_is_exit_3(workdir, fmt):
    with open("/dev/full", "wb") as full:
        proc = subprocess.run([GRIFFIN, "validate", "-r", "rules.yaml", "d.csv", "--format", fmt, "--no-store"],
                              stdout=full, stderr=subprocess.PIPE, cwd=workdir, timeout=120)
    line = one_line(proc, 3)
    assert line == "griffin: standard output: cannot write the report: No space left on device"


def test_a_report_to_a_closed_stdout_is_exit_3(workdir):
    proc = subprocess.run([GRIFFIN, "validate", "-r", "rules.yaml", "d.csv", "--format", "json"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=workdir, timeout=120,
                          preexec_fn=lambda: os.close(1))
    line = one_line(proc, 3)
    assert line == "griffin: standard output: cannot write the report: Bad file descriptor"
    # The run is recorded, and the store did not get the report's bytes on descriptor 1.
    history = run("history", "ledger", "--format", "json", cwd=workdir)
    assert history.returncode == 0, history.stderr
    assert json.loads(history.stdout)["runs"][0]["status"] == "complete"


def test_a_report_to_a_pipe_closed_by_its_reader_is_exit_3(workdir):
    (workdir / "many.csv").write_text("id,amount\n" + "".join(f"{i},-1\n" for i in range(20000)))
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before the first byte
    proc = subprocess.run([GRIFFIN, "validate", "-r", "rules.yaml", "many.csv", "--no-store"],
                          stdout=write_end, stderr=subprocess.PIPE, cwd=workdir, timeout=120)
    os.close(write_end)
    assert one_line(proc, 3) == "griffin: standard output: cannot write the report: Broken pipe"


# --- a run left running ---------------------------------------------------------

def test_a_cli_run_whose_record_failed_is_record_failed(workdir):
    first = run("validate", "-r", "rules.yaml", "d.csv", "--store", "runs.db", cwd=workdir)
    assert first.returncode == 1, first.stderr
    with sqlite3.connect(workdir / "runs.db") as db:
        db.execute(REFUSE_COMPLETE_SQLITE)
    proc = run("validate", "-r", "rules.yaml", "d.csv", "--store", "runs.db", "--format", "json", cwd=workdir)
    line = one_line(proc, 3)
    assert "database or disk is full" in line
    report = json.loads(proc.stdout)  # the report is still printed
    with sqlite3.connect(workdir / "runs.db") as db:
        status, reason = db.execute("SELECT status, abort_reason FROM runs WHERE run_id = ?",
                                    (report["run_id"],)).fetchone()
    assert status == "record_failed"
    assert "database or disk is full" in reason
    history = json.loads(run("history", "ledger", "--store", "runs.db", "--format", "json", cwd=workdir).stdout)
    assert [r["status"] for r in history["runs"]] == ["record_failed", "complete"]


def test_a_cli_run_whose_record_failed_is_record_failed_postgres(workdir):
    require_pg()
    uri = fresh_pg_database("griffin_record_failed")
    first = run("validate", "-r", "rules.yaml", "d.csv", "--store", uri, cwd=workdir)
    assert first.returncode == 1, first.stderr
    trigger = subprocess.run(
        ["psql", uri, "-v", "ON_ERROR_STOP=1", "-q",
         "-c", "CREATE FUNCTION refuse_complete() RETURNS trigger LANGUAGE plpgsql AS"
               " $$ BEGIN RAISE EXCEPTION 'could not extend file: No space left on device'; END $$",
         "-c", "CREATE TRIGGER refuse_complete BEFORE UPDATE OF status ON runs FOR EACH ROW"
               " WHEN (NEW.status = 'complete') EXECUTE FUNCTION refuse_complete()"],
        capture_output=True, timeout=60)
    assert trigger.returncode == 0, trigger.stderr
    proc = run("validate", "-r", "rules.yaml", "d.csv", "--store", uri, "--format", "json", cwd=workdir)
    assert "No space left on device" in one_line(proc, 3)
    history = json.loads(run("history", "ledger", "--store", uri, "--format", "json", cwd=workdir).stdout)
    assert [r["status"] for r in history["runs"]] == ["record_failed", "complete"]
    assert history["runs"][0]["run_id"] == json.loads(proc.stdout)["run_id"]


def test_store_commands_to_a_full_disk_are_exit_3(workdir):
    report = json.loads(run("validate", "-r", "rules.yaml", "d.csv", "--format", "json", cwd=workdir).stdout)
    for args in (["history", "ledger"], ["history", "ledger", "--format", "json"], ["show", report["run_id"]],
                 ["rules", "ledger"]):
        with open("/dev/full", "wb") as full:
            proc = subprocess.run([GRIFFIN, *args], stdout=full, stderr=subprocess.PIPE, cwd=workdir, timeout=120)
        assert one_line(proc, 3) == "griffin: standard output: cannot write the report: No space left on device", args
        assert run(*args, cwd=workdir).returncode == 0, args
