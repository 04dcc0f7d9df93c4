"""griffin.jax.batches: validated training batches as dicts of jax.Array.

A C++ thread reads the source, validates it with the rules (on all cores,
without the GIL), keeps the clean rows' feature columns, shuffles them through
a buffer when asked, and queues `prefetch` batches ahead of the training loop
(src/api/feature_stream.h). Quarantined rows are counted (and written out with
quarantine=PATH); they never reach a batch.

Zero-copy: each batch column is one fresh, 64-byte aligned buffer (Arrow's
memory pool), handed to numpy and then to jax through DLPack without a copy on
the CPU backend. Where jax cannot take the buffer as is, it copies:
- 64-bit columns (float64, int64) without jax_enable_x64: jax would narrow
  them, so Griffin writes float32 / int32 columns to begin with (dtypes=
  overrides; an int64 that does not fit int32 is an InputError naming row and
  column, never a silent wrap);
- transform= outputs (new numpy arrays are not 64-byte aligned in general);
- a device other than the host's (GPU): one host-to-device copy (device_put).

Placement: without device= every array is uncommitted (jax's default device,
as jnp.asarray gives), with device= committed to it, whether or not a
transform= made the array: a jitted step then compiles once, not again for
each change of committed-ness (examples/train_jax.py compiled its step 6
times when aligned batches came committed and transformed ones did not).
"""
from __future__ import annotations

import os
from typing import Any, Callable, Dict, Iterator, Mapping, Optional, Sequence

import numpy as np

from .. import _arrow_stream, _input_name
from ._kafka_source import is_kafka_uri, read_snapshot


def _to_jax(array: np.ndarray, device: Any) -> Any:
    """One placement for every batch, with or without transform=, so that a
    jitted step sees the same argument signature each step and compiles once:
    device=None gives uncommitted arrays on jax's default device (as
    jnp.asarray does), a device gives arrays committed to it. On the CPU
    backend device_put aliases a 64-byte aligned buffer (no copy)."""
    import jax

    return jax.device_put(array, device)


class BatchStream:
    """The iterator batches() returns. Iterate it for dicts {column: jax.Array}.

    Attributes (counts so far; final once exhausted):
      columns           [(name, dtype, vocabulary)]: a string column's values
                        arrive as codes, the index into its `in:` list
      clean_rows        clean rows read (yielded, buffered or dropped)
      quarantined_rows  bad rows, never yielded
      dropped_rows      clean rows of a last, short batch (drop_remainder)
      report            the whole run's griffin.Report, once exhausted
      quarantine        {"path", "rows", "bytes", "sha256"} of the written
                        quarantine file, once exhausted (with quarantine=)
    close() (or leaving a `with` block) stops the reading thread; a
    quarantine file is then not written.
    """

    def __init__(self, stream: Any, transform: Optional[Callable[[Dict[str, np.ndarray]], Mapping[str, Any]]],
                 device: Any) -> None:
        self._stream = stream
        self._names = [name for name, _, _ in stream.columns]
        self._transform = transform
        self._device = device
        self._report = None
        self.kafka = None  # a KafkaSnapshot when the source was kafka://

    @property
    def columns(self):
        return self._stream.columns

    @property
    def clean_rows(self) -> int:
        return self._stream.clean_rows

    @property
    def quarantined_rows(self) -> int:
        return self._stream.quarantined_rows

    @property
    def dropped_rows(self) -> int:
        return self._stream.dropped_rows

    @property
    def report(self):
        if self._report is None:
            text = self._stream.report_json  # rendered on each read: read it once
            if text is not None:
                from .. import Report
                self._report = Report(_JsonResult(text))
        return self._report

    @property
    def quarantine(self):
        return self._stream.quarantine

    def next_numpy(self) -> Optional[Dict[str, np.ndarray]]:
        """The next batch as numpy arrays over the C++ buffers (no copy), or None."""
        arrays = self._stream.next()
        return None if arrays is None else dict(zip(self._names, arrays))

    def __iter__(self) -> "BatchStream":
        return self

    def __next__(self) -> Dict[str, Any]:
        batch = self.next_numpy()
        if batch is None:
            raise StopIteration
        if self._transform is not None:
            batch = dict(self._transform(batch))
        return {name: _to_jax(np.asarray(value), self._device) for name, value in batch.items()}

    def close(self) -> None:
        self._stream.cancel()
        if self.kafka is not None:
            self.kafka.close()

    def __enter__(self) -> "BatchStream":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class _JsonResult:
    """Report's view of a run known only by its JSON (no per-row data)."""

    def __init__(self, text: str) -> None:
        import json
        self.json = text
        parsed = json.loads(text)
        self.rows = parsed["rows"]
        self.bad_rows = parsed["bad_rows"]
        self.quality_score = parsed["quality_score"]
        self.passed = parsed["passed"]

    def bad_row_indices(self):
        raise ValueError("a batches() report holds no per-row verdicts; use quarantine= to keep the bad rows")


def batches(source: Any, validator: Any, batch_size: int = 128, columns: Optional[Sequence[str]] = None,
            shuffle_buffer: int = 0, seed: int = 0, prefetch: int = 2, drop_remainder: bool = True, *,
            dtypes: Optional[Mapping[str, str]] = None, transform: Optional[Callable] = None,
            quarantine: Optional[str] = None, device: Any = None, threads: int = 0,
            read_batch_rows: int = 65536, after_version: Optional[int] = None) -> BatchStream:
    """Validated batches of `source` for training: an iterator of dicts
    {column: jax.Array}, each of `batch_size` rows (the last may be shorter
    when drop_remainder=False).

    source: a path, a list of paths (files or directories), or a frame that
      Validator.validate() takes (pyarrow, pandas, polars, dict of numpy), or
      "kafka://HOST:PORT/TOPIC?group=GROUP": the JSON records of a `griffin
      stream` clean topic from the group's committed offsets to the end at the
      call, read_committed (stream.kafka: last_version, offsets, commit();
      griffin/jax/_kafka_source.py). Needs confluent-kafka.
    after_version: kafka:// only: skip records whose griffin-version header is
      not above it (the last_version a checkpoint saved), so a resumed trainer
      sees no record twice even when its last commit() was lost.
    validator: a griffin.Validator; only rows that pass its error checks are
      yielded.
    columns: the rule file's columns to yield (default: every column the rules
      guarantee a value for). Each must be `not_null: true` (error severity);
      a string column also needs an error-severity `in:` list and arrives as
      int32 codes (the index in that list). Dates and timestamps arrive as
      days / microseconds since the epoch (int64 needs jax_enable_x64, or
      dtypes={"created_at": "float64"} ... ).
    dtypes: per column "float32", "float64", "int32", "int64" or "bool"
      (defaults: float32 / int32 without jax_enable_x64, else 64-bit).
    shuffle_buffer, seed: a shuffle buffer of that many rows (0: input order),
      deterministic for the seed.
    prefetch: batches prepared ahead in C++.
    transform: a function dict[str, numpy] -> dict[str, array] applied to each
      batch on the calling thread before the hand-over to jax (feature
      engineering: one-hot, hour of day ...).
    quarantine: a path (.csv .jsonl .parquet .arrow) to write the bad rows to,
      as `griffin validate --quarantine` does; written when the source is
      exhausted.
    device: a jax.Device to place batches on (default: jax's default device).

    Raises griffin.RuleError for columns or options the rules cannot serve;
    iteration raises griffin.InputError for unreadable input.
    """
    import jax

    options: Dict[str, Any] = {
        "columns": list(columns) if columns is not None else None,
        "dtypes": dict(dtypes or {}),
        "narrow": not jax.config.jax_enable_x64,
        "batch_size": int(batch_size), "shuffle_buffer": int(shuffle_buffer), "seed": int(seed),
        "drop_remainder": bool(drop_remainder), "prefetch": int(prefetch), "threads": int(threads),
        "read_batch_rows": int(read_batch_rows), "quarantine": os.fspath(quarantine) if quarantine else None,
    }
    if batch_size < 1:
        raise ValueError("batch_size: must be at least 1")
    wide = [name for name, dtype in (dtypes or {}).items() if dtype in ("float64", "int64")]
    if wide and not jax.config.jax_enable_x64 and transform is None:
        raise ValueError("dtypes %s: jax holds 64-bit arrays only with jax_enable_x64 (it would narrow them); "
                         "enable it, or narrow them in a transform=" % ", ".join("%s=%s" % (n, dtypes[n]) for n in wide))
    snapshot = None
    if is_kafka_uri(source):
        path, snapshot = read_snapshot(source, after_version)
        source = [path]
    elif after_version is not None:
        raise ValueError("after_version: only for a kafka:// source")
    if isinstance(source, (str, os.PathLike)):
        source = [source]
    if isinstance(source, (list, tuple)) and all(isinstance(p, (str, os.PathLike)) for p in source):
        stream = validator._compiled.feature_stream([os.fspath(p) for p in source], "", options)
    else:
        stream = validator._compiled.feature_stream(_arrow_stream(source), _input_name(source), options)
    result = BatchStream(stream, transform, device)
    result.kafka = snapshot
    return result
