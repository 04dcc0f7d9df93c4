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
one. Row ids are monotonically_increasing_id()'s: partition index * 2^33 +
position in the partition. With `key=` (a column or columns), the DataFrame
is first range-partitioned and sorted by the key, so row ids follow the key's
order across partitions: a key that orders rows as a file holds them (an id)
gives exactly `griffin validate`'s report. That costs one shuffle of the whole
DataFrame (plus Spark's sampling pass for the ranges). Without `key=` the first
occurrence is the row with the smallest monotonically_increasing_id().

`unique` across partitions is exact. By default (unique_merge="shuffle") each
partition's distinct keys, with their first row, leave its state split into
one shard per partition (at most spark.sql.shuffle.partitions) by the key's hash; Spark's hash shuffle sends shard s
of every partition to one task, which merges them in row-id order into that
shard's duplicates (the rows whose key an earlier partition holds). The
driver gets the states without keys and the duplicates: no machine holds
every key, and the shards merge in parallel. unique_merge="driver" sends the
key sets to the driver instead (no shuffle; memory on the driver: about 16
bytes + the key per distinct value). Either way the rows that repeat a key
of an earlier partition are broadcast to the clean/quarantine tasks. Those
tasks must see the same rows in the same order as the report did: a plain
scan of files does (it is used as it is, _plan.py); anything else is
localCheckpoint()ed (kept on the executors by the report's job). Each
partition's row count is checked again.

The executors need the griffin wheel: ship a packed environment
(docs/spark.md): `venv-pack -o env.tar.gz` of a venv holding the wheel, then
spark.archives=env.tar.gz#env and PYSPARK_PYTHON=./env/bin/python.
"""
from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Sequence, Union

import griffin
from griffin import DEFAULT_MAX_VIOLATIONS, Report, Validator

from ._executor import MISSING_WHEEL, ROW_ID_SHIFT, STATE_SCHEMA, collect_states, executor_functions
from ._plan import repeatable

__all__ = ["validate", "SparkValidation", "MISSING_WHEEL", "ROW_ID_SHIFT", "rule_columns", "key_shards"]


class SparkValidation:
    """The outcome of validate(): `report` (computed on validate()), and the
    lazy `clean` and `quarantine` DataFrames (computed when an action runs
    on them; together they hold every row exactly once)."""

    def __init__(self, report: Report, validator: Validator, prepared: Any, native: Callable[[], tuple],
                 partitions: int, inputs: List[str], mode: str = "native") -> None:
        self.report = report
        self.partitions = partitions
        self.mode = mode
        self._validator = validator
        self._prepared = prepared
        self._native = native   # () -> (split_rows, merged_errors): the native pass's, made on first use
        self._inputs = inputs
        self._frames: Optional[tuple] = None
        self.run_id: Optional[str] = None

    @property
    def ran_in(self) -> Dict[str, str]:
        """Each check's name -> where it ran: "database" (Spark SQL, mode="sql")
        or "engine" (the native engine; every check in native mode)."""
        return {c["name"]: c.get("ran_in", "engine") for c in self.report.checks}

    @property
    def clean(self) -> Any:
        """The rows that violate no error-severity check (the input's columns)."""
        return self._outputs()[0]

    @property
    def quarantine(self) -> Any:
        """The bad rows plus `_griffin_row` (the row id the report names:
        partition index * 2^33 + position) and `_griffin_errors`
        (array<struct<check, message>>, the violated error checks in rule
        order), as the CLI's --quarantine."""
        return self._outputs()[1]

    def save(self, store_uri: str) -> str:
        """Record the run in the run store at `store_uri` (a SQLite path or
        postgresql://...), as `griffin validate --store` does: `griffin history
        DATASET --store URI` lists it (origin spark). The driver writes; the
        report's run_id becomes the new run's id, which is returned. Raises
        griffin.GriffinError naming the store when it cannot be written."""
        run_id, _version = self._validator._compiled.record_run(
            self.report._result, str(store_uri), self._inputs, [self.report.rows] if len(self._inputs) == 1 else [], "spark")
        self.report._json = self.report._dict = None
        self.run_id = run_id
        return run_id

    def _outputs(self) -> tuple:
        if self._frames is None:
            from pyspark.sql.types import ArrayType, LongType, StringType, StructField, StructType
            prepared = self._prepared
            errors_type = ArrayType(StructType([StructField("check", StringType()),
                                                StructField("message", StringType())]))
            quarantine_schema = StructType(prepared.schema.fields + [
                StructField("_griffin_row", LongType()), StructField("_griffin_errors", errors_type)])
            order = {check["name"]: i for i, check in enumerate(self.report.checks)}
            split_rows, merged_errors = self._native()
            clean = prepared.mapInArrow(split_rows(merged_errors, order, True), prepared.schema)
            quarantine = prepared.mapInArrow(split_rows(merged_errors, order, False), quarantine_schema)
            self._frames = (clean, quarantine)
        return self._frames

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


def _input_names(df: Any) -> List[str]:
    """The DataFrame's source files (Spark's inputFiles()), else a description."""
    try:
        files = list(df.inputFiles())
    except Exception:   # noqa: BLE001 - a source without files (JDBC, a range)
        files = []
    return files or ["spark:dataframe"]


def validate(df: Any, rules: Union[str, Any], *, key: Union[None, str, Sequence[str]] = None,
             mode: str = "native", max_violations: int = DEFAULT_MAX_VIOLATIONS,
             unique_merge: str = "shuffle") -> SparkValidation:
    """Validate a Spark DataFrame (any source: Parquet, Delta, JDBC, CSV), or
    a table by name (spark.table(name)), against a rule file (path or YAML text).

    `key`: a column or columns that order the rows (see the module's notes);
    None numbers rows in partition order. `mode`: "native" (the engine on
    every partition) or "sql" (Spark SQL where it judges exactly, the engine
    for the rest; the report says which: SparkValidation.ran_in).
    `unique_merge`: how `unique` keys meet across partitions (module notes):
    "shuffle" (a hash shuffle of the keys, merged on the executors) or
    "driver" (every key set merged on the driver); the report is the same.
    Raises RuleError
    for bad rules (on the driver, before any Spark job) and InputError for
    partial states that cannot be merged; a missing column is the report's
    schema error (every row bad), as in the CLI."""
    if mode not in ("native", "sql"):
        raise ValueError("mode: %r is not 'native' or 'sql'" % (mode,))
    if unique_merge not in ("shuffle", "driver"):
        raise ValueError("unique_merge: %r is not 'shuffle' or 'driver'" % (unique_merge,))
    if isinstance(df, str):
        from pyspark.sql import SparkSession
        df = SparkSession.getActiveSession().table(df)
    text = _rules_text(rules)
    validator = Validator.from_yaml(text)   # RuleError here, not on an executor
    keys: List[str] = [key] if isinstance(key, str) else list(key or [])
    for name in keys:
        if name not in df.columns:
            raise ValueError("key: no column %r in the DataFrame (columns: %s)" % (name, ", ".join(df.columns)))
    inputs = _input_names(df)
    prepared = df
    if keys:
        prepared = df.repartitionByRange(df.rdd.getNumPartitions(), *keys).sortWithinPartitions(*keys)
    # The report pass and the clean/quarantine passes must see the same rows
    # in the same partitions in the same order (row ids name rows across
    # them). A plain scan of files reads them so every time; anything else
    # (a shuffle's output order, JDBC, a nondeterministic expression) is kept
    # on the executors by the first job (memory, then disk): one copy of the
    # input, and no column pruning into the scan.
    if not repeatable(prepared):
        prepared = prepared.localCheckpoint(eager=False)
    if mode == "sql":
        from ._sql import sql_report
        report, _plan = sql_report(prepared, text, validator, max_violations)
        native_parts: Dict[str, Any] = {}

        def native() -> tuple:
            """clean/quarantine need per-row verdicts: the native pass, once."""
            if not native_parts:
                _, split_rows, merged_errors, _ = _native_pass(df, prepared, text, validator, max_violations,
                                                               unique_merge)
                native_parts["parts"] = (split_rows, merged_errors)
            return native_parts["parts"]
        return SparkValidation(report, validator, prepared, native, prepared.rdd.getNumPartitions(), inputs, "sql")
    report, split_rows, merged_errors, partitions = _native_pass(df, prepared, text, validator, max_violations,
                                                                 unique_merge)
    return SparkValidation(report, validator, prepared, lambda: (split_rows, merged_errors), partitions, inputs)


def key_shards(prepared: Any, partitions: int) -> int:
    """How many shards the hash shuffle of `unique` keys uses: one per
    partition, at most spark.sql.shuffle.partitions (Spark's shuffle width:
    every partition sends a blob to every shard, so 10,000 partitions must
    not make 10^8 of them)."""
    width = int(prepared.sparkSession.conf.get("spark.sql.shuffle.partitions", "200"))
    return max(1, min(partitions, width))


def rule_columns(prepared: Any, validator: Validator) -> Any:
    """The prepared DataFrame's columns that the rules read, for the report's
    pass (the engine reads nothing else, as a Parquet scan by `griffin
    validate` does): Catalyst prunes the scan and the Arrow hand-over to the
    Python workers to them. The same rows in the same partitions (file splits
    do not depend on the columns read); clean/quarantine keep every column.
    Every column when the rules read none of them."""
    wanted = set(validator._compiled.referenced_columns)
    kept = [name for name in prepared.columns if name in wanted]
    return prepared.select(*[prepared[name] for name in kept]) if kept and len(kept) < len(prepared.columns) else prepared


def _native_pass(df: Any, prepared: Any, text: str, validator: Validator, max_violations: int,
                 unique_merge: str) -> tuple:
    """Native mode over the prepared DataFrame: (report, split_rows,
    merged_errors broadcast, partitions). merged_errors holds the merge's
    extra verdicts and each partition's row count (the clean/quarantine
    tasks refuse a partition that holds another number of rows)."""
    from pyspark.sql.pandas.types import to_arrow_schema
    count = prepared.rdd.getNumPartitions()
    shards = key_shards(prepared, count) if unique_merge == "shuffle" and validator._compiled.unique_checks > 0 else 0
    read = rule_columns(prepared, validator)
    partial_states, merge_shards, split_rows = executor_functions(text, to_arrow_schema(df.schema), max_violations,
                                                                  key_shards=shards,
                                                                  state_schema=to_arrow_schema(read.schema))
    frame = read.mapInArrow(partial_states, STATE_SCHEMA)
    if shards:
        frame = frame.repartition(shards, "shard").mapInArrow(merge_shards, STATE_SCHEMA)
    partitions, counts, states, duplicates = collect_states(frame, count, shards)
    names = ["partition %d" % p for p in partitions]
    result, error_rows, error_checks, error_messages = validator._compiled.merge_partials(states, names, duplicates)
    report = Report(result)
    report._merged = True
    by_partition: Dict[int, Dict[int, list]] = {}
    mask = (1 << ROW_ID_SHIFT) - 1
    for row, check, message in zip(error_rows, error_checks, error_messages):
        row = int(row)
        by_partition.setdefault(row >> ROW_ID_SHIFT, {}).setdefault(row & mask, []).append((check, message))
    merged_errors = df.sparkSession.sparkContext.broadcast((by_partition, dict(zip(partitions, counts))))
    return report, split_rows, merged_errors, len(states)
