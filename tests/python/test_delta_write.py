"""--clean delta:PATH and --quarantine delta:PATH: one commit per output per run,
read back with the `deltalake` package; the report and the store give the committed
version; a killed or failed run leaves no commit."""
import json
import os
import pathlib
import signal
import sqlite3
import subprocess
import time

import deltalake
import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq

from griffin_cli import require_binary
from test_delta_read import RULES, arrow, rows

CLEAN_AND_BAD = ["id", "amount", "city"]


def run(tmp_path, *args, env=None):
    rules = tmp_path / "rules.yaml"
    rules.write_text(RULES)
    return subprocess.run([str(require_binary()), "validate", "-r", str(rules), *map(str, args)],
                          capture_output=True, text=True, timeout=180, env=env)


def table_rows(path):
    return sorted(deltalake.DeltaTable(path).to_pyarrow_table().select(CLEAN_AND_BAD).to_pylist(),
                  key=lambda r: r["id"])


def test_clean_and_quarantine_tables_hold_the_local_outputs_rows(tmp_path):
    data = tmp_path / "in.parquet"
    pq.write_table(arrow(rows(0, 500)), data)
    done = run(tmp_path, data, "--no-store", "--format", "json",
               "--clean", f"delta:{tmp_path / 'clean'}", "--quarantine", f"delta:{tmp_path / 'bad'}")
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    assert sorted(report["table_versions"], key=lambda t: t["role"]) == [
        {"table": f"delta:{tmp_path / 'clean'}", "role": "clean", "version": 0},
        {"table": f"delta:{tmp_path / 'bad'}", "role": "quarantine", "version": 0}]
    local = run(tmp_path, data, "--no-store", "--clean", tmp_path / "clean.parquet",
                "--quarantine", tmp_path / "bad.parquet")
    assert local.returncode == 1, local.stderr
    for name in ("clean", "bad"):
        expected = sorted(pq.read_table(tmp_path / f"{name}.parquet").select(CLEAN_AND_BAD).to_pylist(),
                          key=lambda r: r["id"])
        assert table_rows(tmp_path / name) == expected
    assert len(table_rows(tmp_path / "clean")) + len(table_rows(tmp_path / "bad")) == 500
    errors = deltalake.DeltaTable(tmp_path / "bad").to_pyarrow_table()["_griffin_errors"].to_pylist()
    assert all(e and e[0]["check"] for e in errors)

    # A second run appends: version 1, one commit, both runs' rows.
    first_clean = len(table_rows(tmp_path / "clean"))
    again = run(tmp_path, data, "--no-store", "--format", "json", "--clean", tmp_path / "clean")
    assert again.returncode == 1, again.stderr
    assert json.loads(again.stdout)["table_versions"][-1] == {"table": str(tmp_path / "clean"), "role": "clean",
                                                              "version": 1}
    clean = deltalake.DeltaTable(tmp_path / "clean")
    assert clean.version() == 1
    assert len(clean.history()) == 2
    assert clean.to_pyarrow_table().num_rows == 2 * first_clean
    # What griffin wrote, griffin reads: one run's clean rows pass the rules (both
    # runs' rows together repeat every id).
    assert run(tmp_path, f"{tmp_path / 'clean'}@v=0", "--no-store").returncode == 0
    assert run(tmp_path, tmp_path / "clean", "--no-store").returncode == 1


def test_appending_to_a_deltalake_table(tmp_path):
    table = tmp_path / "t"
    good = [r for r in rows(0, 200) if r["amount"] >= 0 and r["city"] != "Rome"]
    deltalake.write_deltalake(table, arrow(good[:10]))
    data = tmp_path / "in.parquet"
    pq.write_table(arrow(good[10:]), data)
    done = run(tmp_path, data, "--no-store", "--format", "json", "--clean", f"delta:{table}")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["table_versions"] == [{"table": f"delta:{table}", "role": "clean", "version": 1}]
    assert table_rows(table) == sorted(good, key=lambda r: r["id"])
    # A CSV's clean rows are its text (rules-v1): they do not fit the table's long `id`.
    csv = tmp_path / "in.csv"
    pacsv.write_csv(arrow(good[10:]), csv)
    wrong = run(tmp_path, csv, "--no-store", "--clean", f"delta:{table}")
    assert wrong.returncode == 3 and wrong.stderr.count("\n") == 1, wrong.stderr
    assert f"delta:{table}" in wrong.stderr and "0: " not in wrong.stderr  # no backtrace
    assert deltalake.DeltaTable(table).version() == 1


def test_the_store_records_the_committed_version(tmp_path):
    data = tmp_path / "in.parquet"
    pq.write_table(arrow(rows(0, 50)), data)
    store = tmp_path / "store.db"
    done = run(tmp_path, data, "--store", store, "--clean", f"delta:{tmp_path / 'clean'}")
    assert done.returncode == 1, done.stderr
    with sqlite3.connect(store) as db:
        outputs = list(db.execute("SELECT kind, etag, rows FROM run_outputs"))
    assert outputs == [("clean", "v=0", len(table_rows(tmp_path / "clean")))]


def test_a_failed_run_leaves_no_commit(tmp_path):
    good = tmp_path / "a.parquet"
    pq.write_table(arrow(rows(0, 100)), good)
    corrupt = tmp_path / "b.parquet"
    corrupt.write_bytes(b"PAR1" + b"\0" * 100)
    done = run(tmp_path, good, corrupt, "--no-store", "--clean", f"delta:{tmp_path / 'clean'}")
    assert done.returncode == 3, done.stderr
    assert not list((tmp_path / "clean").glob("_delta_log/*.json"))


def test_a_killed_run_leaves_no_commit(tmp_path):
    table = tmp_path / "t"
    deltalake.write_deltalake(table, arrow(rows(0, 10)))
    big = tmp_path / "big.csv"
    with open(big, "w") as out:
        out.write("id,amount,city\n")
        for i in range(3_000_000):
            out.write(f"{i},{i % 1000}.5,Oslo\n")
    spool = tmp_path / "spool"  # --tmp-dir: where the spool goes, instead of $TMPDIR
    spool.mkdir()
    rules = tmp_path / "rules.yaml"
    rules.write_text(RULES)
    process = subprocess.Popen([str(require_binary()), "validate", "-r", str(rules), str(big), "--no-store",
                                "--threads", "1", "--clean", f"delta:{table}", "--tmp-dir", str(spool)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while spooled_bytes(process.pid, spool) <= 1_000_000:
            assert process.poll() is None, "the run ended before its rows were seen spooling"
            assert time.monotonic() < deadline
            time.sleep(0.02)
        process.send_signal(signal.SIGKILL)
    finally:
        process.wait(timeout=30)
    assert process.returncode == -signal.SIGKILL
    assert deltalake.DeltaTable(table).version() == 0
    assert sorted(p.name for p in (table / "_delta_log").glob("*.json")) == [f"{0:020d}.json"]
    assert list(spool.iterdir()) == []  # the spool has no name: the kill leaves nothing there


def spooled_bytes(pid, folder):
    """The bytes in the files that process `pid` holds open under `folder`: its spool,
    which has no name there (an unnamed file), so only its descriptors show it."""
    total = 0
    for fd in pathlib.Path(f"/proc/{pid}/fd").glob("*"):
        try:
            if os.readlink(fd).startswith(f"{folder}/"):
                total += os.stat(fd).st_size
        except OSError:  # closed meanwhile, or the process is gone
            pass
    return total


def data_file_codecs(table):
    """{codec} over every column chunk of every data file the table's snapshot lists."""
    files = deltalake.DeltaTable(table).file_uris()
    assert files
    return {pq.ParquetFile(f).metadata.row_group(g).column(c).compression
            for f in files for g in range(pq.ParquetFile(f).metadata.num_row_groups)
            for c in range(pq.ParquetFile(f).metadata.num_columns)}


def test_data_files_are_snappy_by_default_and_take_parquet_compression(tmp_path):
    # Spark's Delta writer and Griffin's .parquet outputs write Snappy; the kernel's default
    # engine wrote UNCOMPRESSED pages. --parquet-compression reaches a table's data files too.
    data = tmp_path / "in.parquet"
    pq.write_table(arrow(rows(0, 2000)), data)
    default = run(tmp_path, data, "--no-store", "--clean", f"delta:{tmp_path / 'snappy'}")
    assert default.returncode == 1, default.stderr
    assert data_file_codecs(tmp_path / "snappy") == {"SNAPPY"}
    for codec, expected in (("zstd", "ZSTD"), ("none", "UNCOMPRESSED"), ("lz4", "LZ4")):  # pyarrow names LZ4_RAW "LZ4"
        done = run(tmp_path, data, "--no-store", "--clean", f"delta:{tmp_path / codec}", "--parquet-compression", codec)
        assert done.returncode == 1, done.stderr
        assert data_file_codecs(tmp_path / codec) == {expected}
        assert table_rows(tmp_path / codec) == table_rows(tmp_path / "snappy")
    # A Delta quarantine beside a CSV clean output is enough for the option to apply.
    mixed = run(tmp_path, data, "--no-store", "--clean", tmp_path / "clean.csv",
                "--quarantine", f"delta:{tmp_path / 'bad'}", "--parquet-compression", "zstd")
    assert mixed.returncode == 1, mixed.stderr
    assert data_file_codecs(tmp_path / "bad") == {"ZSTD"}
    assert len(table_rows(tmp_path / "bad")) + len(pacsv.read_csv(tmp_path / "clean.csv")) == 2000


def test_an_output_takes_no_time_travel(tmp_path):
    data = tmp_path / "in.parquet"
    pq.write_table(arrow(rows(0, 5)), data)
    done = run(tmp_path, data, "--no-store", "--clean", f"delta:{tmp_path / 'clean'}@v=3")
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1


WIDE_RULES = "griffin: 1\ndataset: wide\ncolumns:\n  key:\n    not_null: true\n  city:\n    in: [Oslo, Rome]\n"


def wide_rows(tmp_path, count):
    """`count` rows, a third of them bad (city Lima): the clean rows are every i % 3 != 2."""
    data = tmp_path / "in.parquet"
    pq.write_table(pa.table({"key": [f"k{i:07d}" for i in range(count)],
                             "city": [("Oslo", "Rome", "Lima")[i % 3] for i in range(count)],
                             "n": list(range(count))}), data)
    rules = tmp_path / "wide.rules.yaml"
    rules.write_text(WIDE_RULES)
    return rules, data


def clean_into(rules, data, output):
    done = subprocess.run([str(require_binary()), "validate", "-r", str(rules), str(data), "--no-store",
                           "--clean", str(output)], capture_output=True, text=True, timeout=180)
    assert done.returncode == 1, done.stderr


def check_files_hold_consecutive_rows(table_path, adds):
    """Each data file holds a run of consecutive rows, its statistics say which, and
    its row groups hold 65,536 rows at most."""
    for add in adds:
        file = pq.ParquetFile(table_path / add["path"])
        rows_in_file = file.read(columns=["n"])["n"].to_pylist()
        assert rows_in_file == sorted(rows_in_file)
        assert (add["min.n"], add["max.n"]) == (rows_in_file[0], rows_in_file[-1])
        assert add["num_records"] == len(rows_in_file)
        assert all(file.metadata.row_group(g).num_rows <= 65_536 for g in range(file.metadata.num_row_groups))
    spans = sorted((add["min.n"], add["max.n"]) for add in adds)
    assert all(a[1] < b[0] for a, b in zip(spans, spans[1:]))


def test_data_files_are_encoded_in_parallel_in_order_and_distinct_text_has_no_dictionary(tmp_path):
    # 140,000 clean rows are three spooled groups of 65,536 rows at most, about 3 MB of
    # Arrow data: below a file's 64 MiB, so one data file per core (while there are
    # groups enough), encoded on a thread each, committed with their statistics. A
    # column of distinct strings is written without a dictionary (as .parquet outputs
    # decide it); a column of few values keeps one.
    count = 210_000
    rules, data = wide_rows(tmp_path, count)
    for output in (f"delta:{tmp_path / 'clean'}", tmp_path / "clean.parquet"):
        clean_into(rules, data, output)
    table = deltalake.DeltaTable(tmp_path / "clean")
    adds = pa.table(table.get_add_actions(flatten=True)).to_pylist()
    assert len(adds) == min(len(os.sched_getaffinity(0)), 3), adds
    kept = sum(1 for i in range(count) if i % 3 != 2)
    assert sum(a["num_records"] for a in adds) == kept
    expected = pq.read_table(tmp_path / "clean.parquet").select(["key", "city", "n"]).sort_by("n")
    got = pa.table(table.to_pyarrow_table()).select(["key", "city", "n"]).sort_by("n")
    assert got.num_rows == kept and got.equals(expected)
    check_files_hold_consecutive_rows(tmp_path / "clean", adds)
    for add in adds:
        metadata = pq.ParquetFile(tmp_path / "clean" / add["path"]).metadata
        for g in range(metadata.num_row_groups):
            columns = {metadata.row_group(g).column(c).path_in_schema: metadata.row_group(g).column(c)
                       for c in range(metadata.num_columns)}
            assert not columns["key"].has_dictionary_page, add["path"]
            assert columns["city"].has_dictionary_page, add["path"]


def test_a_tables_target_file_size_sets_how_many_rows_a_data_file_takes(tmp_path):
    """delta.targetFileSize, taken as the rows' Arrow bytes: a target of one byte gives
    each 65,536-row group a file of its own; a table without the property (or a large
    target) gets 64 MiB files, so these 140,000 rows are one file per core; a target
    between gives files between. Every run equals a .parquet output's rows."""
    count = 210_000
    rules, data = wide_rows(tmp_path, count)
    kept = sum(1 for i in range(count) if i % 3 != 2)
    clean_into(rules, data, tmp_path / "clean.parquet")
    expected = pq.read_table(tmp_path / "clean.parquet").select(["key", "city", "n"]).sort_by("n")
    empty = pa.table({"key": pa.array([], pa.string()), "city": pa.array([], pa.string()),
                      "n": pa.array([], pa.int64())})
    files = {}
    for target in ("1", "1000000", "1000000000", None):
        path = tmp_path / f"t{target}"
        deltalake.write_deltalake(path, empty, configuration={"delta.targetFileSize": target} if target else None)
        clean_into(rules, data, f"delta:{path}")
        table = deltalake.DeltaTable(path)
        adds = [a for a in pa.table(table.get_add_actions(flatten=True)).to_pylist() if a["num_records"]]
        assert sum(a["num_records"] for a in adds) == kept
        assert pa.table(table.to_pyarrow_table()).select(["key", "city", "n"]).sort_by("n").equals(expected)
        check_files_hold_consecutive_rows(path, adds)
        files[target] = len(adds)
    cores = len(os.sched_getaffinity(0))
    assert files["1"] == 3, files  # 140,000 rows: groups of 65,536, 65,536 and 8,928
    assert files["1000000000"] == files[None] == min(cores, 3), files
    assert min(cores, 3) <= files["1000000"] <= 3, files
