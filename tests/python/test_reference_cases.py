"""The reference against the declarative cases in tests/cases (CSV ones without
extra CLI arguments): two independent readings of the spec must agree. Every field
an expected.json states is compared; checks are matched by name in order."""
import json
import math
import pathlib

import pytest

import reference

CASES_ROOT = pathlib.Path(__file__).resolve().parents[1] / "cases"
CASES = sorted(p.parent for p in CASES_ROOT.glob("*/*/expected.json")
               if (p.parent / "input.csv").exists() and not (p.parent / "args").exists())


def _same(expected, actual):
    if isinstance(expected, float) and isinstance(actual, (int, float)):
        return math.isclose(expected, actual, rel_tol=1e-9, abs_tol=1e-9)
    return expected == actual


@pytest.mark.parametrize("case", CASES, ids=[str(c.relative_to(CASES_ROOT)) for c in CASES])
def test_reference_agrees_with_case(case):
    expected = json.loads((case / "expected.json").read_text(encoding="utf-8"))
    report = reference.validate((case / "rules.yaml").read_text(encoding="utf-8"),
                                [str(case / "input.csv")])  # the CLI's default cap, as the case runs
    problems = [f"{key}: expected {expected[key]!r}, reference {report[key]!r}"
                for key in ("rows", "bad_rows", "malformed_rows", "quality_score", "passed")
                if key in expected and not _same(expected[key], report[key])]
    if "schema_errors" in expected:
        want = [e["column"] for e in expected["schema_errors"]]
        got = [e["column"] for e in report["schema_errors"]]
        if want != got:
            problems.append(f"schema_errors: expected {want}, reference {got}")
    unused = list(report["checks"])
    for want in expected.get("checks", []):
        got = next((c for c in unused if c["name"] == want["name"]), None)
        if got is None:
            problems.append(f"check {want['name']} missing")
            continue
        unused.remove(got)
        problems += [f"{want['name']}.{key}: expected {value!r}, reference {got.get(key)!r}"
                     for key, value in want.items() if not _same(value, got.get(key))]
    if "violations" in expected:
        if len(expected["violations"]) != len(report["violations"]):
            problems.append(f"violations: expected {len(expected['violations'])}, "
                            f"reference {len(report['violations'])}")
        for want, got in zip(expected["violations"], report["violations"]):
            problems += [f"violation {want}: reference has {key}={got.get(key)!r}"
                         for key, value in want.items() if got.get(key) != value][:1]
    assert not problems, "\n".join(problems)
