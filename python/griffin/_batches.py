"""griffin.iter_batches(): stream large files through a Validator in batches,
with bounded memory, reading the next batch in a background thread while the
current one is validated (validation releases the GIL)."""
from __future__ import annotations

import os
import queue
import threading
import warnings
from typing import TYPE_CHECKING, Any, Iterator, List, Optional, Sequence, Tuple, Union

import numpy as np
import pyarrow as pa

from . import _frames, _objects, _readers
from ._griffin import DEFAULT_MAX_VIOLATIONS, InputError

if TYPE_CHECKING:  # pragma: no cover
    from . import Report, Validator

_END = object()


class _Failure:
    def __init__(self, error: BaseException) -> None:
        self.error = error


def cli_rows(first: int, count: int, skipped: List[Optional[int]]) -> Optional["np.ndarray"]:
    """The CLI's row numbers (within one file) of the file's kept rows
    [first, first + count), given the records pyarrow skipped (the CLI counts
    them as malformed rows): kept row g is the CLI's row g + (the number of
    skipped records before it). None when a skipped record's number is unknown."""
    if any(record is None for record in skipped):
        return None
    records = np.sort(np.asarray(skipped, dtype=np.int64))
    kept_before = records - np.arange(len(records))   # kept rows before each skipped record
    kept = np.arange(first, first + count, dtype=np.int64)
    return kept + np.searchsorted(kept_before, kept, side="right")


def _produce(files: List[str], source: Any, batch_rows: int, out: "queue.Queue[Any]",
             stop: threading.Event, skipped_total: List[int]) -> None:
    def put(item: Any) -> bool:
        while not stop.is_set():
            try:
                out.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    try:
        offset = 0   # the CLI's rows in the files before this one
        for path in files:
            skipped: List[Optional[int]] = []
            kept = 0
            try:
                for table in _readers.rechunk(_readers.open_batches(path, source, batch_rows, skipped), batch_rows):
                    rows = cli_rows(kept, table.num_rows, skipped)
                    kept += table.num_rows
                    if not put((table, None if rows is None else rows + offset)):
                        return
            except (pa.ArrowException, OSError) as e:
                raise InputError("%s: %s" % (_objects.display(path), e)) from e
            offset += kept + len(skipped)
            skipped_total[0] += len(skipped)
        put(_END)
    except BaseException as e:  # noqa: BLE001 (handed to the consuming thread)
        put(_Failure(e))


def iter_batches(paths: Union[str, "os.PathLike[str]", Sequence[Union[str, "os.PathLike[str]"]]],
                 validator: "Validator", batch_rows: int = 200_000, *, max_violations: int = DEFAULT_MAX_VIOLATIONS,
                 threads: int = 0, prefetch: int = 1) -> Iterator[Tuple[pa.Table, "Report"]]:
    """Validate large files batch by batch; yield `(clean_batch, report)` per batch.

    `paths`: a path or a list of paths (files or directories, as validate()
    takes them; s3:// and gs:// objects or prefixes too, read through pyarrow's
    filesystems with the engine's endpoint, region and credential chains). Each file is read with pyarrow's streaming readers (CSV/TSV
    with every column a string and the rule file's `source:` options, as the
    engine reads text; Parquet by row batches; Arrow IPC; JSON lines) in a
    background thread that stays `prefetch` batches ahead, so memory stays at
    about (prefetch + 2) batches whatever the file size.

    Each batch holds `batch_rows` rows (a file's last batch fewer; batches
    never span two files). `clean_batch` is a pyarrow Table of the batch's
    clean rows, in order; `report` is the Report of validating that batch
    alone, so its rows (violations' `row`, bad_row_mask(), split()) are
    numbered from 0 within the batch; each violation's `index` (and
    `report.index`, a numpy array) gives the row as the CLI's report numbers it
    for the same paths (malformed records counted). Row-level check counts summed over
    the reports equal a whole-file run's; table-level checks (row_count, mean,
    unique across batches, ...) are per batch. `report.split(batch)` is not
    available (the batch is not kept); use bad_row_mask().

    A CSV record whose field count differs from the header's is skipped by
    pyarrow here (it is in no batch and no report, but keeps its row number:
    the rows after it are numbered as the CLI numbers them); a RuntimeWarning
    at the end says how many. validate(path) or the CLI's --quarantine account
    for such malformed records exactly.

    Raises InputError (naming the file) when a file cannot be read, and what
    validate() raises. Closing the generator early stops the reading thread.
    """
    if batch_rows < 1:
        raise ValueError("batch_rows: must be at least 1")
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    files = _readers.expand_paths([os.fspath(p) for p in paths])
    source = validator._compiled.source
    ahead: "queue.Queue[Any]" = queue.Queue(maxsize=max(1, prefetch))
    stop = threading.Event()
    skipped = [0]
    reader = threading.Thread(target=_produce, args=(files, source, batch_rows, ahead, stop, skipped),
                              name="griffin-read-ahead", daemon=True)
    reader.start()
    try:
        while True:
            item = ahead.get()
            if item is _END:
                if skipped[0]:
                    # Never lose rows silently: say how many records no batch holds.
                    warnings.warn(f"griffin.iter_batches: {skipped[0]} malformed CSV record(s) were skipped "
                                  "and are in no batch; validate(path) or the CLI's --quarantine keeps them",
                                  RuntimeWarning, stacklevel=2)
                return
            if isinstance(item, _Failure):
                raise item.error
            table, rows = item
            report = validator.validate(table, max_violations=max_violations, threads=threads,
                                        batch_rows=min(batch_rows, 65536))
            report._labels = rows
            keep = np.ones(table.num_rows, dtype=bool)
            keep[report._result.bad_row_indices()] = False
            clean = _frames.filter_rows(table, keep)
            del item, table
            yield clean, report
    finally:
        stop.set()
        while reader.is_alive():
            try:
                ahead.get(timeout=0.05)
            except queue.Empty:
                pass
        reader.join()
