"""The venv's `griffin` console command (issue 4): the package's bundled C++ CLI,
giving what build/griffin gives."""
import json
import pathlib
import subprocess
import sys

from griffin_cli import REPO_ROOT, require_binary

VENV_GRIFFIN = pathlib.Path(sys.executable).parent / "griffin"
RULES = REPO_ROOT / "examples" / "transactions.rules.yaml"
DATA = REPO_ROOT / "examples" / "transactions.csv"


def both(*args):
    ours = subprocess.run([str(VENV_GRIFFIN), *args], capture_output=True, text=True, timeout=120)
    theirs = subprocess.run([str(require_binary()), *args], capture_output=True, text=True, timeout=120)
    return ours, theirs


def test_version():
    ours, theirs = both("--version")
    assert ours.returncode == theirs.returncode == 0
    assert ours.stdout == theirs.stdout and ours.stdout.startswith("griffin ")


def test_validate_gives_the_same_json_and_exit_status():
    args = ("validate", "-r", str(RULES), str(DATA), "--format", "json", "--no-store", "--threads", "2")
    ours, theirs = both(*args)
    assert ours.returncode == theirs.returncode == 1, ours.stderr
    drop = ("run_id", "elapsed_s")
    assert {k: v for k, v in json.loads(ours.stdout).items() if k not in drop} == \
        {k: v for k, v in json.loads(theirs.stdout).items() if k not in drop}


def test_usage_error_exit_status():
    ours, theirs = both("validate", "-r", str(RULES))
    assert ours.returncode == theirs.returncode == 2
    assert ours.stderr == theirs.stderr
