"""Inputs named by URI go through the adapter registry (src/io/source_registry.h)
in every front end: `griffin validate` and `griffin.Validator.validate`.

- file:///path reads the file, with the same report as the plain path;
- an unknown scheme is a usage error (exit 2; griffin.RuleError in Python)
  naming the URI, with its password shown as ***;
- `--where` / `source.where` on a file is refused, never ignored.
"""
import json
import subprocess
import textwrap

import pytest

import griffin

from griffin_cli import require_binary

RULES = textwrap.dedent("""\
    griffin: 1
    dataset: uris
    columns:
      x: {type: int64, min: 0}
""")


def run_cli(*args):
    return subprocess.run([str(require_binary()), *map(str, args)], capture_output=True, text=True, timeout=120)


@pytest.fixture
def files(tmp_path):
    rules = tmp_path / "rules.yaml"
    rules.write_text(RULES)
    data = tmp_path / "data.csv"
    data.write_text("x\n1\n-2\n3\n")
    return rules, data


def report_of(rules, *inputs, extra=()):
    done = run_cli("validate", "-r", rules, *inputs, "--format", "json", "--no-store", *extra)
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)


def test_file_uri_reads_like_its_path(files):
    rules, data = files
    by_path = report_of(rules, data)
    by_uri = report_of(rules, f"file://{data}")
    assert by_path["bad_rows"] == by_uri["bad_rows"] == 1
    assert by_uri["checks"] == by_path["checks"]
    py = griffin.Validator.from_yaml(str(rules)).validate(f"file://{data}")
    assert py.bad_rows == 1 and py.rows == 3


def test_unknown_scheme_is_a_usage_error_without_the_password(files):
    rules, _ = files
    done = run_cli("validate", "-r", rules, "nosuch://ann:s3cret@host/db", "--no-store")
    assert done.returncode == 2, done.stderr
    assert "nosuch://ann:***@host/db: unknown input scheme 'nosuch'" in done.stderr
    assert "s3cret" not in done.stderr + done.stdout
    with pytest.raises(griffin.RuleError) as raised:
        griffin.Validator.from_yaml(str(rules)).validate("nosuch://ann:s3cret@host/db")
    assert "unknown input scheme 'nosuch'" in str(raised.value)
    assert "s3cret" not in str(raised.value)


def test_where_on_a_file_is_refused(files, tmp_path):
    rules, data = files
    done = run_cli("validate", "-r", rules, data, "--where", "x > 0", "--no-store")
    assert done.returncode == 2
    assert f"{data}: a file cannot filter rows (where)" in done.stderr
    with_where = tmp_path / "where.yaml"
    with_where.write_text(RULES.replace("dataset: uris\n", "dataset: uris\nsource: {where: 'x > 0'}\n"))
    done = run_cli("validate", "-r", with_where, data, "--no-store")
    assert done.returncode == 2
    assert "a file cannot filter rows" in done.stderr
