"""What griffin.spark's tasks run on the executors.

The functions are made inside executor_functions(), so Spark (cloudpickle)
pickles them by value: unpickling them needs no griffin, and an executor
whose Python lacks the wheel fails with MISSING_WHEEL, which names the fix,
instead of a bare ImportError inside Spark's worker."""
from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Tuple

# Row ids: partition index << ROW_ID_SHIFT + position, as Spark's
# monotonically_increasing_id() numbers rows.
ROW_ID_SHIFT = 33

# What partial_states yields: a partition's state in pieces of at most
# STATE_CHUNK_BYTES, one row each (chunk 0, 1, ...). A state of a 10M-row
# partition is ~145 MB (unique's keys): sent whole, the driver's JVM pickled
# it into a doubling buffer for Python and ran a 2 GiB heap out of memory at
# 10M rows; in pieces, each pickled batch stays small. `shard` is -1 for a
# state; with key shards (unique_merge="shuffle") a partition also yields its
# keys of each shard s (shard s, partition p), and merge_shards turns every
# partition's blobs of shard s into that shard's duplicates (partition -1).
STATE_SCHEMA = "partition long, rows long, shard long, chunk long, state binary"
STATE_CHUNK_BYTES = 8 << 20

MISSING_WHEEL = ("griffin is not installed in this Spark executor's Python ({python}: {error}). Ship it with "
                 "the job: pack a venv holding the griffin wheel (venv-pack -o griffin-env.tar.gz), pass it as "
                 "spark.archives=griffin-env.tar.gz#env and set PYSPARK_PYTHON=./env/bin/python "
                 "(docs/spark.md)")

# The clean/quarantine passes found other rows than the report's pass.
CHANGED = ("griffin.spark: partition {partition} of the validated DataFrame holds {rows} rows now and held {before} "
           "when the report was made: its source or its partitioning changed since validate() (files rewritten, "
           "spark.sql.files.* settings, executors); validate it again")

LOST = ("griffin.spark: {got} partial states reached the driver for {partitions} partitions (the collect was cut "
        "short: is spark.driver.memory too small for the states? docs/spark.md)")

LOST_SHARDS = ("griffin.spark: the duplicates of {got} unique key shards reached the driver, of {shards} (the "
               "collect was cut short)")


def joined(pieces: Dict[Any, Dict[int, Any]]) -> Dict[Any, bytes]:
    """Each blob joined from its chunks; those whose chunks are not 0..n-1 left out."""
    return {k: b"".join(bytes(chunks[c]) for c in range(len(chunks)))
            for k, chunks in pieces.items() if sorted(chunks) == list(range(len(chunks)))}


def collect_states(frame: Any, partitions: int,
                   shards: int = 0) -> Tuple[List[int], List[int], List[bytes], List[bytes]]:
    """The (partitions, rows, states, key duplicates) of a mapInArrow(
    partial_states, STATE_SCHEMA) DataFrame (after merge_shards when
    `shards` > 0) on the driver, in partition and shard order, each blob
    joined from its chunks; `partitions`: how many its input has. Collected
    as Rows: collecting them as Arrow copies each state twice more on its
    executor (a 10M-row partition's state of ~145 MB ran a 1 GiB executor out
    of memory). Raises RuntimeError when fewer states (or shards' duplicates)
    arrive than partitions were validated (or shards made), or a blob's
    chunks are not 0..n-1 (a collect cut short must not become a report of
    fewer rows)."""
    pieces: Dict[int, Dict[int, Any]] = {}
    shard_pieces: Dict[int, Dict[int, Any]] = {}
    counts: Dict[int, int] = {}
    for row in frame.collect():
        if row["shard"] < 0:
            pieces.setdefault(row["partition"], {})[row["chunk"]] = row["state"]
            counts[row["partition"]] = row["rows"]
        else:
            shard_pieces.setdefault(row["shard"], {})[row["chunk"]] = row["state"]
    states, duplicates = joined(pieces), joined(shard_pieces)
    if len(pieces) != partitions or len(states) != partitions:
        raise RuntimeError(LOST.format(got=len(states), partitions=partitions))
    if len(shard_pieces) != shards or len(duplicates) != shards:
        raise RuntimeError(LOST_SHARDS.format(got=len(duplicates), shards=shards))
    order = sorted(states)
    return order, [counts[p] for p in order], [states[p] for p in order], [duplicates[s] for s in sorted(duplicates)]


def executor_functions(rules_text: str, arrow_schema: Any, max_violations: int,
                       sql_plan: Optional[tuple] = None, key_shards: int = 0,
                       state_schema: Any = None) -> Tuple[Callable, Callable, Callable]:
    """(partial_states, merge_shards, split_rows): mapInArrow functions.
    partial_states yields a partition's state (shard -1) and, with
    `key_shards` > 0, its unique keys of each shard (shard s) instead of in
    the state; merge_shards, over those rows hash-partitioned by shard, passes
    states through and merges each shard's blobs into its duplicates;
    split_rows(merged_errors, check_order, want_clean) yields a partition's
    clean rows, or its bad rows with _griffin_row and _griffin_errors.
    `arrow_schema`: the prepared DataFrame's; `state_schema`: what
    partial_states is given when it is fewer columns (an empty partition's).
    `sql_plan`: SQL mode's _compiled.sql_plan() arguments: the tasks then run
    that plan's fallback checks (griffin/spark/_sql.py) instead of all rules."""
    missing = MISSING_WHEEL
    changed = CHANGED
    chunk_bytes = STATE_CHUNK_BYTES
    shift = ROW_ID_SHIFT

    def row(partition: int, rows: int, shard: int, chunk: int, blob: bytes) -> Any:
        """One STATE_SCHEMA row as a batch."""
        import pyarrow as pa
        return pa.RecordBatch.from_arrays([pa.array([partition], pa.int64()), pa.array([rows], pa.int64()),
                                           pa.array([shard], pa.int64()), pa.array([chunk], pa.int64()),
                                           pa.array([blob], pa.binary())],
                                          names=["partition", "rows", "shard", "chunk", "state"])

    def chunked(partition: int, rows: int, shard: int, blob: bytes) -> Any:
        """`blob` as STATE_SCHEMA rows of at most chunk_bytes each."""
        pieces = [blob[at:at + chunk_bytes] for at in range(0, len(blob), chunk_bytes)] or [b""]
        for index, piece in enumerate(pieces):
            yield row(partition, rows, shard, index, piece)

    def worker_validator() -> Any:
        """The rules compiled once per Python worker (cached on the griffin module)."""
        import sys
        try:
            import griffin as g
        except ImportError as error:
            raise RuntimeError(missing.format(python=sys.executable, error=error)) from None
        cache = g.__dict__.setdefault("_spark_validators", {})
        validator = cache.get((rules_text, sql_plan))
        if validator is None:
            validator = g.Validator.from_yaml(rules_text)
            if sql_plan is not None:
                dialect, relation, stored, limit, windowless = sql_plan
                validator = g.Validator(validator._compiled.sql_plan(dialect, relation, dict(stored), limit,
                                                                     windowless).fallback())
            cache[(rules_text, sql_plan)] = validator
        return validator

    def partition_table(batches: Any) -> Tuple[Any, int]:
        import pyarrow as pa
        from pyspark import TaskContext
        batches = list(batches)
        table = pa.Table.from_batches(batches, schema=batches[0].schema if batches else arrow_schema)
        return table, TaskContext.get().partitionId()

    def partial_states(batches: Any) -> Any:
        """The partition's (partition, rows, state): its batches stream into
        the engine as Spark hands them over (the partition is never held
        whole in the Python worker)."""
        import itertools

        import pyarrow as pa
        from pyspark import TaskContext
        worker = worker_validator()
        partition = TaskContext.get().partitionId()
        batches = iter(batches)
        first = next(batches, None)
        schema = first.schema if first is not None else (state_schema or arrow_schema)
        rows = [0]

        def counted() -> Any:
            for batch in itertools.chain([first] if first is not None else [], batches):
                rows[0] += batch.num_rows
                yield batch
        reader = pa.RecordBatchReader.from_batches(schema, counted())
        if key_shards > 0:
            state, blobs = worker.partial_sharded(reader, key_shards, row_offset=partition << shift,
                                                  max_violations=max_violations, threads=1)
        else:
            state, blobs = worker.partial(reader, row_offset=partition << shift, max_violations=max_violations,
                                          threads=1), []
        yield from chunked(partition, rows[0], -1, state)
        for shard, blob in enumerate(blobs):
            yield from chunked(partition, rows[0], shard, blob)

    def merge_shards(batches: Any) -> Any:
        """A reducer of the shuffle by shard: states pass through; each
        shard's blobs (one per partition) become its duplicates, one row
        (partition -1, rows = the partitions merged)."""
        worker = worker_validator()
        by_shard: Dict[int, Dict[int, Dict[int, Any]]] = {}
        for batch in batches:
            columns = batch.to_pydict()
            for partition, rows, shard, chunk, blob in zip(columns["partition"], columns["rows"], columns["shard"],
                                                          columns["chunk"], columns["state"]):
                if shard < 0:
                    yield row(partition, rows, shard, chunk, blob)
                else:
                    by_shard.setdefault(shard, {}).setdefault(partition, {})[chunk] = blob
        for shard in sorted(by_shard):
            parts = by_shard[shard]
            blobs = [b"".join(parts[p][c] for c in range(len(parts[p]))) for p in sorted(parts)]
            duplicates = worker.merge_key_shard(blobs, ["partition %d" % p for p in sorted(parts)])
            yield from chunked(-1, len(blobs), shard, duplicates)

    def split_rows(merged_errors: Any, check_order: Dict[str, int], want_clean: bool) -> Callable:
        def run(batches: Any) -> Any:
            import numpy as np
            import pyarrow as pa
            from griffin import _frames
            worker = worker_validator()
            table, partition = partition_table(batches)
            offset = partition << shift
            result = worker._compiled.validate_stream(_frames.arrow_stream(table), "partition %d" % partition, 0,
                                                      1, 65536, True, offset, judge_history=False)
            by_partition, counts = merged_errors.value
            if counts.get(partition) != table.num_rows:
                raise RuntimeError(changed.format(partition=partition, rows=table.num_rows,
                                                  before=counts.get(partition, 0)))
            extra: Dict[int, List[Tuple[str, str]]] = by_partition.get(partition, {})
            bad = np.zeros(table.num_rows, dtype=bool)
            rows = result.bad_row_indices() - offset
            bad[rows] = True
            for local in extra:
                bad[local] = True
            if want_clean:
                yield from table.filter(pa.array(~bad)).to_batches()
                return
            bounds = result.bad_error_offsets()
            checks, messages = result.bad_error_checks(), result.bad_error_messages()
            errors: Dict[int, List[Tuple[str, str]]] = {}
            for i, local in enumerate(rows.tolist()):
                errors[local] = [(checks[j], messages[j].decode("utf-8", "replace"))
                                 for j in range(bounds[i], bounds[i + 1])]
            for local, more in extra.items():
                errors.setdefault(local, []).extend(more)
            order = sorted(errors)
            out = table.take(pa.array(order, pa.int64()))
            out = out.append_column("_griffin_row", pa.array([offset + r for r in order], pa.int64()))
            entries = [[{"check": c, "message": m}
                        for c, m in sorted(errors[r], key=lambda e: check_order.get(e[0], len(check_order)))]
                       for r in order]
            out = out.append_column("_griffin_errors", pa.array(
                entries, pa.list_(pa.struct([("check", pa.string()), ("message", pa.string())]))))
            yield from out.to_batches()
        return run

    return partial_states, merge_shards, split_rows
