"""Report.split(): the validated data as clean and quarantined pyarrow Tables,
built with pyarrow from the run's bad-row indices and per-row errors.

The quarantined Table has the columns of the CLI's `--quarantine x.parquet`
(src/sinks/row_sink.h): the data's columns, then
  _griffin_row     int64, the 0-based row of the validated data
  _griffin_errors  list<struct<check: string, message: string>>, the violated
                   error-severity checks in check order ("malformed" for a
                   malformed record, with the reason as message)
  _griffin_raw     string, the raw record text of a malformed row, else null.
A malformed CSV record cannot be represented in the typed columns: it has null
in every data column and its text in _griffin_raw.
"""
from __future__ import annotations

import os
from typing import Any, Dict, List, Sequence, Tuple

import numpy as np
import pyarrow as pa

from . import _frames, _readers
from ._griffin import InputError

ERRORS_TYPE = pa.list_(pa.field("element", pa.struct([("check", pa.string()), ("message", pa.string())])))


def _text(values: Sequence[bytes]) -> List[str]:
    return [v.decode("utf-8", "replace") for v in values]


def table_of_paths(inputs: List[str], source: Dict[str, Any], malformed: np.ndarray) -> pa.Table:
    """The validated files as one Table, malformed records as all-null rows in
    their places (rows numbered as the engine numbered them)."""
    tables = []
    offset = 0
    pointer = 0
    for path in inputs:
        skipped: List[int] = []
        try:
            table = _readers.read_table(path, source, skipped)
        except (pa.ArrowInvalid, OSError) as e:
            raise InputError("%s: split() could not read it with pyarrow: %s" % (path, e)) from e
        rows = table.num_rows
        while pointer < len(malformed) and malformed[pointer] < offset + rows:
            rows += 1
            pointer += 1
        here = malformed[(malformed >= offset) & (malformed < offset + rows)] - offset
        if len(here) != len(skipped):
            raise InputError("%s: pyarrow skipped %d records but the engine found %d malformed; split() "
                             "cannot line them up (use the CLI's --clean/--quarantine)"
                             % (path, len(skipped), len(here)))
        if len(here):
            is_bad = np.zeros(rows, dtype=bool)
            is_bad[here] = True
            positions = np.cumsum(~is_bad) - 1               # row -> row of the pyarrow table
            table = table.take(pa.array(positions, mask=is_bad))  # null index -> null row (no views here)
        tables.append(table)
        offset += rows
    if not tables:
        return pa.table({})
    try:
        return pa.concat_tables(tables)
    except pa.ArrowInvalid as e:
        raise InputError("split(): the inputs' columns differ: %s" % e) from e


def split(result: Any, table: pa.Table) -> Tuple[pa.Table, pa.Table]:
    """(clean, quarantined) of `table`, the data the run `result` validated."""
    if table.num_rows != result.rows:
        raise ValueError("split() was given %d rows but the report validated %d; pass the same data"
                         % (table.num_rows, result.rows))
    bad = result.bad_row_indices()
    keep = np.ones(table.num_rows, dtype=bool)
    keep[bad] = False
    clean = _frames.filter_rows(table, keep)
    quarantined = _frames.take_rows(table, bad)
    offsets = result.bad_error_offsets()
    if len(offsets) != len(bad) + 1:
        raise ValueError("the report holds no per-row errors")
    values = pa.StructArray.from_arrays(
        [pa.array(result.bad_error_checks(), pa.string()), pa.array(_text(result.bad_error_messages()), pa.string())],
        fields=list(ERRORS_TYPE.value_type))
    errors = pa.ListArray.from_arrays(pa.array(offsets.astype(np.int32)), values, type=ERRORS_TYPE)
    raw = [None] * len(bad)
    malformed = result.malformed_rows()
    for index, text in zip(np.searchsorted(bad, malformed), _text(result.malformed_raw())):
        raw[int(index)] = text
    quarantined = quarantined.append_column(pa.field("_griffin_row", pa.int64(), nullable=False),
                                            pa.array(bad, pa.int64()))
    quarantined = quarantined.append_column(pa.field("_griffin_errors", ERRORS_TYPE, nullable=False), errors)
    quarantined = quarantined.append_column(pa.field("_griffin_raw", pa.string()), pa.array(raw, pa.string()))
    return clean, quarantined


def split_data(result: Any, data: Any, validated_paths: Any, source: Dict[str, Any],
               inputs: List[str]) -> Tuple[pa.Table, pa.Table]:
    """Report.split(data): reads paths with pyarrow, converts frames, then split()."""
    if isinstance(data, (str, os.PathLike)):
        data = [data]
    if isinstance(data, (list, tuple)) and all(isinstance(p, (str, os.PathLike)) for p in data):
        paths = [os.fspath(p) for p in data]
        if validated_paths is None or paths != validated_paths:
            raise ValueError("split() was given paths %r but the report validated %r" % (paths, validated_paths))
        if "-" in inputs:
            raise ValueError("split() cannot re-read standard input")
        table = table_of_paths(inputs, source, result.malformed_rows())
    elif isinstance(data, pa.RecordBatchReader):
        raise TypeError("split() cannot re-read a RecordBatchReader (validate() consumed it); "
                        "validate and split a Table instead")
    else:
        table = _frames.table_of(data)
    return split(result, table)
