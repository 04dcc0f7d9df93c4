"""The 2026-12-03 contract amendments through `griffin validate` (issue 11):
malformed records fail the run unless `source.malformed.mostly` tolerates them,
a schema error makes every row bad (also in --clean/--quarantine, also when it
is found late), and --max-violations counts per check."""
import json
import subprocess

import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq

from griffin_cli import require_binary

CITIES = "city,population\nOslo,709000\nBergen,291000\nTromso,77000\n"
TX_RULES = """griffin: 1
dataset: tx
columns:
  txn_id: {type: string, not_null: true, unique: true}
  amount: {type: float64, min: 0}
"""


def validate(tmp_path, rules, inputs, *args, stdin=None):
    rules_file = tmp_path / "rules.yaml"
    rules_file.write_text(rules)
    return subprocess.run([str(require_binary()), "validate", "-r", str(rules_file), *map(str, inputs),
                           "--no-store", *args], input=stdin, capture_output=True, text=True, timeout=120)


def test_the_wrong_file_entirely_fails_with_score_zero(tmp_path):
    data = tmp_path / "cities.csv"
    data.write_text(CITIES)
    text = validate(tmp_path, TX_RULES, [data], "--no-progress")
    assert text.returncode == 1, text.stderr
    assert "FAILED" in text.stdout.splitlines()[0]
    assert "rows 3   bad rows 3 (100.000%)" in text.stdout and "quality score 0.000000" in text.stdout
    assert "schema: txn_id: required column 'txn_id' is missing from the input" in text.stdout
    report = json.loads(validate(tmp_path, TX_RULES, [data], "--format", "json").stdout)
    assert (report["rows"], report["bad_rows"], report["quality_score"], report["passed"]) == (3, 3, 0.0, False)
    assert [e["column"] for e in report["schema_errors"]] == ["txn_id", "amount"]


def test_a_file_of_mostly_malformed_records_fails(tmp_path):
    rules = "griffin: 1\ndataset: d\ncolumns:\n  a: {type: int64}\n"
    data = tmp_path / "mostly_bad.csv"
    data.write_text("a,b\n1,x\n2,y,extra\n3\n4,w,z\n")  # 3 of 4 records malformed
    done = validate(tmp_path, rules, [data], "--format", "json")
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    assert report["checks"][0] == {"name": "malformed", "column": None, "check": "malformed", "severity": "error",
                                   "evaluated": 4, "violations": 3, "pass_rate": 0.25, "mostly": 1.0,
                                   "passed": False}
    assert report["passed"] is False and report["quality_score"] == 0.25
    text = validate(tmp_path, rules, [data], "--no-progress").stdout
    assert "FAILED" in text.splitlines()[0]
    assert [line.split()[0] for line in text.splitlines() if line.startswith("malformed ")] == ["malformed"]
    assert "FAIL" in next(line for line in text.splitlines() if line.startswith("malformed "))
    # Tolerated: the same file passes with source.malformed.mostly 0.25.
    tolerant = rules.replace("columns:", "source:\n  malformed: {mostly: 0.25}\ncolumns:")
    assert validate(tmp_path, tolerant, [data], "--format", "json").returncode == 0


def test_a_typed_input_has_no_malformed_check(tmp_path):
    data = tmp_path / "t.parquet"
    pq.write_table(pa.table({"a": [1, 2]}), data)
    report = json.loads(validate(tmp_path, "griffin: 1\ndataset: d\ncolumns:\n  a: {type: int64}\n", [data],
                                 "--format", "json").stdout)
    assert [c["name"] for c in report["checks"]] == ["a.type"]


def read_csv_rows(path):
    return pacsv.read_csv(path, convert_options=pacsv.ConvertOptions(strings_can_be_null=False)).to_pylist()


def test_a_schema_error_sends_every_row_to_the_quarantine(tmp_path):
    data = tmp_path / "cities.csv"
    data.write_text(CITIES)
    clean, bad = tmp_path / "clean.csv", tmp_path / "bad.csv"
    done = validate(tmp_path, TX_RULES, [data], "--format", "json", "--clean", clean, "--quarantine", bad)
    assert done.returncode == 1, done.stderr
    assert clean.read_text() == "city,population\n"  # the header, no row
    rows = read_csv_rows(bad)
    assert [r["_griffin_row"] for r in rows] == [0, 1, 2]
    assert [r["city"] for r in rows] == ["Oslo", "Bergen", "Tromso"]
    for row in rows:
        errors = json.loads(row["_griffin_errors"])
        assert [e["check"] for e in errors] == ["schema", "schema"]
        assert "txn_id" in errors[0]["message"] and "amount" in errors[1]["message"]


def test_a_schema_error_found_in_a_later_file_redoes_the_outputs(tmp_path):
    # Outputs need inputs of the same columns; the second input's bool `amount`
    # cannot be held as float64 without loss: a schema error found after rows
    # 0-2 went out. (An int64 `amount` is no longer one: integers pass float64.)
    first, second = tmp_path / "a.csv", tmp_path / "b.parquet"
    first.write_text("txn_id,amount\nt1,5\nt2,-1\nt3,7\n")
    pq.write_table(pa.table({"txn_id": ["t4"], "amount": pa.array([True], pa.bool_())}), second)
    clean, bad = tmp_path / "clean.csv", tmp_path / "bad.csv"
    done = validate(tmp_path, TX_RULES, [first, second], "--format", "json", "--batch-rows", "1",
                    "--clean", clean, "--quarantine", bad)
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    assert (report["rows"], report["bad_rows"], report["quality_score"]) == (4, 4, 0.0)
    assert clean.read_text() == "txn_id,amount\n"
    rows = read_csv_rows(bad)
    assert [r["_griffin_row"] for r in rows] == [0, 1, 2, 3]
    checks = [[e["check"] for e in json.loads(r["_griffin_errors"])] for r in rows]
    assert checks == [["schema"], ["schema", "amount.min"], ["schema"], ["schema", "amount.type"]]
    assert not list(tmp_path.glob(".*tmp*")), "a temporary output was left behind"


def test_a_jsonl_key_in_no_line_redoes_the_outputs(tmp_path):
    data = tmp_path / "d.jsonl"
    data.write_text('{"txn_id": "t1"}\n{"txn_id": "t2"}\n')
    clean, bad = tmp_path / "clean.jsonl", tmp_path / "bad.jsonl"
    done = validate(tmp_path, TX_RULES, [data], "--format", "json", "--clean", clean, "--quarantine", bad)
    assert done.returncode == 1, done.stderr
    assert clean.read_text() == ""
    rows = [json.loads(line) for line in bad.read_text().splitlines()]
    assert [(r["txn_id"], r["_griffin_row"], r["_griffin_errors"][0]["check"]) for r in rows] == \
           [("t1", 0, "schema"), ("t2", 1, "schema")]


def test_standard_input_cannot_be_read_again_so_no_output_is_written(tmp_path):
    # JSON lines on stdin: `amount` appears in no line, known only at the end.
    clean, bad = tmp_path / "clean.csv", tmp_path / "bad.csv"
    done = validate(tmp_path, TX_RULES, ["-"], "--format", "json", "--input-format", "jsonl",
                    "--clean", clean, "--quarantine", bad, stdin='{"txn_id": "t1"}\n{"txn_id": "t2"}\n')
    assert done.returncode == 3
    assert done.stderr.count("\n") == 1 and "<stdin>" in done.stderr and "cannot be read again" in done.stderr
    assert not clean.exists() and not bad.exists()
    assert not list(tmp_path.glob(".*tmp*"))
    report = json.loads(done.stdout)  # the report itself is right, and printed
    assert (report["rows"], report["bad_rows"], report["quality_score"]) == (2, 2, 0.0)
    # CSV on stdin: the header shows the error before any row, so one pass writes the outputs.
    csv = validate(tmp_path, TX_RULES, ["-"], "--format", "json", "--clean", clean, "--quarantine", bad,
                   stdin="txn_id\nt2\n")
    assert csv.returncode == 1, csv.stderr
    assert [r["_griffin_row"] for r in read_csv_rows(bad)] == [0] and clean.read_text() == "txn_id\n"


def test_max_violations_counts_per_check_with_a_default_of_100(tmp_path):
    rules = ("griffin: 1\ndataset: d\ncolumns:\n  note: {length: {max: 1, severity: warn}}\n"
             "  v: {type: int64}\n")
    data = tmp_path / "d.csv"
    data.write_text("note,v\n" + "xx,1\n" * 1000 + "x,oops\n")
    report = json.loads(validate(tmp_path, rules, [data], "--format", "json").stdout)
    listed = [v["check"] for v in report["violations"]]
    assert listed.count("note.length") == 100 and listed.count("v.type") == 1
    assert report["violations"][-1]["row"] == 1000 and report["violations_truncated"] is True
    two = json.loads(validate(tmp_path, rules, [data], "--format", "json", "--max-violations", "2").stdout)
    assert [(v["row"], v["check"]) for v in two["violations"]] == \
           [(0, "note.length"), (1, "note.length"), (1000, "v.type")]
    text = validate(tmp_path, rules, [data], "--no-progress").stdout
    assert "--format json for more" not in text
    assert "--max-violations N lists up to N per check" in text
    assert "row 1000" in text  # the failing error check shows its example


def test_help_says_max_violations_is_per_check():
    done = subprocess.run([str(require_binary()), "validate", "--help"], capture_output=True, text=True)
    assert "lists per check" in done.stdout and "100" in done.stdout
