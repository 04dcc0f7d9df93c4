"""Report.split() (issue 4): clean and quarantined pyarrow Tables equal to the
CLI's --clean / --quarantine Parquet outputs for the same data (the oracle),
for CSV paths with malformed records, several paths, and Arrow data."""
import subprocess
import textwrap

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import griffin

from griffin_cli import REPO_ROOT, require_binary

EXAMPLE_RULES = REPO_ROOT / "examples" / "transactions.rules.yaml"
EXAMPLE_CSV = REPO_ROOT / "examples" / "transactions.csv"

SMALL_RULES = textwrap.dedent("""\
    griffin: 1
    dataset: small
    source: {null_values: ["", "NA"]}
    columns:
      id: {type: int64, not_null: true, min: 0}
      amount: {type: float64, max: 100}
      note: {type: string, length: {max: 5}}
    """)

# Row 2 has too few fields, row 4 too many, row 5 holds a quoted line break,
# row 6 quoted "NA" (null) and a quoted comma; rows 1 and 3 violate checks.
SMALL_CSV = ('id,amount,note\n'
             '0,1.5,ok\n'
             '-1,NA,toolong\n'
             '2,3\n'
             '3,500,\n'
             '4,5,a,extra\n'
             '5,6,"x\ny"\n'
             '6,"NA","a,b"\n')


def cli_outputs(rules, inputs, tmp_path):
    clean, bad = tmp_path / "cli_clean.parquet", tmp_path / "cli_bad.parquet"
    done = subprocess.run([str(require_binary()), "validate", "-r", str(rules), *map(str, inputs), "--no-store",
                           "--format", "json", "--clean", str(clean), "--quarantine", str(bad)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode in (0, 1), done.stderr
    return pq.read_table(clean), pq.read_table(bad)


def assert_same(actual, expected):
    assert actual.column_names == expected.column_names
    for name in expected.column_names:
        assert actual[name].type == expected[name].type, name
    assert actual.to_pylist() == expected.to_pylist()


def assert_partition(clean, quarantined, table):
    """Every row in exactly one part, in order."""
    rows = np.asarray(quarantined["_griffin_row"])
    keep = np.ones(table.num_rows, dtype=bool)
    keep[rows] = False
    assert clean.num_rows + quarantined.num_rows == table.num_rows
    assert np.all(np.diff(rows) > 0)
    assert clean.to_pylist() == table.filter(pa.array(keep)).to_pylist()


@pytest.fixture
def small(tmp_path):
    rules = tmp_path / "small.rules.yaml"
    rules.write_text(SMALL_RULES)
    data = tmp_path / "small.csv"
    data.write_text(SMALL_CSV)
    return griffin.Validator.from_yaml(rules), rules, data


def test_example_csv_split_equals_cli_outputs(tmp_path):
    validator = griffin.Validator.from_yaml(EXAMPLE_RULES)
    report = validator.validate(str(EXAMPLE_CSV))
    clean, quarantined = report.split(str(EXAMPLE_CSV))
    cli_clean, cli_bad = cli_outputs(EXAMPLE_RULES, [EXAMPLE_CSV], tmp_path)
    assert_same(clean, cli_clean)
    assert_same(quarantined, cli_bad)
    assert clean.num_rows + quarantined.num_rows == report.rows == 20000
    assert quarantined.num_rows == report.bad_rows
    assert np.array_equal(np.asarray(quarantined["_griffin_row"]), np.flatnonzero(report.bad_row_mask()))
    malformed = quarantined.filter(pa.compute.is_valid(quarantined["_griffin_raw"]))
    assert malformed.num_rows == 4
    assert all(e[0]["check"] == "malformed" for e in malformed["_griffin_errors"].to_pylist())


def test_malformed_quoted_and_null_rows(small, tmp_path):
    validator, rules, data = small
    report = validator.validate(data)
    clean, quarantined = report.split(data)
    cli_clean, cli_bad = cli_outputs(rules, [data], tmp_path)
    assert_same(clean, cli_clean)
    assert_same(quarantined, cli_bad)
    assert quarantined["_griffin_row"].to_pylist() == [1, 2, 3, 4]
    assert quarantined["_griffin_raw"].to_pylist() == [None, "2,3", None, "4,5,a,extra"]
    assert quarantined.slice(1, 1).to_pylist()[0]["id"] is None
    assert [e["check"] for e in quarantined["_griffin_errors"][0].as_py()] == ["id.min", "note.length"]
    assert clean.to_pylist() == [{"id": "0", "amount": "1.5", "note": "ok"},
                                 {"id": "5", "amount": "6", "note": "x\ny"},
                                 {"id": "6", "amount": None, "note": "a,b"}]


def test_several_paths_number_rows_across_files(small, tmp_path):
    validator, rules, data = small
    second = tmp_path / "second.csv"
    second.write_text("id,amount,note\n7,1,a\n8,2\n-9,3,b\n")
    report = validator.validate([data, second])
    with pytest.raises(ValueError, match="validated"):
        report.split(data)
    clean, quarantined = report.split([str(data), str(second)])
    cli_clean, cli_bad = cli_outputs(rules, [data, second], tmp_path)
    assert_same(clean, cli_clean)
    assert_same(quarantined, cli_bad)
    assert quarantined["_griffin_row"].to_pylist() == [1, 2, 3, 4, 8, 9]


def test_arrow_table_split_equals_cli_of_the_same_parquet(tmp_path):
    rules = tmp_path / "t.rules.yaml"
    rules.write_text(SMALL_RULES)
    rng = np.random.default_rng(3)
    n = 3000
    table = pa.table({"id": pa.array(np.arange(n) - 5, pa.int64()),
                      "amount": pa.array(rng.uniform(0, 120, n)),
                      "note": pa.array(["abc", "abcdefg", None][i % 3] for i in range(n))})
    path = tmp_path / "t.parquet"
    pq.write_table(table, path)
    validator = griffin.Validator.from_yaml(rules)
    report = validator.validate(table, batch_rows=700)
    clean, quarantined = report.split(table)
    cli_clean, cli_bad = cli_outputs(rules, [path], tmp_path)
    assert_same(clean, cli_clean)
    assert_same(quarantined, cli_bad)
    assert_partition(clean, quarantined, table)
    assert quarantined["_griffin_raw"].null_count == quarantined.num_rows
    # The same through a RecordBatch, a dict of arrays and pandas.
    frame = table.to_pandas()
    for data in (table.to_batches()[0], {name: table[name] for name in table.column_names}, frame):
        r = validator.validate(data)
        c, q = r.split(data)
        assert c.num_rows + q.num_rows == r.rows and q.num_rows == r.bad_rows
    c, q = validator.validate(frame).split(frame)
    assert q.drop_columns(["_griffin_errors"]).to_pylist() == \
        quarantined.drop_columns(["_griffin_errors"]).to_pylist()


def test_split_refuses_other_data(small):
    validator, _, data = small
    table = pa.table({"id": [1, -2], "amount": [1.0, 2.0], "note": ["a", "b"]})
    report = validator.validate(table)
    with pytest.raises(ValueError, match="rows"):
        report.split(table.slice(0, 1))
    reader = table.to_reader()
    report = validator.validate(reader)
    with pytest.raises(TypeError, match="RecordBatchReader"):
        report.split(reader)
    with pytest.raises(ValueError, match="validated"):
        report.split(str(data))
