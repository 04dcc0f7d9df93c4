"""A deliberately slow, obvious reference of `griffin validate` for CSV input.

Implements rules-v1 and docs/semantics.md one row and one check at a time, with no
code shared with the engine, and returns the JSON report of cli-and-report-v1
(without griffin_version, run_id and elapsed_s). Row-check entries use
"check": "expr" or "unique" and "column": null; their violations carry value null.
As amended 2026-12-03: the `malformed` check comes first in `checks`, a schema
error makes every row bad (quality_score 0), and at most `max_violations`
violations are listed per check.

    report = validate(open("rules.yaml").read(), ["data.csv"], max_violations=10**9)

Also a command: python tests/python/reference.py RULES INPUT... (prints the JSON).
"""
import json
import math
import re
import sys
import time

import ref_csv
import ref_expr
import ref_metrics
import ref_rules
import ref_values

SHOWN_BYTES = 1024   # a violation's value and message (src/util/text_cut.h)
QUOTED_BYTES = 256   # a value inside a message
DEFAULT_MAX_VIOLATIONS = 100  # per check


def _cut(text, max_bytes=SHOWN_BYTES):
    """The text as reports show it: whole, or its first max_bytes bytes (never
    splitting a UTF-8 character), then an ellipsis and the full size."""
    data = text.encode("utf-8", errors="surrogateescape") if isinstance(text, str) else text
    if len(data) <= max_bytes:
        return data.decode("utf-8", errors="replace")
    cut = max_bytes
    while cut > max_bytes - 3 and cut > 0 and (data[cut] & 0xC0) == 0x80:
        cut -= 1
    return data[:cut].decode("utf-8", errors="replace") + f"\u2026({len(data)} bytes)"


class _CheckState:
    def __init__(self):
        self.evaluated = 0
        self.violations = 0
        self.seen = {}  # unique: key -> first row


def _temporal_micros(value, type_name, now_micros):
    """A date/timestamp value or bound as microseconds (bounds: ('date'|'ts', v) or 'now')."""
    if value == "now":
        return now_micros
    if isinstance(value, tuple):
        kind, value = value
        return ref_values.timestamp_of_date(value) if kind == "date" else value
    return ref_values.timestamp_of_date(value) if type_name == "date" else value


def _column_violation(check, column, value, now_micros):
    """True when the typed non-null `value` violates column check `check`."""
    kind, arg = check.check, check.arg
    if kind in ("min", "max", "gt", "lt"):
        if column.type in ("date", "timestamp"):
            value = _temporal_micros(value, column.type, now_micros)
            arg = _temporal_micros(arg, column.type, now_micros)
        if isinstance(value, float) and math.isnan(value):
            return True
        return not {"min": value >= arg, "max": value <= arg, "gt": value > arg,
                    "lt": value < arg}[kind]
    if kind == "finite":
        return not math.isfinite(value)
    if kind == "regex":
        return re.fullmatch(arg, value, re.ASCII) is None
    if kind == "contains":
        return re.search(arg, value, re.ASCII) is None
    if kind in ("in", "not_in"):
        if column.type in ("date", "timestamp"):
            value = _temporal_micros(value, column.type, now_micros)
            found = any(value == _temporal_micros(v, column.type, now_micros) for v in arg)
        else:
            found = any(value == v for v in arg)
        return found != (kind == "in")
    if kind == "length":
        low, high = arg
        return (low is not None and len(value) < low) or (high is not None and len(value) > high)
    raise ValueError(kind)


def _message(check, column, value, row, default):
    if check.message is None:
        return default
    text = "null" if value is None else _cut(value, QUOTED_BYTES)
    return _cut(check.message.replace("{value}", text).replace("{column}", column or "")
                .replace("{row}", str(row)))


def _read_inputs(rules, inputs):
    """Yields (row, header, record) over every data record of every input, in order."""
    row = 0
    for data in inputs:
        if isinstance(data, str):
            with open(data, "rb") as handle:
                data = handle.read()
        if data.startswith(b"\xef\xbb\xbf"):
            data = data[3:]  # a UTF-8 byte order mark is not data
        records = ref_csv.read_records(data, rules.delimiter.encode())
        header = None
        for record in records:
            if header is None:
                header = record.fields
                continue
            yield row, header, record
            row += 1


def validate(rules_text, inputs, max_violations=DEFAULT_MAX_VIOLATIONS, now_micros=None, input_names=None):
    rules = ref_rules.load_rules(rules_text)
    now_micros = now_micros if now_micros is not None else int(time.time() * 1e6)
    states = [_CheckState() for _ in rules.checks]
    position = {id(c): i for i, c in enumerate(rules.checks)}
    metrics = ref_metrics.MetricInputs(rules)
    violations, bad_rows, malformed_rows, rows = [], 0, 0, 0
    missing = set()

    for row, header, record in _read_inputs(rules, inputs):
        rows += 1
        if record.malformed or len(record.fields) != len(header):
            malformed_rows += 1
            bad_rows += 1
            raw = _cut(record.raw)
            violations.append((row, -1, {"row": row, "column": None, "check": "malformed",
                                         "value": raw, "message": "malformed record"}))
            continue
        fields = dict(zip(header, record.fields))
        raw_of, typed_of, present = {}, {}, {}
        for name, column in rules.columns.items():
            present[name] = name in fields
            if not present[name]:
                missing.add(name)
                raw_of[name] = typed_of[name] = None
                continue
            raw = fields[name]
            raw_of[name] = None if raw in rules.null_values else raw
            if raw_of[name] is None:
                typed_of[name] = None
            elif column.format:
                typed_of[name] = ref_values.parse_with_format(raw, column.format, column.type)
            else:
                typed_of[name] = ref_values.parse_typed(column.type, raw)
        metrics.add_row(typed_of, present)

        def column_value(name):
            if name in rules.columns:
                typed = typed_of[name]
                if typed is None:
                    return None
                return (ref_expr.TYPE_KIND[rules.columns[name].type], typed)
            raw = fields.get(name)
            return None if raw is None or raw in rules.null_values else ("str", raw)

        row_is_bad = False
        for check, state in zip(rules.checks, states):
            violated, value, column_name = _evaluate(check, state, rules, row, raw_of, typed_of,
                                                     present, column_value, now_micros)
            if not violated:
                continue
            state.violations += 1
            row_is_bad |= check.severity == "error"
            default = f"{check.name} violated"
            violations.append((row, position[id(check)], {
                "row": row, "column": column_name, "check": check.name,
                "value": None if value is None else _cut(value),
                "message": _message(check, column_name, value, row, default)}))
        bad_rows += row_is_bad

    malformed_rate = (rows - malformed_rows) / rows if rows else 1.0
    report_checks = [{"name": "malformed", "column": None, "check": "malformed", "severity": "error",
                      "evaluated": rows, "violations": malformed_rows, "pass_rate": malformed_rate,
                      "mostly": rules.malformed_mostly, "passed": malformed_rate >= rules.malformed_mostly}]
    report_checks += [_report_check(c, s, rules, metrics, rows, now_micros)
                      for c, s in zip(rules.checks, states)]
    schema_errors = [{"column": n, "message": f"required column {n} is missing"}
                     for n, c in rules.columns.items() if n in missing and c.required]
    if schema_errors:  # no row can be trusted
        bad_rows = rows
    quality = 0.0 if schema_errors else (rows - bad_rows) / rows if rows else 1.0
    passed = (all(c["passed"] for c in report_checks if c["severity"] == "error")
              and not schema_errors and (rules.score_min is None or quality >= rules.score_min))
    violations.sort(key=lambda v: (v[0], v[1]))
    listed, per_check = [], {}
    for violation in violations:  # the first max_violations of each check, in row order
        per_check[violation[1]] = per_check.get(violation[1], 0) + 1
        if per_check[violation[1]] <= max_violations:
            listed.append(violation)
    return {
        "dataset": rules.dataset,
        "inputs": input_names if input_names is not None else
        [i for i in inputs if isinstance(i, str)],
        "rules_sha256": rules.sha256,
        "rows": rows, "bad_rows": bad_rows, "malformed_rows": malformed_rows,
        "quality_score": quality, "passed": passed, "schema_errors": schema_errors,
        "checks": report_checks,
        "violations": [v[2] for v in listed],
        "violations_truncated": len(listed) < len(violations),
    }


def _evaluate(check, state, rules, row, raw_of, typed_of, present, column_value, now_micros):
    """(violated, value for the report, column for the report) of one check on one row."""
    if check.scope == "table":
        return False, None, None
    if check.scope == "row":
        if check.check == "expr":
            state.evaluated += 1
            result = ref_expr.evaluate(check.arg, column_value)
            return result is not None and result[1] == 0, None, None
        values = [column_value(name) for name in check.arg]
        if any(v is None for v in values):
            return False, None, None
        key = tuple((kind, ref_values.unique_key("float64" if kind == "float" else kind, v))
                    for kind, v in values)
        state.evaluated += 1
        return _unique_seen(state, key, row), None, None
    name = check.column
    column = rules.columns[name]
    if not present[name]:
        return False, None, name
    raw, typed = raw_of[name], typed_of[name]
    if check.check == "type":
        state.evaluated += 1
        return raw is not None and typed is None, raw, name
    if check.check == "not_null":
        state.evaluated += 1
        return typed is None, raw, name
    if typed is None:
        return False, raw, name
    state.evaluated += 1
    if check.check == "unique":
        return _unique_seen(state, ref_values.unique_key(column.type, typed), row), raw, name
    return _column_violation(check, column, typed, now_micros), raw, name


def _unique_seen(state, key, row):
    if key in state.seen:
        return True
    state.seen[key] = row
    return False


def _report_check(check, state, rules, metrics, rows, now_micros):
    entry = {"name": check.name, "column": check.column, "check": check.check,
             "severity": check.severity}
    if check.scope == "table":
        observed, passed = metrics.observe(check, rows, now_micros)
        entry.update(observed=observed, passed=passed)
        return entry
    pass_rate = ((state.evaluated - state.violations) / state.evaluated
                 if state.evaluated else 1.0)
    entry.update(evaluated=state.evaluated, violations=state.violations, pass_rate=pass_rate,
                 mostly=check.mostly, passed=pass_rate >= check.mostly)
    return entry


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as rules_file:
        print(json.dumps(validate(rules_file.read(), sys.argv[2:]), indent=1))
