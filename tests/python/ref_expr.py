"""Reference parser and evaluator of rules-v1 row expressions (three-valued logic).

A value is None (SQL null) or a pair (kind, python_value) with kind one of
'bool' 'int' 'float' 'str' 'date' 'ts'. Semantics from docs/semantics.md "Row
expressions": a string compared with a number is parsed as float64 (unparseable ->
null); a string compared with a date/timestamp is parsed as one; int overflow and
division by zero give null; '/' is float division; comparisons are IEEE (NaN is
unequal to everything, so NaN != x is true); lower/upper change ASCII letters only.

    tree = parse("kind != 'refund' or amount < 0")
    evaluate(tree, lambda column: ('str', 'refund') if column == 'kind' else ('float', -1.0))
"""
import math
import re

import ref_values

INT64_MIN, INT64_MAX = ref_values.INT64_MIN, ref_values.INT64_MAX
KEYWORDS = {"and", "or", "not", "is", "null", "in", "true", "false"}
_TOKEN = re.compile(r"""\s*(?:
    (?P<number>[0-9]+(?:\.[0-9]*)?(?:[eE][+-]?[0-9]+)?|\.[0-9]+(?:[eE][+-]?[0-9]+)?)
  | (?P<string>'(?:[^']|'')*')
  | (?P<quoted>"(?:[^"]|"")*")
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<op>==|!=|<=|>=|<|>|\+|-|\*|/|\(|\)|,)
)""", re.VERBOSE)
TYPE_KIND = {"string": "str", "int64": "int", "float64": "float", "bool": "bool",
             "date": "date", "timestamp": "ts"}


def tokenize(text):
    tokens, pos = [], 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        match = _TOKEN.match(text, pos)
        if not match:
            raise ValueError(f"bad expression at offset {pos}: {text!r}")
        pos = match.end()
        kind = match.lastgroup
        value = match.group(kind)
        if kind == "string":
            tokens.append(("lit", ("str", value[1:-1].replace("''", "'"))))
        elif kind == "quoted":
            tokens.append(("col", value[1:-1].replace('""', '"')))
        elif kind == "number":
            is_int = not any(c in value for c in ".eE")
            tokens.append(("lit", ("int", int(value)) if is_int else ("float", float(value))))
        elif kind == "name" and value.lower() in KEYWORDS:
            tokens.append(("kw", value.lower()))
        elif kind == "name":
            tokens.append(("name", value))
        else:
            tokens.append(("op", value))
    return tokens


class _Parser:
    def __init__(self, text):
        self.tokens, self.pos = tokenize(text), 0

    def peek(self, kind=None, value=None):
        if self.pos >= len(self.tokens):
            return False
        tok_kind, tok_value = self.tokens[self.pos]
        return (kind is None or tok_kind == kind) and (value is None or tok_value == value)

    def take(self, kind=None, value=None):
        if not self.peek(kind, value):
            raise ValueError(f"expected {kind} {value} at token {self.pos}")
        self.pos += 1
        return self.tokens[self.pos - 1][1]

    def parse_or(self):
        node = self.parse_and()
        while self.peek("kw", "or"):
            self.take()
            node = ("or", node, self.parse_and())
        return node

    def parse_and(self):
        node = self.parse_not()
        while self.peek("kw", "and"):
            self.take()
            node = ("and", node, self.parse_not())
        return node

    def parse_not(self):
        if self.peek("kw", "not"):
            self.take()
            return ("not", self.parse_not())
        return self.parse_comparison()

    def parse_comparison(self):
        node = self.parse_additive()
        for op in ("==", "!=", "<=", ">=", "<", ">"):
            if self.peek("op", op):
                self.take()
                return ("cmp", op, node, self.parse_additive())
        if self.peek("kw", "is"):
            self.take()
            negated = self.peek("kw", "not") and self.take() == "not"
            self.take("kw", "null")
            return ("isnull", negated, node)
        negated = False
        if self.peek("kw", "not"):
            self.take()
            negated = True
        if negated or self.peek("kw", "in"):
            self.take("kw", "in")
            self.take("op", "(")
            items = [self.parse_or()]
            while self.peek("op", ","):
                self.take()
                items.append(self.parse_or())
            self.take("op", ")")
            return ("in", negated, node, items)
        return node

    def parse_additive(self):
        node = self.parse_multiplicative()
        while self.peek("op", "+") or self.peek("op", "-"):
            node = ("arith", self.take(), node, self.parse_multiplicative())
        return node

    def parse_multiplicative(self):
        node = self.parse_unary()
        while self.peek("op", "*") or self.peek("op", "/"):
            node = ("arith", self.take(), node, self.parse_unary())
        return node

    def parse_unary(self):
        if self.peek("op", "-"):
            self.take()
            return ("neg", self.parse_unary())
        return self.parse_primary()

    def parse_primary(self):
        if self.peek("lit"):
            return ("lit", self.take())
        if self.peek("kw", "true") or self.peek("kw", "false"):
            return ("lit", ("bool", 1 if self.take() == "true" else 0))
        if self.peek("kw", "null"):
            self.take()
            return ("lit", None)
        if self.peek("col"):
            return ("col", self.take())
        if self.peek("op", "("):
            self.take()
            node = self.parse_or()
            self.take("op", ")")
            return node
        name = self.take("name")
        if self.peek("op", "("):
            self.take()
            args = [self.parse_or()]
            while self.peek("op", ","):
                self.take()
                args.append(self.parse_or())
            self.take("op", ")")
            return ("call", name.lower(), args)
        return ("col", name)


def parse(text):
    parser = _Parser(text)
    tree = parser.parse_or()
    if parser.pos != len(parser.tokens):
        raise ValueError(f"trailing tokens in expression {text!r}")
    return tree


def columns_of(tree):
    """Every column name the expression reads."""
    if tree[0] == "col":
        return {tree[1]}
    found = set()
    for part in tree[1:]:
        for item in part if isinstance(part, list) else [part]:
            if isinstance(item, tuple) and item and isinstance(item[0], str):
                found |= columns_of(item)
    return found


def _as_temporal(value):
    """A str value parsed as a date or timestamp, or None."""
    days = ref_values.parse_date(value[1])
    if days is not None:
        return ("date", days)
    micros = ref_values.parse_timestamp(value[1])
    return None if micros is None else ("ts", micros)


def _coerce_pair(left, right):
    """Both sides brought to comparable python values, or None (null result)."""
    kinds = {left[0], right[0]}
    if left[0] == right[0] or kinds <= {"int", "float"} or kinds <= {"int", "bool"}:
        return left[1], right[1]
    if kinds & {"date", "ts"}:
        if "str" in kinds:
            left = _as_temporal(left) if left[0] == "str" else left
            right = _as_temporal(right) if right[0] == "str" else right
            if left is None or right is None:
                return None
        if {left[0], right[0]} - {"date", "ts"}:
            return None
        to_micros = lambda v: ref_values.timestamp_of_date(v[1]) if v[0] == "date" else v[1]  # noqa: E731
        return to_micros(left), to_micros(right)
    if "str" in kinds and kinds & {"int", "float"}:
        def number(value):
            return ref_values.parse_float64(value[1]) if value[0] == "str" else value[1]
        a, b = number(left), number(right)
        return None if a is None or b is None else (a, b)
    raise ValueError(f"cannot compare {left[0]} with {right[0]}")


def compare(op, left, right):
    if left is None or right is None:
        return None
    pair = _coerce_pair(left, right)
    if pair is None:
        return None
    a, b = pair
    result = {"==": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b,
              ">=": a >= b}[op]
    return ("bool", 1 if result else 0)


def _int_result(value):
    return ("int", value) if INT64_MIN <= value <= INT64_MAX else None


def arith(op, left, right):
    if left is None or right is None:
        return None
    if left[0] not in ("int", "float") or right[0] not in ("int", "float"):
        raise ValueError("arithmetic needs numbers")
    a, b = left[1], right[1]
    if op == "/":
        return None if b == 0 else ("float", float(a) / float(b))
    if left[0] == "int" and right[0] == "int":
        return _int_result({"+": a + b, "-": a - b, "*": a * b}[op])
    a, b = float(a), float(b)
    try:
        return ("float", {"+": a + b, "-": a - b, "*": a * b}[op])
    except OverflowError:
        return ("float", math.inf)


def _ascii_case(text, upper):
    source, target = ("abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    table = str.maketrans(source, target) if upper else str.maketrans(target, source)
    return text.translate(table)


def call(name, args):
    if any(a is None for a in args):
        return None
    if name == "abs":
        kind, value = args[0]
        return _int_result(abs(value)) if kind == "int" else ("float", abs(value))
    if name == "length":
        return ("int", len(args[0][1]))
    if name in ("lower", "upper"):
        return ("str", _ascii_case(args[0][1], name == "upper"))
    if name == "matches":
        return ("bool", 1 if re.search(args[1][1], args[0][1], re.ASCII) else 0)
    raise ValueError(f"unknown function {name}")


def evaluate(tree, column_value):
    """The value of `tree` for one row; column_value(name) gives a column's value."""
    op = tree[0]
    if op == "lit":
        return tree[1]
    if op == "col":
        return column_value(tree[1])
    if op == "not":
        value = evaluate(tree[1], column_value)
        return None if value is None else ("bool", 1 - value[1])
    if op in ("and", "or"):
        left, right = evaluate(tree[1], column_value), evaluate(tree[2], column_value)
        values = [None if v is None else v[1] for v in (left, right)]
        decisive = 0 if op == "and" else 1
        if decisive in values:
            return ("bool", decisive)
        if None in values:
            return None
        return ("bool", 1 - decisive)
    if op == "cmp":
        return compare(tree[1], evaluate(tree[2], column_value), evaluate(tree[3], column_value))
    if op == "isnull":
        is_null = evaluate(tree[2], column_value) is None
        return ("bool", 1 if is_null != tree[1] else 0)
    if op == "in":
        value = evaluate(tree[2], column_value)
        results = [compare("==", value, evaluate(item, column_value)) for item in tree[3]]
        if ("bool", 1) in results:
            found = ("bool", 1)
        elif None in results:
            found = None
        else:
            found = ("bool", 0)
        return found if not tree[1] or found is None else ("bool", 1 - found[1])
    if op == "arith":
        return arith(tree[1], evaluate(tree[2], column_value), evaluate(tree[3], column_value))
    if op == "neg":
        value = evaluate(tree[1], column_value)
        if value is None:
            return None
        return _int_result(-value[1]) if value[0] == "int" else ("float", -value[1])
    if op == "call":
        return call(tree[1], [evaluate(arg, column_value) for arg in tree[2]])
    raise ValueError(f"unknown node {op}")
