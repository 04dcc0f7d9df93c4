# Writes input.arrow (IPC file format).
import pyarrow as pa

table = pa.table({
    "big": pa.array([1, None, 9007199254740993], pa.int64()),
    "huge": pa.array([1, 2, 18446744073709551615], pa.uint64()),
    "small": pa.array([1, 200, None], pa.uint16()),
})
with pa.OSFile("input.arrow", "wb") as sink:
    with pa.ipc.new_file(sink, table.schema) as writer:
        writer.write_table(table)
