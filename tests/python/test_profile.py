"""`griffin profile` and griffin.profile(): exact against a slow reference on
generated data, the same bytes whatever the thread count, every input format,
and wrong inputs (docs/profile.md)."""
import json
import math
import random
import subprocess

import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.feather as feather
import pyarrow.parquet as pq
import pytest

from griffin_cli import require_binary

COLUMNS = ["id", "amount", "kind", "day", "email", "code", "maybe", "empty"]


def generated_rows(n, seed=7):
    rng = random.Random(seed)
    kinds = ["purchase", "refund", "transfer", "fee"]
    rows = []
    for i in range(n):
        amount = "%.2f" % rng.uniform(-50, 5000)
        if i % 997 == 0:
            amount = rng.choice(["nan", "inf", "-inf", "1e12"])
        rows.append({
            "id": str(i),
            "amount": amount,
            "kind": rng.choices(kinds, weights=[70, 10, 15, 5])[0],
            "day": "2024-%02d-%02d" % (rng.randint(1, 12), rng.randint(1, 28)),
            "email": "user%d@example.%s" % (rng.randint(0, 5000), rng.choice(["com", "org"])),
            "code": "%s%s%04d" % (rng.choice("ABC"), rng.choice("XY"), rng.randint(0, 9999)),
            "maybe": "" if rng.random() < 0.2 else rng.choice(["ja", "nein", "vielleicht"]),
            "empty": "",
        })
    return rows


def write_csv(path, rows):
    with open(path, "w") as f:
        f.write(",".join(COLUMNS) + "\n")
        for row in rows:
            f.write(",".join(row[c] for c in COLUMNS) + "\n")


def run_profile(*args, check=True):
    done = subprocess.run([str(require_binary()), "profile", *map(str, args)], capture_output=True, timeout=300)
    if check:
        assert done.returncode == 0, done.stderr.decode()
    return done


def profile_json(*args):
    return json.loads(run_profile(*args, "--format", "json").stdout)


# --- the slow reference ------------------------------------------------------

def nearest_rank(sorted_values, q):
    n = len(sorted_values)
    rank = min(max(1, math.ceil(q * n)), n)
    return sorted_values[rank - 1]


def pattern(text):
    out = []
    for ch in text:
        if "A" <= ch <= "Z":
            out.append("A")
        elif "a" <= ch <= "z":
            out.append("a")
        elif "0" <= ch <= "9":
            out.append("9")
        elif ord(ch) > 127:
            out.append("*")
        else:
            out.append(ch)
    return "".join(out[:40]) + ("..." if len(out) > 40 else "")


def top(counter_items, k=20):
    return sorted(counter_items, key=lambda kv: (-kv[1], kv[0]))[:k]


def reference_column(texts):
    values = [t for t in texts if t != ""]
    ref = {"rows": len(texts), "nulls": len(texts) - len(values), "distinct": len(set(values))}
    counts = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    ref["top"] = top(counts.items())
    numbers = []
    for v in values:
        try:
            numbers.append(float(v))
        except ValueError:
            pass
    ref["numbers"] = numbers
    patterns = {}
    for v in values:
        p = pattern(v)
        patterns[p] = patterns.get(p, 0) + 1
    ref["patterns"] = top(patterns.items())
    ref["lengths"] = [len(v) for v in values]
    return ref


def check_numbers(actual, numbers):
    finite = [x for x in numbers if math.isfinite(x)]
    ordered = sorted(x for x in numbers if not math.isnan(x))
    assert actual["count"] == len(numbers)
    assert actual["nan"] == sum(math.isnan(x) for x in numbers)
    assert actual["infinite"] == sum(math.isinf(x) for x in numbers)
    as_json = lambda x: x if math.isfinite(x) else ("inf" if x > 0 else "-inf")  # noqa: E731
    assert actual["min"] == as_json(ordered[0])
    assert actual["max"] == as_json(ordered[-1])
    mean = math.fsum(finite) / len(finite)
    assert math.isclose(actual["mean"], mean, rel_tol=1e-9)
    var = math.fsum((x - mean) ** 2 for x in finite) / (len(finite) - 1)
    assert math.isclose(actual["stddev"], math.sqrt(var), rel_tol=1e-6)
    assert actual["quantiles_exact"] is True
    for name, q in [("p1", .01), ("p5", .05), ("p25", .25), ("p50", .5), ("p75", .75), ("p95", .95), ("p99", .99)]:
        assert actual["quantiles"][name] == as_json(nearest_rank(ordered, q)), name
    lo, hi = min(finite), max(finite)
    width = (hi - lo) / 20
    bins = [0] * 20
    for x in finite:
        bins[min(max(int((x - lo) / width), 0), 19)] += 1
    assert [b["count"] for b in actual["histogram"]] == bins
    assert actual["histogram"][0]["lo"] == lo and actual["histogram"][-1]["hi"] == hi


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    directory = tmp_path_factory.mktemp("profile")
    rows = generated_rows(30000)
    path = directory / "data.csv"
    write_csv(path, rows)
    return directory, path, rows


def test_profile_is_exact_against_a_slow_reference(generated):
    _, path, rows = generated
    profile = profile_json(path, "--batch-rows", "4096")
    assert profile["rows"] == len(rows) and profile["malformed_rows"] == 0
    assert [c["name"] for c in profile["columns"]] == COLUMNS
    by_name = {c["name"]: c for c in profile["columns"]}
    for name in COLUMNS:
        actual, ref = by_name[name], reference_column([r[name] for r in rows])
        assert actual["rows"] == ref["rows"], name
        assert actual["nulls"] == ref["nulls"], name
        assert actual["distinct"] == ref["distinct"] and actual["distinct_exact"], name
        if ref["lengths"]:
            assert actual["text"]["min_length"] == min(ref["lengths"])
            assert actual["text"]["max_length"] == max(ref["lengths"])
            assert actual["text"]["patterns"]["values"] == [{"pattern": p, "count": n} for p, n in ref["patterns"]] \
                or not actual["text"]["patterns"]["exact"]
        if len(set(ref["top"])) <= 256 and actual["top_values"]["exact"]:
            assert actual["top_values"]["values"] == [{"value": v, "count": n} for v, n in ref["top"]], name
    check_numbers(by_name["amount"]["numbers"], reference_column([r["amount"] for r in rows])["numbers"])
    assert by_name["id"]["type"] == "int64" and by_name["id"]["type_confidence"] == 1
    assert by_name["id"]["numbers"]["int_min"] == 0 and by_name["id"]["numbers"]["int_max"] == len(rows) - 1
    assert by_name["amount"]["type"] == "float64"
    assert by_name["day"]["type"] == "date"
    days = sorted(r["day"] for r in rows)
    assert by_name["day"]["times"]["min"] == days[0] and by_name["day"]["times"]["max"] == days[-1]
    assert by_name["day"]["times"]["quantiles"]["p50"] == nearest_rank(days, 0.5)
    assert by_name["email"]["text"]["formats"]["email"] == len(rows)
    assert by_name["kind"]["top_values"]["exact"] is True
    # Past 256 distinct values only surely frequent values are listed: none here.
    assert by_name["id"]["top_values"] == {"exact": False, "max_error": by_name["id"]["top_values"]["max_error"],
                                           "values": []}
    assert by_name["code"]["text"]["patterns"]["values"][0]["pattern"] == "AA9999"
    # An all-null column: every row null, no type evidence.
    empty = by_name["empty"]
    assert empty["nulls"] == len(rows) and empty["distinct"] == 0 and empty["type_confidence"] == 0
    assert empty["numbers"] is None and empty["text"] is None and empty["top_values"]["values"] == []


def test_one_thread_and_many_write_the_same_bytes(generated):
    _, path, _ = generated
    one = run_profile(path, "--format", "json", "--threads", "1", "--batch-rows", "1000").stdout
    many = run_profile(path, "--format", "json", "--threads", "4", "--batch-rows", "1000").stdout
    assert one == many


def test_every_input_format_gives_the_same_counts(generated):
    directory, path, rows = generated
    table = pacsv.read_csv(path, convert_options=pacsv.ConvertOptions(
        column_types={c: pa.string() for c in COLUMNS}, strings_can_be_null=False))
    pq.write_table(table, directory / "data.parquet")
    feather.write_feather(table, directory / "data.arrow")
    with open(directory / "data.jsonl", "w") as f:
        for r in rows:
            f.write(json.dumps({c: (r[c] if r[c] != "" else None) for c in COLUMNS}) + "\n")
    with open(directory / "data.json", "w") as f:
        json.dump([{c: r[c] for c in COLUMNS if r[c] != ""} for r in rows], f)
    (directory / "data.tsv").write_text(path.read_text().replace(",", "\t"))
    expected = profile_json(path)
    for name in ["data.tsv", "data.jsonl", "data.json", "data.parquet", "data.arrow"]:
        got = profile_json(directory / name)
        assert got["rows"] == expected["rows"], name
        got_columns = {c["name"]: c for c in got["columns"]}
        for column in expected["columns"]:
            if name == "data.json" and column["name"] == "empty":
                assert "empty" not in got_columns  # a key no object has is no column
                continue
            other = got_columns[column["name"]]
            for key in ("rows", "nulls", "distinct", "type"):
                assert other[key] == column[key], (name, column["name"], key)
            if column["top_values"]["exact"]:
                assert other["top_values"] == column["top_values"], (name, column["name"])


def test_python_profile_matches_the_cli(generated):
    import griffin

    directory, path, rows = generated
    cli = profile_json(path)
    assert griffin.profile(str(path)) == cli
    assert griffin.profile(path, threads=3) == cli
    table = pa.table({"n": pa.array([1, 2, None, 4], pa.int64()), "s": ["a", "b", "b", None],
                      "t": pa.array([0, 86400 * 10**6, None, None], pa.timestamp("us", tz="UTC"))})
    typed = griffin.profile(table)
    columns = {c["name"]: c for c in typed["columns"]}
    assert columns["n"]["type"] == "int64" and columns["n"]["nulls"] == 1
    assert columns["n"]["numbers"]["mean"] == pytest.approx(7 / 3)
    assert columns["s"]["top_values"]["values"][0] == {"value": "b", "count": 2}
    assert columns["t"]["type"] == "timestamp" and columns["t"]["times"]["max"] == "1970-01-02T00:00:00Z"


def test_output_file_and_state(generated, tmp_path):
    _, path, _ = generated
    out, state = tmp_path / "p.json", tmp_path / "p.state"
    done = run_profile(path, "-o", out, "--state", state, "--format", "json")
    assert json.loads(out.read_text()) == json.loads(done.stdout)
    assert state.read_bytes().startswith(b"\x11\x00\x00\x00\x00\x00\x00\x00griffin-profile-1")


def test_wrong_inputs(tmp_path):
    import griffin

    empty = tmp_path / "empty.csv"
    empty.write_text("")
    assert profile_json(empty)["rows"] == 0
    header = tmp_path / "header.csv"
    header.write_text("a,b\n")
    assert profile_json(header)["rows"] == 0
    huge = tmp_path / "huge.csv"
    huge.write_text("x\n1e308\n1e308\n-1e308\n" + "9" * 400 + "\n")
    column = profile_json(huge)["columns"][0]
    assert column["type"] == "float64" and column["numbers"]["max"] == "inf"  # 9 x 400 reads as inf
    assert column["text"]["max_length"] == 400
    assert column["numbers"]["stddev"] is None  # the squares overflow: no finite stddev, written null

    missing = run_profile(tmp_path / "nope.csv", check=False)
    assert missing.returncode == 3 and b"nope.csv" in missing.stderr
    bad_format = run_profile(huge, "--format", "xml", check=False)
    assert bad_format.returncode == 2 and b"--format" in bad_format.stderr
    over_input = run_profile(huge, "-o", huge, check=False)
    assert over_input.returncode == 2 and huge.read_text().startswith("x\n")
    corrupt = tmp_path / "corrupt.parquet"
    corrupt.write_bytes(b"PAR1 this is not parquet")
    broken = run_profile(corrupt, check=False)
    assert broken.returncode == 3 and b"corrupt.parquet" in broken.stderr
    assert len(broken.stderr.decode().strip().splitlines()) == 1
    with pytest.raises(griffin.InputError, match="nope.csv"):
        griffin.profile(str(tmp_path / "nope.csv"))
