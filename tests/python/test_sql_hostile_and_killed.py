"""Safety and atomicity of SQL sources (issue 13), beyond test_sql_sources.py and
test_sql_serve_and_safety.py:

a hostile table name executes nothing in --mode pushdown, in `griffin sql`, in
scan mode on SQLite, or as the name of the quarantine table. (kill -9 while a
quarantine table is written: test_sql_dead_letters.py.)"""
import json
import subprocess
import urllib.parse

import pytest

from griffin_cli import require_binary
from test_sql_sources import ROWS, TABLES, rules  # noqa: F401  (rules is a fixture)

HOSTILE = ["x; DROP TABLE rows", 'rows"; DROP TABLE rows; --', "rows; DELETE FROM rows"]


def run_cli(*args):
    return subprocess.run([str(require_binary()), *map(str, args)], capture_output=True, text=True, timeout=120)


def row_count(rules, uri):
    done = run_cli("validate", "-r", rules, uri, "--no-store", "--format", "json")
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)["rows"]


@pytest.mark.parametrize("engine", sorted(TABLES))
def test_a_hostile_table_name_runs_nothing_in_either_mode(engine, rules, tmp_path):  # noqa: F811
    uri, _ = TABLES[engine](tmp_path)
    database, table = uri.split("?table=")
    schema = table.rsplit(".", 1)[0] + "." if "." in table else ""
    for hostile in HOSTILE:
        name = urllib.parse.quote(schema + hostile.replace("rows", table))
        for mode in ("scan", "pushdown", "pushdown-split"):
            done = run_cli("validate", "-r", rules, f"{database}?table={name}", "--no-store", "--mode", mode)
            assert done.returncode == 3 and done.stderr.count("\n") == 1, (mode, hostile, done.stderr)
    assert row_count(rules, uri) == len(ROWS)


def test_griffin_sql_quotes_a_hostile_table_name(rules, tmp_path):  # noqa: F811
    for dialect, quoted in (("postgresql", '"x; DROP TABLE y"'), ("sqlite", '"x; DROP TABLE y"'),
                            ("duckdb", '"x; DROP TABLE y"')):
        done = run_cli("sql", "-r", rules, "--dialect", dialect, "--table", "x; DROP TABLE y")
        assert done.returncode == 0, done.stderr
        assert quoted in done.stdout, done.stdout
        assert "FROM x; DROP" not in done.stdout


@pytest.mark.parametrize("engine", sorted(TABLES))
def test_a_hostile_quarantine_table_is_one_table_of_that_name(engine, rules, tmp_path):  # noqa: F811
    uri, _ = TABLES[engine](tmp_path)
    database, table = uri.split("?table=")
    schema = table.rsplit(".", 1)[0] + "." if "." in table else ""
    hostile = schema + 'bad"; DROP TABLE ' + table + "; --"
    done = run_cli("validate", "-r", rules, uri, "--no-store", "--quarantine",
                   f"{database}?table={urllib.parse.quote(hostile)}")
    assert done.returncode in (0, 1), done.stderr
    assert row_count(rules, uri) == len(ROWS)  # the input table is still there, whole
