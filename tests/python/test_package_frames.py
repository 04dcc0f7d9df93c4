"""Frames through the Python API (issue 11 "Frames and the pandas chunk loop",
issue 12's InputError item): polars view and dictionary columns, pandas index
labels and chunk inference, iter_batches' row numbers, and conversion errors.
Verdicts are compared with `griffin validate` on the same rows written as CSV."""
import json
import textwrap
import warnings

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import griffin

from griffin_cli import REPO_ROOT, run_validate

EXAMPLE_RULES = REPO_ROOT / "examples" / "transactions.rules.yaml"
EXAMPLE_CSV = REPO_ROOT / "examples" / "transactions.csv"

STRING_RULES = textwrap.dedent("""\
    griffin: 1
    dataset: frames
    columns:
      name: {type: string, not_null: true, length: {max: 6}}
      city: {type: string, in: [Oslo, Lima, Pune]}
      level: {type: string, in: [low, high]}
      code: {type: string, regex: '^[A-Z]{3}$'}
      n: {type: int64, min: 0}
    """)


def string_frame(rows=3000, seed=7):
    """A polars frame: name string_view (some nulls, some too long), city
    Categorical (one value not allowed), level Enum, code string_view, n int64."""
    rng = np.random.default_rng(seed)
    names = np.array(["ann", "bo", "cy", "delphine", "ed"])[rng.integers(0, 5, rows)].astype(object)
    names[rng.integers(0, rows, rows // 50)] = None
    return pl.DataFrame({
        "name": pl.Series(names.tolist(), dtype=pl.String),
        "city": pl.Series(np.array(["Oslo", "Lima", "Pune", "Rome"])[rng.choice(4, rows, p=[.4, .3, .29, .01])].tolist(),
                          dtype=pl.Categorical),
        "level": pl.Series(np.array(["low", "high", "mid"])[rng.choice(3, rows, p=[.5, .48, .02])].tolist(),
                           dtype=pl.Enum(["low", "mid", "high"])),
        "code": pl.Series(np.array(["ABC", "XYZ", "Q1Z", "QRS"])[rng.integers(0, 4, rows)].tolist(), dtype=pl.String),
        "n": pl.Series((rng.integers(-5, 1000, rows)).tolist(), dtype=pl.Int64),
    })


@pytest.fixture
def string_rules(tmp_path):
    path = tmp_path / "frames.rules.yaml"
    path.write_text(STRING_RULES)
    return path


def check_counts(checks):
    return {c["name"]: (c.get("evaluated"), c.get("violations"), c["passed"]) for c in checks
            if c["name"] != "malformed"}


def cli_bad_rows(report):
    """The CLI's bad rows: rows with a listed error-severity violation."""
    errors = {c["name"] for c in report["checks"] if c["severity"] == "error"}
    return sorted({v["row"] for v in report["violations"] if v["check"] in errors})


def assert_same_verdicts(report, rules, csv_path):
    """report (Python, any frame) agrees with `griffin validate` on csv_path."""
    _, cli, _ = run_validate(rules, [csv_path])
    assert check_counts(report.checks) == check_counts(cli["checks"])
    assert report.rows == cli["rows"] and report.bad_rows == cli["bad_rows"]
    assert np.flatnonzero(report.bad_row_mask()).tolist() == cli_bad_rows(cli)
    assert [(v["row"], v["check"]) for v in report.violations] == \
        [(v["row"], v["check"]) for v in cli["violations"] if v["check"] != "malformed"]
    return cli


# --- polars: string_view, large_string, categorical and enum -----------------

def test_polars_view_and_dictionary_columns_reach_the_engine(string_rules, tmp_path):
    frame = string_frame()
    schema = pa.RecordBatchReader.from_stream(frame).schema
    assert schema.field("name").type == pa.string_view()
    assert pa.types.is_dictionary(schema.field("city").type)   # Categorical
    assert pa.types.is_dictionary(schema.field("level").type)  # Enum
    csv_path = tmp_path / "frame.csv"
    frame.write_csv(csv_path)
    report = griffin.Validator.from_yaml(string_rules).validate(frame, max_violations=10**6)
    assert report.bad_rows > 0
    assert_same_verdicts(report, string_rules, csv_path)


def test_polars_split_keeps_types_and_partitions_rows(string_rules):
    frame = string_frame(rows=500)
    validator = griffin.Validator.from_yaml(string_rules)
    report = validator.validate(frame)
    clean, quarantined = report.split(frame)
    whole = pa.RecordBatchReader.from_stream(frame).read_all()
    assert clean.schema == whole.schema                      # string_view and dictionaries kept
    bad = report.bad_row_mask()
    assert clean.to_pylist() == [row for row, is_bad in zip(whole.to_pylist(), bad) if not is_bad]
    assert quarantined.drop_columns(["_griffin_row", "_griffin_errors", "_griffin_raw"]).to_pylist() == \
        [row for row, is_bad in zip(whole.to_pylist(), bad) if is_bad]
    assert quarantined["_griffin_row"].to_pylist() == np.flatnonzero(bad).tolist()


def test_polars_split_with_no_bad_rows(string_rules):
    """The reported crash: array_take had no string_view kernel, even with no bad rows."""
    frame = pl.DataFrame({"name": ["ann", "bo"], "city": ["Oslo", "Lima"], "level": ["low", "high"],
                          "code": ["ABC", "XYZ"], "n": [1, 2]})
    report = griffin.Validator.from_yaml(string_rules).validate(frame)
    assert report.bad_rows == 0
    clean, quarantined = report.split(frame)
    assert clean.num_rows == 2 and quarantined.num_rows == 0
    assert clean.schema.field("name").type == pa.string_view()
    assert pl.from_arrow(clean).equals(frame)


def test_polars_nested_and_binary_view_columns_split(string_rules):
    frame = pl.DataFrame({"name": ["ann", None, "bo"], "city": ["Oslo", "Lima", "Pune"],
                          "level": ["low", "high", "low"], "code": ["ABC", "XYZ", "QRS"], "n": [1, 2, 3],
                          "tags": [["a"], ["b", "c"], None], "blob": [b"1", b"2", None],
                          "meta": [{"k": "v"}, {"k": "w"}, None]})
    report = griffin.Validator.from_yaml(string_rules).validate(frame)
    clean, quarantined = report.split(frame)
    assert quarantined["_griffin_row"].to_pylist() == [1]
    assert clean["tags"].to_pylist() == [["a"], None] and clean["blob"].to_pylist() == [b"1", None]
    assert quarantined["meta"].to_pylist() == [{"k": "w"}]


def test_large_string_and_pandas_categorical_columns(string_rules, tmp_path):
    values = string_frame(rows=800, seed=3).to_dict(as_series=False)
    table = pa.table({"name": pa.array(values["name"], pa.large_string()),
                      "city": pa.array(values["city"], pa.string()).dictionary_encode(),
                      "level": pa.array(values["level"], pa.string()),
                      "code": pa.array(values["code"], pa.large_string()), "n": pa.array(values["n"], pa.int64())})
    csv_path = tmp_path / "table.csv"
    pl.from_arrow(table).write_csv(csv_path)
    validator = griffin.Validator.from_yaml(string_rules)
    for data in (table, table.to_pandas(types_mapper={pa.large_string(): pd.StringDtype("pyarrow")}.get)):
        report = validator.validate(data, max_violations=10**6)
        assert_same_verdicts(report, string_rules, csv_path)
        clean, quarantined = report.split(data)
        assert clean.num_rows + quarantined.num_rows == 800 and quarantined.num_rows == report.bad_rows > 0


def test_iter_batches_over_a_polars_ipc_file(string_rules, tmp_path):
    frame = string_frame(rows=2000)
    ipc, csv_path = tmp_path / "frame.arrow", tmp_path / "frame.csv"
    frame.write_ipc(ipc)
    frame.write_csv(csv_path)
    validator = griffin.Validator.from_yaml(string_rules)
    batches = list(griffin.iter_batches(ipc, validator, batch_rows=600, max_violations=10**6))
    _, cli, _ = run_validate(string_rules, [csv_path])
    assert sum(clean.num_rows for clean, _ in batches) == cli["rows"] - cli["bad_rows"]
    assert [v["index"] for _, r in batches for v in r.violations] == [v["row"] for v in cli["violations"]]


# --- pandas: index labels, chunks, inference ---------------------------------

CHUNK_RULES = textwrap.dedent("""\
    griffin: 1
    dataset: chunks
    columns:
      id: {type: int64, min: 0}
      zip: {type: string, regex: '^[0-9A-Z]{5}$'}
      amount: {type: float64, max: 100}
    """)


@pytest.fixture
def chunk_csv(tmp_path):
    """2,000 rows; zip holds only digits in the first 1,000 rows, letters after."""
    rng = np.random.default_rng(11)
    rows = 2000
    ids = np.arange(rows)
    ids[rng.integers(0, rows, 30)] = -1
    zips = ["%05d" % z for z in rng.integers(0, 99999, rows)]
    zips[1000:] = ["K%04d" % z for z in rng.integers(0, 9999, rows - 1000)]
    zips[1500] = "TOOLONG"
    amount = np.round(rng.uniform(0, 110, rows), 2)
    path = tmp_path / "chunks.csv"
    pd.DataFrame({"id": ids, "zip": zips, "amount": amount}).to_csv(path, index=False)
    rules = tmp_path / "chunks.rules.yaml"
    rules.write_text(CHUNK_RULES)
    return path, rules


def test_read_csv_chunks_carry_their_index(chunk_csv):
    path, rules = chunk_csv
    validator = griffin.Validator.from_yaml(rules)
    found = []
    for chunk in pd.read_csv(path, chunksize=700, dtype={"zip": str}):
        report = validator.validate(chunk, max_violations=10**6)
        assert report.index is chunk.index
        for violation in report.violations:
            assert violation["index"] == chunk.index[violation["row"]]
            found.append((violation["index"], violation["column"], violation["check"]))
        assert json.loads(report.to_json())["violations"] == report.violations
    _, cli, _ = run_validate(rules, [path])
    assert found == [(v["row"], v["column"], v["check"]) for v in cli["violations"]]
    assert any(f[0] >= 1400 for f in found)   # labels of the third chunk, not its 0-based rows


def test_index_labels_of_any_kind(chunk_csv):
    path, rules = chunk_csv
    frame = pd.read_csv(path, dtype={"zip": str}).head(40)
    frame.index = ["r%d" % i for i in range(40)]
    report = griffin.Validator.from_yaml(rules).validate(frame)
    assert report.violations and all(v["index"] == "r%d" % v["row"] for v in report.violations)
    frame.index = pd.MultiIndex.from_arrays([np.arange(40) // 10, np.arange(40) % 10])
    report = griffin.Validator.from_yaml(rules).validate(frame)
    assert all(v["index"] == [v["row"] // 10, v["row"] % 10] for v in report.violations)
    report = griffin.Validator.from_yaml(rules).validate(pa.Table.from_pandas(frame))
    assert report.index is None and all("index" not in v for v in report.violations)


def test_a_chunk_of_digits_inferred_as_int64_says_why_and_how_to_fix(chunk_csv):
    path, rules = chunk_csv
    validator = griffin.Validator.from_yaml(rules)
    first = next(iter(pd.read_csv(path, chunksize=700)))
    assert first["zip"].dtype == np.int64                       # pandas' inference, not ours
    errors = validator.validate(first).to_dict()["schema_errors"]
    assert len(errors) == 1 and errors[0]["column"] == "zip"
    message = errors[0]["message"]
    assert "pandas inferred int64 for column 'zip'" in message
    assert "dtype={'zip': str}" in message and "type in the rule file" in message
    # The advice works: read as text, the chunk agrees with the CLI on the same rows.
    fixed = next(iter(pd.read_csv(path, chunksize=700, dtype={"zip": str})))
    report = validator.validate(fixed, max_violations=10**6)
    assert report.to_dict()["schema_errors"] == []
    _, cli, _ = run_validate(rules, [path])
    assert [(v["index"], v["check"]) for v in report.violations] == \
        [(v["row"], v["check"]) for v in cli["violations"] if v["row"] < 700]


# --- iter_batches: the CLI's row numbers across malformed records ------------

def test_iter_batches_numbers_rows_as_the_cli_does():
    validator = griffin.Validator.from_yaml(EXAMPLE_RULES)
    _, cli, _ = run_validate(EXAMPLE_RULES, [EXAMPLE_CSV])
    malformed = [v["row"] for v in cli["violations"] if v["check"] == "malformed"]
    assert len(malformed) == 4
    # unique checks span the file in the CLI but one batch here; compare the row-local ones.
    local = {c["name"] for c in cli["checks"] if c["check"] not in ("unique", "malformed")
             and c.get("evaluated") is not None}
    expected = [(v["row"], v["check"], v["value"]) for v in cli["violations"] if v["check"] in local]
    found, rows = [], []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _, report in griffin.iter_batches(EXAMPLE_CSV, validator, batch_rows=3000, max_violations=10**6):
            rows.extend(report.index.tolist())
            found += [(v["index"], v["check"], v["value"]) for v in report.violations if v["check"] in local]
    assert any("4 malformed CSV record(s)" in str(w.message) for w in caught)
    assert found == expected
    assert rows == sorted(set(range(cli["rows"])) - set(malformed))   # 19999 is the last row, as in the CLI
    assert rows[-1] == cli["rows"] - 1


def test_iter_batches_numbers_rows_across_files(tmp_path):
    rules = tmp_path / "r.yaml"
    rules.write_text("griffin: 1\ndataset: d\ncolumns:\n  a: {type: int64, min: 0}\n")
    first, second = tmp_path / "a.csv", tmp_path / "b.csv"
    first.write_text("a,b\n1,x\n2\n-3,y\n4,z,extra\n\n-5,w\n")
    second.write_text("a,b\n-6,x\n7,y,z\n-8,v\n")
    validator = griffin.Validator.from_yaml(rules)
    _, cli, _ = run_validate(rules, [first, second])
    with pytest.warns(RuntimeWarning, match="3 malformed"):
        found = [v["index"] for _, r in griffin.iter_batches([first, second], validator, batch_rows=2)
                 for v in r.violations]
    assert found == [v["row"] for v in cli["violations"] if v["check"] != "malformed"] == [2, 4, 5, 7]


# --- conversion errors are InputError ----------------------------------------

@pytest.mark.parametrize("values, says", [
    ([1, "a", 2.5], "its values mix types: int first, then str at row 1"),
    (["a", 1], "its values mix types: str first, then int at row 1"),
    ([{"a": 1}, {"a": "s", "b": 2}], "dict key 'a' holds int first, then str at row 1"),
    ([{"a": 1}, {1: "x"}], "dict keys must be strings, but row 1 (index 1) has the key 1 (int)"),
])
def test_unconvertible_pandas_columns_raise_input_error(string_rules, values, says):
    frame = pd.DataFrame({"n": np.arange(len(values)), "x": values})
    validator = griffin.Validator.from_yaml(string_rules)
    with pytest.raises(griffin.InputError) as caught:
        validator.validate(frame)
    message = str(caught.value)
    assert not isinstance(caught.value, pa.ArrowException)
    assert message.startswith("<pandas.DataFrame>: column 'x' (object dtype) cannot be converted to Arrow")
    assert says in message and "astype(str)" in message
    with pytest.raises(griffin.InputError, match="column 'x'"):
        validator.validate({"x": np.array(values, dtype=object)})
    report = validator.validate(frame[["n"]])
    with pytest.raises(griffin.InputError, match="column 'x'"):
        report.split(frame)


def test_parquet_written_by_polars_matches_the_cli(string_rules, tmp_path):
    frame = string_frame(rows=1200, seed=5)
    path = tmp_path / "frame.parquet"
    frame.write_parquet(path)
    validator = griffin.Validator.from_yaml(string_rules)
    report = validator.validate(str(path), max_violations=10**6)
    _, cli, _ = run_validate(string_rules, [path])
    assert check_counts(report.checks) == check_counts(cli["checks"])
    clean, quarantined = report.split(str(path))
    assert clean.num_rows + quarantined.num_rows == pq.read_metadata(path).num_rows


# --- integral floats and null_values through frames ---------------------------

TYPED_RULES = textwrap.dedent("""\
    griffin: 1
    dataset: typed_frames
    source: {null_values: ["", "NA", "-"]}
    columns:
      city: {type: string, not_null: true}
      population: {type: int64, min: 0}
      area: {type: float64}
    """)

# population: integral values, some missing (pandas makes the column float64),
# one non-integral, one beyond int64; city: null spellings of the rule file.
TYPED_CSV = ("city,population,area\n"
             "Oslo,987555,454.0\n"
             "Lima,,2672.3\n"
             "NA,10,1.5\n"
             "Pune,2.5,331.26\n"
             "-,20,NA\n"
             "Rome,1e19,1285\n"
             ",-3,7\n"
             "Kyiv,2952301,839\n")


@pytest.fixture
def typed_csv(tmp_path):
    rules, path = tmp_path / "typed.rules.yaml", tmp_path / "typed.csv"
    rules.write_text(TYPED_RULES)
    path.write_text(TYPED_CSV)
    return rules, path


def test_integral_floats_and_null_values_give_the_cli_verdicts(typed_csv):
    rules, path = typed_csv
    validator = griffin.Validator.from_yaml(rules)
    _, cli, _ = run_validate(rules, [path])
    assert cli["schema_errors"] == []
    frames = {
        # pandas: population float64 (NaN for the missing one); city text as written ("NA", "-").
        "pandas": pd.read_csv(path, keep_default_na=False, na_values={"population": [""], "area": ["NA"]},
                              dtype={"city": str}),
        # polars: every column text, as read, except population read as Float64.
        "polars": pl.read_csv(path, schema_overrides={"population": pl.Float64, "area": pl.Float64},
                              null_values={"area": "NA"}, empty_string_is_null=False),
    }
    assert frames["pandas"]["population"].dtype == np.float64
    assert frames["pandas"]["city"].tolist()[2] == "NA"
    assert frames["polars"]["population"].dtype == pl.Float64
    assert frames["polars"]["city"].to_list()[2::2] == ["NA", "-", ""]   # the rule file's null spellings, as text
    for kind, frame in frames.items():
        report = validator.validate(frame, max_violations=10**6)
        assert report.to_dict()["schema_errors"] == [], kind
        assert check_counts(report.checks) == check_counts(cli["checks"]), kind
        assert np.flatnonzero(report.bad_row_mask()).tolist() == cli_bad_rows(cli), kind
        assert [(v["row"], v["check"]) for v in report.violations] == \
            [(v["row"], v["check"]) for v in cli["violations"]], kind
    messages = {v["row"]: v["message"] for v in validator.validate(frames["pandas"]).violations
                if v["check"] == "population.type"}
    assert set(messages) == {3, 5}
    assert "2.5 is not an integral value for int64" in messages[3]
    assert "1e+19" in messages[5] or "10000000000000000000" in messages[5]
