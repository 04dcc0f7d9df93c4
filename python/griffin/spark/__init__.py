"""Griffin on Spark: the same rules over a Spark DataFrame, validated on the
executors, with a report equal to `griffin validate` over the same rows.

    import griffin.spark
    result = griffin.spark.validate(spark.read.parquet("orders/"), "rules.yaml", key="order_id")
    result.report.quality_score          # a griffin.Report, the CLI's JSON (report.to_json())
    result.clean.write.parquet("clean/")  # lazy DataFrames: every row in exactly one
    result.quarantine.show()              # + _griffin_row, _griffin_errors

How (native mode): `mapInArrow` hands each partition's Arrow batches to the
C++ engine, which returns the partition's partial state (counts, metric
aggregates and sketches, the first violations, `unique` keys with their first
row; Validator.partial). The driver merges the states with the same C++ code
(Validator.merge_partials), so counts, table metrics and the score equal one
machine's over the same rows in the same order. The rules are compiled once per
Python worker (workers are reused across tasks).

Row order: a cluster has none, and `unique` (the first occurrence passes) needs
one. Rows are numbered partition by partition: row id = partition index * 2^33
+ position in the partition. With `key=` (a column or columns), the DataFrame
is first range-partitioned and sorted by the key, so row ids follow the key's
order across partitions: a key that orders rows as a file holds them (an id)
gives exactly `griffin validate`'s report. That costs one shuffle of the whole
DataFrame (plus Spark's sampling pass for the ranges). Without `key=` the order
is Spark's partition order, which is the input's only where the source keeps it.

`unique` across partitions is exact without a second shuffle: the driver merges
every partition's key set (memory on the driver: about 30 bytes + the key per
distinct value), and the rows that repeat a key of an earlier partition are
passed to the clean/quarantine pass, which re-reads the (deterministically
ordered) DataFrame.

The executors need the griffin wheel: ship a packed environment
(docs/spark.md): `venv-pack -o env.tar.gz` of a venv holding the wheel, then
spark.archives=env.tar.gz#env and PYSPARK_PYTHON=./env/bin/python.
"""
from __future__ import annotations

from typing import Any, List, Optional, Sequence, Union

import griffin
from griffin import DEFAULT_MAX_VIOLATIONS, Report, Validator

__all__ = ["validate", "SparkValidation"]

# Row ids: partition index << ROW_ID_SHIFT + position (as monotonically_increasing_id).
ROW_ID_SHIFT = 33
MISSING_WHEEL = ("griffin is not installed in this Spark executor's Python ({python}: {error}). Ship it with "
                 "the job: pack a venv holding the griffin wheel (venv-pack -o griffin-env.tar.gz), pass it as "
                 "spark.archives=griffin-env.tar.gz#env and set PYSPARK_PYTHON=./env/bin/python "
                 "(docs/spark.md)")


class SparkValidation:
    """The outcome of validate(): `report` (computed). `clean` and
    `quarantine` are not finished: they raise NotImplementedError."""

    def __init__(self, report: Report, prepared: Any, text: str, arrow_schema: Any, merged_errors: dict,
                 partitions: int) -> None:
        self.report = report
        self.partitions = partitions
        self._outputs_args = (prepared, text, arrow_schema, merged_errors)

    @property
    def clean(self) -> Any:
        raise NotImplementedError("griffin.spark: clean/quarantine DataFrames are not finished (their row count "
                                  "across partitions is not yet exact; issue 14); use .report")

    @property
    def quarantine(self) -> Any:
        return self.clean

    def __repr__(self) -> str:
        return "<griffin.spark.SparkValidation rows=%d bad_rows=%d partitions=%d>" % (
            self.report.rows, self.report.bad_rows, self.partitions)


def _rules_text(rules: Union[str, "griffin.PathLike"]) -> str:
    import os
    if isinstance(rules, os.PathLike) or (isinstance(rules, str) and "\n" not in rules and os.path.isfile(rules)):
        with open(os.fspath(rules), encoding="utf-8") as f:
            return f.read()
    if isinstance(rules, str) and "\n" not in rules and rules.endswith((".yaml", ".yml")):
        Validator.from_yaml(rules)   # raises RuleError naming the missing file
    return rules


def _executor_helpers(rules_text: str, arrow_schema: Any) -> Any:
    """Functions for the executors, defined here so that Spark pickles them
    by value: unpickling them needs no griffin, so an executor without the
    wheel reaches MISSING_WHEEL instead of a bare ImportError in Spark's worker."""
    missing = MISSING_WHEEL

    def worker_validator() -> Any:
        """The rules compiled once per Python worker (cached on the griffin module)."""
        import sys
        try:
            import griffin as g
        except ImportError as error:
            raise RuntimeError(missing.format(python=sys.executable, error=error)) from None
        cache = g.__dict__.setdefault("_spark_validators", {})
        validator = cache.get(rules_text)
        if validator is None:
            validator = cache[rules_text] = g.Validator.from_yaml(rules_text)
        return validator

    def partition_table(batches: Any) -> Any:
        import pyarrow as pa
        batches = list(batches)
        return pa.Table.from_batches(batches, schema=batches[0].schema if batches else arrow_schema)

    return worker_validator, partition_table


def validate(df: Any, rules: Union[str, Any], *, key: Union[None, str, Sequence[str]] = None,
             mode: str = "native", max_violations: int = DEFAULT_MAX_VIOLATIONS) -> SparkValidation:
    """Validate a Spark DataFrame (any source: Parquet, Delta, JDBC, CSV,
    spark.table(name)) against a rule file (path or YAML text).

    `key`: a column or columns that order the rows (see the module's notes);
    None numbers rows in partition order. `mode`: "native" (the only mode
    built so far). Raises RuleError for bad rules (on the driver, before any
    Spark job) and InputError for partial states that cannot be merged; a
    missing column is the report's schema error (every row bad), as in the CLI."""
    if mode != "native":
        raise ValueError("mode: only 'native' is built (SQL mode is not yet)")
    text = _rules_text(rules)
    validator = Validator.from_yaml(text)   # RuleError here, not on an executor
    keys: List[str] = [key] if isinstance(key, str) else list(key or [])
    for name in keys:
        if name not in df.columns:
            raise ValueError("key: no column %r in the DataFrame (columns: %s)" % (name, ", ".join(df.columns)))
    prepared = df
    if keys:
        prepared = df.repartitionByRange(df.rdd.getNumPartitions(), *keys).sortWithinPartitions(*keys)
    from pyspark.sql.pandas.types import to_arrow_schema
    arrow_schema = to_arrow_schema(df.schema)
    worker_validator, partition_table = _executor_helpers(text, arrow_schema)
    shift = ROW_ID_SHIFT

    def partial_states(batches):   # runs on the executors; imports griffin there
        import pyarrow as pa
        from pyspark import TaskContext
        worker = worker_validator()
        partition = TaskContext.get().partitionId()
        table = partition_table(batches)
        state = worker.partial(table, row_offset=partition << shift, max_violations=max_violations, threads=1)
        yield pa.RecordBatch.from_arrays([pa.array([partition], pa.int64()), pa.array([state], pa.binary())],
                                         names=["partition", "state"])

    rows = prepared.mapInArrow(partial_states, "partition long, state binary").collect()
    rows.sort(key=lambda r: r["partition"])
    states = [bytes(r["state"]) for r in rows]
    names = ["partition %d" % r["partition"] for r in rows]
    result, error_rows, error_checks, error_messages = validator._compiled.merge_partials(states, names)
    report = Report(result)
    report._merged = True
    merged_errors = {}
    for row, check, message in zip(error_rows, error_checks, error_messages):
        merged_errors.setdefault(int(row), []).append((check, message))
    return SparkValidation(report, prepared, text, arrow_schema, merged_errors, len(states))


def _outputs(prepared: Any, text: str, arrow_schema: Any, merged_errors: dict) -> Any:
    """The lazy clean and quarantine DataFrames: each partition validated
    again (the same rows in the same order, so the same row ids), plus the
    rows that repeat an earlier partition's `unique` key."""
    from pyspark.sql.types import ArrayType, LongType, StringType, StructField, StructType
    shift = ROW_ID_SHIFT
    worker_validator, partition_table = _executor_helpers(text, arrow_schema)
    errors_type = ArrayType(StructType([StructField("check", StringType()), StructField("message", StringType())]))
    quarantine_schema = StructType(prepared.schema.fields + [StructField("_griffin_row", LongType()),
                                                             StructField("_griffin_errors", errors_type)])

    def split(batches, want_clean):   # on the executors
        import numpy as np
        import pyarrow as pa
        from pyspark import TaskContext
        worker = worker_validator()
        partition = TaskContext.get().partitionId()
        offset = partition << shift
        table = partition_table(batches)
        report = worker.validate(table, max_violations=0, threads=1)
        bad = report.bad_row_mask()
        extra = {row - offset: errs for row, errs in merged_errors.items() if offset <= row < offset + table.num_rows}
        for local in extra:
            bad[local] = True
        if want_clean:
            yield from table.filter(pa.array(~bad)).to_batches()
            return
        _, quarantined = report.split(table)
        positions = quarantined.column("_griffin_row").to_numpy()
        errors = quarantined.column("_griffin_errors").to_pylist()
        by_row = {int(p): list(e or []) for p, e in zip(positions, errors)}
        for local, errs in extra.items():
            by_row.setdefault(local, []).extend({"check": c, "message": m} for c, m in errs)
        order = np.array(sorted(by_row), dtype=np.int64)
        out = table.take(pa.array(order))
        out = out.append_column("_griffin_row", pa.array(order + offset, pa.int64()))
        errors_arrow = pa.array([by_row[int(r)] for r in order],
                                pa.list_(pa.struct([("check", pa.string()), ("message", pa.string())])))
        out = out.append_column("_griffin_errors", errors_arrow)
        yield from out.to_batches()

    clean = prepared.mapInArrow(lambda batches: split(batches, True), prepared.schema)
    quarantine = prepared.mapInArrow(lambda batches: split(batches, False), quarantine_schema)
    return clean, quarantine
