"""griffin.spark's SQL mode: the rules compiled to Spark SQL (the pushdown
compiler's spark dialect, src/connectors/sql/pushdown_compiler.h) and run as
one aggregation over the DataFrame, Deequ's way; Catalyst pushes projection
(and a source's filters) into the scan.

What Spark SQL cannot judge with rules-v1's semantics (regexes: Java's are
not RE2; row expressions; float sums, stddev and quantiles; float equality
in unique and distinct_count; ...) runs natively: the engine's mapInArrow
pass over only those checks' columns, merged as in native mode. The report
says where each check ran: ran_in "database" (Spark SQL) or "engine", and
ran_in_reason, as `griffin validate --mode pushdown` does (docs/sql.md).

Row ids are monotonically_increasing_id()'s over the prepared DataFrame, as
in native mode, so `row` in violations and "duplicates row N" name the same
rows in both modes. `unique` in Spark SQL: COUNT - COUNT(DISTINCT) for the
counts and, for its first violations and bad rows, ROW_NUMBER() over a window
PARTITION BY the key: Spark's hash shuffle of the key's columns and row id.
"""
from __future__ import annotations

import uuid
from typing import Any, Dict, List, Optional, Tuple

from griffin import Report, Validator

from ._executor import STATE_SCHEMA, collect_states, executor_functions


def stored_types(schema: Any) -> Dict[str, str]:
    """How the DataFrame holds each column, in the pushdown compiler's terms:
    a column held in another type than its rule's runs in the engine."""
    from pyspark.sql import types as T
    kinds: Dict[str, str] = {}
    for field in schema.fields:
        t = field.dataType
        if isinstance(t, (T.StringType, T.VarcharType, T.CharType)):
            kind = "text"
        elif isinstance(t, (T.LongType, T.IntegerType, T.ShortType, T.ByteType)):
            kind = "integer"
        elif isinstance(t, T.DoubleType):
            kind = "double"
        elif isinstance(t, T.BooleanType):
            kind = "bool"
        elif isinstance(t, T.DateType):
            kind = "date"
        elif isinstance(t, T.TimestampType):
            kind = "timestamp"
        else:   # float (single precision), decimal, binary, nested: the engine converts them its own way
            kind = "other"
        kinds[field.name] = kind
    return kinds


def _collect_arrow(frame: Any) -> Any:
    import pyarrow as pa
    from pyspark.sql.pandas.types import to_arrow_schema
    batches = frame._collect_as_arrow()
    return pa.Table.from_batches(batches, schema=None if batches else to_arrow_schema(frame.schema))


def sql_report(prepared: Any, rules_text: str, validator: Validator, max_violations: int) -> Tuple[Report, Any]:
    """The SQL mode's report of `prepared` (repeatable, or localCheckpoint()ed: _plan.py),
    and the compiled plan (its placements say where each check ran)."""
    from pyspark.sql.pandas.types import to_arrow_schema
    spark = prepared.sparkSession
    view = "_griffin_%s" % uuid.uuid4().hex
    prepared.createOrReplaceTempView(view)
    try:
        stored = stored_types(prepared.schema)
        args = ("spark", "`%s`" % view, tuple(sorted(stored.items())), max_violations, True)
        plan = validator._compiled.sql_plan(args[0], args[1], stored, max_violations, True)
        aggregate = _collect_arrow(spark.sql(plan.aggregate_sql))
        placements = plan.placements
        samples: List[Tuple[int, Any]] = []
        for index in plan.sample_checks(aggregate.__arrow_c_stream__()):
            sample = _collect_arrow(spark.sql(placements[index]["sample_sql"]))
            samples.append((index, sample.__arrow_c_stream__()))
        fallback_result: Optional[Any] = None
        fallback = plan.fallback()
        if fallback is not None:
            rows = spark.sql(plan.fallback_sql)
            partial_states, _, _ = executor_functions(rules_text, to_arrow_schema(rows.schema), max_violations, args)
            partitions, _, states, _ = collect_states(rows.mapInArrow(partial_states, STATE_SCHEMA),
                                                      rows.rdd.getNumPartitions())
            fallback_result = fallback.merge_partials(states, ["partition %d" % p for p in partitions])[0]
        report = Report(plan.report(aggregate.__arrow_c_stream__(), samples, fallback_result))
        report._merged = True
        return report, plan
    finally:
        spark.catalog.dropTempView(view)
