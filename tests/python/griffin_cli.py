"""Running `griffin validate` from tests, and comparing its report with the reference.

The binary is $GRIFFIN_BIN, else build/griffin under the repository root that holds
this file. Tests that need it call require_binary(), which skips when it is absent.
"""
import json
import math
import os
import pathlib
import subprocess

import pytest

REPO_ROOT = pathlib.Path(__file__).resolve().parents[2]
VOLATILE = ("run_id", "elapsed_s")
FLOAT_TOLERANCE = {"sum": 1e-9, "mean": 1e-9, "stddev": 1e-9}
RATE_TOLERANCE = 1e-6  # pass_rate and quality_score may be rounded in the JSON


def binary_path():
    return pathlib.Path(os.environ.get("GRIFFIN_BIN", REPO_ROOT / "build" / "griffin"))


def require_binary():
    path = binary_path()
    if not (path.is_file() and os.access(path, os.X_OK)):
        pytest.fail(f"griffin binary not built ({path}); run scripts/setup.sh or set GRIFFIN_BIN")
    return path


def run_validate(rules_path, inputs, threads=1, batch_rows=None, max_violations=10**9,
                 extra=()):
    """(exit status, parsed JSON report, raw stdout) of one `griffin validate` run."""
    command = [str(require_binary()), "validate", "-r", str(rules_path), *map(str, inputs),
               "--format", "json", "--threads", str(threads), "--no-store"]
    if batch_rows is not None:
        command += ["--batch-rows", str(batch_rows)]
    if max_violations is not None:
        command += ["--max-violations", str(max_violations)]
    command += list(extra)
    done = subprocess.run(command, capture_output=True, timeout=120)
    assert done.returncode in (0, 1), (
        f"{' '.join(command)} exited {done.returncode}: {done.stderr.decode(errors='replace')}")
    return done.returncode, json.loads(done.stdout), done.stdout


def stable_json(report):
    """The report without its volatile fields, as canonical text (key order kept)."""
    return json.dumps({k: v for k, v in report.items() if k not in VOLATILE}, ensure_ascii=False)


def _close(actual, expected, rel=0.0, abs_=0.0):
    if expected is None or actual is None:
        return actual is None and expected is None
    if isinstance(expected, str) or isinstance(actual, str):
        return actual == expected
    if isinstance(expected, float) and math.isnan(expected):
        return isinstance(actual, float) and math.isnan(actual)
    return math.isclose(actual, expected, rel_tol=rel, abs_tol=abs_)


def diff_reports(cli, ref, custom_messages=()):
    """Every difference between the CLI's report and the reference's, as text lines.
    Compared: all reference fields; `message` only for checks with a custom message;
    `value` of row-check violations is the engine's choice and not compared."""
    problems = []
    for key in ("dataset", "rules_sha256", "rows", "bad_rows", "malformed_rows", "passed",
                "violations_truncated"):
        if cli.get(key) != ref[key]:
            problems.append(f"{key}: cli {cli.get(key)!r} != ref {ref[key]!r}")
    if not _close(cli.get("quality_score"), ref["quality_score"], abs_=RATE_TOLERANCE):
        problems.append(f"quality_score: cli {cli.get('quality_score')} != ref {ref['quality_score']}")
    if [e.get("column") for e in cli.get("schema_errors", [])] != [e["column"] for e in ref["schema_errors"]]:
        problems.append(f"schema_errors: cli {cli.get('schema_errors')} != ref {ref['schema_errors']}")
    cli_names = [c.get("name") for c in cli.get("checks", [])]
    ref_names = [c["name"] for c in ref["checks"]]
    if cli_names != ref_names:
        return problems + [f"check list: cli {cli_names} != ref {ref_names}"]
    for cli_check, ref_check in zip(cli["checks"], ref["checks"]):
        for key, expected in ref_check.items():
            actual = cli_check.get(key, "<missing>")
            if key == "pass_rate" or key == "mostly":
                same = _close(actual, expected, abs_=RATE_TOLERANCE)
            elif key == "observed" and isinstance(expected, float) and not math.isfinite(expected):
                # JSON has no NaN or infinity: the report writes null and spells
                # the value in observed_text.
                spelled = "nan" if math.isnan(expected) else ("inf" if expected > 0 else "-inf")
                same = actual is None and cli_check.get("observed_text") == spelled
            elif key == "observed":
                rel = FLOAT_TOLERANCE.get(ref_check["check"], 0.0)
                same = _close(actual, expected, rel=rel, abs_=1e-12 if rel else 0.0)
            else:
                same = actual == expected
            if not same:
                problems.append(f"check {ref_check['name']}.{key}: cli {actual!r} != ref {expected!r}")
    problems += _diff_violations(cli.get("violations", []), ref["violations"], ref["checks"],
                                 custom_messages)
    return problems


def _normalized_raw(text):
    return text.rstrip("\r\n")


def _diff_violations(cli, ref, ref_checks, custom_messages):
    problems = []
    row_checks = {c["name"] for c in ref_checks if c["column"] is None}
    if len(cli) != len(ref):
        problems.append(f"violations: cli lists {len(cli)}, ref {len(ref)}")
    for index, (got, want) in enumerate(zip(cli, ref)):
        keys = ["row", "check", "column"]
        if want["check"] == "malformed":
            if "\ufffd" not in want["value"]:  # invalid UTF-8: the engine's escaping is its own
                got = dict(got, value=_normalized_raw(got.get("value") or ""))
                want = dict(want, value=_normalized_raw(want["value"]))
                keys.append("value")
        elif want["check"] not in row_checks:
            keys.append("value")
        if want["check"] in custom_messages:
            keys.append("message")
        for key in keys:
            if got.get(key, "<missing>") != want[key]:
                problems.append(f"violation #{index} {key}: cli {got.get(key)!r} != ref {want[key]!r}"
                                f" (ref {want})")
                break
        if len(problems) > 40:
            problems.append("...")
            break
    return problems
