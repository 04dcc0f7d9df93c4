"""Writes the seed corpus of build-fuzz/arrow_ipc_fuzz (src/io/arrow_ipc_fuzz.cc):
small Arrow IPC files and streams of the types the engine reads, sound and
hostile (string offsets out of bounds, negative, decreasing; invalid UTF-8;
a dictionary index out of range). Run from the repository root:

    .venv/bin/python fuzz/make_arrow_ipc_seeds.py
"""
import pathlib
import struct

import pyarrow as pa
import pyarrow.ipc as ipc

OUT = pathlib.Path(__file__).parent / "seeds" / "arrow_ipc_fuzz"


def raw_strings(offsets, data, type_=pa.utf8()):
    fmt = "<%dq" if type_ in (pa.large_utf8(), pa.large_binary()) else "<%di"
    return pa.Array.from_buffers(type_, len(offsets) - 1, [None, pa.py_buffer(struct.pack(fmt % len(offsets), *offsets)),
                                                           pa.py_buffer(data)])


def tables():
    sound = pa.table({
        "id": pa.array([1, 2, None, 4], pa.int64()),
        "small": pa.array([1, -2, 3, None], pa.int8()),
        "amount": pa.array([1.5, None, -3.0, float("nan")], pa.float64()),
        "name": pa.array(["a", None, "ccc", "é"], pa.utf8()),
        "big": pa.array(["x", "yy", None, ""], pa.large_utf8()),
        "flag": pa.array([True, False, None, True]),
        "day": pa.array([0, 19000, None, -1], pa.date32()),
        "at": pa.array([0, 1_700_000_000_000_000, None, -5], pa.timestamp("us", tz="UTC")),
        "cat": pa.array(["u", "v", "u", None]).dictionary_encode(),
        "view": pa.array(["short", "a string longer than twelve", None, "z"], pa.string_view()),
    })
    yield "sound", sound
    yield "offsets_past_data", pa.table({"s": raw_strings([0, 3, 100000000, 6], b"abcdef")})
    yield "offsets_negative", pa.table({"s": raw_strings([0, -5, 3, 6], b"abcdef")})
    yield "offsets_decreasing", pa.table({"s": raw_strings([0, 3, 1, 3], b"abc")})
    yield "large_offsets_past_data", pa.table({"s": raw_strings([0, 1 << 40, 2], b"ab", pa.large_utf8())})
    yield "invalid_utf8", pa.table({"s": raw_strings([0, 2, 4, 5], b"ok\xff\xfe\xc3"), "n": [1, 2, 3]})
    indices = pa.Array.from_buffers(pa.int32(), 2, [None, pa.py_buffer(struct.pack("<2i", 0, 7))])
    yield "dictionary_index_out_of_range", pa.table({"d": pa.DictionaryArray.from_buffers(
        pa.dictionary(pa.int32(), pa.utf8()), 2, [None, indices.buffers()[1]], pa.array(["a", "b"]))})


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    for name, table in tables():
        for suffix, writer in (("file", ipc.new_file), ("stream", ipc.new_stream)):
            sink = pa.BufferOutputStream()
            with writer(sink, table.schema) as out:
                for batch in table.to_batches(max_chunksize=3):
                    out.write_batch(batch)
            (OUT / f"{name}.{suffix}.arrow").write_bytes(sink.getvalue().to_pybytes())
    print(f"wrote {len(list(OUT.iterdir()))} seeds to {OUT}")


if __name__ == "__main__":
    main()
