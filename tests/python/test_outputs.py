"""--quarantine and --clean: every input row lands in exactly one output, in
input order, with its original values, for every format and thread count; a
rerun gives byte-identical files; --tag-version numbers runs from the store."""
import json
import os
import pathlib
import subprocess

import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.ipc as ipc
import pyarrow.parquet as pq
import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
GRIFFIN = os.environ.get("GRIFFIN_BIN", str(REPO / "build" / "griffin"))

RULES = """griffin: 1
dataset: outputs
columns:
  id:
    type: int64
    not_null: true
    unique: true
  amount:
    type: float64
    min: 0
  note:
    type: string
    length: {max: 20, severity: warn}
"""

CSV_TEXT = (
    'id,amount,note\n'
    '1,10.5,plain\n'
    '2,-3,"quoted, with comma"\n'          # bad: amount.min
    '3,7,"two\nlines"\n'
    '1,8,dup\n'                             # bad: id.unique
    '4,,\n'                                 # amount null, note null
    '5,1,2,extra\n'                         # malformed
    '6,x,"say ""hi"""\n'                    # bad: amount.type
    ',9,no id\n'                            # bad: id.not_null
    '7,2.25,this note is longer than twenty\n'  # warn only: clean
)
BAD_ROWS = [1, 3, 5, 6, 7]


def run(*args, cwd):
    return subprocess.run([GRIFFIN, *args], capture_output=True, cwd=cwd, timeout=120)


def read_table(path):
    path = pathlib.Path(path)
    if path.suffix == ".parquet":
        return pq.read_table(path)
    if path.suffix == ".arrow":
        with ipc.open_file(path) as reader:
            return reader.read_all()
    if path.suffix == ".jsonl":
        rows = [json.loads(line) for line in path.read_text().splitlines()]
        return rows
    opts = pacsv.ReadOptions(autogenerate_column_names=False)
    convert = pacsv.ConvertOptions(strings_can_be_null=False, column_types=None)
    return pacsv.read_csv(path, read_options=opts, convert_options=convert,
                          parse_options=pacsv.ParseOptions(newlines_in_values=True))


def rows_of(table):
    if isinstance(table, list):
        return table
    return table.to_pylist()


@pytest.fixture
def workdir(tmp_path):
    (tmp_path / "rules.yaml").write_text(RULES)
    (tmp_path / "in.csv").write_text(CSV_TEXT)
    return tmp_path


@pytest.mark.parametrize("ext", ["csv", "jsonl", "parquet", "arrow"])
def test_every_row_lands_once(workdir, ext):
    proc = run("validate", "-r", "rules.yaml", "in.csv", "--no-store", "--format", "json",
               "--quarantine", f"bad.{ext}", "--clean", f"good.{ext}", cwd=workdir)
    assert proc.returncode == 1, proc.stderr
    report = json.loads(proc.stdout)
    assert report["rows"] == 9 and report["bad_rows"] == len(BAD_ROWS)
    bad = rows_of(read_table(workdir / f"bad.{ext}"))
    good = rows_of(read_table(workdir / f"good.{ext}"))
    assert [int(r["_griffin_row"]) for r in bad] == BAD_ROWS
    assert len(good) == 9 - len(BAD_ROWS)
    assert [str(r["id"]) for r in good] == ["1", "3", "4", "7"]
    # Original values survive: quotes, commas and newlines inside fields.
    by_row = {int(r["_griffin_row"]): r for r in bad}
    assert by_row[1]["note"] == "quoted, with comma"
    assert by_row[6]["note"] == 'say "hi"'
    assert good[1]["note"] == "two\nlines"
    errors = by_row[1]["_griffin_errors"]
    if isinstance(errors, str):
        errors = json.loads(errors)
    assert [e["check"] for e in errors] == ["amount.min"]
    assert "below min" in errors[0]["message"]
    malformed = by_row[5]
    assert malformed["_griffin_raw"] == "5,1,2,extra"
    assert by_row[1].get("_griffin_raw") in (None, "")  # JSON lines may omit the key


@pytest.mark.parametrize("ext", ["csv", "parquet"])
def test_outputs_identical_across_threads_and_reruns(workdir, ext):
    big = "id,amount,note\n" + "".join(f"{i % 900},{(i % 7) - 1},n{i}\n" for i in range(5000))
    (workdir / "big.csv").write_text(big)
    digests = set()
    for threads, batch in ((1, 65536), (2, 7), (7, 100), (1, 65536)):
        proc = run("validate", "-r", "rules.yaml", "big.csv", "--no-store", "--threads", str(threads),
                   "--batch-rows", str(batch), "--quarantine", f"q.{ext}", "--clean", f"c.{ext}", cwd=workdir)
        assert proc.returncode == 1, proc.stderr
        digests.add(((workdir / f"q.{ext}").read_bytes(), (workdir / f"c.{ext}").read_bytes()))
    assert len(digests) == 1


def test_typed_input_keeps_types(workdir):
    table = pa.table({"id": pa.array([1, 2, 2, None], pa.int64()),
                      "amount": pa.array([1.5, -1.0, 3.0, 4.0]),
                      "note": pa.array(["a", "b", None, "d"])})
    pq.write_table(table, workdir / "in.parquet")
    proc = run("validate", "-r", "rules.yaml", "in.parquet", "--no-store",
               "--quarantine", "bad.parquet", "--clean", "good.parquet", cwd=workdir)
    assert proc.returncode == 1, proc.stderr
    good = pq.read_table(workdir / "good.parquet")
    bad = pq.read_table(workdir / "bad.parquet")
    assert good.schema.field("id").type == pa.int64() and good.schema.field("amount").type == pa.float64()
    assert good.column("id").to_pylist() == [1]
    assert bad.column("_griffin_row").to_pylist() == [1, 2, 3]
    assert bad.column("amount").to_pylist() == [-1.0, 3.0, 4.0]


def test_outputs_even_when_empty(workdir):
    (workdir / "clean.csv").write_text("id,amount,note\n1,1,a\n")
    proc = run("validate", "-r", "rules.yaml", "clean.csv", "--no-store",
               "--quarantine", "bad.csv", "--clean", "good.csv", cwd=workdir)
    assert proc.returncode == 0, proc.stderr
    assert (workdir / "bad.csv").read_text().splitlines()[0].startswith("id,amount,note,_griffin_row")
    assert (workdir / "good.csv").read_text() == "id,amount,note\n1,1,a\n"


def test_failed_read_leaves_no_output(workdir):
    (workdir / "cut.csv.gz").write_bytes(b"\x1f\x8b\x08\x00" + b"\x00" * 10)
    proc = run("validate", "-r", "rules.yaml", "cut.csv.gz", "--no-store",
               "--quarantine", "bad.csv", "--clean", "good.csv", cwd=workdir)
    assert proc.returncode == 3
    leftovers = [p.name for p in workdir.iterdir() if "bad" in p.name or "good" in p.name]
    assert leftovers == []


def test_tag_version_numbers_runs(workdir):
    versions = []
    for _ in range(3):
        proc = run("validate", "-r", "rules.yaml", "in.csv", "--store", "runs.db", "--clean", "good.parquet",
                   "--tag-version", "--format", "json", cwd=workdir)
        assert proc.returncode == 1, proc.stderr
        tags = set(pq.read_table(workdir / "good.parquet").column("_griffin_version").to_pylist())
        assert len(tags) == 1
        versions.append(tags.pop())
    assert versions == [versions[0], versions[0] + 1, versions[0] + 2]
    refused = run("validate", "-r", "rules.yaml", "in.csv", "--no-store", "--clean", "g.csv", "--tag-version",
                  cwd=workdir)
    assert refused.returncode == 2


def test_clean_has_the_input_columns_only_without_tag_version(workdir):
    # A run recorded in a store still writes the input's columns, and nothing else,
    # to --clean unless --tag-version asks for _griffin_version (cli-and-report-v1).
    proc = run("validate", "-r", "rules.yaml", "in.csv", "--store", "runs.db", "--clean", "good.parquet",
               "--format", "json", cwd=workdir)
    assert proc.returncode == 1, proc.stderr
    assert pq.read_table(workdir / "good.parquet").column_names == ["id", "amount", "note"]
