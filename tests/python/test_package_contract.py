"""The 2026-12-03 contract amendments through the Python package (issue 11): a
schema error makes every row bad (Report.split gives an empty clean table and
quarantines every row with the schema error as its reason, as the CLI's
outputs do), the `malformed` check of text inputs, and max_violations counted
per check with the CLI's default."""
import json
import subprocess

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

import griffin

from griffin_cli import require_binary

RULES = """griffin: 1
dataset: tx
columns:
  txn_id: {type: string, not_null: true}
  amount: {type: float64, min: 0}
"""


def cli(rules_path, inputs, tmp_path, *args):
    clean, bad = tmp_path / "cli_clean.parquet", tmp_path / "cli_bad.parquet"
    done = subprocess.run([str(require_binary()), "validate", "-r", str(rules_path), *map(str, inputs), "--no-store",
                           "--format", "json", "--clean", str(clean), "--quarantine", str(bad), *args],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout), pq.read_table(clean), pq.read_table(bad)


def reasons(quarantined):
    return [[e["check"] for e in errors] for errors in quarantined["_griffin_errors"].to_pylist()]


def test_a_frame_missing_a_required_column_splits_into_an_empty_clean_table(tmp_path):
    rules = tmp_path / "r.yaml"
    rules.write_text(RULES)
    frame = pd.DataFrame({"txn_id": ["a", None, "c"]})
    report = griffin.Validator.from_yaml(rules).validate(frame)
    assert (report.rows, report.bad_rows, report.quality_score, report.passed) == (3, 3, 0.0, False)
    assert report.bad_row_mask().all()
    clean, quarantined = report.split(frame)
    assert clean.num_rows == 0 and clean.column_names == ["txn_id"]
    assert quarantined["_griffin_row"].to_pylist() == [0, 1, 2]
    assert reasons(quarantined) == [["schema"], ["schema", "txn_id.not_null"], ["schema"]]
    assert "amount" in quarantined["_griffin_errors"][0].as_py()[0]["message"]
    # The CLI on the same rows: the same verdicts and reasons.
    path = tmp_path / "d.parquet"
    pq.write_table(pa.Table.from_pandas(frame, preserve_index=False), path)
    cli_report, cli_clean, cli_bad = cli(rules, [path], tmp_path)
    assert (cli_report["bad_rows"], cli_report["quality_score"]) == (report.bad_rows, report.quality_score)
    assert cli_clean.num_rows == 0
    assert quarantined.to_pylist() == cli_bad.to_pylist()


def test_a_csv_path_with_a_schema_error_quarantines_everything_like_the_cli(tmp_path):
    rules = tmp_path / "r.yaml"
    rules.write_text(RULES)
    data = tmp_path / "cities.csv"
    data.write_text("city,population\nOslo,709000\nBergen,291000\n")
    report = griffin.Validator.from_yaml(rules).validate(str(data))
    clean, quarantined = report.split(str(data))
    _, cli_clean, cli_bad = cli(rules, [data], tmp_path)
    assert clean.num_rows == 0 == cli_clean.num_rows
    assert quarantined.to_pylist() == cli_bad.to_pylist()
    assert reasons(quarantined) == [["schema", "schema"]] * 2


def test_a_schema_error_found_at_the_end_still_makes_the_earlier_rows_bad(tmp_path):
    # JSON lines: `amount` appears in no line, which is known only at the end,
    # after the rows were collected batch by batch (batch_rows=1).
    rules = tmp_path / "r.yaml"
    rules.write_text(RULES)
    data = tmp_path / "d.jsonl"
    data.write_text('{"txn_id": "a"}\n{"txn_id": null}\n{"txn_id": "c"}\n')
    report = griffin.Validator.from_yaml(rules).validate(str(data), batch_rows=1)
    assert report.bad_row_mask().tolist() == [True, True, True]
    assert report.quality_score == 0.0
    clean, quarantined = report.split(str(data))
    assert clean.num_rows == 0
    assert reasons(quarantined) == [["schema"], ["schema", "txn_id.not_null"], ["schema"]]
    _, _, cli_bad = cli(rules, [data], tmp_path, "--batch-rows", "1")
    assert reasons(cli_bad) == reasons(quarantined)


def test_the_malformed_check_comes_first_for_text_and_is_absent_for_frames(tmp_path):
    rules = tmp_path / "r.yaml"
    rules.write_text(RULES)
    data = tmp_path / "d.csv"
    data.write_text("txn_id,amount\na,1\nb,2,extra\n")
    validator = griffin.Validator.from_yaml(rules)
    report = validator.validate(str(data))
    assert report.checks[0]["name"] == "malformed" and report.checks[0]["violations"] == 1
    assert report.passed is False
    frame_report = validator.validate(pd.DataFrame({"txn_id": ["a"], "amount": [1.0]}))
    assert [c["name"] for c in frame_report.checks] == ["txn_id.type", "txn_id.not_null", "amount.type", "amount.min"]


def test_max_violations_is_per_check_with_the_cli_default():
    assert griffin.DEFAULT_MAX_VIOLATIONS == 100
    rules = ("griffin: 1\ndataset: d\ncolumns:\n  note: {length: {max: 1, severity: warn}}\n"
             "  v: {type: int64, min: 0}\n")
    validator = griffin.Validator.from_yaml(rules)
    table = pa.table({"note": ["xx"] * 300 + ["x"], "v": np.append(np.ones(300, dtype=np.int64), -1)})
    listed = [v["check"] for v in validator.validate(table).violations]
    assert listed.count("note.length") == 100 and listed == ["note.length"] * 100 + ["v.min"]
    two = [v["check"] for v in validator.validate(table, max_violations=2).violations]
    assert two == ["note.length", "note.length", "v.min"]


def test_the_typing_stub_declares_every_public_method_of_validator_and_report():
    import ast
    import pathlib
    # The installed package's stub: what a user's type checker reads.
    stub = ast.parse((pathlib.Path(griffin.__file__).parent / "__init__.pyi").read_text())
    def name(item):
        return item.target.id if isinstance(item, ast.AnnAssign) else getattr(item, "name", None)
    declared = {node.name: {name(item) for item in node.body} for node in stub.body if isinstance(node, ast.ClassDef)}
    for cls in (griffin.Validator, griffin.Report):
        public = {name for name in dir(cls) if not name.startswith("_")}
        missing = public - declared[cls.__name__]
        assert not missing, f"{cls.__name__}: not in griffin/__init__.pyi: {sorted(missing)}"
