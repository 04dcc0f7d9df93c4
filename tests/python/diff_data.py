"""Random CSV inputs and the rule file of the differential test (test_differential.py).

random_csv(seed) builds a CSV (bytes) whose values are drawn to hit every corner
the spec settles: nulls and null_values, NaN/inf, unparseable numbers, out-of-range
ints, spaces around numbers, multi-byte UTF-8, delimiters/quotes/CR/LF inside quoted
fields, CRLF line ends, empty lines, duplicates, and now and then a malformed record
(a field missing or extra, text after a closing quote, invalid UTF-8, an
unterminated quote at the end of input). Corners the spec leaves open (lone CR line
ends, '+1.5', '.5', overflowing floats, non-ASCII lower/upper) are not generated.
"""
import random

RULES = r"""
griffin: 1
dataset: differential
source:
  null_values: ["", "NA"]
columns:
  id:
    not_null: true
    regex: {pattern: '^[a-z]{1,2}[0-9]{0,2}$', message: "bad id {value} in {column} at row {row}"}
    length: {min: 1, max: 3, severity: warn}
  n:
    type: int64
    min: -50
    max: {value: 50, mostly: 0.9}
    not_in: [13, -13]
    unique: {value: true, severity: warn}
  x:
    type: float
    finite: {value: true, severity: warn}
    gt: -1000
    lt: 1000.5
  y:
    type: double
    in: [0, 1, 2.5, -7]
    unique: true
  s:
    type: string
    contains: {pattern: 'é|ß|[0-9]', mostly: 0.5}
    length: {max: 6}
    not_in: [bad, "BAD", "a,b"]
  kind:
    in: [a, b, c, NO]
  d:
    type: date
    min: 2020-01-01
    max: '2030-12-31'
  ts:
    type: timestamp
    not_null: {value: true, severity: warn}
    min: '2021-01-01T00:00:00Z'
    lt: now
  b:
    type: bool
    not_null: true
    in: [true]
  absent:
    required: false
    type: int64
    min: 0
rows:
  - name: arithmetic
    expr: "n * 2 + x > -40"
  - name: lowered_kind
    expr: "lower(kind) in ('a', 'b') or kind is null"
    severity: warn
  - name: no_big_false
    expr: "not (b == false and n > 10)"
  - name: ratio
    expr: "abs(x) / n < 100"
    mostly: 0.8
  - name: short_or_lower
    expr: "length(s) <= 3 or matches(s, '^[a-z]')"
  - name: tag_text
    expr: "tag != 'zz' and (tag is null or tag > 5 or tag == 'q')"
  - name: recent
    expr: "ts > '2022-06-01T00:00:00Z' or d < '2025-01-01' or \"d\" is null"
  - name: pair
    unique: [id, n]
table:
  - row_count: {min: 1}
  - null_fraction: {column: s, max: 0.3}
  - distinct_count: {column: n, min: 2}
  - mean: {column: x, min: -100, max: 100}
  - stddev: {column: x, max: 500, severity: warn}
  - sum: {column: n, min: -100000}
  - min: {column: x, min: -2000}
  - max: {column: x}
  - min: {column: d, min: 2019-01-01}
  - max: {column: ts, max: now}
  - quantile: {column: y, q: 0.5, max: 2}
  - quantile: {column: n, q: 0.9}
  - quantile: {column: ts, q: 0.25, min: '2000-01-01'}
  - mean: {column: n}
score:
  min: 0.2
"""

HEADER = ["id", "n", "x", "y", "s", "kind", "d", "ts", "b", "tag"]
TEXTS = ["abc", "é", "ß", "中文", "😀", "a,b", 'say "hi"', "line\nbreak", "cr\r\nlf", " pad ",
         "bad", "BAD", "NA", " NA", "x9", "", "long text é", "'q'", "Ünï", "\t"]


def _maybe(rng, value, null_rate=0.08):
    return rng.choice(["", "NA"]) if rng.random() < null_rate else value


def _int_text(rng):
    return rng.choice([
        lambda: str(rng.randint(-60, 60)), lambda: str(rng.randint(-60, 60)),
        lambda: str(rng.randint(-5, 5)), lambda: f" {rng.randint(0, 20)} ",
        lambda: "+" + str(rng.randint(0, 20)), lambda: "13",
        lambda: rng.choice(["1.5", "x", "1e3", "99999999999999999999", "-9223372036854775808",
                            "9223372036854775807", "0x10", "- 3", "0"]),
    ])()


def _float_text(rng):
    if rng.random() < 0.004:  # rare, so that some inputs have a finite mean
        return rng.choice(["nan", "NaN", "inf", "-inf", "Infinity"])
    return rng.choice([
        lambda: f"{rng.uniform(-1200, 1200):.3f}", lambda: f"{rng.uniform(-50, 50):.2f}",
        lambda: str(rng.randint(-20, 20)), lambda: f"{rng.uniform(-5, 5):.4e}",
        lambda: rng.choice(["-0.0", "0", "1e2", " 2.5 ", "abc", "1,5", "--1", "1000.5",
                            "-1000", "1E-3"]),
    ])()


def _y_text(rng):
    return rng.choice(["0", "1", "2.5", "-7", "1.0", "-0.0", "0.0", "2.50", "3", "nan", "NaN",
                       "inf", "q", str(rng.randint(-9, 9))])


def _string(rng):
    if rng.random() < 0.5:
        return rng.choice(TEXTS)
    alphabet = "abcé ß,\"\n中😀z0"
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 8)))


def _date_text(rng):
    return rng.choice([
        lambda: f"{rng.randint(2015, 2034)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
        lambda: rng.choice(["2024-02-29", "2023-02-29", "2024-13-01", "2024-1-05", " 2021-03-04 ",
                            "2024-04-31", "20240101", "0001-01-01", "2024-06-01T00:00:00"]),
    ])()


def _timestamp_text(rng):
    def stamp():
        text = (f"{rng.randint(2018, 2026)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
                f"{rng.choice('T ')}{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:"
                f"{rng.randint(0, 59):02d}")
        text += rng.choice(["", "", ".5", ".123456", ".1234567"])
        return text + rng.choice(["", "Z", "Z", "+02:00", "-05:30"])
    return rng.choice([stamp, stamp, stamp, lambda: rng.choice([
        "2024-02-30T10:00:00Z", "2024-01-01", "2024-01-01T24:00:00Z", "yesterday",
        "2099-01-01T00:00:00Z", "2021-01-01T00:00:00Z", "2020-12-31T23:59:59.999999Z",
        "2024-05-05T10:00:00+25:00"])])()


def _bool_text(rng):
    return rng.choice(["true", "false", "True", "FALSE", "t", "f", "yes", "No", "1", "0",
                       "maybe", "2", " true "])


def _row(rng, ids):
    ident = rng.choice(ids) if ids and rng.random() < 0.15 else rng.choice([
        "a", "b1", "zz99", "abc1", "A1", "é1", "q" + str(rng.randint(0, 120))])
    ids.append(ident)
    return [_maybe(rng, ident, 0.04), _maybe(rng, _int_text(rng)), _maybe(rng, _float_text(rng)),
            _maybe(rng, _y_text(rng)), _maybe(rng, _string(rng), 0.2),
            _maybe(rng, rng.choice(["a", "b", "c", "A", "B", "NO", "d"])),
            _maybe(rng, _date_text(rng)), _maybe(rng, _timestamp_text(rng)),
            _maybe(rng, _bool_text(rng), 0.03),
            _maybe(rng, rng.choice(["zz", "q", "7", " 3", "x", "5.0", "10", "-1"]))]


def _encode_field(rng, text):
    needs_quotes = any(ch in text for ch in ',"\r\n') or text.startswith('"')
    if needs_quotes or rng.random() < 0.1:
        return '"' + text.replace('"', '""') + '"'
    return text


def random_csv(seed, rows=None):
    """(csv bytes, number of data rows written) for `seed`."""
    rng = random.Random(seed)
    rows = rng.choice([0, 1, 5, 60, 200, 400]) if rows is None else rows
    line_end = rng.choice(["\n", "\r\n", "mixed"])
    out, ids = [",".join(HEADER).encode() + b"\n"], []
    for index in range(rows):
        fields = [_encode_field(rng, f) for f in _row(rng, ids)]
        roll = rng.random()
        if roll < 0.015:
            fields.pop(rng.randrange(len(fields)))
        elif roll < 0.03:
            fields.append("extra")
        elif roll < 0.04:
            fields[4] = '"quoted"tail'
        if rng.random() < 0.03:
            out.append(b"\n")  # an empty line: skipped, not a row
        record = ",".join(fields).encode("utf-8")
        if roll > 0.995:
            record = record.replace(b"a", b"\xff", 1)  # invalid UTF-8 when there is an 'a'
        end = rng.choice(["\n", "\r\n"]) if line_end == "mixed" else line_end
        out.append(record + end.encode())
    if rows and rng.random() < 0.1:
        out.append(b'last,1,2,3,"never closed,x\n')
    elif rows and rng.random() < 0.3:
        out[-1] = out[-1].rstrip(b"\r\n")  # no line end after the last record
    return b"".join(out), rows
