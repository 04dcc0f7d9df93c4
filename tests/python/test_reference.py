"""Hand-computed cases for the reference (reference.py and its ref_* modules), so
that the oracle of the differential test is itself held to the spec. Needs no binary."""
import math

import pytest

import diff_data
import ref_csv
import ref_expr
import ref_values
import reference


def _records(data):
    return [(r.fields, r.raw, r.malformed) for r in ref_csv.read_records(data)]


def test_tokenizer_quotes_line_ends_and_empty_lines():
    data = b'a,b\r\n"x,1","say ""hi"""\n\n"multi\r\nline",q"uote\nlast,row'
    assert _records(data) == [
        (["a", "b"], b"a,b", False),
        (["x,1", 'say "hi"'], b'"x,1","say ""hi"""', False),
        (["multi\r\nline", 'q"uote'], b'"multi\r\nline",q"uote', False),
        (["last", "row"], b"last,row", False),
    ]


def test_tokenizer_malformed_records():
    data = b'"ab"c,d\nok,1\n\xff,2\nx,"open\n,never closed'
    assert _records(data) == [
        (["abc", "d"], b'"ab"c,d', True),
        (["ok", "1"], b"ok,1", False),
        (None, b"\xff,2", True),
        (["x", "open\n,never closed"], b'x,"open\n,never closed', True),
    ]


def test_value_parsing():
    assert ref_values.parse_int64(" -12 ") == -12
    assert ref_values.parse_int64("+7") == 7
    assert ref_values.parse_int64("9223372036854775808") is None
    assert ref_values.parse_int64("1.0") is None
    assert math.isnan(ref_values.parse_float64("NaN"))
    assert ref_values.parse_float64("-Infinity") == -math.inf
    assert ref_values.parse_float64("1e3") == 1000.0
    assert ref_values.parse_float64("0x10") is None
    assert ref_values.parse_float64("1,5") is None
    assert ref_values.parse_bool("Yes") == 1 and ref_values.parse_bool("F") == 0
    assert ref_values.parse_bool("2") is None
    assert ref_values.parse_date("2024-02-29") == 19782
    assert ref_values.parse_date("2023-02-29") is None
    assert ref_values.parse_timestamp("2024-01-01") is None
    assert ref_values.parse_timestamp("1970-01-01T00:00:01.1234567Z") == 1_123_456
    assert ref_values.parse_timestamp("1970-01-01 02:00:00+02:00") == 0
    assert ref_values.parse_timestamp("2024-01-01T24:00:00") is None
    assert ref_values.format_timestamp(1_500_000) == "1970-01-01T00:00:01.500000Z"
    assert ref_values.format_date(19782) == "2024-02-29"


@pytest.mark.parametrize("text,values,expected", [
    ("kind != 'refund' or amount < 0", {"kind": ("str", "refund"), "amount": ("float", 5.0)}, 0),
    ("kind != 'refund' or amount < 0", {"kind": ("str", "refund"), "amount": None}, None),
    ("kind != 'refund' or amount < 0", {"kind": None, "amount": ("float", -1.0)}, 1),
    ("a and b", {"a": ("bool", 0), "b": None}, 0),
    ("not (a and b)", {"a": ("bool", 1), "b": None}, None),
    ("tag > 5", {"tag": ("str", " 7 ")}, 1),
    ("tag > 5", {"tag": ("str", "x")}, None),
    ("n * 2 > 0", {"n": ("int", 2**62)}, None),      # int overflow -> null
    ("n / 0 > 0", {"n": ("int", 3)}, None),          # division by zero -> null
    ("n / 2 == 1.5", {"n": ("int", 3)}, 1),          # float division
    ("x < 1", {"x": ("float", math.nan)}, 0),        # IEEE: NaN compares false
    ("x != x", {"x": ("float", math.nan)}, 1),
    ("n in (1, null)", {"n": ("int", 2)}, None),
    ("n not in (1, 3)", {"n": ("int", 2)}, 1),
    ("n in (1, 2.0)", {"n": ("int", 2)}, 1),
    ("\"my col\" is not null", {"my col": ("str", "")}, 1),
    ("ts > '2024-01-01'", {"ts": ("ts", ref_values.parse_timestamp("2024-01-01T00:00:01Z"))}, 1),
    ("length(s) == 2 and upper(s) == 'É1'", {"s": ("str", "é1")}, 0),  # ASCII-only upper
    ("matches(s, '[0-9]') and abs(n) == 4", {"s": ("str", "a1"), "n": ("int", -4)}, 1),
    ("-n - 1 * 2 >= 0 or not n is null", {"n": ("int", -3)}, 1),
])
def test_expressions(text, values, expected):
    result = ref_expr.evaluate(ref_expr.parse(text), values.get)
    assert (None if result is None else result[1]) == expected


RULES = """
griffin: 1
dataset: tiny
columns:
  id:
    type: string
    not_null: true
    unique: true
  n:
    type: int64
    not_null: true
    min: {value: 0, mostly: 0.5}
  note:
    regex: {pattern: '[a-z]+', severity: warn, message: "{column}={value} at {row}"}
rows:
  - name: positive_sum
    expr: "n + 1 > 0"
table:
  - row_count: {min: 5}
  - quantile: {column: n, q: 0.5, max: 2}
  - stddev: {column: n}
  - null_fraction: {column: n, max: 0.1}
score:
  min: 0.5
"""
CSV = b'id,n,note\na,1,x\nb,-5,Y\na,x,\nc,3,"z,z"\nbroken\nd,,w\n'


def test_tiny_report_by_hand():
    report = reference.validate(RULES, [CSV], input_names=["tiny.csv"])
    checks = {c["name"]: c for c in report["checks"]}
    assert [c["name"] for c in report["checks"]] == [
        "malformed", "id.type", "id.not_null", "id.unique", "n.type", "n.not_null", "n.min", "note.regex",
        "positive_sum", "table.row_count", "n.quantile", "n.stddev", "n.null_fraction"]
    assert (report["rows"], report["malformed_rows"], report["bad_rows"]) == (6, 1, 4)
    assert report["quality_score"] == pytest.approx(2 / 6)
    assert report["passed"] is False
    assert {k: checks["id.unique"][k] for k in ("evaluated", "violations")} == {
        "evaluated": 5, "violations": 1}
    assert {k: checks["malformed"][k] for k in ("evaluated", "violations", "passed")} == {
        "evaluated": 6, "violations": 1, "passed": False}  # rules-v1, amended 2026-12-03
    assert checks["n.type"]["violations"] == 1 and checks["n.not_null"]["violations"] == 2
    assert checks["n.min"]["evaluated"] == 3 and checks["n.min"]["passed"] is True
    assert checks["note.regex"]["violations"] == 2      # "Y" and "z,z" (full match)
    assert checks["positive_sum"]["violations"] == 1    # row 1; nulls pass
    assert checks["table.row_count"]["observed"] == 6
    assert checks["n.quantile"]["observed"] == 1        # sorted -5, 1, 3: rank ceil(1.5) = 2
    assert checks["n.stddev"]["observed"] == pytest.approx(math.sqrt(((-5 + 1/3) ** 2 + (1 + 1/3) ** 2 + (3 + 1/3) ** 2) / 2))
    assert checks["n.null_fraction"]["observed"] == pytest.approx(2 / 5)
    listed = [(v["row"], v["check"], v["value"]) for v in report["violations"]]
    assert listed == [
        (1, "n.min", "-5"), (1, "note.regex", "Y"), (1, "positive_sum", None),
        (2, "id.unique", "a"), (2, "n.type", "x"), (2, "n.not_null", "x"),
        (3, "note.regex", "z,z"), (4, "malformed", "broken"), (5, "n.not_null", None)]
    assert report["violations"][1]["message"] == "note=Y at 1"


def test_reference_runs_on_every_differential_input():
    for seed in range(20):
        data, rows = diff_data.random_csv(seed)
        report = reference.validate(diff_data.RULES, [data], max_violations=10**9)
        assert report["rows"] >= rows  # an unterminated last record adds one row
        assert report["bad_rows"] >= report["malformed_rows"]
        assert len(report["checks"]) == 55  # 54 of the rule file, `malformed` first
    assert diff_data.random_csv(5) == diff_data.random_csv(5)
