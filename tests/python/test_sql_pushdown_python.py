"""Validator.validate(uri, mode="pushdown") (issue 13, docs/sql.md): Python runs the
CLI's pushdown code path (sql::RunPushdown through the extension), so its report is
`griffin validate --mode pushdown --format json`'s for the same URI, where each check
ran included, on SQLite and DuckDB files and the real PostgreSQL
(GRIFFIN_TEST_PG_URI, scripts/pg_test_cluster.sh); and it equals scan mode's and the
report of the same rows as a Parquet file, for every rules-v1 check that
test_sql_pushdown.py's rule file holds.
"""
import json

import pyarrow.parquet as pq
import pytest

import griffin
from test_sql_pushdown import TABLES, comparable, reference, report, rules_text, sqlite_table

# What differs per run: the run id (the CLI records none with --no-store either),
# the wall time, and the CLI's thread count and input size.
PER_RUN = ("run_id", "elapsed_s", "threads", "input_bytes")


def same_run(out):
    return {k: v for k, v in out.items() if k not in PER_RUN}


def table_for(engine, tmp_path):
    rows = reference(engine) if engine == "sqlite" else reference("duckdb")
    return TABLES[engine](tmp_path, rows)


@pytest.mark.parametrize("mode", ["pushdown", "pushdown-split"])
@pytest.mark.parametrize("engine", sorted(TABLES))
def test_python_pushdown_is_the_cli_report(engine, mode, tmp_path):
    uri = table_for(engine, tmp_path)
    rules = tmp_path / "rules.yaml"
    rules.write_text(rules_text(engine))
    validator = griffin.Validator.from_yaml(str(rules))
    py = validator.validate(uri, mode=mode, max_violations=3, threads=2)
    cli = report(rules, uri, "--mode", mode)
    assert same_run(py.to_dict()) == same_run(cli)
    # The rule file has checks no dialect runs (a row expression): split runs them
    # beside the database's; the planner scans once instead (docs/sql.md).
    if mode == "pushdown-split":
        assert {c["ran_in"] for c in py.checks} == {"database", "engine"}
    else:
        assert {c["ran_in"] for c in py.checks} == {"engine"}
        assert all("planned as one scan: " in c["ran_in_reason"] for c in py.checks)
    assert (py.rows, py.bad_rows, py.passed) == (cli["rows"], cli["bad_rows"], cli["passed"])
    assert py.quality_score == cli["quality_score"]
    # Scan mode (the default), the CLI's scan and the same rows as a file give the same verdicts.
    scan = validator.validate(uri, max_violations=3, threads=2)
    assert comparable(scan.to_dict()) == comparable(py.to_dict())
    assert comparable(scan.to_dict()) == comparable(report(rules, uri))
    parquet = tmp_path / "rows.parquet"
    pq.write_table(reference(engine), parquet)
    assert comparable(py.to_dict()) == comparable(report(rules, parquet))
    assert py.bad_rows > 0 and py.violations
    assert scan.bad_row_mask().sum() == py.bad_rows
    for per_row in (py.bad_row_mask, lambda: py.split(uri)):
        with pytest.raises(ValueError, match="a pushdown report has no per-row verdicts"):
            per_row()


def test_source_mode_in_the_rule_file_and_the_mode_argument(tmp_path):
    uri = sqlite_table(tmp_path, reference("sqlite"))
    rules = tmp_path / "rules.yaml"
    rules.write_text(rules_text("sqlite").replace("dataset: sql_pushdown\n",
                                                  "dataset: sql_pushdown\nsource: {mode: pushdown}\n"))
    validator = griffin.Validator.from_yaml(str(rules))
    by_file = validator.validate(uri, max_violations=3, threads=2)
    assert same_run(by_file.to_dict()) == same_run(report(rules, uri))
    assert "ran_in" in by_file.checks[0]
    scan = validator.validate(uri, mode="scan", max_violations=3, threads=2)
    assert "ran_in" not in scan.checks[0]
    assert comparable(scan.to_dict()) == comparable(by_file.to_dict())


def test_pushdown_is_refused_where_the_cli_refuses_it(tmp_path):
    uri = sqlite_table(tmp_path, reference("sqlite"))
    rules = tmp_path / "rules.yaml"
    rules.write_text(rules_text("sqlite"))
    validator = griffin.Validator.from_yaml(str(rules))
    parquet = tmp_path / "rows.parquet"
    pq.write_table(reference("sqlite"), parquet)
    for data in (parquet, [uri, uri], reference("sqlite"), reference("sqlite").to_pandas()):
        with pytest.raises(griffin.RuleError, match=r"pushdown validates one database input \(postgresql://"):
            validator.validate(data, mode="pushdown")
    with pytest.raises(griffin.RuleError, match="expected scan, pushdown or pushdown-split, got 'fast'"):
        validator.validate(uri, mode="fast")
    with pytest.raises(TypeError, match="mode"):
        validator.validate(uri, mode=1)
    incremental = griffin.Validator.from_yaml(rules_text("sqlite").replace(
        "dataset: sql_pushdown\n", "dataset: sql_pushdown\nsource: {incremental: {column: id}}\n"))
    # Without store= an incremental rule file reads the whole table, in pushdown as in scan.
    whole = incremental.validate(uri, mode="pushdown")
    assert (whole.rows, whole.bad_rows) == (incremental.validate(uri).rows, incremental.validate(uri).bad_rows)
    # A missing table is an input error, as the CLI's exit 3.
    with pytest.raises(griffin.InputError, match="no such table"):
        validator.validate(uri.replace("table=rows", "table=nope"), mode="pushdown")
    # Frames keep working in scan mode (the default) with a pushdown rule file.
    pushdown_rules = griffin.Validator.from_yaml(rules_text("sqlite").replace(
        "dataset: sql_pushdown\n", "dataset: sql_pushdown\nsource: {mode: pushdown}\n"))
    assert pushdown_rules.validate(reference("sqlite")).rows == len(reference("sqlite"))
    assert json.loads(validator.validate(uri, mode="pushdown").to_json())["rows"] == len(reference("sqlite"))
