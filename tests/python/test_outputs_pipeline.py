"""Outputs encoded on worker threads (src/sinks/output_pipeline.h) are byte for byte
those of a --threads 1 run, for every format, thread count and batch size: on an input
large enough for several Parquet row groups (65,536 rows each), with `unique` repeats
that only the in-order merger can find across batches, malformed rows, and a typed
(Parquet) input."""
import subprocess

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from griffin_cli import require_binary

RULES = """griffin: 1
dataset: pipeline
columns:
  note: {type: string, regex: '^n[0-9]+$'}
  amount: {type: float64, min: 0}
  id: {type: int64, unique: true}
"""
ROWS = 140_000
CONFIGS = [(2, 65536), (2, 1000), (4, 7777), (3, 100000)]


def run(*args, cwd):
    return subprocess.run([str(require_binary()), *args], capture_output=True, cwd=cwd, timeout=600)


def write_input(path):
    lines = ["id,amount,note"]
    for i in range(ROWS):
        ident = i if i % 11 else i // 3            # repeats of earlier ids, often in earlier batches
        amount = -1 if i % 97 == 0 else (i % 500) / 4
        note = f'"n{i}, ""q"""' if i % 53 == 0 else f"n{i}"
        lines.append(f"{ident},{amount},{note}" if i % 1009 else f"{ident},{amount}")  # some malformed
    path.write_text("\n".join(lines) + "\n")


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("pipeline")
    (tmp / "rules.yaml").write_text(RULES)
    write_input(tmp / "in.csv")
    return tmp


def outputs(workdir, data, ext, threads, batch_rows):
    proc = run("validate", "-r", "rules.yaml", data, "--no-store", "--format", "json",
               "--threads", str(threads), "--batch-rows", str(batch_rows),
               "--quarantine", f"q.{ext}", "--clean", f"c.{ext}", cwd=workdir)
    assert proc.returncode == 1, proc.stderr
    return (workdir / f"q.{ext}").read_bytes(), (workdir / f"c.{ext}").read_bytes(), proc.stdout


@pytest.mark.parametrize("ext", ["csv", "jsonl", "parquet", "arrow"])
def test_outputs_match_a_single_thread_run(workdir, ext):
    expected_q, expected_c, report = outputs(workdir, "in.csv", ext, 1, 65536)
    assert expected_q and expected_c
    for threads, batch_rows in CONFIGS:
        got_q, got_c, _ = outputs(workdir, "in.csv", ext, threads, batch_rows)
        assert got_q == expected_q, (ext, threads, batch_rows)
        assert got_c == expected_c, (ext, threads, batch_rows)
    if ext == "parquet":  # several row groups, every row once
        clean, bad = pq.ParquetFile(workdir / "c.parquet"), pq.ParquetFile(workdir / "q.parquet")
        assert clean.metadata.num_row_groups >= 2
        assert clean.metadata.num_rows + bad.metadata.num_rows == ROWS
        rows = pq.read_table(workdir / "q.parquet").column("_griffin_row").to_pylist()
        assert rows == sorted(rows) and len(set(rows)) == len(rows)
        # Mostly distinct text (id, note) is written plain from the first row group on;
        # amount (500 values) keeps its dictionary (src/sinks/parquet_dictionary_choice.h).
        names = clean.schema_arrow.names
        for group in range(clean.metadata.num_row_groups):
            encodings = {names[c]: clean.metadata.row_group(group).column(c).encodings
                         for c in range(len(names))}
            assert "RLE_DICTIONARY" not in encodings["note"] and "RLE_DICTIONARY" not in encodings["id"], encodings
            assert "RLE_DICTIONARY" in encodings["amount"], encodings


def test_typed_input_outputs_match_a_single_thread_run(workdir):
    table = pa.table({
        "id": pa.array([i if i % 13 else i // 2 for i in range(ROWS)], pa.int64()),
        "amount": pa.array([(-1.0 if i % 89 == 0 else i / 8) for i in range(ROWS)]),
        "note": pa.array([None if i % 41 == 0 else f"n{i}" for i in range(ROWS)]),
    })
    pq.write_table(table, workdir / "typed.parquet", row_group_size=30_000)
    for ext in ("parquet", "csv"):
        expected = outputs(workdir, "typed.parquet", ext, 1, 65536)[:2]
        for threads, batch_rows in CONFIGS[:2]:
            assert outputs(workdir, "typed.parquet", ext, threads, batch_rows)[:2] == expected, (ext, threads)


@pytest.mark.parametrize("threads", [1, 3])
def test_a_column_type_changing_between_inputs_fails_the_run_without_outputs(workdir, threads):
    # The error is found by an encode worker (the second input's batch) and reported in
    # input order: one line naming the input, exit 3, no file under either name.
    first = pa.table({"id": pa.array(range(5000), pa.int64()), "amount": pa.array([1.0] * 5000),
                      "note": pa.array(["n1"] * 5000), "extra": pa.array(range(5000), pa.int64())})
    second = first.set_column(3, "extra", pa.array([str(i) for i in range(5000)]))
    pq.write_table(first, workdir / "a.parquet")
    pq.write_table(second, workdir / "b.parquet")
    for name in ("qe.parquet", "ce.parquet"):
        (workdir / name).unlink(missing_ok=True)
    proc = run("validate", "-r", "rules.yaml", "a.parquet", "b.parquet", "--no-store", "--threads", str(threads),
               "--batch-rows", "1000", "--quarantine", "qe.parquet", "--clean", "ce.parquet", cwd=workdir)
    assert proc.returncode == 3, proc.stderr
    lines = proc.stderr.decode().strip().splitlines()
    assert len(lines) == 1 and "b.parquet: column extra is string, but an earlier input made it int64" in lines[0], lines
    assert not (workdir / "qe.parquet").exists() and not (workdir / "ce.parquet").exists()


def test_inputs_with_different_columns_fail_the_run_naming_both(workdir):
    table = pa.table({"id": pa.array(range(3000), pa.int64()), "amount": pa.array([1.0] * 3000),
                      "note": pa.array(["n1"] * 3000)})
    pq.write_table(table, workdir / "c3.parquet")
    pq.write_table(table.append_column("more", pa.array(range(3000))), workdir / "c4.parquet")
    proc = run("validate", "-r", "rules.yaml", "c3.parquet", "c4.parquet", "--no-store", "--threads", "3",
               "--batch-rows", "500", "--clean", "cd.csv", cwd=workdir)
    assert proc.returncode == 3, proc.stderr
    lines = proc.stderr.decode().strip().splitlines()
    assert lines == ["griffin: inputs have different columns (c3.parquet: id,amount,note; "
                     "c4.parquet: id,amount,note,more); outputs need one schema"], lines
    assert not (workdir / "cd.csv").exists()


@pytest.mark.parametrize("codec,expected", [("zstd", "ZSTD"), ("lz4", "LZ4"), ("none", "UNCOMPRESSED"),
                                            ("snappy", "SNAPPY")])
def test_parquet_compression_sets_every_chunks_codec_and_keeps_the_rows(workdir, codec, expected):
    proc = run("validate", "-r", "rules.yaml", "in.csv", "--no-store", "--format", "json",
               "--clean", f"c-{codec}.parquet", "--quarantine", f"q-{codec}.csv",
               "--parquet-compression", codec, cwd=workdir)
    assert proc.returncode == 1, proc.stderr
    written = pq.ParquetFile(workdir / f"c-{codec}.parquet")
    codecs = {written.metadata.row_group(g).column(c).compression
              for g in range(written.metadata.num_row_groups) for c in range(written.metadata.num_columns)}
    assert codecs == {expected}
    reference = run("validate", "-r", "rules.yaml", "in.csv", "--no-store", "--clean", "c-default.parquet",
                    cwd=workdir)
    assert reference.returncode == 1, reference.stderr
    assert written.read().equals(pq.read_table(workdir / "c-default.parquet"))


@pytest.mark.parametrize("args,message", [
    (["--clean", "c.parquet", "--parquet-compression", "gzip"],
     "--parquet-compression: expected snappy, zstd, lz4 or none, got 'gzip'"),
    (["--clean", "c.csv", "--parquet-compression", "zstd"],
     "--parquet-compression: neither --clean nor --quarantine is a Parquet output or a Delta table"),
    (["--parquet-compression", "zstd"],
     "--parquet-compression: neither --clean nor --quarantine is a Parquet output or a Delta table"),
])
def test_parquet_compression_is_refused_in_one_line_where_it_cannot_apply(workdir, args, message):
    proc = run("validate", "-r", "rules.yaml", "in.csv", "--no-store", *args, cwd=workdir)
    assert proc.returncode == 2
    assert proc.stderr.decode().strip().splitlines() == [f"griffin: {message}"]
