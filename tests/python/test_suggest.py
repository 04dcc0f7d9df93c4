"""`griffin suggest`: the rule file it writes loads, the data it came from passes
it through `griffin validate` (every input format), and a corrupted copy fails
exactly the checks the corruption breaks (docs/profile.md "Suggested rules")."""
import json
import subprocess

import pyarrow as pa
import pyarrow.parquet as pq

from griffin_cli import require_binary, run_validate
from test_profile import COLUMNS, generated_rows, write_csv


def suggest(*args, check=True):
    done = subprocess.run([str(require_binary()), "suggest", *map(str, args)], capture_output=True, timeout=300)
    if check:
        assert done.returncode == 0, done.stderr.decode()
    return done


def failed_checks(report):
    return sorted(c["name"] for c in report["checks"] if not c["passed"])


def test_suggested_rules_pass_the_data_they_came_from(tmp_path):
    rows = generated_rows(5000, seed=3)
    csv = tmp_path / "orders.csv"
    write_csv(csv, rows)
    rules = tmp_path / "orders.rules.yaml"
    suggest(csv, "-o", rules)
    text = rules.read_text()
    for expected in ["dataset: orders", "id:\n    type: int64", "unique: true", "not_null: true",
                     "in: [fee, purchase, refund, transfer]", 'regex: "^[A-Z]{2}[0-9]{4}$"', "type: date",
                     "null_fraction: {column: maybe, max: ", "row_count: {min: 1}", "email"]:
        assert expected in text, expected
    # every rule has its evidence
    for line in text.splitlines():
        if line.startswith("    ") or line.startswith("  - "):
            assert "  # " in line, line
    status, report, _ = run_validate(rules, [csv])
    assert status == 0 and report["passed"] and failed_checks(report) == []
    assert report["quality_score"] == 1.0

    import griffin
    py = griffin.Validator.from_yaml(str(rules)).validate(str(csv))
    assert py.passed and py.bad_rows == 0

    # The same rules from Parquet and JSON lines copies pass those copies.
    table = pa.table({c: [r[c] if r[c] != "" else None for r in rows] for c in COLUMNS})
    pq.write_table(table, tmp_path / "orders.parquet")
    with open(tmp_path / "orders.jsonl", "w") as f:
        for r in rows:
            f.write(json.dumps({c: r[c] for c in COLUMNS if r[c] != ""}) + "\n")
    for name in ["orders.parquet", "orders.jsonl"]:
        own = tmp_path / (name + ".rules.yaml")
        suggest(tmp_path / name, "-o", own)
        status, report, _ = run_validate(own, [tmp_path / name])
        assert status == 0 and failed_checks(report) == [], (name, failed_checks(report))


def test_a_corrupted_copy_fails_the_expected_checks(tmp_path):
    rows = generated_rows(3000, seed=5)
    csv = tmp_path / "orders.csv"
    write_csv(csv, rows)
    rules = tmp_path / "rules.yaml"
    suggest(csv, "-o", rules)
    bad = [dict(r) for r in rows]
    bad[10]["id"] = bad[11]["id"]               # a duplicate id
    bad[20]["kind"] = "chargeback"              # a kind never seen
    bad[30]["code"] = "ZZ-1"                    # another pattern, another length
    bad[40]["day"] = "2031-05-05"               # after the latest day
    bad[50]["email"] = ""                       # a null where there were none
    corrupted = tmp_path / "corrupted.csv"
    write_csv(corrupted, bad)
    status, report, _ = run_validate(rules, [corrupted])
    assert status == 1
    assert failed_checks(report) == sorted([
        "id.unique", "kind.in", "code.regex", "code.length", "day.max", "email.not_null"])
    assert report["bad_rows"] == 5


def test_wrong_inputs(tmp_path):
    empty = tmp_path / "empty.csv"
    empty.write_text("a,b\n")
    rules = tmp_path / "empty.yaml"
    suggest(empty, "-o", rules)
    status, report, _ = run_validate(rules, [empty])
    assert status == 0 and report["rows"] == 0
    nulls = tmp_path / "nulls.csv"
    nulls.write_text("a,b\n,1\n,2\n")
    text = suggest(nulls).stdout.decode()
    assert "# a: every value is null (2 rows); no rule suggested" in text
    status, report, _ = run_validate_text(tmp_path, text, nulls)
    assert status == 0
    over = suggest(nulls, "-o", nulls, check=False)
    assert over.returncode == 2 and nulls.read_text().startswith("a,b")
    missing = suggest(tmp_path / "nope.csv", check=False)
    assert missing.returncode == 3 and b"nope.csv" in missing.stderr


def run_validate_text(tmp_path, text, data):
    path = tmp_path / "suggested.yaml"
    path.write_text(text)
    return run_validate(path, [data])
