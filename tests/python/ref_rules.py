"""Reference loader of rules-v1 files into plain Python objects.

The YAML is composed (not constructed) so every scalar keeps its text, as yaml-cpp
gives it to the engine: `NO` stays the string "NO" in a string column's `in:` list.
Checks come out in the file's order, which is the report's order.
Only valid files are expected here: the engine owns load errors.
"""
import hashlib
from dataclasses import dataclass, field
from typing import Optional

import yaml

import ref_expr
import ref_values

COLUMN_CHECKS = ("not_null", "type", "unique", "min", "max", "gt", "lt", "finite", "regex",
                 "contains", "in", "not_in", "length")
OPTION_KEYS = ("severity", "mostly", "message")
NULL_SCALARS = ("", "~", "null", "Null", "NULL")


@dataclass
class Check:
    name: str                 # report name: amount.min, a row check's name, table.row_count
    column: Optional[str]     # None for row checks and table.row_count
    check: str                # not_null ... length | expr | unique | table metric name
    scope: str                # 'column' | 'row' | 'table'
    severity: str = "error"
    mostly: float = 1.0
    message: Optional[str] = None
    arg: object = None        # bound, pattern, value list, (min, max), parsed expr, columns
    q: float = 0.5            # quantile
    bounds: tuple = (None, None)  # table checks: (min, max), typed like the observed value


@dataclass
class Column:
    name: str
    type: str = "string"
    required: bool = True
    format: Optional[str] = None  # strftime-style `format:` of a date/timestamp column


@dataclass
class Rules:
    dataset: str
    text: str
    sha256: str
    columns: dict                        # name -> Column, in file order
    checks: list                         # every Check in the file's order
    delimiter: str = ","
    header: bool = True
    null_values: list = field(default_factory=lambda: [""])
    score_min: Optional[float] = None
    malformed_mostly: float = 1.0        # source.malformed.mostly (rules-v1, 2026-12-03)


def _plain(node):
    """A composed YAML node as dicts/lists/str, with unquoted null scalars as None."""
    if isinstance(node, yaml.MappingNode):
        return {key.value: _plain(value) for key, value in node.value}
    if isinstance(node, yaml.SequenceNode):
        return [_plain(item) for item in node.value]
    if node.style is None and node.value in NULL_SCALARS:
        return None
    return node.value


def _number(text):
    value = ref_values.parse_int64(text)
    return value if value is not None else float(text)


def _flag(text):
    return str(text).lower() in ("true", "yes", "on", "y")


def typed_literal(type_name, text):
    """A bound or list value from the rule file, typed for a column of type_name.
    Temporal bounds come out as ('date', days), ('ts', micros) or 'now'."""
    if type_name in ("int64", "float64"):
        return _number(text)
    if type_name == "bool":
        return ref_values.parse_bool(text)
    if type_name in ("date", "timestamp"):
        if text == "now":
            return "now"
        days = ref_values.parse_date(text)
        if days is not None:
            return ("date", days)
        return ("ts", ref_values.parse_timestamp(text))
    return text


def _split_options(value, main_keys):
    """(main value, options) of a check written short or long."""
    if isinstance(value, dict) and any(k in value for k in main_keys + OPTION_KEYS):
        main = next((value[k] for k in main_keys if k in value), None)
        return main, value
    return value, {}


def _apply_options(check, options):
    check.severity = options.get("severity") or "error"
    if options.get("mostly") is not None:
        check.mostly = float(options["mostly"])
    check.message = options.get("message")
    return check


def _column_checks(name, spec):
    column = Column(name)
    checks = []
    for key, value in spec.items():
        if key == "required":
            column.required = _flag(value)
            continue
        if key == "format":
            column.format = value
            continue
        if key not in COLUMN_CHECKS:
            continue  # description
        if key in ("not_null", "unique", "finite") and not isinstance(value, dict) \
                and not _flag(value):
            continue  # `not_null: false` declares no check
        check = Check(f"{name}.{key}", name, key, "column")
        if key == "type":
            main, options = _split_options(value, ("value",))
            column.type = ref_values.canonical_type(main)
        elif key == "length":
            options = value
            check.arg = (value.get("min"), value.get("max"))
            check.arg = tuple(None if v is None else int(v) for v in check.arg)
        else:
            main, options = _split_options(value, ("value", "pattern", "values"))
            check.arg = main
        checks.append(_apply_options(check, options))
    for check in checks:  # type the arguments now that the column type is known
        if check.check in ("min", "max", "gt", "lt"):
            check.arg = typed_literal(column.type, check.arg)
        elif check.check in ("in", "not_in"):
            check.arg = [typed_literal(column.type, v) for v in check.arg]
    return column, checks


def _row_check(spec):
    check = Check(spec["name"], None, "expr" if "expr" in spec else "unique", "row")
    check.arg = ref_expr.parse(spec["expr"]) if "expr" in spec else list(spec["unique"])
    return _apply_options(check, spec)


def _table_check(spec, columns):
    (metric, options), = spec.items()
    options = options or {}
    column = options.get("column")
    check = Check(f"{column}.{metric}" if column else f"table.{metric}", column, metric, "table")
    if options.get("q") is not None:
        check.q = float(options["q"])
    type_name = columns[column].type if column in columns else "string"
    temporal = metric in ("min", "max", "quantile") and type_name in ("date", "timestamp")
    bound = (lambda t: typed_literal(type_name, t)) if temporal else _number
    check.bounds = tuple(None if options.get(k) is None else bound(options[k]) for k in ("min", "max"))
    return _apply_options(check, options)


def load_rules(text):
    doc = _plain(yaml.compose(text))
    rules = Rules(dataset=doc["dataset"], text=text, columns={}, checks=[],
                  sha256=hashlib.sha256(text.encode()).hexdigest())
    source = doc.get("source") or {}
    if source.get("delimiter") is not None:
        rules.delimiter = source["delimiter"]
    if source.get("header") is not None:
        rules.header = _flag(source["header"])
    if "null_values" in source:
        rules.null_values = ["" if v is None else v for v in source["null_values"]]
    if (source.get("malformed") or {}).get("mostly") is not None:
        rules.malformed_mostly = float(source["malformed"]["mostly"])
    body = doc.get("columns") or {}
    entries = body.items() if isinstance(body, dict) else [(e["name"], e) for e in body]
    column_checks = []
    for name, spec in entries:
        spec = {k: v for k, v in (spec or {}).items() if k != "name"}
        column, checks = _column_checks(name, spec)
        rules.columns[name] = column
        column_checks.extend(checks)
    for section, body in doc.items():  # sections in the file's order
        if section == "columns":
            rules.checks.extend(column_checks)
        elif section == "rows":
            rules.checks.extend(_row_check(spec) for spec in body)
        elif section == "table":
            rules.checks.extend(_table_check(spec, rules.columns) for spec in body)
        elif section == "score" and body and body.get("min") is not None:
            rules.score_min = float(body["min"])
    return rules
