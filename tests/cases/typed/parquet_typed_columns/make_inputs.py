# Writes input.parquet (two row groups, so batches split inside the file).
import datetime

import pyarrow as pa
import pyarrow.parquet as pq

utc = datetime.timezone.utc
table = pa.table({
    "a": pa.array([1, 2, None, 4, 5], pa.int32()),
    "f": pa.array([0.5, 1.5, 2.5, None, 1.0], pa.float32()),
    "s": pa.array(["x", "", "NA", None, "y"], pa.string()),
    "b": pa.array([True, None, True, True, False], pa.bool_()),
    "d": pa.array([datetime.date(2024, 1, 5), datetime.date(2023, 12, 31),
                   datetime.date(2024, 2, 29), None, datetime.date(2024, 3, 1)], pa.date32()),
    "t": pa.array([datetime.datetime(2024, 1, 1, tzinfo=utc), None,
                   datetime.datetime(2000, 6, 1, 12, 30, tzinfo=utc),
                   datetime.datetime(9999, 1, 1, tzinfo=utc),
                   datetime.datetime(2020, 1, 1, tzinfo=utc)], pa.timestamp("ms", tz="UTC")),
})
pq.write_table(table, "input.parquet", row_group_size=3)
