"""Frames as Arrow: how validate(), Report.split() and iter_batches() turn the
data they are given into Arrow, and take rows out of it.

- pyarrow Table / RecordBatch / RecordBatchReader: as they are.
- dict of arrays: pyarrow.table(dict).
- pandas DataFrame: pyarrow.Table.from_pandas without the index; the index is
  kept as the rows' labels (violations' `index`). A column pyarrow cannot
  convert (an object column mixing types, dicts with clashing value types or
  non-string keys) raises InputError naming the column, the first offending
  row and the fix.
- anything with __arrow_c_stream__ (polars DataFrame, ...): read through the
  Arrow C stream, so string_view, large_string and dictionary (categorical,
  enum) columns reach the engine as they are (it reads them in place).

take_rows() and filter_rows() select rows of any of these Tables, including
view types (string_view, binary_view), which pyarrow's take/filter kernels do
not accept.
"""
from __future__ import annotations

import json
from typing import Any, Callable, Dict, Optional

import numpy as np
import pyarrow as pa

from ._griffin import InputError

_ACCEPTED = ("a path, a list of paths, a pyarrow Table/RecordBatch/RecordBatchReader, an object with "
             "__arrow_c_stream__ (e.g. a polars DataFrame), a pandas DataFrame or a dict of numpy arrays")


def input_name(data: Any) -> str:
    """How errors name in-memory data: "<pandas.DataFrame>", "<polars.DataFrame>", ..."""
    kind = type(data)
    return "<%s.%s>" % (kind.__module__.split(".")[0], kind.__qualname__)


def is_pandas(data: Any) -> bool:
    return type(data).__module__.split(".")[0] == "pandas" and type(data).__name__ == "DataFrame"


def row_labels(data: Any) -> Optional[Any]:
    """The rows' labels for violations' `index`: a pandas DataFrame's index, else None."""
    return data.index if is_pandas(data) else None


def pandas_dtypes(data: Any) -> Optional[Dict[str, str]]:
    """A pandas DataFrame's column -> dtype name (for schema_hints()), else None."""
    return {str(column): str(dtype) for column, dtype in data.dtypes.items()} if is_pandas(data) else None


def schema_hints(dtypes: Optional[Dict[str, str]], report_json: str) -> Dict[str, str]:
    """Advice to append to schema errors of a pandas frame's report: a column
    the rules read as string that pandas inferred as a number or bool (a chunk
    whose values all happen to look like numbers) says so and how to fix it."""
    if not dtypes or '"schema_errors": []' in report_json:
        return {}
    hints = {}
    for error in json.loads(report_json)["schema_errors"]:
        column = error.get("column") or ""
        dtype = dtypes.get(column, "")
        if "cannot hold string" in error.get("message", "") and dtype and dtype not in ("object", "str"):
            hints[column] = ("; pandas inferred %s for column %r (every value in this frame looks like a %s), "
                             "but the rules read it as string: read it as text (pd.read_csv(..., dtype={%r: str}) "
                             "or df[%r].astype(str)), or declare the column's type in the rule file"
                             % (dtype, column, "bool" if dtype == "bool" else "number", column, column))
    return hints


def arrow_stream(data: Any) -> Any:
    """The Arrow C stream capsule of `data` (not a path), converted as the module
    docstring says (zero-copy where Arrow allows: numeric numpy columns)."""
    if isinstance(data, pa.RecordBatch):
        data = pa.Table.from_batches([data])
    elif isinstance(data, dict) or is_pandas(data):
        data = _converted(data)
    if hasattr(data, "__arrow_c_stream__"):
        return data.__arrow_c_stream__()
    raise TypeError("validate() takes %s; got %s" % (_ACCEPTED, type(data).__name__))


def table_of(data: Any) -> pa.Table:
    """`data` (not a path) as a pyarrow Table, converted as arrow_stream() converts it."""
    if isinstance(data, pa.Table):
        return data
    if isinstance(data, pa.RecordBatch):
        return pa.Table.from_batches([data])
    if isinstance(data, dict) or is_pandas(data):
        return _converted(data)
    if hasattr(data, "__arrow_c_stream__"):
        return pa.RecordBatchReader.from_stream(data).read_all()
    raise TypeError("griffin takes %s; got %s" % (_ACCEPTED, type(data).__name__))


def take_rows(table: pa.Table, indices: "np.ndarray") -> pa.Table:
    """The rows `indices` (int64, any order) of `table`, with its schema."""
    positions = pa.array(indices, pa.int64())
    return _per_column(table, lambda column: column.take(positions))


def filter_rows(table: pa.Table, keep: "np.ndarray") -> pa.Table:
    """The rows of `table` where the bool mask `keep` is True, with its schema
    (a filter does not concatenate chunks, as a take would)."""
    mask = pa.array(keep, pa.bool_())
    return _per_column(table, lambda column: column.filter(mask))


def _per_column(table: pa.Table, select: Callable[[Any], Any]) -> pa.Table:
    """`select` applied to each column. View columns go through their non-view
    type (pyarrow has no take/filter kernel for them) and back, so polars
    frames split like any other."""
    columns = []
    for column in table.columns:
        try:
            columns.append(select(column))
        except pa.ArrowNotImplementedError:
            wide = _without_views(column.type)
            if wide == column.type:
                raise
            columns.append(select(column.cast(wide)).cast(column.type))
    return pa.Table.from_arrays(columns, schema=table.schema)


def _without_views(kind: pa.DataType) -> pa.DataType:
    """`kind` with string_view / binary_view replaced by large_string /
    large_binary, at any depth (lists, structs, dictionaries, maps)."""
    if kind == pa.string_view():
        return pa.large_string()
    if kind == pa.binary_view():
        return pa.large_binary()
    if pa.types.is_dictionary(kind):
        return pa.dictionary(kind.index_type, _without_views(kind.value_type), kind.ordered)
    if pa.types.is_map(kind):
        return pa.map_(_field_without_views(kind.key_field), _field_without_views(kind.item_field),
                       kind.keys_sorted)
    if pa.types.is_list(kind):
        return pa.list_(_field_without_views(kind.value_field))
    if pa.types.is_large_list(kind) or pa.types.is_list_view(kind) or pa.types.is_large_list_view(kind):
        return pa.large_list(_field_without_views(kind.value_field))
    if pa.types.is_fixed_size_list(kind):
        return pa.list_(_field_without_views(kind.value_field), kind.list_size)
    if pa.types.is_struct(kind):
        return pa.struct([_field_without_views(kind.field(i)) for i in range(kind.num_fields)])
    return kind


def _field_without_views(field: pa.Field) -> pa.Field:
    return field.with_type(_without_views(field.type))


def _converted(data: Any) -> pa.Table:
    """A pandas DataFrame or a dict of arrays as a Table; InputError (with the
    column, the row and the fix) where pyarrow cannot convert a column."""
    try:
        if isinstance(data, dict):
            return pa.table(data)
        return pa.Table.from_pandas(data, preserve_index=False)
    except (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError) as error:
        raise InputError(_conversion_message(data, error)) from error


def _conversion_message(data: Any, error: Exception) -> str:
    name = input_name(data)
    for column in list(data.keys()):
        values = data[column]
        try:
            pa.array(values, from_pandas=True)
            continue
        except (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError) as column_error:
            reason = str(column_error.args[0] if column_error.args else column_error)
        dtype = getattr(values, "dtype", None)
        where = _first_clash(values)
        return ("%s: column %r%s cannot be converted to Arrow: %s%s; give the column one type "
                "(e.g. df[%r].astype(str)) or drop it before validating"
                % (name, column, " (%s dtype)" % dtype if dtype is not None else "", reason,
                   "; " + where if where else "", column))
    return "%s: cannot be converted to Arrow: %s" % (name, error)


def _first_clash(values: Any) -> str:
    """Where a column's Python values first disagree, for the conversion error:
    a value whose type differs from the first value's, a dict key that is not
    a string, or a dict key whose values differ in type across rows."""
    labels = list(values.index) if hasattr(values, "index") else None
    first_type = None
    key_types: dict = {}
    for position, value in enumerate(np.asarray(values, dtype=object)):
        if value is None or (isinstance(value, float) and value != value):
            continue
        row = "row %d%s" % (position, " (index %r)" % (labels[position],) if labels is not None else "")
        if first_type is None:
            first_type = type(value)
        elif type(value) is not first_type:
            return "its values mix types: %s first, then %s at %s" % (
                first_type.__name__, type(value).__name__, row)
        if isinstance(value, dict):
            for key, item in value.items():
                if not isinstance(key, (str, bytes)):
                    return "dict keys must be strings, but %s has the key %r (%s)" % (row, key, type(key).__name__)
                if item is None:
                    continue
                seen = key_types.setdefault(key, type(item))
                if seen is not type(item):
                    return "dict key %r holds %s first, then %s at %s" % (key, seen.__name__,
                                                                          type(item).__name__, row)
    return ""
