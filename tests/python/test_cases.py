"""The declarative rule-case suite: one driver for every folder under tests/cases.

A case is a folder tests/cases/<area>/<case>/ (see tests/cases/README.md):
  rules.yaml            the rule file (with a comment saying what the case proves)
  input*, inputs        the inputs (all files/folders named input*, sorted; or the
                        paths listed one per line in `inputs`)
  make_inputs.py        optional: writes binary inputs into the working folder
  stdin.csv             optional: fed to standard input (list `-` in `inputs`)
  args                  optional: extra command-line arguments, one per line
  expected.json         a subset of the JSON report plus "exit_code", or
  expected_error.txt    line 1 the exit code, line 2 a substring (or `re:` regex)
                        of the one-line standard error

Each case runs in a fresh copy of its folder:
  griffin validate -r rules.yaml <inputs> --format json --no-store <args>
and every case that yields a report runs again with --threads 3 --batch-rows 2,
and again with GRIFFIN_NO_CSV_PROJECTION=1 (every CSV column decoded, not only the
rule columns); each must give the identical report (except the fields in VOLATILE_KEYS).

The binary is $GRIFFIN_BIN, else <repo>/build/griffin. test_case_is_well_formed
needs no binary: it checks each case folder and the arithmetic of its expectation.
"""
import json
import math
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

REPO_ROOT = Path(__file__).resolve().parents[2]
CASES_DIR = REPO_ROOT / "tests" / "cases"
RUN_TIMEOUT_S = 60
# Report fields that legitimately differ between two runs of the same case.
VOLATILE_KEYS = {"run_id", "elapsed_s", "started_at", "finished_at"}
# Flags the determinism rerun replaces.
RERUN_FLAGS = {"--threads": ["--threads", "3"], "--batch-rows": ["--batch-rows", "2"]}
# Files of a case folder that are not inputs.
CASE_META_FILES = {"rules.yaml", "args", "inputs", "expected.json", "expected_error.txt",
                   "make_inputs.py", "stdin.csv", "README.md"}
REPORT_KEYS = {"rows", "bad_rows", "malformed_rows", "quality_score", "passed", "schema_errors",
               "checks", "violations", "violations_truncated", "dataset", "check_names",
               "exit_code"}
QUALITY_TOLERANCE = 1e-9
FLOAT_REL_TOLERANCE = 1e-9


def discover_cases():
    if not CASES_DIR.is_dir():
        return []
    return sorted(p.parent for p in CASES_DIR.glob("*/*/rules.yaml"))


CASES = discover_cases()
CASE_IDS = [f"{p.parent.name}/{p.name}" for p in CASES]


def griffin_binary():
    path = Path(os.environ.get("GRIFFIN_BIN") or REPO_ROOT / "build" / "griffin")
    if not path.is_file():
        pytest.fail(f"griffin binary not found at {path}: build it (cmake --build build) "
                    f"or set GRIFFIN_BIN")
    return path


# ---------------------------------------------------------------- case folders

def read_lines(path):
    """Non-empty lines of a small text file, `#` comment lines dropped."""
    if not path.exists():
        return []
    lines = [line.rstrip("\r\n") for line in path.read_text(encoding="utf-8").splitlines()]
    return [line for line in lines if line.strip() and not line.lstrip().startswith("#")]


def prepare_workdir(case_dir, tmp_path):
    """Copies the case into tmp_path/case and runs its make_inputs.py there."""
    work = tmp_path / "case"
    shutil.copytree(case_dir, work)
    if (work / "make_inputs.py").exists():
        subprocess.run([sys.executable, "make_inputs.py"], cwd=work, check=True,
                       timeout=RUN_TIMEOUT_S)
    return work


def case_inputs(work):
    listed = read_lines(work / "inputs")
    if listed:
        return listed
    names = sorted(p.name for p in work.iterdir()
                   if p.name.startswith("input") and p.name not in CASE_META_FILES)
    assert names, f"{work}: no input* files and no `inputs` list"
    return names


def run_griffin(work, extra_args, env=None):
    inputs = case_inputs(work)
    cmd = [str(griffin_binary()), "validate", "-r", "rules.yaml", *inputs,
           "--format", "json", "--no-store", *extra_args]
    stdin_file = work / "stdin.csv"
    stdin_bytes = stdin_file.read_bytes() if stdin_file.exists() else b""
    proc = subprocess.run(cmd, cwd=work, input=stdin_bytes, capture_output=True,
                          timeout=RUN_TIMEOUT_S, env=None if env is None else {**os.environ, **env})
    return proc, " ".join(cmd[1:])


def rerun_args(args):
    """`args` with --threads/--batch-rows removed and the rerun's values added."""
    kept, skip_next = [], False
    for arg in args:
        if skip_next:
            skip_next = False
            continue
        flag = arg.split("=", 1)[0]
        if flag in RERUN_FLAGS:
            skip_next = "=" not in arg
            continue
        kept.append(arg)
    for values in RERUN_FLAGS.values():
        kept.extend(values)
    return kept


# ---------------------------------------------------------------- comparison

def is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def values_equal(expected, actual, rel_tol=FLOAT_REL_TOLERANCE):
    """JSON equality, with bools distinct from numbers and a float tolerance."""
    if is_number(expected) and is_number(actual):
        if isinstance(expected, float) and math.isnan(expected):
            return isinstance(actual, float) and math.isnan(actual)
        return math.isclose(expected, actual, rel_tol=rel_tol, abs_tol=1e-12)
    if isinstance(expected, list) and isinstance(actual, list):
        return len(expected) == len(actual) and all(
            values_equal(e, a, rel_tol) for e, a in zip(expected, actual))
    if isinstance(expected, dict) and isinstance(actual, dict):
        return expected.keys() == actual.keys() and all(
            values_equal(expected[k], actual[k], rel_tol) for k in expected)
    return type(expected) is type(actual) and expected == actual


def compare_partial_objects(what, expected_list, actual_list, errors):
    """Same length; each expected object's keys equal in the actual at that index."""
    if not isinstance(actual_list, list):
        errors.append(f"{what}: expected a list, got {actual_list!r}")
        return
    if len(expected_list) != len(actual_list):
        errors.append(f"{what}: expected {len(expected_list)} entries, got "
                      f"{len(actual_list)}: {json.dumps(actual_list)[:2000]}")
    for index, (exp, act) in enumerate(zip(expected_list, actual_list)):
        for key, value in exp.items():
            if key not in act:
                errors.append(f"{what}[{index}]: missing key {key!r} in {act}")
            elif not values_equal(value, act[key]):
                errors.append(f"{what}[{index}].{key}: expected {value!r}, got {act[key]!r} "
                              f"(entry {act})")


def compare_checks(expected_checks, actual_checks, errors):
    """Each expected check matches the next actual check of the same name."""
    used = set()
    for exp in expected_checks:
        name = exp["name"]
        match = next((i for i, act in enumerate(actual_checks)
                      if act.get("name") == name and i not in used), None)
        if match is None:
            errors.append(f"checks: no (further) check named {name!r}; have "
                          f"{[c.get('name') for c in actual_checks]}")
            continue
        used.add(match)
        act = actual_checks[match]
        for key, value in exp.items():
            if key not in act:
                errors.append(f"check {name}: missing key {key!r} in {act}")
            elif not values_equal(value, act[key]):
                errors.append(f"check {name}.{key}: expected {value!r}, got {act[key]!r}")


def compare_report(expected, report, exit_code):
    errors = []
    if exit_code != expected["exit_code"]:
        errors.append(f"exit code: expected {expected['exit_code']}, got {exit_code}")
    for key, value in expected.items():
        if key == "exit_code":
            continue
        if key == "checks":
            compare_checks(value, report.get("checks", []), errors)
        elif key == "check_names":
            names = [c.get("name") for c in report.get("checks", [])]
            if names != value:
                errors.append(f"check_names: expected {value}, got {names}")
        elif key in ("violations", "schema_errors"):
            compare_partial_objects(key, value, report.get(key), errors)
        elif key not in report:
            errors.append(f"report lacks {key!r}")
        elif key == "quality_score":
            if not (is_number(report[key]) and abs(report[key] - value) <= QUALITY_TOLERANCE):
                errors.append(f"quality_score: expected {value}, got {report[key]!r}")
        elif not values_equal(value, report[key]):
            errors.append(f"{key}: expected {value!r}, got {report[key]!r}")
    return errors


def without_volatile(report):
    return {k: v for k, v in report.items() if k not in VOLATILE_KEYS}


def parse_report(proc, command):
    try:
        return json.loads(proc.stdout)
    except ValueError:
        pytest.fail(f"{command}: stdout is not JSON (exit {proc.returncode})\n"
                    f"stdout: {proc.stdout[:2000]!r}\nstderr: {proc.stderr[:2000]!r}")


def check_error_case(work, proc, command):
    lines = (work / "expected_error.txt").read_text(encoding="utf-8").splitlines()
    expected_code, pattern = int(lines[0].strip()), lines[1]
    stderr = proc.stderr.decode("utf-8", errors="replace").strip()
    problems = []
    if proc.returncode != expected_code:
        problems.append(f"exit code: expected {expected_code}, got {proc.returncode}")
    if len(stderr.splitlines()) != 1:
        problems.append(f"stderr should be one line, got {len(stderr.splitlines())}")
    if pattern.startswith("re:"):
        if not re.search(pattern[3:], stderr):
            problems.append(f"stderr does not match /{pattern[3:]}/")
    elif pattern not in stderr:
        problems.append(f"stderr does not contain {pattern!r}")
    assert not problems, f"{command}\n" + "\n".join(problems) + f"\nstderr: {stderr!r}"


@pytest.mark.parametrize("case_dir", CASES, ids=CASE_IDS)
def test_case(case_dir, tmp_path):
    work = prepare_workdir(case_dir, tmp_path)
    args = read_lines(work / "args")
    proc, command = run_griffin(work, args)
    if (work / "expected_error.txt").exists():
        check_error_case(work, proc, command)
        return
    expected = json.loads((work / "expected.json").read_text(encoding="utf-8"))
    report = parse_report(proc, command)
    errors = compare_report(expected, report, proc.returncode)
    assert not errors, (f"{command}\n" + "\n".join(errors) +
                        f"\nstderr: {proc.stderr[:1000]!r}")

    proc2, command2 = run_griffin(work, rerun_args(args))
    report2 = parse_report(proc2, command2)
    assert proc2.returncode == proc.returncode, f"{command2}: exit code differs"
    first, second = without_volatile(report), without_volatile(report2)
    differing = sorted(k for k in first.keys() | second.keys() if first.get(k) != second.get(k))
    assert not differing, (f"{command2}: report differs from the default run in "
                           f"{differing}:\n{json.dumps({k: second.get(k) for k in differing})[:3000]}")

    # CSV/TSV runs decode only the rule columns; decoding every column (the
    # diagnostic switch) must give the identical report.
    proc3, command3 = run_griffin(work, args, env={"GRIFFIN_NO_CSV_PROJECTION": "1"})
    report3 = parse_report(proc3, command3)
    assert proc3.returncode == proc.returncode, f"GRIFFIN_NO_CSV_PROJECTION=1 {command3}: exit code differs"
    third = without_volatile(report3)
    differing = sorted(k for k in first.keys() | third.keys() if first.get(k) != third.get(k))
    assert not differing, (f"GRIFFIN_NO_CSV_PROJECTION=1 {command3}: report differs from the default run in "
                           f"{differing}:\n{json.dumps({k: third.get(k) for k in differing})[:3000]}")


# ---------------------------------------------------------------- case linting

def lint_expected_report(expected):
    """Internal consistency of a hand-written expectation (catches arithmetic slips)."""
    problems = [f"unknown key {k!r}" for k in expected if k not in REPORT_KEYS]
    if expected.get("exit_code") not in (0, 1):
        problems.append("exit_code must be 0 or 1 in expected.json")
    if "passed" in expected and expected["passed"] != (expected["exit_code"] == 0):
        problems.append("passed disagrees with exit_code")
    rows, bad = expected.get("rows"), expected.get("bad_rows")
    schema_failed = bool(expected.get("schema_errors"))
    if schema_failed and rows is not None and bad is not None and bad != rows:
        problems.append("a schema error makes every row bad: bad_rows should be rows")
    if rows is not None and bad is not None and "quality_score" in expected:
        score = 0.0 if schema_failed else (rows - bad) / rows if rows else 1.0
        if abs(score - expected["quality_score"]) > QUALITY_TOLERANCE:
            problems.append(f"quality_score should be {score}")
    for check in expected.get("checks", []):
        if "name" not in check:
            problems.append(f"check without name: {check}")
        if check.get("name") == "malformed":
            for key, total in (("evaluated", "rows"), ("violations", "malformed_rows")):
                if key in check and total in expected and check[key] != expected[total]:
                    problems.append(f"malformed.{key} should be {total}")
        if {"evaluated", "violations", "pass_rate"} <= check.keys():
            ev, vi = check["evaluated"], check["violations"]
            rate = (ev - vi) / ev if ev else 1.0
            if abs(rate - check["pass_rate"]) > 1e-9:
                problems.append(f"{check['name']}: pass_rate should be {rate}")
        if {"pass_rate", "mostly", "passed"} <= check.keys():
            if (check["pass_rate"] >= check["mostly"]) != check["passed"]:
                problems.append(f"{check['name']}: passed disagrees with pass_rate/mostly")
    listed = expected.get("violations")
    if listed is not None and not expected.get("violations_truncated", False):
        rows_seen = [v["row"] for v in listed]
        if rows_seen != sorted(rows_seen):
            problems.append("violations are not ordered by row")
        for check in expected.get("checks", []):
            if "violations" in check:
                count = sum(1 for v in listed if v.get("check") == check["name"])
                if count != check["violations"] and sum(
                        1 for c in expected["checks"] if c["name"] == check["name"]) == 1:
                    problems.append(f"{check['name']}: {check['violations']} violations "
                                    f"counted but {count} listed")
        if "malformed_rows" in expected:
            count = sum(1 for v in listed if v.get("check") == "malformed")
            if count != expected["malformed_rows"]:
                problems.append(f"malformed_rows is {expected['malformed_rows']} but "
                                f"{count} malformed violations are listed")
    return problems


@pytest.mark.parametrize("case_dir", CASES, ids=CASE_IDS)
def test_case_is_well_formed(case_dir):
    names = {p.name for p in case_dir.iterdir()}
    rules_text = (case_dir / "rules.yaml").read_text(encoding="utf-8")
    assert yaml.safe_load(rules_text) is not None
    assert rules_text.lstrip().startswith("#"), "rules.yaml must open with a comment " \
                                                "saying what the case proves"
    assert ("expected.json" in names) != ("expected_error.txt" in names), \
        "a case has exactly one of expected.json and expected_error.txt"
    for path in case_dir.rglob("*"):
        if path.is_file():
            path.read_bytes().decode("utf-8")  # binary inputs come from make_inputs.py
    if "expected.json" in names:
        expected = json.loads((case_dir / "expected.json").read_text(encoding="utf-8"))
        problems = lint_expected_report(expected)
        assert not problems, "\n".join(problems)
    else:
        lines = (case_dir / "expected_error.txt").read_text(encoding="utf-8").splitlines()
        assert len(lines) >= 2 and lines[0].strip() in ("2", "3") and lines[1].strip()


def test_cases_exist():
    assert len(CASES) >= 60, f"only {len(CASES)} cases under {CASES_DIR}"
