"""The `griffin` Python package (issue 4, first slice): reports equal to the CLI's,
Arrow data equal to the same data as Parquet, errors with the CLI's messages,
the bad-row mask, thread safety, the GIL released, and no copy of numeric data.

Needs the package installed in the venv (.venv/bin/pip install --no-build-isolation .)
and build/griffin (or $GRIFFIN_BIN) for the comparisons with the CLI."""
import collections
import json
import subprocess
import sys
import textwrap
import threading

import numpy as np
import pyarrow as pa
import pyarrow.csv
import pyarrow.parquet as pq
import pytest

import griffin  # noqa: E402  (installed by scripts/setup.sh)

from griffin_cli import REPO_ROOT, require_binary  # noqa: E402
from gil_probe import ticks_during  # noqa: E402

EXAMPLE_RULES = REPO_ROOT / "examples" / "transactions.rules.yaml"
EXAMPLE_CSV = REPO_ROOT / "examples" / "transactions.csv"
RUN_FIELDS = ("run_id", "elapsed_s")                 # differ between any two runs
INPUT_FIELDS = ("inputs", "input_bytes")             # differ between a file and a frame

TYPED_RULES = textwrap.dedent("""\
    griffin: 1
    dataset: typed
    columns:
      id:
        type: int64
        not_null: true
        unique: true
        min: 0
      amount:
        type: float64
        finite: true
        min: -100
        max: {value: 100, message: "amount {value} in row {row} is too large"}
      code:
        type: string
        regex: '^[A-Z]{3}$'
        in: [USD, EUR, GBP]
    rows:
      - name: positive_eur
        expr: "code != 'EUR' or amount >= 0"
    table:
      - row_count: {min: 1}
      - mean: {column: amount, max: 50}
    """)


def without(report, fields):
    return {k: v for k, v in report.items() if k not in fields}


def run_cli(*args):
    command = [str(require_binary()), *map(str, args)]
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


def cli_report(rules, inputs, threads=2, max_violations=griffin.DEFAULT_MAX_VIOLATIONS):
    done = run_cli("validate", "-r", rules, *inputs, "--format", "json", "--no-store",
                   "--threads", threads, "--max-violations", max_violations)
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)


def typed_table(rows=5000, seed=7):
    rng = np.random.default_rng(seed)
    ids = np.arange(rows, dtype=np.int64)
    ids[10] = 9                                      # duplicate id (unique)
    ids[11] = -5                                     # below min
    amount = rng.uniform(0, 50, rows)
    amount[20] = 1000.0                              # above max
    amount[21] = np.nan                              # not finite
    amount[22] = np.inf
    codes = np.array(["USD", "EUR", "GBP"])[rng.integers(0, 3, rows)].astype(object)
    codes[30] = "usd"                                # regex and in
    codes[31] = None
    amount[32] = -1.0
    codes[32] = "EUR"                                # row rule
    return pa.table({"id": pa.array(ids), "amount": pa.array(amount),
                     "code": pa.array(list(codes), type=pa.string())})


@pytest.fixture(scope="module")
def validator():
    return griffin.Validator.from_yaml(EXAMPLE_RULES)


@pytest.fixture(scope="module")
def typed_rules(tmp_path_factory):
    path = tmp_path_factory.mktemp("rules") / "typed.rules.yaml"
    path.write_text(TYPED_RULES)
    return path


def test_path_report_equals_cli_json(validator):
    expected = cli_report(EXAMPLE_RULES, [EXAMPLE_CSV], threads=2, max_violations=50)
    report = validator.validate(str(EXAMPLE_CSV), max_violations=50, threads=2)
    actual = report.to_dict()
    assert without(actual, RUN_FIELDS) == without(expected, RUN_FIELDS)
    assert actual["inputs"] == [str(EXAMPLE_CSV)]
    assert json.loads(report.to_json()) == actual
    assert report.rows == expected["rows"] and report.bad_rows == expected["bad_rows"]
    assert report.quality_score == pytest.approx(expected["quality_score"], rel=1e-9)
    assert report.passed is expected["passed"] is False
    assert report.checks == expected["checks"]
    assert report.violations == expected["violations"]
    listed = collections.Counter(v["check"] for v in report.violations)  # 50 per check at most
    assert listed == {c["name"]: min(50, c["violations"]) for c in report.checks if c.get("violations")}
    assert max(listed.values()) == 50
    assert set(report.violations[0]) >= {"row", "column", "check", "value", "message"}


def test_list_of_paths_and_pathlike_and_text_rules(tmp_path):
    text_validator = griffin.Validator.from_yaml(EXAMPLE_RULES.read_text())
    assert text_validator.dataset == "transactions"
    one = text_validator.validate(EXAMPLE_CSV, threads=1).to_dict()
    two = text_validator.validate([EXAMPLE_CSV, str(EXAMPLE_CSV)], threads=1).to_dict()
    expected = cli_report(EXAMPLE_RULES, [EXAMPLE_CSV, EXAMPLE_CSV], threads=1)
    assert without(two, RUN_FIELDS) == without(expected, RUN_FIELDS)
    assert two["rows"] == 2 * one["rows"]


def test_the_constructor_compiles_a_path_or_text_as_from_yaml_does():
    expected = griffin.Validator.from_yaml(EXAMPLE_RULES).validate(EXAMPLE_CSV, threads=1).to_dict()
    for rules in (EXAMPLE_RULES, str(EXAMPLE_RULES), EXAMPLE_RULES.read_text()):
        got = griffin.Validator(rules).validate(EXAMPLE_CSV, threads=1).to_dict()
        assert without(got, RUN_FIELDS) == without(expected, RUN_FIELDS)
    with pytest.raises(TypeError, match="rule file's path or YAML text, got int"):
        griffin.Validator(42)
    with pytest.raises(griffin.RuleError, match="no-such-rules.yaml"):
        griffin.Validator("no-such-rules.yaml")


def test_arrow_table_equals_parquet_file(typed_rules, tmp_path):
    table = typed_table()
    path = tmp_path / "typed.parquet"
    pq.write_table(table, path, row_group_size=1000)
    validator = griffin.Validator.from_yaml(typed_rules)
    from_file = validator.validate(str(path), threads=2).to_dict()
    assert without(from_file, RUN_FIELDS) == without(cli_report(typed_rules, [path]), RUN_FIELDS)
    ignored = RUN_FIELDS + INPUT_FIELDS
    for data in (table, table.to_batches(max_chunksize=700)[0], table.to_reader(max_chunksize=999),
                 {name: table[name].to_numpy() for name in ("id", "amount")} | {"code": table["code"]}):
        report = validator.validate(data, threads=2).to_dict()
        if isinstance(data, pa.RecordBatch):
            assert report["rows"] == 700
            continue
        assert without(report, ignored) == without(from_file, ignored), type(data)
    assert validator.validate(table).to_dict()["inputs"] == ["<pyarrow.Table>"]
    counts = {c["name"]: c["violations"] for c in from_file["checks"] if "violations" in c}
    assert counts["id.unique"] == 1 and counts["id.min"] == 1 and counts["amount.max"] == 2 + 1  # 1000 and inf
    assert counts["code.regex"] == 1 and counts["positive_eur"] == 2  # rows 21 (NaN, EUR) and 32


def test_arrow_c_stream_protocol_object(typed_rules):
    class Frame:  # a foreign producer: only __arrow_c_stream__
        def __init__(self, table):
            self.table = table

        def __arrow_c_stream__(self, requested_schema=None):
            return self.table.__arrow_c_stream__(requested_schema)

    table = typed_table(2000)
    validator = griffin.Validator.from_yaml(typed_rules)
    ignored = RUN_FIELDS + INPUT_FIELDS
    assert without(validator.validate(Frame(table)).to_dict(), ignored) == \
        without(validator.validate(table).to_dict(), ignored)


def test_pandas_dataframe(typed_rules):
    """A DataFrame is validated as pyarrow sees it: pandas' missing-value marker
    NaN becomes null (so `not_null` and not `finite` reports it; docs/semantics.md)."""
    import pandas as pd
    table = typed_table(2000)
    frame = table.to_pandas()
    validator = griffin.Validator.from_yaml(typed_rules)
    ignored = RUN_FIELDS + INPUT_FIELDS
    from_frame = validator.validate(frame)
    frame_dict = from_frame.to_dict()
    assert all(v.pop("index") == v["row"] for v in frame_dict["violations"])   # a RangeIndex's labels
    assert without(frame_dict, ignored) == \
        without(validator.validate(pa.Table.from_pandas(frame, preserve_index=False)).to_dict(), ignored)
    assert isinstance(frame, pd.DataFrame) and from_frame.rows == 2000
    finite = [c for c in from_frame.checks if c["name"] == "amount.finite"][0]
    direct = [c for c in validator.validate(table).checks if c["name"] == "amount.finite"][0]
    assert direct["violations"] == finite["violations"] + 1   # the NaN row is null in pandas' view


def test_empty_table_has_the_schema_columns(typed_rules):
    validator = griffin.Validator.from_yaml(typed_rules)
    report = validator.validate(typed_table().slice(0, 0))
    assert report.rows == 0 and report.bad_rows == 0
    assert report.bad_row_mask().shape == (0,)
    row_count = [c for c in report.checks if c["name"] == "table.row_count"][0]
    assert row_count["passed"] is False


def test_bad_row_mask_matches_quarantine(validator, tmp_path):
    quarantine = tmp_path / "bad.csv"
    done = run_cli("validate", "-r", EXAMPLE_RULES, EXAMPLE_CSV, "--no-store", "--format", "json",
                   "--quarantine", quarantine)
    assert done.returncode == 1, done.stderr
    bad_rows = pa.csv.read_csv(quarantine)["_griffin_row"].to_numpy()
    report = validator.validate(str(EXAMPLE_CSV))
    mask = report.bad_row_mask()
    assert mask.dtype == np.bool_ and mask.shape == (report.rows,)
    assert int(mask.sum()) == report.bad_rows == len(bad_rows) > 0
    assert np.array_equal(np.flatnonzero(mask), np.sort(bad_rows))


def test_mask_of_arrow_data(typed_rules):
    report = griffin.Validator.from_yaml(typed_rules).validate(typed_table(), threads=2, batch_rows=7)
    assert np.flatnonzero(report.bad_row_mask()).tolist() == [10, 11, 20, 21, 22, 30, 32]


def cli_error(*args):
    done = run_cli("validate", *args, "--no-store", "--format", "json")
    assert done.stderr.startswith("griffin: ")
    return done.returncode, done.stderr[len("griffin: "):].rstrip("\n")


def test_rule_errors_carry_the_cli_message(tmp_path):
    bad = tmp_path / "bad.rules.yaml"
    bad.write_text("griffin: 1\ndataset: d\ncolumns:\n  amount:\n    type: float64\n    regex: '^x$'\n")
    code, message = cli_error("-r", bad, EXAMPLE_CSV)
    assert code == 2
    with pytest.raises(griffin.RuleError) as caught:
        griffin.Validator.from_yaml(bad)
    assert str(caught.value) == message
    with pytest.raises(griffin.RuleError) as caught:
        griffin.Validator.from_yaml(bad.read_text())
    assert str(caught.value) == message.replace(str(bad), "<text>")
    missing = tmp_path / "missing.rules.yaml"
    code, message = cli_error("-r", missing, EXAMPLE_CSV)
    assert code == 2
    with pytest.raises(griffin.RuleError) as caught:
        griffin.Validator.from_yaml(str(missing))
    assert str(caught.value) == message
    assert issubclass(griffin.RuleError, griffin.GriffinError)


def test_input_errors_carry_the_cli_message(validator, typed_rules, tmp_path):
    missing = tmp_path / "nope.csv"
    code, message = cli_error("-r", EXAMPLE_RULES, missing)
    assert code == 3
    with pytest.raises(griffin.InputError) as caught:
        validator.validate(str(missing))
    assert str(caught.value) == message
    corrupt = tmp_path / "corrupt.parquet"
    corrupt.write_bytes(b"not parquet at all")
    code, message = cli_error("-r", typed_rules, corrupt)   # (the example rules force CSV)
    assert code == 3
    with pytest.raises(griffin.InputError) as caught:
        griffin.Validator.from_yaml(typed_rules).validate(corrupt)
    assert str(caught.value) == message
    with pytest.raises(griffin.RuleError, match="max_violations"):
        validator.validate(str(EXAMPLE_CSV), max_violations=-1)
    with pytest.raises(TypeError):
        validator.validate(42)


def test_type_mismatch_with_arrow_data_matches_the_parquet_run(typed_rules, tmp_path):
    # `id` typed int64 in the rules, but the data holds strings.
    table = pa.table({"id": ["a", "b"], "amount": [1.0, 2.0], "code": ["USD", "EUR"]})
    path = tmp_path / "mismatch.parquet"
    pq.write_table(table, path)
    validator = griffin.Validator.from_yaml(typed_rules)
    try:
        expected = ("report", without(validator.validate(str(path)).to_dict(), RUN_FIELDS + INPUT_FIELDS))
    except griffin.GriffinError as e:
        expected = (type(e), str(e).replace(str(path), "<pyarrow.Table>"))
    try:
        actual = ("report", without(validator.validate(table).to_dict(), RUN_FIELDS + INPUT_FIELDS))
    except griffin.GriffinError as e:
        actual = (type(e), str(e))
    assert actual == expected


def test_concurrent_validation_in_four_threads(typed_rules):
    validator = griffin.Validator.from_yaml(typed_rules)
    table = typed_table(50_000)
    expected = without(validator.validate(table, threads=2).to_dict(), RUN_FIELDS)
    results, errors = [None] * 4, []

    def work(i):
        try:
            for _ in range(3):
                results[i] = without(validator.validate(table, threads=2).to_dict(), RUN_FIELDS)
        except BaseException as e:  # noqa: BLE001
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert all(r == expected for r in results)


def test_gil_is_released_during_validate(typed_rules):
    validator = griffin.Validator.from_yaml(typed_rules)
    table = typed_table(2_000_000)
    ticks, elapsed = ticks_during(lambda: validator.validate(table, threads=1))
    assert elapsed > 0.05, "validate too short to measure"
    # With the GIL held for the whole call, the spinning thread would not run at all.
    assert ticks > 10_000


ZERO_COPY_SCRIPT = textwrap.dedent("""\
    import json, sys, threading, time
    import numpy as np, pyarrow as pa, pyarrow.compute, pyarrow.parquet
    import griffin

    def rss_kib(field):
        for line in open("/proc/self/status"):
            if line.startswith(field + ":"):
                return int(line.split()[1])

    rows = 25_000_000                                   # 2 x 8 bytes x 25M = 400 MB
    data = {"x": np.arange(rows, dtype=np.float64) * 0.5, "n": np.arange(rows, dtype=np.int64)}
    table = pa.table(data)
    assert table["x"].chunks[0].buffers()[1].address == data["x"].ctypes.data   # pa.table(dict) is zero-copy
    validator = griffin.Validator.from_yaml(sys.argv[1])
    deltas = {}
    for name, frame in (("table", table), ("dict", data)):
        peak = [0]; stop = threading.Event()
        def sample():
            while not stop.is_set():
                peak[0] = max(peak[0], rss_kib("VmRSS")); time.sleep(0.002)
        base = rss_kib("VmRSS")
        try:
            open("/proc/self/clear_refs", "w").write("5")  # resets VmHWM
            hwm = True
        except OSError:
            hwm = False
        t = threading.Thread(target=sample); t.start()
        report = validator.validate(frame, threads=2)
        stop.set(); t.join()
        assert report.rows == rows and report.bad_rows == 0, report
        top = max(peak[0], rss_kib("VmHWM") if hwm else 0)
        deltas[name] = (top - base) * 1024
    print(json.dumps({"bytes": table.nbytes, "deltas": deltas}))
    """)

ZERO_COPY_RULES = textwrap.dedent("""\
    griffin: 1
    dataset: big
    columns:
      x: {type: float64, not_null: true, finite: true, min: 0}
      n: {type: int64, not_null: true, min: 0, max: 100000000}
    table:
      - mean: {column: x, min: 0}
    """)


def test_numeric_arrow_and_numpy_data_are_not_copied(tmp_path):
    rules = tmp_path / "big.rules.yaml"
    rules.write_text(ZERO_COPY_RULES)
    done = subprocess.run([sys.executable, "-c", ZERO_COPY_SCRIPT, str(rules)], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["bytes"] == 400_000_000
    for name, delta in result["deltas"].items():
        assert delta < 0.10 * result["bytes"], (name, delta)


def test_regex_works_after_pyarrow_compute_and_parquet_are_loaded(tmp_path):
    # pyarrow.compute loads libarrow_compute, which exports its bundled re2;
    # the extension must still use Debian's re2 (and simdjson) it was linked with.
    script = textwrap.dedent("""\
        import pyarrow as pa, pyarrow.compute as pc, pyarrow.parquet
        assert pc.match_substring_regex(pa.array(["ab"]), "^a").to_pylist() == [True]
        import griffin, json, sys
        v = griffin.Validator.from_yaml(sys.argv[1])
        r = v.validate(sys.argv[2], threads=2)
        t = v.validate(pa.table({"email": ["a@b.cd", "nope"], "account_id": ["AC000001", "X"]}), threads=1)
        print(json.dumps([r.to_dict(), [c["violations"] for c in t.checks if c["check"] == "regex"]]))
        """)
    done = subprocess.run([sys.executable, "-c", script, str(EXAMPLE_RULES), str(EXAMPLE_CSV)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    report, regex_counts = json.loads(done.stdout)
    expected = cli_report(EXAMPLE_RULES, [EXAMPLE_CSV], threads=2)
    assert without(report, RUN_FIELDS) == without(expected, RUN_FIELDS)
    assert regex_counts == [0, 1, 1]   # txn_id (absent), account_id, email
