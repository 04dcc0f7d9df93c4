"""Partial validation states (issue 14, design.md "One mergeable state"):
Validator.partial() over any split of the rows, merged in any grouping and
order with Validator.merge_partials(), gives the report of the whole, which is
`griffin validate`'s over the same rows; states survive bytes; states of
another rule file or Griffin version are refused."""
import json
import subprocess

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings, strategies as st

import griffin
from griffin_cli import require_binary

RULES = """griffin: 1
dataset: parts
columns:
  id: {type: int64, unique: true}
  code: {type: string, unique: {value: true, severity: warn}}
  n: {type: int64, min: 0, max: 50}
  x: {type: float64}
rows:
  - name: code_n_unique
    unique: [code, n]
table:
  - row_count: {min: 1}
  - distinct_count: {column: code, min: 2}
  - mean: {column: n, max: 40}
  - sum: {column: n, min: 0}
  - min: {column: x, max: 100}
  - max: {column: n, max: 60}
  - quantile: {column: n, q: 0.5, max: 30}
  - null_fraction: {column: code, max: 0.5}
"""

rows_strategy = st.lists(
    st.tuples(st.integers(0, 30), st.one_of(st.none(), st.sampled_from(["a", "b", "c", "d", "e"])),
              st.one_of(st.none(), st.integers(-5, 60)), st.floats(-10, 200, allow_nan=False)),
    min_size=0, max_size=60)


def table_of(rows):
    return pa.table({"id": pa.array([r[0] for r in rows], pa.int64()),
                     "code": pa.array([r[1] for r in rows], pa.string()),
                     "n": pa.array([r[2] for r in rows], pa.int64()),
                     "x": pa.array([r[3] for r in rows], pa.float64())})


def comparable(report_json, drop=("inputs", "elapsed_s", "threads", "input_bytes", "run_id", "input_rows")):
    doc = json.loads(report_json) if isinstance(report_json, str) else report_json
    doc = {k: v for k, v in doc.items() if k not in drop}
    for check in doc["checks"]:   # float sums and moments are combined, equal within rounding
        if isinstance(check.get("observed"), float):
            check["observed"] = round(check["observed"], 9)
    return doc


VALIDATOR = griffin.Validator.from_yaml(RULES)


@settings(max_examples=60, deadline=None)
@given(rows=rows_strategy, cuts=st.lists(st.integers(0, 60), max_size=5), order=st.randoms(use_true_random=False),
       max_violations=st.sampled_from([0, 1, 3, 100]))
def test_any_split_in_any_order_gives_the_wholes_report(rows, cuts, order, max_violations):
    table = table_of(rows)
    whole = VALIDATOR.validate(table, max_violations=max_violations, threads=1)
    bounds = sorted({0, len(rows), *[c for c in cuts if c <= len(rows)]})
    states = [VALIDATOR.partial(table.slice(lo, hi - lo), row_offset=lo, max_violations=max_violations)
              for lo, hi in zip(bounds, bounds[1:])]
    # Any grouping: consecutive parts merged into group states first (each
    # group's parts in a shuffled order), then the groups, shuffled.
    groups, at = [], 0
    while at < len(states):
        size = order.randint(1, 3)
        group = states[at:at + size]
        order.shuffle(group)
        groups.append(group[0] if len(group) == 1 and order.random() < 0.5 else VALIDATOR.merge_states(group))
        at += size
    order.shuffle(groups)
    merged = VALIDATOR.merge_partials([bytes(bytearray(s)) for s in groups])   # through plain bytes
    assert comparable(merged.to_json()) == comparable(whole.to_json())
    order.shuffle(states)
    assert comparable(VALIDATOR.merge_partials(states).to_json()) == comparable(whole.to_json())


def sharded_merge(table, bounds, shards, order, max_violations):
    """The report of `table` split at `bounds`, its unique keys in `shards`
    shards, each shard's blobs merged in a shuffled order (a hash shuffle)."""
    states, blobs = [], [[] for _ in range(shards)]
    for lo, hi in zip(bounds, bounds[1:]):
        state, part_blobs = VALIDATOR.partial_sharded(table.slice(lo, hi - lo), shards, row_offset=lo,
                                                      max_violations=max_violations)
        states.append(state)
        for s, blob in enumerate(part_blobs):
            blobs[s].append(blob)
    duplicates = []
    for shard in blobs:
        order.shuffle(shard)
        duplicates.append(VALIDATOR.merge_key_shard(shard))
    order.shuffle(states)
    order.shuffle(duplicates)
    return VALIDATOR.merge_partials(states, key_duplicates=duplicates)


@settings(max_examples=60, deadline=None)
@given(rows=rows_strategy, cuts=st.lists(st.integers(0, 60), max_size=5), order=st.randoms(use_true_random=False),
       max_violations=st.sampled_from([0, 1, 3, 100]), shards=st.integers(1, 5))
def test_keys_sharded_by_hash_give_the_wholes_report(rows, cuts, order, max_violations, shards):
    """The hash-shuffle merge (griffin.spark's unique_merge="shuffle"): the
    keys leave the states, each shard is merged apart, and the driver's
    report is the whole's."""
    table = table_of(rows)
    whole = VALIDATOR.validate(table, max_violations=max_violations, threads=1)
    bounds = sorted({0, len(rows), *[c for c in cuts if c <= len(rows)]})
    merged = sharded_merge(table, bounds, shards, order, max_violations)
    assert comparable(merged.to_json()) == comparable(whole.to_json())


def test_sharded_states_without_every_shards_duplicates_are_refused():
    table = table_of([(i % 7, "ab"[i % 2], i, 1.0) for i in range(20)])
    (a, a_blobs), (b, b_blobs) = (VALIDATOR.partial_sharded(table.slice(lo, 10), 3, row_offset=lo) for lo in (0, 10))
    duplicates = [VALIDATOR.merge_key_shard([x, y]) for x, y in zip(a_blobs, b_blobs)]
    assert VALIDATOR.merge_partials([a, b], key_duplicates=duplicates).rows == 20
    with pytest.raises(griffin.InputError, match=r"shard 2 of 3 are missing"):
        VALIDATOR.merge_partials([a, b], key_duplicates=duplicates[:2])
    with pytest.raises(griffin.InputError, match=r"its unique keys were sharded"):
        VALIDATOR.merge_partials([a, b])
    with pytest.raises(griffin.InputError, match=r"merged the keys of 1 parts, not of the 2"):
        VALIDATOR.merge_partials([a, b], key_duplicates=[VALIDATOR.merge_key_shard([x]) for x in a_blobs])
    with pytest.raises(griffin.InputError, match=r"^part 2: shard 1 of 3, merged with shard 0 of 3"):
        VALIDATOR.merge_key_shard([a_blobs[0], b_blobs[1]])
    with pytest.raises(griffin.InputError, match=r"^part 1: corrupt unique key shard"):
        VALIDATOR.merge_key_shard([a_blobs[0][:-5]])
    with pytest.raises(ValueError, match="key_shards"):
        VALIDATOR.partial_sharded(table, 0)


def test_merged_report_equals_griffin_validate_on_the_parquet(tmp_path):
    rows = [(i % 350, "abcde"[i % 5] if i % 7 else None, (i * 13) % 70 - 5, float(i)) for i in range(400)]
    table = table_of(rows)
    data, rules = tmp_path / "d.parquet", tmp_path / "r.yaml"
    pq.write_table(table, data)
    rules.write_text(RULES)
    cli = subprocess.run([str(require_binary()), "validate", "-r", str(rules), str(data), "--format", "json",
                          "--no-store"], capture_output=True, text=True, timeout=120)
    assert cli.returncode in (0, 1), cli.stderr
    states = [VALIDATOR.partial(table.slice(lo, 100), row_offset=lo) for lo in (300, 0, 200, 100)]
    merged = VALIDATOR.merge_partials(states)
    assert comparable(merged.to_json()) == comparable(cli.stdout)
    import random
    sharded = sharded_merge(table, [0, 100, 200, 300, 400], 3, random.Random(7), griffin.DEFAULT_MAX_VIOLATIONS)
    assert comparable(sharded.to_json()) == comparable(cli.stdout)
    assert merged.bad_rows > 0 and any(v["check"] == "id.unique" for v in merged.violations)
    with pytest.raises(ValueError, match="no per-row verdicts"):
        merged.bad_row_mask()


def test_row_ids_number_the_violations(tmp_path):
    table = table_of([(1, "a", 70, 0.0), (1, "b", 1, 0.0)])
    merged = VALIDATOR.merge_partials([VALIDATOR.partial(table, row_offset=1000)])
    rows = {(v["check"], v["row"]) for v in merged.violations}
    assert ("n.max", 1000) in rows and ("id.unique", 1001) in rows
    assert any("duplicates row 1000" in v["message"] for v in merged.violations)


def test_states_of_other_rules_versions_or_corrupt_are_refused():
    table = table_of([(1, "a", 1, 0.0)])
    state = VALIDATOR.partial(table)
    other = griffin.Validator.from_yaml(RULES.replace("max: 50", "max: 51"))
    with pytest.raises(griffin.InputError, match=r"^part 1: a partial state of another rule file"):
        other.merge_partials([state])
    version = griffin.__version__.encode()
    with pytest.raises(griffin.InputError, match=r"^p: a partial state of Griffin 9"):
        VALIDATOR.merge_partials([state.replace(version, b"9" + version[1:], 1)], names=["p"])
    with pytest.raises(griffin.InputError, match=r"^p: corrupt partial validation state"):
        VALIDATOR.merge_partials([state[:-5]], names=["p"])
    with pytest.raises(griffin.InputError, match="not a Griffin partial validation state"):
        VALIDATOR.merge_partials([b"hello"])
    with pytest.raises(griffin.InputError, match="overlap"):
        VALIDATOR.merge_partials([state, state])
    with pytest.raises(TypeError, match="not paths"):
        VALIDATOR.partial("x.parquet")
