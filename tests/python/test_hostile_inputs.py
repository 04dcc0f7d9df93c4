"""Hostile inputs from issue 12's campaign, replayed through the CLI and the Python
package: corrupt Arrow (out-of-bounds and negative string offsets), invalid UTF-8 in
Arrow strings, absurd thread counts, a million CSV columns, a 1 GiB line, usage
mistakes, deep YAML and out-of-range JSON numbers. Each must give a clear error with
the spec's exit code (or the spec's verdict), never a crash."""
import gzip
import json
import os
import pathlib
import struct
import subprocess

import pyarrow as pa
import pyarrow.ipc as ipc
import pyarrow.parquet as pq
import pytest

import griffin

REPO = pathlib.Path(__file__).resolve().parents[2]
GRIFFIN = os.environ.get("GRIFFIN_BIN", str(REPO / "build" / "griffin"))
RULES = """griffin: 1
dataset: hostile
columns:
  s:
    type: string
    not_null: true
  n:
    type: int64
"""
REGEX_RULES = RULES.replace("not_null: true", "not_null: true\n    regex: '^[a-z]+$'")


def run(*args, stdin=None, timeout=120):
    return subprocess.run([GRIFFIN, *map(str, args)], input=stdin, capture_output=True, timeout=timeout)


def validate(rules, *inputs, extra=()):
    return run("validate", "-r", rules, *inputs, "--format", "json", "--no-store", *extra)


@pytest.fixture
def rules(tmp_path):
    path = tmp_path / "rules.yaml"
    path.write_text(RULES)
    return path


def raw_strings(offsets, data, type_=pa.utf8()):
    """A string array over raw offsets and bytes, past pyarrow's light checks."""
    fmt = "<%dq" if type_ == pa.large_utf8() else "<%di"
    offsets_buffer = pa.py_buffer(struct.pack(fmt % len(offsets), *offsets))
    return pa.Array.from_buffers(type_, len(offsets) - 1, [None, offsets_buffer, pa.py_buffer(data)])


def write_ipc(path, table, stream=False):
    with (ipc.new_stream if stream else ipc.new_file)(str(path), table.schema) as writer:
        writer.write_table(table)
    return path


CORRUPT = {
    "offsets_past_data": lambda: raw_strings([0, 3, 100000000, 6], b"abcdef"),
    "offsets_negative": lambda: raw_strings([0, -5, 3, 6], b"abcdef"),
    "offsets_decreasing": lambda: raw_strings([0, 3, 1, 3], b"abc"),
    "large_offsets_past_data": lambda: raw_strings([0, 1 << 40, 2, 3], b"abc", pa.large_utf8()),
}


@pytest.mark.parametrize("stream", [False, True], ids=["file", "stream"])
@pytest.mark.parametrize("extra", [(), ("--clean", "clean.parquet")], ids=["plain", "clean"])
@pytest.mark.parametrize("case", sorted(CORRUPT))
def test_corrupt_arrow_file_is_exit_3_not_a_crash(tmp_path, case, stream, extra):
    rules = tmp_path / "rules.yaml"
    rules.write_text(REGEX_RULES)
    table = pa.table({"s": CORRUPT[case](), "n": pa.array([1, 2, 3], pa.int64())})
    bad = write_ipc(tmp_path / "bad.arrow", table, stream)
    extra = tuple(str(tmp_path / e) if e.endswith(".parquet") else e for e in extra)
    done = validate(rules, bad, extra=extra)
    assert done.returncode == 3, done
    message = done.stderr.decode()
    assert message.count("\n") == 1 and f"{bad}: invalid Arrow data in column \"s\"" in message, message
    assert not (tmp_path / "clean.parquet").exists()


@pytest.mark.parametrize("case", sorted(CORRUPT))
def test_corrupt_arrow_through_python_is_input_error(tmp_path, rules, case):
    validator = griffin.Validator.from_yaml(rules)
    table = pa.table({"s": CORRUPT[case](), "n": pa.array([1, 2, 3], pa.int64())})
    bad = write_ipc(tmp_path / "bad.arrow", table)
    with pytest.raises(griffin.InputError, match="invalid Arrow data in column \"s\""):
        validator.validate(str(bad))
    # The in-memory table (the C stream) used to segfault the interpreter.
    with pytest.raises(griffin.InputError, match="invalid Arrow data in column \"s\""):
        validator.validate(table)


def test_corrupt_dictionary_index_is_input_error(tmp_path, rules):
    indices = pa.py_buffer(struct.pack("<3i", 0, 1, 70000))
    dictionary = pa.DictionaryArray.from_buffers(pa.dictionary(pa.int32(), pa.utf8()), 3, [None, indices],
                                                 pa.array(["a", "b"]))
    table = pa.table({"s": dictionary, "n": pa.array([1, 2, 3], pa.int64())})
    done = validate(rules, write_ipc(tmp_path / "bad.arrow", table))
    assert done.returncode == 3 and b"invalid Arrow data in column \"s\"" in done.stderr, done


def test_corrupt_arrow_on_stdin_is_exit_3(tmp_path, rules):
    table = pa.table({"s": CORRUPT["offsets_past_data"](), "n": pa.array([1, 2, 3], pa.int64())})
    sink = pa.BufferOutputStream()
    with ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table)
    done = run("validate", "-r", rules, "-", "--input-format", "arrow", "--format", "json", "--no-store",
               stdin=sink.getvalue().to_pybytes())
    assert done.returncode == 3 and b"<stdin>: invalid Arrow data" in done.stderr, done


INVALID_UTF8 = [b"ok", b"a\xffb", b"\xc3", b"\xa9", "é".encode()]


def utf8_table(type_=pa.utf8()):
    offsets, data = [0], b""
    for value in INVALID_UTF8:
        data += value
        offsets.append(len(data))
    strings = raw_strings(offsets, data, type_)
    return pa.table({"s": strings, "n": pa.array(range(len(INVALID_UTF8)), pa.int64())})


def csv_with_invalid_utf8(path):
    path.write_bytes(b"s,n\n" + b"".join(v + b",%d\n" % i for i, v in enumerate(INVALID_UTF8)))
    return path


@pytest.mark.parametrize("fmt", ["arrow", "parquet", "large_utf8", "dictionary", "python"])
def test_invalid_utf8_in_arrow_strings_is_malformed_as_in_csv(tmp_path, rules, fmt):
    table = utf8_table(pa.large_utf8() if fmt == "large_utf8" else pa.utf8())
    if fmt == "dictionary":
        table = pa.table({"s": table["s"].combine_chunks().dictionary_encode(), "n": table["n"]})
    csv_code, csv_report = validate_json(rules, csv_with_invalid_utf8(tmp_path / "same.csv"))
    if fmt == "python":
        report = griffin.Validator.from_yaml(rules).validate(table, max_violations=100)
        code, typed = (0 if report.passed else 1), report.to_dict()
    else:
        path = tmp_path / ("typed.parquet" if fmt == "parquet" else "typed.arrow")
        pq.write_table(table, path) if fmt == "parquet" else write_ipc(path, table)
        code, typed = validate_json(rules, path)
    # The same rows are bad, for the same reason, as the CSV of the same bytes.
    assert typed["malformed_rows"] == csv_report["malformed_rows"] == 3
    assert typed["bad_rows"] == csv_report["bad_rows"] == 3
    rows = [v["row"] for v in typed["violations"] if v["check"] == "malformed"]
    assert rows == [v["row"] for v in csv_report["violations"] if v["check"] == "malformed"] == [1, 2, 3]
    reasons = [v["message"] for v in typed["violations"] if v["check"] == "malformed"]
    assert reasons[0] == 'invalid UTF-8 at byte 2 of column "s"', reasons
    assert all(v["check"] == "malformed" for v in typed["violations"])  # not evaluated by other checks


def test_invalid_utf8_rows_go_to_quarantine_not_clean(tmp_path, rules):
    path = write_ipc(tmp_path / "typed.arrow", utf8_table())
    clean, quarantine = tmp_path / "clean.parquet", tmp_path / "quarantine.parquet"
    done = validate(rules, path, extra=("--clean", clean, "--quarantine", quarantine))
    assert done.returncode in (0, 1), done
    assert pq.read_table(clean)["n"].to_pylist() == [0, 4]
    kept = pq.read_table(quarantine)
    assert kept["n"].to_pylist() == [1, 2, 3]  # the row's other values are kept
    assert [e[0]["check"] for e in kept["_griffin_errors"].to_pylist()] == ["malformed"] * 3


def validate_json(rules, path):
    done = validate(rules, path, extra=("--max-violations", "100"))
    assert done.returncode in (0, 1), done
    return done.returncode, json.loads(done.stdout)


def test_threads_past_the_cap_is_a_usage_error(tmp_path, rules):
    data = tmp_path / "d.csv"
    data.write_text("s,n\na,1\n")
    done = validate(rules, data, extra=("--threads", "100000"))
    assert done.returncode == 2 and b"--threads: must be 0 (all cores) to 1024" in done.stderr, done
    assert validate(rules, data, extra=("--threads", "1024")).returncode == 0
    with pytest.raises(griffin.GriffinError, match=r"threads: must be 0 \(all cores\) to 1024"):
        griffin.Validator.from_yaml(rules).validate(str(data), threads=100000)


def limited_run(command, stack_mib, address_space_mib):
    """`command` with RLIMIT_STACK (each new thread's stack size) and RLIMIT_AS set:
    thread creation fails once the stacks fill the address space."""
    import resource

    def limit():
        resource.setrlimit(resource.RLIMIT_STACK, (stack_mib << 20, stack_mib << 20))
        resource.setrlimit(resource.RLIMIT_AS, (address_space_mib << 20, address_space_mib << 20))

    return subprocess.run(command, capture_output=True, preexec_fn=limit, timeout=120)


def test_thread_start_failure_is_an_error_or_fewer_threads_not_an_abort(tmp_path, rules):
    """It used to abort on an uncaught std::system_error. When the system refuses
    some workers the run goes on with those that started (same report); when it
    refuses all, exit 3 with one line."""
    data = tmp_path / "d.csv"
    data.write_text("s,n\n" + "".join(f"x,{i}\n" for i in range(20000)))
    command = [GRIFFIN, "validate", "-r", str(rules), str(data), "--no-store", "--format", "json",
               "--threads", "1024", "--batch-rows", "100"]
    free = subprocess.run(command, capture_output=True, timeout=120)
    assert free.returncode == 0, free
    # 256 MiB stacks in 4 GiB: a dozen workers start, the rest are refused. What the
    # stacks leave of the address space may then be too little for the heap (CI, on a
    # loaded machine, once aborted on an uncaught std::bad_alloc here): that is one
    # line and exit 3, never an abort.
    some = limited_run(command, 256, 4096)
    if some.returncode == 3:
        assert some.stderr == b"griffin: out of memory\n", some
    else:
        assert some.returncode == 0 and some.stderr == b"", some
        strip = lambda out: {k: v for k, v in json.loads(out).items() if k not in ("run_id", "elapsed_s")}
        assert strip(some.stdout) == strip(free.stdout)
    # 1 GiB stacks in 1.5 GiB: not one worker starts.
    none = limited_run(command, 1024, 1536)
    assert none.returncode == 3, none
    assert none.stderr == b"griffin: cannot start a worker thread: Resource temporarily unavailable\n", none


@pytest.mark.parametrize("address_space_mib", [250, 350])
def test_running_out_of_address_space_for_a_unique_table_is_one_line_not_an_abort(tmp_path, address_space_mib):
    """3M distinct keys need about 500 MiB of address space; the CLI starts in about
    200. The key table and its key blocks are Griffin's own mappings (huge pages):
    their failure used to throw std::bad_alloc past the CLI's out-of-memory handler
    and abort (exit 134). Now it is the handler's one line and exit 3."""
    import resource
    rules = tmp_path / "unique.yaml"
    rules.write_text("griffin: 1\ndataset: keys\ncolumns:\n  id: {unique: true}\n")
    data = tmp_path / "keys.csv"
    with open(data, "w") as out:
        out.write("id\n")
        out.write("".join(f"k{i}\n" for i in range(3_000_000)))

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (address_space_mib << 20, address_space_mib << 20))

    done = subprocess.run([GRIFFIN, "validate", "-r", str(rules), str(data), "--no-store"],
                          capture_output=True, preexec_fn=limit, timeout=120)
    assert done.returncode == 3 and done.stderr == b"griffin: out of memory\n", done


def test_a_million_csv_columns_is_exit_3_fast(tmp_path, rules):
    data = tmp_path / "wide.csv"
    data.write_text(",".join(f"c{i}" for i in range(1_000_000)) + "\n" + ",".join("1" * 1_000_000) + "\n")
    done = validate(rules, data, extra=("--clean", tmp_path / "clean.parquet"))
    assert done.returncode == 3, done
    assert f"{data}:1: the record has 1000000 fields; at most 100000 columns are supported".encode() in done.stderr
    headerless = tmp_path / "wide2.csv"
    headerless.write_text(",".join("1" * 200_000) + "\n")
    rules_no_header = tmp_path / "r2.yaml"
    rules_no_header.write_text(RULES.replace("columns:", "source: {header: false}\ncolumns:"))
    done = validate(rules_no_header, headerless)
    assert done.returncode == 3 and b"200000 fields" in done.stderr, done


def test_arrow_with_too_many_columns_is_exit_3(tmp_path, rules):
    table = pa.table({f"c{i}": pa.array([1], pa.int8()) for i in range(100_001)})
    path = write_ipc(tmp_path / "wide.arrow", table)
    done = validate(rules, path)
    assert done.returncode == 3 and b"the schema has 100001 columns; at most 100000" in done.stderr, done


@pytest.mark.parametrize("args,message", [
    (("--store", "foo.txt"), b"--store foo.txt: expected a .db"),
    (("--delimiter", "\n"), b"--delimiter: cannot be a line break"),
    (("--delimiter", "\r"), b"--delimiter: cannot be a line break"),
])
def test_usage_mistakes_exit_2(tmp_path, rules, args, message):
    data = tmp_path / "d.csv"
    data.write_text("s,n\na,1\n")
    done = run("validate", "-r", rules, data, *args)
    assert done.returncode == 2 and message in done.stderr, done
    assert not pathlib.Path("foo.txt").exists()


@pytest.mark.parametrize("depth", [500, 5000])
def test_deep_yaml_names_a_line(tmp_path, depth):
    rules = tmp_path / "deep.yaml"
    rules.write_text("griffin: 1\ndataset: deep\ncolumns:\n  a:\n    in: " + "[" * depth + "]" * depth + "\n")
    data = tmp_path / "d.csv"
    data.write_text("a\n1\n")
    done = run("validate", "-r", rules, data, "--no-store")
    assert done.returncode == 2, done
    message = done.stderr.decode()
    assert f"{rules}:5: invalid YAML: nested 500 levels deep (the limit is 499)" in message and "bad file" not in message, message


def test_out_of_range_json_numbers_are_type_violations(tmp_path):
    rules = tmp_path / "rules.yaml"
    rules.write_text("griffin: 1\ndataset: j\ncolumns:\n  i: {type: int64}\n  f: {type: float64}\n")
    data = tmp_path / "d.jsonl"
    data.write_text('{"i": 1, "f": 1.5}\n'
                    '{"i": 99999999999999999999999, "f": 1}\n'
                    '{"i": 9223372036854775808, "f": 1e999}\n'
                    '{"i": 1e999, "f": -1e999}\n'
                    '{"i": 2, "f": 99999999999999999999999}\n'
                    '{"i": 1e999 "f": 2}\n')
    done = validate(rules, data, extra=("--max-violations", "100"))
    assert done.returncode == 1, done
    report = json.loads(done.stdout)
    assert report["malformed_rows"] == 1  # only the line missing its comma
    found = [(v["row"], v["check"]) for v in report["violations"]]
    assert found == [(1, "i.type"), (2, "i.type"), (2, "f.type"), (3, "i.type"), (3, "f.type"), (5, "malformed")], found


def test_line_past_one_gib_in_gzip_is_exit_3_with_peak_rss_near_1_gib(tmp_path, rules):
    """A row, then a NUL line past the 1 GiB record limit, in a 5 MB gzip file
    (members of 16 MiB of NULs). It used to be read whole (the buffer grew to
    2 GiB: no error at 2.3 GB peak RSS); now exit 3 at about 1.1 GB."""
    path = tmp_path / "nul.csv.gz"
    block = gzip.compress(b"\0" * (1 << 24), compresslevel=1)
    with open(path, "wb") as out:
        out.write(gzip.compress(b"s,n\nx,1\n"))
        for _ in range(70):  # 1.1 GiB
            out.write(block)
    done = subprocess.run(["/usr/bin/time", "-v", GRIFFIN, "validate", "-r", str(rules), str(path), "--no-store"],
                          capture_output=True, timeout=600)
    assert done.returncode == 3, done
    assert f"griffin: {path}: a record is longer than 1024 MiB".encode() in done.stderr, done.stderr
    peak_kb = int(next(line for line in done.stderr.decode().splitlines() if "Maximum resident" in line).split()[-1])
    assert peak_kb < 1.2 * (1 << 20), f"peak RSS {peak_kb} kB"
