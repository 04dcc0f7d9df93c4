"""griffin.jax._fingerprint: the QualityGate's cache key. Equal content gives
equal fingerprints whatever object holds it; any change of schema, slice,
values or validity gives another."""
import numpy as np
import pyarrow as pa
import pytest

from griffin.jax._fingerprint import fingerprint


def table(amounts=(1.5, 2.5, None), names=("a", "b", "c")):
    return pa.table({"amount": pa.array(amounts, pa.float64()), "name": pa.array(names)})


def test_equal_content_in_separate_objects_gives_equal_fingerprints():
    first, second = table(), table()
    assert first is not second
    assert fingerprint(first) == fingerprint(second)
    assert len(fingerprint(first)) == 16
    assert fingerprint(first.to_batches()[0]) == fingerprint(second.to_batches()[0])


@pytest.mark.parametrize("other", [
    table(amounts=(1.5, 2.5, 3.5)),                          # a null became a value
    table(amounts=(1.5, 2.5, None), names=("a", "b", "d")),   # one string byte
    table().rename_columns(["amount", "label"]),             # a column name
    table().cast(pa.schema([("amount", pa.float32()), ("name", pa.string())])),  # a type
    table().slice(1),                                        # a slice of the same buffers
])
def test_any_change_changes_the_fingerprint(other):
    assert fingerprint(other) != fingerprint(table())


def test_slices_of_one_table_differ_by_offset():
    base = pa.table({"x": pa.array(np.arange(10, dtype=np.int64))})
    assert fingerprint(base.slice(0, 5)) != fingerprint(base.slice(5, 5))
    assert fingerprint(base.slice(2, 3)) == fingerprint(base.slice(2, 3))


def test_dictionary_columns_hash_their_dictionary():
    one = pa.table({"c": pa.array(["x", "y", "x"]).dictionary_encode()})
    two = pa.table({"c": pa.DictionaryArray.from_arrays(pa.array([0, 1, 0], pa.int32()), pa.array(["x", "z"]))})
    assert fingerprint(one) != fingerprint(two)


def test_numpy_dicts_and_unreadable_streams():
    batch = {"x": np.arange(4, dtype=np.float32), "y": np.zeros(4, np.int32)}
    assert fingerprint(batch) == fingerprint({k: v.copy() for k, v in batch.items()})
    assert fingerprint(batch) != fingerprint({"x": batch["x"], "y": np.ones(4, np.int32)})
    assert fingerprint(pa.RecordBatchReader.from_batches(table().schema, table().to_batches())) is None


def test_a_slice_hashes_only_its_rows_not_the_parent_buffers():
    # Equal rows sliced from different parents hash equally when the slices
    # line up (same offset, length and bytes), whatever the rest holds.
    values = np.arange(1000, dtype=np.int64)
    names = [str(i) for i in range(1000)]
    left = pa.table({"x": values, "s": names, "b": values % 2 == 0})
    changed = values.copy()
    changed[900:] = -1
    right = pa.table({"x": changed, "s": names[:900] + ["z"] * 100, "b": changed % 2 == 0})
    assert fingerprint(left.slice(100, 256)) == fingerprint(right.slice(100, 256))
    assert fingerprint(left.slice(800, 256)) != fingerprint(right.slice(800, 256))


@pytest.mark.parametrize("view_type", [pa.string_view(), pa.binary_view()])
def test_view_columns_hash_their_views_and_data_buffers(view_type):
    long = ["value %d, long enough not to be inlined in its view" % i for i in range(100)]
    def view_table(values):
        values = [v.encode() if v is not None and view_type == pa.binary_view() else v for v in values]
        return pa.table({"s": pa.array(values, view_type)})
    base = view_table(long)
    assert fingerprint(base) == fingerprint(view_table(list(long)))
    changed_long = list(long)
    changed_long[50] = changed_long[50].replace("long", "LONG")     # same prefix, bytes in a data buffer
    inline = list(long)
    inline[7] = "short"                                              # inline in the view itself
    with_null = list(long)
    with_null[3] = None
    for other in (changed_long, inline, with_null):
        assert fingerprint(view_table(other)) != fingerprint(base)
    assert fingerprint(base.slice(10, 20)) == fingerprint(view_table(long).slice(10, 20))
    assert fingerprint(base.slice(10, 20)) != fingerprint(base.slice(11, 20))


def test_polars_frames_are_fingerprinted_like_arrow_data():
    import polars as pl

    frame = pl.DataFrame({"x": [1.5, 2.5, None], "s": ["a", "b" * 40, None]})
    assert fingerprint(frame) is not None and len(fingerprint(frame)) == 16
    assert fingerprint(frame) == fingerprint(frame.clone())
    assert fingerprint(frame) == fingerprint(pl.DataFrame({"x": [1.5, 2.5, None], "s": ["a", "b" * 40, None]}))
    assert fingerprint(frame) != fingerprint(frame.with_columns(pl.lit(3.5).alias("x")))
    assert fingerprint(frame) != fingerprint(pl.DataFrame({"x": [1.5, 2.5, None], "s": ["a", "b" * 39 + "c", None]}))
    assert fingerprint(frame) != fingerprint(frame.rename({"s": "t"}))
