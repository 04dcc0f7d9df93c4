"""What QualityGate(url=...) sends the service for a batch.

- A file path goes as the file's own bytes to POST
  /v1/datasets/{dataset}/validate (the service reads it with the rule file's
  `source:` options, as `griffin validate` reads the file), remembered there
  under the batch's hash; Parquet is sent as an Arrow IPC stream.
- Anything else the in-process gate takes (pyarrow, pandas, polars or any
  __arrow_c_stream__ object, a dict of arrays) goes inline in POST /metrics as
  JSON records, non-finite floats as the strings "NaN", "inf", "-inf".
"""
from __future__ import annotations

import math
import os
from typing import Any, Dict, List, Optional, Tuple

from .. import _arrow_stream
from .._client import _CONTENT_TYPES


def is_path(batch: Any) -> bool:
    return isinstance(batch, (str, os.PathLike))


def file_body(path: Any) -> Tuple[bytes, str]:
    """(body, Content-Type) of a file for the service's validate route.
    Raises ValueError for what that route cannot read (a folder, another
    extension), naming the path and what it takes."""
    name = os.fspath(path)
    extension = os.path.splitext(name)[1].lower()
    if os.path.isdir(name):
        raise ValueError("QualityGate(url=...): %s is a folder; check its files one at a time" % name)
    if extension in _CONTENT_TYPES:
        with open(name, "rb") as f:
            return f.read(), _CONTENT_TYPES[extension]
    if extension == ".parquet":
        import pyarrow.parquet as pq
        return _ipc_stream(pq.read_table(name)), "application/vnd.apache.arrow.stream"
    raise ValueError("QualityGate(url=...): %s: the service reads %s and .parquet files (or pass the data as "
                     "a frame)" % (name, ", ".join(sorted(_CONTENT_TYPES))))


def _ipc_stream(table: Any) -> bytes:
    import pyarrow as pa

    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table)
    return sink.getvalue().to_pybytes()


class _Stream:
    """An Arrow C stream capsule as an object pyarrow can import."""

    def __init__(self, capsule: Any) -> None:
        self._capsule = capsule

    def __arrow_c_stream__(self, requested_schema: Any = None) -> Any:
        return self._capsule


def records(batch: Any) -> List[Dict[str, Any]]:
    """The batch's rows as JSON-ready dicts, converted to Arrow as
    Validator.validate() converts frames; non-finite floats as "NaN" / "inf" /
    "-inf" (which Griffin parses for float columns)."""
    import pyarrow as pa

    if isinstance(batch, (list, tuple)) and batch and all(is_path(p) for p in batch):
        raise ValueError("QualityGate(url=...): give one file per check, not a list of %d" % len(batch))
    try:
        capsule = _arrow_stream(batch)
    except TypeError:
        raise TypeError("QualityGate.check() takes a path, a pyarrow Table/RecordBatch, a pandas or polars "
                        "DataFrame (any __arrow_c_stream__ object) or a dict of numpy / jax arrays; got %s"
                        % type(batch).__name__) from None
    rows = pa.RecordBatchReader.from_stream(_Stream(capsule)).read_all().to_pylist()
    for row in rows:
        for key, value in row.items():
            if isinstance(value, float) and not math.isfinite(value):
                row[key] = "NaN" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    return rows
