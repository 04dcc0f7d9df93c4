"""Engine-side typing and rule loading (issue 11), through the front ends where
the defects were found, each compared with `griffin validate` on the same rows:

- a float column (pandas' int column with missing values) passes an int64 rule
  value by value, and an int column passes a float64 rule;
- `source.null_values` apply to string columns of frames and typed files;
- contradictory bounds are refused when the rules load (exit 2, file:line: key);
- `.json` inputs holding one array of objects; the unknown-extension error;
- the text report prints numbers briefly and says "nan fails min";
- the stored column profiles count distinct values exactly (and never above the
  non-null count).
"""
import json
import sqlite3
import subprocess
import textwrap

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import griffin  # noqa: E402  (installed by scripts/setup.sh)

from griffin_cli import require_binary  # noqa: E402

VERDICT_KEYS = ("rows", "bad_rows", "malformed_rows", "quality_score", "passed", "schema_errors")


def run_cli(*args, cwd=None):
    command = [str(require_binary()), *map(str, args)]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=cwd)


def cli_report(rules, *inputs):
    done = run_cli("validate", "-r", rules, *inputs, "--format", "json", "--no-store", "--threads", 2)
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)


def verdicts(report):
    """What must agree between front ends: counts and which rows fail which checks."""
    checks = [{k: c.get(k) for k in ("name", "evaluated", "violations", "passed", "observed")}
              for c in report["checks"] if c["check"] != "malformed"]  # frames have no malformed check
    rows = [(v["row"], v["check"]) for v in report["violations"]]
    return {**{k: report[k] for k in VERDICT_KEYS}, "checks": checks, "violations": rows}


def check(report, name):
    return next(c for c in report["checks"] if c["name"] == name)


def write(path, text):
    path.write_text(textwrap.dedent(text))
    return path


POPULATION_RULES = """\
    griffin: 1
    dataset: cities
    columns:
      City:
        type: string
        not_null: true
      Population:
        type: int64
        min: 0
        unique: true
        in: [987555, 4000, 12, 0]
    table:
      - sum: {column: Population, max: 991567}
      - distinct_count: {column: Population, max: 4}
    """

POPULATION_CSV = """\
    City,Population
    Ayacucho,987555
    Lima,
    Cusco,4000
    Puno,12
    Tacna,
    Ica,4000
    Nazca,0
    """


def test_pandas_int_column_holding_nan_passes_int64_as_the_csv_does(tmp_path):
    pd = pytest.importorskip("pandas")
    rules = write(tmp_path / "rules.yaml", POPULATION_RULES)
    csv = write(tmp_path / "cities.csv", POPULATION_CSV)
    frame = pd.read_csv(csv)
    assert frame["Population"].dtype == "float64"  # pandas' int column with missing values
    expected = cli_report(rules, csv)
    assert check(expected, "Population.type")["violations"] == 0  # every value passes
    actual = griffin.Validator.from_yaml(rules).validate(frame).to_dict()
    assert verdicts(actual) == verdicts(expected)
    assert [v["check"] for v in actual["violations"]] == ["Population.unique"]  # 4000 twice


def test_non_integral_floats_fail_type_and_say_why(tmp_path):
    pd = pytest.importorskip("pandas")
    rules = write(tmp_path / "rules.yaml", POPULATION_RULES)
    csv = write(tmp_path / "cities.csv", POPULATION_CSV.replace("987555", "987555.5"))
    frame = pd.read_csv(csv)
    expected = cli_report(rules, csv)
    actual = griffin.Validator.from_yaml(rules).validate(frame).to_dict()
    assert verdicts(actual) == verdicts(expected)
    assert actual["schema_errors"] == []
    first = actual["violations"][0]
    assert (first["row"], first["check"], first["value"]) == (0, "Population.type", 987555.5)
    assert first["message"] == "Population 987555.5 is not an integral value for int64"
    assert expected["violations"][0]["message"] == "Population '987555.5' is not a valid int64"


def test_parquet_float_column_under_int64_matches_the_csv(tmp_path):
    rules = write(tmp_path / "rules.yaml", POPULATION_RULES)
    csv = write(tmp_path / "cities.csv", POPULATION_CSV)
    parquet = tmp_path / "cities.parquet"
    pq.write_table(pa.table({
        "City": ["Ayacucho", "Lima", "Cusco", "Puno", "Tacna", "Ica", "Nazca"],
        "Population": pa.array([987555.0, None, 4000.0, 12.0, None, 4000.0, 0.0], pa.float64())}), parquet)
    assert verdicts(cli_report(rules, parquet)) == verdicts(cli_report(rules, csv))


def test_int_column_passes_a_float64_rule_as_text_does(tmp_path):
    rules = write(tmp_path / "rules.yaml", """\
        griffin: 1
        dataset: ints
        columns:
          x: {type: float64, max: 10}
          y: {type: float64, min: 0}
        """)
    csv = write(tmp_path / "ints.csv", "x,y\n1,5\n,7\n30,9007199254740993\n")
    table = pa.table({"x": pa.array([1, None, 30], pa.int64()),
                      "y": pa.array([5, 7, 9007199254740993], pa.uint64())})
    expected = cli_report(rules, csv)
    actual = griffin.Validator.from_yaml(rules).validate(table).to_dict()
    assert verdicts(actual) == verdicts(expected)
    assert actual["schema_errors"] == [] and actual["bad_rows"] == 1  # only x 30 > 10


NULL_RULES = """\
    griffin: 1
    dataset: nulls
    source:
      null_values: ["", "NA", "n/a"]
    columns:
      name: {not_null: true, unique: true}
      qty: {type: int64, not_null: true}
      code: {in: [a, b]}
    rows:
      - name: code_needs_qty
        expr: "code is null or qty is not null"
    table:
      - null_fraction: {column: code, max: 0.5}
    """

NULL_CSV = """\
    name,qty,code
    x,1,a
    NA,2,NA
    ,n/a,b
    y,NA,a
    n/a,3,
    z, 4 ,c
    """


def test_null_values_apply_to_frame_string_columns_as_to_the_csv(tmp_path):
    pd = pytest.importorskip("pandas")
    rules = write(tmp_path / "rules.yaml", NULL_RULES)
    csv = write(tmp_path / "nulls.csv", NULL_CSV)
    expected = cli_report(rules, csv)
    assert check(expected, "name.not_null")["violations"] == 3  # NA, "", n/a
    frame = pd.read_csv(csv, dtype=str, keep_default_na=False)  # the text as written
    assert list(frame["name"]) == ["x", "NA", "", "y", "n/a", "z"]
    validator = griffin.Validator.from_yaml(rules)
    actual = validator.validate(frame).to_dict()
    assert verdicts(actual) == verdicts(expected)
    nulls = [v for v in actual["violations"] if v["check"] == "name.not_null"]
    assert [v["value"] for v in nulls] == [None, None, None]
    # Arrow strings of every layout: large_string, string_view, dictionary.
    table = pa.Table.from_pandas(frame, preserve_index=False)
    for cast in (pa.large_string(), pa.string_view()):
        other = pa.table({n: table[n].cast(cast) for n in table.column_names})
        assert verdicts(validator.validate(other).to_dict()) == verdicts(expected), cast
    dictionary = pa.table({n: table[n].dictionary_encode() for n in table.column_names})
    assert verdicts(validator.validate(dictionary).to_dict()) == verdicts(expected)
    parquet = tmp_path / "nulls.parquet"
    pq.write_table(table, parquet)
    assert verdicts(cli_report(rules, parquet)) == verdicts(expected)


def test_null_values_apply_to_json_strings_not_numbers(tmp_path):
    rules = write(tmp_path / "rules.yaml", """\
        griffin: 1
        dataset: json_nulls
        source:
          null_values: ["NA", "7"]
        columns:
          s: {not_null: true}
          n: {type: int64, not_null: true}
        """)
    lines = write(tmp_path / "x.jsonl", '{"s": "NA", "n": 7}\n{"s": "ok", "n": "NA"}\n{"s": "", "n": "7"}\n')
    report = cli_report(rules, lines)
    assert [(v["row"], v["check"]) for v in report["violations"]] == [
        (0, "s.not_null"), (1, "n.not_null"), (2, "n.not_null")]  # "" is not a spelling here


@pytest.mark.parametrize("columns, message", [
    ("  a:\n    type: int64\n    min: 10\n    max: 0\n",
     "columns.a.max: min 10 is greater than max 0 (min is on line 6)"),
    ("  a:\n    type: float64\n    gt: 5\n    lt: 5\n",
     "columns.a.lt: gt 5 and lt 5 leave no value that can pass (gt is on line 6)"),
    ("  a:\n    type: int64\n    lt: 3\n    min: 3\n",
     "columns.a.min: min 3 and lt 3 leave no value that can pass (lt is on line 6)"),
    ("  a:\n    type: float64\ntable:\n  - mean: {column: a, min: 10, max: 0}\n",
     "table[0].mean.max: min 10 is greater than max 0"),
    ("  a:\n    type: float64\ntable:\n  - quantile: {column: a, q: 0.9, min: 5, max: 1}\n",
     "table[0].quantile.max: min 5 is greater than max 1"),
])
def test_contradictory_bounds_are_refused_at_load(tmp_path, columns, message):
    rules = tmp_path / "rules.yaml"
    rules.write_text("griffin: 1\ndataset: bounds\ncolumns:\n" + columns)  # the second bound is on line 7
    write(tmp_path / "x.csv", "a\n1\n")
    done = run_cli("validate", "-r", "rules.yaml", "x.csv", "--no-store", cwd=tmp_path)
    assert done.returncode == 2, done.stdout
    assert done.stderr.strip().splitlines() == [f"griffin: rules.yaml:7: {message}"]
    with pytest.raises(griffin.RuleError) as error:  # every front end loads the same way
        griffin.Validator.from_yaml(rules)
    assert f"rules.yaml:7: {message}" in str(error.value)


def test_json_array_input_gives_the_rows_of_its_json_lines(tmp_path):
    rules = write(tmp_path / "rules.yaml", """\
        griffin: 1
        dataset: arr
        source:
          null_values: ["NA"]
        columns:
          id: {type: int64, unique: true}
          name: {not_null: true}
        """)
    records = [{"id": 1, "name": "a"}, {"id": 2, "name": "NA"}, [3], {"id": "x"}, {"id": 2, "name": "d"}]
    jsonl = tmp_path / "x.jsonl"
    jsonl.write_text("".join(json.dumps(r) + "\n" for r in records))
    array = tmp_path / "x.json"
    array.write_text(json.dumps(records, indent=2))  # pretty-printed: elements span lines
    expected, actual = cli_report(rules, jsonl), cli_report(rules, array)
    assert verdicts(actual) == verdicts(expected)
    assert [(v["row"], v["check"]) for v in actual["violations"]] == [
        (1, "name.not_null"), (2, "malformed"), (3, "id.type"), (3, "name.not_null"), (4, "id.unique")]
    gz = tmp_path / "y.json.gz"
    import gzip
    gz.write_bytes(gzip.compress(array.read_bytes()))
    assert verdicts(cli_report(rules, gz)) == verdicts(expected)
    broken = write(tmp_path / "broken.json", '[{"id": 1},\n {"id": 2}\n')
    done = run_cli("validate", "-r", rules, broken, "--no-store")
    assert done.returncode == 3
    assert done.stderr.strip() == (f"griffin: {broken}: the input ends before the array's closing ']' "
                                   "(in element 1, after byte 23)")


def test_unknown_extension_names_input_format(tmp_path):
    rules = write(tmp_path / "rules.yaml", "griffin: 1\ndataset: d\ncolumns:\n  a: {}\n")
    data = write(tmp_path / "data.txt", "a\n1\n")
    done = run_cli("validate", "-r", rules, data, "--no-store")
    assert done.returncode == 3
    assert "--input-format csv|tsv|jsonl|json|parquet|arrow" in done.stderr
    assert "--format" not in done.stderr.replace("--input-format", "")


def test_text_report_prints_numbers_briefly_and_json_exactly(tmp_path):
    rules = write(tmp_path / "rules.yaml", """\
        griffin: 1
        dataset: brief
        columns:
          x: {type: float64, min: 0}
        table:
          - mean: {column: x, max: 0.001}
        """)
    values = [0.0035545023696682463 * 3, 0.0, 0.0, "nan"]
    csv = write(tmp_path / "x.csv", "x\n" + "".join(f"{v}\n" for v in values))
    text = run_cli("validate", "-r", rules, csv, "--no-store", "--threads", 1)
    assert text.returncode == 1
    mean_line = next(line for line in text.stdout.splitlines() if line.startswith("x.mean"))
    assert "observed nan" in mean_line  # a NaN makes the mean NaN
    assert "x nan fails min 0" in text.stdout
    assert "is below min" not in text.stdout
    csv = write(tmp_path / "y.csv", "x\n" + "".join(f"{v}\n" for v in values[:3]))
    text = run_cli("validate", "-r", rules, csv, "--no-store", "--threads", 1)
    mean_line = next(line for line in text.stdout.splitlines() if line.startswith("x.mean"))
    assert "observed 0.0035545 (max 0.001)" in mean_line
    report = cli_report(rules, csv)
    mean = next(c for c in report["checks"] if c["name"] == "x.mean")
    assert mean["observed"] == pytest.approx(0.0035545023696682463, rel=1e-15)  # JSON stays exact


def test_stored_profiles_count_distinct_exactly(tmp_path):
    rules = write(tmp_path / "rules.yaml", """\
        griffin: 1
        dataset: profile
        columns:
          id: {type: int64}
          city: {type: string}
        """)
    # 20,000 distinct ids: more than one batch keeps (4,096), fewer than the exact limit.
    rows = 20000
    csv = write(tmp_path / "x.csv", "id,city\n" + "".join(f"{i * 7919},c{i % 1000}\n" for i in range(rows)))
    store = tmp_path / "runs.db"
    for batch_rows in (65536, 100):
        done = run_cli("validate", "-r", rules, csv, "--store", store, "--batch-rows", batch_rows)
        assert done.returncode == 0, done.stderr
    with sqlite3.connect(store) as db:
        got = db.execute("SELECT column_name, value_count, distinct_count, distinct_exact FROM column_metrics"
                         " ORDER BY run_id, position").fetchall()
    got = {(name, count, distinct, str(exact).lower() in ("1", "true", "t")) for name, count, distinct, exact in got}
    assert sorted(got) == [("city", rows, 1000, True), ("id", rows, rows, True)]
    small = write(tmp_path / "small.csv", "id,city\n" + "".join(f"{i * 7919},c{i}\n" for i in range(3376)))
    done = run_cli("validate", "-r", rules, small, "--store", store)  # HyperLogLog once said 3,4xx here
    assert done.returncode == 0, done.stderr
    with sqlite3.connect(store) as db:
        counts = db.execute("SELECT value_count, distinct_count FROM column_metrics WHERE column_name = 'id'"
                            " AND value_count = 3376").fetchall()
    assert counts == [(3376, 3376)]
