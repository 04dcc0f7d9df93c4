# Writes input.parquet with a float64 column (as pandas stores an integer
# column with missing values): integral values, fractions, NaN, inf, 1e300.
import pyarrow as pa
import pyarrow.parquet as pq

values = [1.0, 2.5, None, 4.0, float("nan"), float("inf"), 1e300, -3.0, 4.0, -0.0]
pq.write_table(pa.table({"qty": pa.array(values, pa.float64())}), "input.parquet")
