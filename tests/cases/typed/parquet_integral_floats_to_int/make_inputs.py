# Writes input.parquet with a float64 column.
import pyarrow as pa
import pyarrow.parquet as pq

pq.write_table(pa.table({"qty": pa.array([1.0, 2.5, None, 4.0], pa.float64())}),
               "input.parquet")
