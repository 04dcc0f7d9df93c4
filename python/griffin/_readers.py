"""pyarrow readers for the paths Griffin validates, used by Report.split() and
iter_batches(). They follow the rule file's `source:` section (format,
delimiter, quote, header, null_values) as the engine's readers do:

- CSV/TSV (optionally .gz/.zst): every column is read as string (the text as
  read; a `null_values` spelling, quoted or not, is null), as the CLI's
  --clean/--quarantine outputs keep it. Records pyarrow cannot parse into the
  header's field count are skipped here; `skipped` lists their 0-based
  record numbers (as the engine numbers the file's rows) for the caller.
- JSON lines: pyarrow.json, with the types pyarrow infers.
- JSON arrays (.json): the json module, read whole, with the types pyarrow
  infers for the elements (pyarrow has no streaming reader for them).
- Parquet and Arrow IPC (file or stream format): as stored.

Paths may be s3:// and gs:// URIs (objects, or prefixes that expand to their
objects as the CLI expands them; griffin/_objects.py), and Delta tables
("delta:PATH", a folder or prefix holding _delta_log, `@v=N` / `@ts=...`),
read whole through the engine's Delta reader (delta-kernel-rs: deletion
vectors applied, the version the path names), every column as the table types
it, as the CLI's --clean/--quarantine keep them.
"""
from __future__ import annotations

import os
from typing import Any, Callable, Dict, Iterator, List, Optional

import pyarrow as pa

from . import _griffin, _objects

_EXTENSIONS = {".csv": "csv", ".tsv": "tsv", ".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "json",
               ".parquet": "parquet", ".arrow": "arrow", ".feather": "arrow", ".ipc": "arrow"}
_FORMAT_NAMES = {"csv": "csv", "tsv": "tsv", "jsonl": "jsonl", "ndjson": "jsonl", "json": "json",
                 "parquet": "parquet",
                 "arrow": "arrow", "ipc": "arrow", "feather": "arrow"}


def detect_format(path: str) -> Optional[str]:
    """The format a path's extension names (after .gz/.zst), as the engine detects it."""
    lower = path.lower()
    compressed = lower.endswith((".gz", ".zst"))
    if compressed:
        lower = lower[:lower.rindex(".")]
    for suffix, name in _EXTENSIONS.items():
        if lower.endswith(suffix):
            return None if compressed and name in ("parquet", "arrow") else name
    return None


def expand_paths(paths: List[str]) -> List[str]:
    """Files as given; directories become their supported files, recursively,
    hidden entries skipped, sorted (as the CLI expands them)."""
    out: List[str] = []
    for path in paths:
        if is_delta(path):   # a table, not its folder's Parquet files
            out.append(path)
            continue
        if _objects.is_object_uri(path):
            out += _objects.expand(path)
            continue
        if not os.path.isdir(path):
            out.append(path)
            continue
        found = []
        for root, dirs, files in os.walk(path):
            dirs[:] = [d for d in dirs if not d.startswith(".")]
            found += [os.path.join(root, f) for f in files
                      if not f.startswith(".") and detect_format(f) is not None]
        out += sorted(found)
    return out


def is_delta(path: str) -> bool:
    """True when the engine reads `path` as a Delta table (as the CLI decides)."""
    return bool(_griffin.is_delta_input(path))


def delta_reader(path: str) -> pa.RecordBatchReader:
    """A Delta table's rows at the version `path` names, through the engine's reader."""
    capsule, _version = _griffin.delta_scan(path)
    return pa.RecordBatchReader._import_from_c_capsule(capsule)


def format_of(path: str, source: Dict[str, Any]) -> str:
    name = _FORMAT_NAMES.get(source.get("format") or "") or detect_format(path) or "csv"
    return name


def _input_stream(path: str) -> pa.NativeFile:
    """A file or object as a stream, decompressed by its extension."""
    if _objects.is_object_uri(path):
        return _objects.open_input_stream(path)
    return pa.input_stream(path, compression="detect")


def _random_access(path: str) -> pa.NativeFile:
    """A file (memory-mapped) or object for random access."""
    if _objects.is_object_uri(path):
        return _objects.open_input_file(path)
    return pa.memory_map(path)


def _parquet_file(path: str) -> Any:
    import pyarrow.parquet as pq

    if _objects.is_object_uri(path):  # column chunks in coalesced requests
        return pq.ParquetFile(_objects.open_input_file(path), pre_buffer=True)
    return pq.ParquetFile(path)


def _csv_options(fmt: str, source: Dict[str, Any], skipped: List[Optional[int]]):
    import pyarrow.csv as pcsv

    delimiter = source.get("delimiter") or ("\t" if fmt == "tsv" else ",")
    quote = source.get("quote") or '"'
    # pyarrow numbers records from 1, the header included, blank lines not;
    # the number is known when parsing serially, as every reader here does
    # (None, should it not be).
    first_data_record = 2 if source.get("header", True) else 1

    def on_invalid(row: Any) -> str:
        known = row.number is not None and row.number >= 0
        skipped.append(row.number - first_data_record if known else None)
        return "skip"

    parse = pcsv.ParseOptions(delimiter=delimiter, quote_char=quote, newlines_in_values=True,
                              invalid_row_handler=on_invalid)
    return parse, pcsv.ReadOptions, pcsv.ConvertOptions


def _csv_column_names(path: str, parse: Any, read_cls: Any, header: bool) -> List[str]:
    import pyarrow.csv as pcsv

    with _input_stream(path) as stream:
        reader = pcsv.open_csv(stream, read_options=read_cls(block_size=1 << 20,
                                                              autogenerate_column_names=not header),
                               parse_options=parse)
        return list(reader.schema.names)


def open_csv_batches(path: str, fmt: str, source: Dict[str, Any], skipped: List[Optional[int]],
                     block_size: int = 256 << 10) -> Iterator[pa.RecordBatch]:
    """CSV/TSV record batches with every column a string; `skipped` gets the
    0-based record number of each record pyarrow skipped (a field count other
    than the header's), before the batch holding the rows after it.

    Memory: Arrow's streaming CSV reader buffers up to 32 blocks ahead on its
    I/O thread, so `block_size` bounds it (32 x 256 KiB by default)."""
    import pyarrow.csv as pcsv

    parse, read_cls, convert_cls = _csv_options(fmt, source, skipped)
    header = bool(source.get("header", True))
    probe, _, _ = _csv_options(fmt, source, [])   # its skips are not counted
    names = _csv_column_names(path, probe, read_cls, header)
    convert = convert_cls(column_types={n: pa.string() for n in names},
                          null_values=list(source.get("null_values", [""])),
                          strings_can_be_null=True, quoted_strings_can_be_null=True)
    read = read_cls(block_size=block_size, autogenerate_column_names=not header, use_threads=False)
    final = names if header else ["column_%d" % (i + 1) for i in range(len(names))]
    with _input_stream(path) as stream:
        reader = pcsv.open_csv(stream, read_options=read, parse_options=parse, convert_options=convert)
        for batch in reader:
            yield batch if header else pa.RecordBatch.from_arrays(batch.columns, names=final)


def open_batches(path: str, source: Dict[str, Any], batch_rows: int,
                 skipped: List[Optional[int]]) -> Iterator[pa.RecordBatch]:
    """One input file (or Delta table) as a stream of record batches (any sizes)."""
    if is_delta(path):
        with delta_reader(path) as reader:
            yield from reader
        return
    fmt = format_of(path, source)
    if fmt in ("csv", "tsv"):
        yield from open_csv_batches(path, fmt, source, skipped)
    elif fmt == "parquet":
        with _parquet_file(path) as parquet:
            yield from parquet.iter_batches(batch_size=batch_rows)
    elif fmt == "arrow":
        yield from _ipc_batches(path)
    elif fmt == "json":
        import json

        with _input_stream(path) as stream:
            elements = json.loads(stream.read())
        yield from pa.Table.from_pylist(elements).to_batches(max_chunksize=batch_rows)
    else:
        import pyarrow.json as pjson

        with _input_stream(path) as stream:
            yield from pjson.open_json(stream)


def _ipc_batches(path: str) -> Iterator[pa.RecordBatch]:
    with _random_access(path) as source:
        try:
            reader: Any = pa.ipc.open_file(source)
            batches: Callable[[], Iterator[pa.RecordBatch]] = \
                lambda: (reader.get_batch(i) for i in range(reader.num_record_batches))
        except pa.ArrowInvalid:
            source.seek(0)
            reader = pa.ipc.open_stream(source)
            batches = lambda: iter(reader)  # noqa: E731
        yield from batches()


def read_table(path: str, source: Dict[str, Any], skipped: List[Optional[int]]) -> pa.Table:
    """One input file as a whole Table (see the module docstring for types)."""
    if is_delta(path):
        with delta_reader(path) as reader:
            return reader.read_all()
    batches = list(open_batches(path, source, 1 << 20, skipped))
    if batches:
        return pa.Table.from_batches(batches)
    fmt = format_of(path, source)
    if fmt == "parquet":
        with _parquet_file(path) as parquet:
            return parquet.read()
    if fmt in ("csv", "tsv"):
        parse, read_cls, _ = _csv_options(fmt, source, [])
        names = _csv_column_names(path, parse, read_cls, bool(source.get("header", True)))
        return pa.table({n: pa.array([], pa.string()) for n in names})
    return pa.table({})


def rechunk(batches: Iterator[pa.RecordBatch], rows: int) -> Iterator[pa.Table]:
    """Tables of exactly `rows` rows (the last one shorter) from batches of any
    sizes, without copying (slices of the batches)."""
    pending: List[pa.RecordBatch] = []
    count = 0
    for batch in batches:
        if batch.num_rows == 0:
            continue
        pending.append(batch)
        count += batch.num_rows
        while count >= rows:
            table = pa.Table.from_batches(pending)
            yield table.slice(0, rows)
            rest = table.slice(rows)
            pending = rest.to_batches()
            count = rest.num_rows
    if count:
        yield pa.Table.from_batches(pending)
