"""Whether a DataFrame reads the same rows, in the same partitions and the
same order, every time an action runs on it: griffin.spark's report pass and
its clean/quarantine passes name rows by partition and position, so they
must. A DataFrame that is not repeatable is localCheckpoint()ed first.

Repeatable here: a deterministic plan (Catalyst's `deterministic`: no rand(),
no monotonically_increasing_id(), no Python UDF marked nondeterministic) made
only of projections and filters over Spark's file sources (Parquet, ORC, CSV,
JSON, Delta: a HadoopFsRelation, whose splits are planned from the file
listing the DataFrame took when it was made) or over local rows
(createDataFrame). Anything else (a shuffle, a join, JDBC, a streaming or
other source) is not. The test is on the optimized logical plan, through the
JVM (py4j): no job runs."""
from __future__ import annotations

from typing import Any

# Logical plan nodes that keep their child's partitions and row order.
_ROW_PRESERVING = {"Project", "Filter"}
# Leaves that read the same rows into the same partitions every time.
_REPEATABLE_LEAVES = {"LocalRelation"}


def repeatable(df: Any) -> bool:
    """True when every action over `df` sees the same rows, partitions and
    order (see the module's notes); False when unsure."""
    try:
        plan = df._jdf.queryExecution().optimizedPlan()
        return bool(plan.deterministic()) and _repeatable_node(plan)
    except Exception:   # noqa: BLE001 - an unexpected plan or JVM: keep the safe path
        return False


def _repeatable_node(node: Any) -> bool:
    kind = node.getClass().getSimpleName()
    children = node.children()
    if kind in _ROW_PRESERVING:
        return children.size() == 1 and _repeatable_node(children.apply(0))
    if children.size() != 0:
        return False
    if kind in _REPEATABLE_LEAVES:
        return True
    if kind == "LogicalRelation":
        return node.relation().getClass().getSimpleName() == "HadoopFsRelation" and node.isStreaming() is False
    return False
