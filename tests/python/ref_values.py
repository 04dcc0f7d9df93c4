"""Reference parsing of text into typed values (rules-v1 "Types", docs/semantics.md).

Written for obviousness, not speed. Typed values in the reference are plain Python:
  string -> str, int64 -> int, float64 -> float, bool -> int 0/1,
  date -> int days since 1970-01-01, timestamp -> int microseconds since the epoch (UTC).
Every parse function returns None when the text does not parse.
"""
import datetime
import math
import re

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
EPOCH = datetime.date(1970, 1, 1)

_INT = re.compile(r"[+-]?[0-9]+")
_FLOAT = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?")
_SPECIAL = {"nan": math.nan, "+nan": math.nan, "-nan": math.nan, "inf": math.inf,
            "+inf": math.inf, "-inf": -math.inf, "infinity": math.inf,
            "+infinity": math.inf, "-infinity": -math.inf}
_BOOL = {"true": 1, "t": 1, "yes": 1, "1": 1, "false": 0, "f": 0, "no": 0, "0": 0}
_DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")
_TIMESTAMP = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})[T ]([0-9]{2}):([0-9]{2}):([0-9]{2})"
                       r"(\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})?")


def _trim(text):
    return text.strip(" \t")


def parse_int64(text):
    text = _trim(text)
    if not _INT.fullmatch(text):
        return None
    value = int(text)
    return value if INT64_MIN <= value <= INT64_MAX else None


def parse_float64(text):
    text = _trim(text)
    if text.lower() in _SPECIAL:
        return _SPECIAL[text.lower()]
    if not _FLOAT.fullmatch(text):
        return None
    return float(text)


def parse_bool(text):
    return _BOOL.get(_trim(text).lower())


def _days(year, month, day):
    try:
        return (datetime.date(year, month, day) - EPOCH).days
    except ValueError:
        return None


def parse_date(text):
    match = _DATE.fullmatch(_trim(text))
    if not match:
        return None
    return _days(*(int(g) for g in match.groups()))


def parse_timestamp(text):
    match = _TIMESTAMP.fullmatch(_trim(text))
    if not match:
        return None
    year, month, day, hour, minute, second = (int(g) for g in match.groups()[:6])
    days = _days(year, month, day)
    if days is None or hour > 23 or minute > 59 or second > 59:
        return None
    fraction, zone = match.group(7), match.group(8)
    micros = int((fraction[1:] + "000000")[:6]) if fraction else 0
    offset = 0
    if zone and zone != "Z":
        zone_hours, zone_minutes = int(zone[1:3]), int(zone[4:6])
        if zone_hours > 23 or zone_minutes > 59:
            return None
        offset = (zone_hours * 60 + zone_minutes) * 60 * (1 if zone[0] == "+" else -1)
    return ((days * 86400 + hour * 3600 + minute * 60 + second - offset) * 1_000_000 + micros)


PARSERS = {"int64": parse_int64, "float64": parse_float64, "bool": parse_bool,
           "date": parse_date, "timestamp": parse_timestamp, "string": lambda text: text}
TYPE_ALIASES = {"int": "int64", "float": "float64", "double": "float64"}


def canonical_type(name):
    return TYPE_ALIASES.get(name, name)


def parse_typed(type_name, text):
    """The typed value of non-null `text`, or None when it does not parse."""
    return PARSERS[type_name](text)


def format_date(days):
    return (EPOCH + datetime.timedelta(days=days)).isoformat()


def format_timestamp(micros):
    seconds, fraction = divmod(micros, 1_000_000)
    moment = datetime.datetime(1970, 1, 1) + datetime.timedelta(seconds=seconds)
    text = moment.strftime("%Y-%m-%dT%H:%M:%S")
    return text + (f".{fraction:06d}" if fraction else "") + "Z"


def timestamp_of_date(days):
    return days * 86_400_000_000


def unique_key(type_name, value):
    """The key under which `unique`/`distinct_count` compare typed values:
    float -0.0 equals 0.0 and NaN equals NaN (docs/semantics.md)."""
    if type_name == "float64":
        if math.isnan(value):
            return ("nan",)
        return value + 0.0 if value != 0 else 0.0
    return value


_MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
_DIRECTIVES = {"Y": r"(?P<Y>[0-9]{4})", "m": r"(?P<m>[0-9]{1,2})", "d": r"(?P<d>[0-9]{1,2})",
               "e": r" ?(?P<d>[0-9]{1,2})", "H": r"(?P<H>[0-9]{1,2})", "M": r"(?P<M>[0-9]{1,2})",
               "S": r"(?P<S>[0-9]{1,2})", "f": r"(?P<f>[0-9]{1,9})", "j": r"(?P<j>[0-9]{1,3})",
               "y": r"(?P<y>[0-9]{2})", "I": r"(?P<I>[0-9]{1,2})", "p": r"(?P<p>[AaPp][Mm])",
               "b": r"(?P<b>[A-Za-z]{3})", "z": r"(?P<z>Z|[+-][0-9]{2}:?[0-9]{2})",
               "T": "%H:%M:%S", "F": "%Y-%m-%d", "%": "%"}


def _format_regex(fmt):
    out, pos = [], 0
    while pos < len(fmt):
        if fmt[pos] == "%" and pos + 1 < len(fmt):
            piece = _DIRECTIVES[fmt[pos + 1]]
            out.append(_format_regex(piece) if piece in ("%H:%M:%S", "%Y-%m-%d") else
                       re.escape(piece) if piece == "%" else piece)
            pos += 2
        else:
            out.append(re.escape(fmt[pos]))
            pos += 1
    return "".join(out)


def parse_with_format(text, fmt, type_name):
    """A timestamp (micros) or date (days) parsed with a strftime-style `format:`."""
    match = re.fullmatch(_format_regex(fmt), _trim(text))
    if not match:
        return None
    parts = match.groupdict()
    year = int(parts["Y"]) if parts.get("Y") else (2000 + int(parts["y"]) if parts.get("y") else 1970)
    month = (_MONTHS.index(parts["b"].lower()) + 1 if parts.get("b") and parts["b"].lower() in _MONTHS
             else int(parts.get("m") or 1))
    if parts.get("b") and parts["b"].lower() not in _MONTHS:
        return None
    days = _days(year, month, int(parts.get("d") or 1))
    if parts.get("j"):
        day_of_year = int(parts["j"])
        days = _days(year, 1, 1)
        days = None if not 1 <= day_of_year <= 366 else days + day_of_year - 1
    hour = int(parts.get("H") or 0)
    if parts.get("I"):
        hour = int(parts["I"]) % 12 + (12 if parts["p"].lower() == "pm" else 0)
    minute, second = int(parts.get("M") or 0), int(parts.get("S") or 0)
    if days is None or hour > 23 or minute > 59 or second > 59:
        return None
    if type_name == "date":
        return days
    micros = int((parts["f"] + "000000")[:6]) if parts.get("f") else 0
    offset = 0
    if parts.get("z") and parts["z"] != "Z":
        zone = parts["z"].replace(":", "")
        offset = (int(zone[1:3]) * 60 + int(zone[3:5])) * 60 * (1 if zone[0] == "+" else -1)
    return (days * 86400 + hour * 3600 + minute * 60 + second - offset) * 1_000_000 + micros
