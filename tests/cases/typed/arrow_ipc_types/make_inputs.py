# Writes input.arrow (IPC file format).
import pyarrow as pa

table = pa.table({
    "code": pa.array([1, 2, 3], pa.int16()),
    "num": pa.array(["12", "x", " 7 "], pa.string()),
    "cat": pa.array(["a", "b", "a"], pa.string()).dictionary_encode(),
})
with pa.OSFile("input.arrow", "wb") as sink:
    with pa.ipc.new_file(sink, table.schema) as writer:
        writer.write_table(table)
