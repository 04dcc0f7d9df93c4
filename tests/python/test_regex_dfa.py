"""The regex fast path (issue 16): `regex:` checks whose pattern is in the DFA
subset are decided by a byte DFA (RE2 for values with non-ASCII bytes); the
reports are those of RE2 alone (GRIFFIN_NO_REGEX_DFA=1), on the benchmark data
and on random data, and `griffin validate --explain` says which path each
pattern takes."""
import json
import os
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from griffin_cli import REPO_ROOT, require_binary

VOLATILE = ("run_id", "elapsed_s")


def validate(rules, data, *extra, dfa=True):
    env = dict(os.environ)
    env.pop("GRIFFIN_NO_REGEX_DFA", None)
    if not dfa:
        env["GRIFFIN_NO_REGEX_DFA"] = "1"
    done = subprocess.run([str(require_binary()), "validate", "-r", str(rules), str(data), "--format", "json",
                           "--no-store", *extra], capture_output=True, timeout=300, env=env)
    assert done.returncode in (0, 1), done.stderr.decode(errors="replace")
    report = json.loads(done.stdout)
    return json.dumps({k: v for k, v in report.items() if k not in VOLATILE})


def test_explain_names_each_regex_path(tmp_path):
    rules = tmp_path / "r.yaml"
    rules.write_text("griffin: 1\ndataset: x\ncolumns:\n"
                     "  email: {regex: '^[^@\\s]+@[^@\\s]+\\.[A-Za-z]{2,}$'}\n"
                     "  word: {regex: '\\bcat\\b', contains: 'at'}\n"
                     "  hostile: {regex: '(a|b)*a(a|b){20}'}\n")
    data = tmp_path / "d.csv"
    data.write_text("email,word,hostile\na@b.cc,cat,a\n")
    for dfa in (True, False):
        env = dict(os.environ)
        env.pop("GRIFFIN_NO_REGEX_DFA", None)
        if not dfa:
            env["GRIFFIN_NO_REGEX_DFA"] = "1"
        done = subprocess.run([str(require_binary()), "validate", "-r", str(rules), str(data), "--explain"],
                              capture_output=True, text=True, timeout=60, env=env)
        assert done.returncode == 0, done.stderr
        lines = {line.split()[0]: line for line in done.stdout.splitlines()[1:]}
        assert "path: re2 (contains: a partial match)" in lines["word.contains"]
        if not dfa:
            for name in ("email.regex", "word.regex", "hostile.regex"):
                assert "path: re2 (GRIFFIN_NO_REGEX_DFA is set)" in lines[name]
            continue
        assert "path: dfa (" in lines["email.regex"]
        assert "path: re2 (the escape \\b is not in the DFA subset)" in lines["word.regex"]
        assert "path: re2 (its DFA passes 512 states)" in lines["hostile.regex"]


def test_bench_data_reports_equal_re2s(tmp_path):
    data = tmp_path / "transactions.csv"
    subprocess.run([sys.executable, str(REPO_ROOT / "examples" / "generate_transactions.py"), "--rows", "60000",
                    "--seed", "11", "--out", str(data)], check=True, stdout=subprocess.DEVNULL)
    rules = tmp_path / "suite.rules.yaml"
    rules.write_text((REPO_ROOT / "bench" / "suite.rules.yaml").read_text().replace(
        "  country:\n", "  merchant:\n    regex: '[A-Z][a-z]+( [A-Z][a-z]+)?'\n  country:\n    regex: '[A-Z]{2}'\n", 1))
    for threads, batch_rows in (("1", "65536"), ("2", "1000")):
        assert validate(rules, data, "--threads", threads, "--batch-rows", batch_rows) == \
            validate(rules, data, "--threads", threads, "--batch-rows", batch_rows, dfa=False)


PATTERNS = ["^[^@\\s]+@[^@\\s]+\\.[A-Za-z]{2,}$", "[a-c]+", "(ab|c)*d?", "\\d{2,4}", "[^ ]*", ".{3}", "a.c",
            "(a|b)+@[a-z]{1,3}\\.(com|net)", "\\w+\\s\\w+", "x*", "[A-Z]{2}\\d{2}", "é+", "(?i)abc", "\\bab"]

VALUES = st.text(alphabet=st.sampled_from(list("abcdABCD@. -_0123\té")), max_size=14)


def _csv_cell(value):
    return '"' + value.replace('"', '""') + '"'


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(values=st.lists(VALUES, max_size=80), patterns=st.lists(st.sampled_from(PATTERNS), min_size=1, max_size=4),
       batch_rows=st.sampled_from(["1", "7", "65536"]))
def test_random_data_reports_equal_re2s(tmp_path, values, patterns, batch_rows):
    lines = ["griffin: 1", "dataset: rx", "columns:"]
    for i, pattern in enumerate(patterns):
        lines.append(f"  c{i}: {{regex: {json.dumps(pattern)}}}")
    rules = tmp_path / "rx.yaml"
    rules.write_text("\n".join(lines) + "\n")
    data = tmp_path / "rx.csv"
    header = ",".join(f"c{i}" for i in range(len(patterns)))
    data.write_text(header + "\n" + "".join(",".join(_csv_cell(v) for _ in patterns) + "\n" for v in values))
    assert validate(rules, data, "--batch-rows", batch_rows, "--max-violations", "1000") == \
        validate(rules, data, "--batch-rows", batch_rows, "--max-violations", "1000", dfa=False)
