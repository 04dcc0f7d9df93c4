"""Reference table checks (rules-v1 "Table checks", docs/semantics.md "Table checks").

Keeps every typed value of every declared column in memory, in row order, and
computes each metric from the whole list: exact quantiles (nearest rank
ceil(q * n), at least 1, NaN sorted after +inf), math.fsum for sums. Observed
values are reported as JSON would hold them: NaN -> None, dates and timestamps as
ISO text.
"""
import math

import ref_values


def float_sum(values):
    """The IEEE sum of `values` (NaN and infinities propagate), exactly rounded."""
    values = [float(v) for v in values]
    if any(math.isnan(v) for v in values):
        return math.nan
    positive, negative = math.inf in values, -math.inf in values
    if positive and negative:
        return math.nan
    if positive or negative:
        return math.inf if positive else -math.inf
    try:
        return math.fsum(values)
    except OverflowError:
        return math.copysign(math.inf, sum(values))


def stddev(values):
    if len(values) < 2:
        return None
    mean = float_sum(values) / len(values)
    if not math.isfinite(mean):
        return math.nan
    return math.sqrt(float_sum([(float(v) - mean) ** 2 for v in values]) / (len(values) - 1))


def _sort_key(value):
    return (1, 0) if isinstance(value, float) and math.isnan(value) else (0, value)


def _nan_aware_extreme(values, pick):
    if any(isinstance(v, float) and math.isnan(v) for v in values):
        return math.nan
    return pick(values)


class MetricInputs:
    """Per declared column: the typed non-null values in row order and the count of
    non-malformed rows where the column was null (a type failure counts as null)."""

    def __init__(self, rules):
        self.rules = rules
        self.values = {name: [] for name in rules.columns}
        self.nulls = {name: 0 for name in rules.columns}
        self.rows = {name: 0 for name in rules.columns}

    def add_row(self, typed_of, present):
        for name in self.rules.columns:
            if not present[name]:
                continue
            self.rows[name] += 1
            if typed_of[name] is None:
                self.nulls[name] += 1
            else:
                self.values[name].append(typed_of[name])

    def _metric(self, check, rows):
        """The observed value as a Python number (temporal ones still as integers)."""
        metric = check.check
        if metric == "row_count":
            return rows
        name = check.column
        values = self.values.get(name, [])
        type_name = self.rules.columns[name].type if name in self.rules.columns else "string"
        if metric == "null_fraction":
            return self.nulls[name] / self.rows[name] if self.rows.get(name) else None
        if metric == "distinct_count":
            return len({ref_values.unique_key(type_name, v) for v in values})
        if metric == "sum":
            return sum(values) if type_name == "int64" else float_sum(values)
        if metric == "mean":
            if not values:
                return None
            return sum(values) / len(values) if type_name == "int64" else float_sum(values) / len(values)
        if metric == "stddev":
            return stddev(values)
        if not values:
            return None
        if metric == "min":
            return _nan_aware_extreme(values, min)
        if metric == "max":
            return _nan_aware_extreme(values, max)
        if metric == "quantile":
            ordered = sorted(values, key=_sort_key)
            rank = max(1, math.ceil(check.q * len(ordered)))
            return ordered[min(rank, len(ordered)) - 1]
        raise ValueError(metric)

    def observe(self, check, rows, now_micros):
        """(observed value for the JSON report, passed)."""
        value = self._metric(check, rows)
        type_name = self.rules.columns[check.column].type if check.column in self.rules.columns else None
        temporal = check.check in ("min", "max", "quantile") and type_name in ("date", "timestamp")
        missing = value is None or (isinstance(value, float) and math.isnan(value))
        passed = not missing
        low, high = check.bounds
        if not missing:
            compared = value
            if temporal:
                compared = _micros(value, type_name, now_micros)
                low = None if low is None else _micros(low, type_name, now_micros)
                high = None if high is None else _micros(high, type_name, now_micros)
            passed = (low is None or compared >= low) and (high is None or compared <= high)
        if low is None and high is None:
            passed = True  # no bounds: the check only records what it observed
        if missing:
            return None, passed
        if temporal:
            text = (ref_values.format_date(value) if type_name == "date"
                    else ref_values.format_timestamp(value))
            return text, passed
        return value, passed


def _micros(value, type_name, now_micros):
    if value == "now":
        return now_micros
    if isinstance(value, tuple):
        kind, value = value
        return ref_values.timestamp_of_date(value) if kind == "date" else value
    return ref_values.timestamp_of_date(value) if type_name == "date" else value
