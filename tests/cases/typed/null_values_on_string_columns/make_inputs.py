# Writes input.parquet: string columns holding null_values spellings, as a
# pandas frame read with dtype=str (or polars, or pyarrow) would.
import pyarrow as pa
import pyarrow.parquet as pq

pq.write_table(pa.table({
    "name": pa.array(["a", "NA", "", None, " NA"], pa.string()),
    "qty": pa.array(["1", "NA", "2", "x", ""], pa.large_string()),
    "code": pa.array(["u", "NA", "v", "NA", "u"], pa.string()).dictionary_encode(),
}), "input.parquet")
