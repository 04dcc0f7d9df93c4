"""The peer benchmark's rule suite, as data every tool adapter reads.

bench/suite.rules.yaml is the suite in Griffin's YAML; this module holds the same
checks' parameters for the peers (bench/tools/*.py), the names of the counts
every tool returns, and the documented places where a peer cannot match
Griffin's counts (ALLOWED_DIFFERENCES), each with its reason.

A tool returns a dict: every name in CHECKS -> a violation count (int), every
name in TABLE_CHECKS -> the observed value (float), and "evaluated_rows" -> the
rows it evaluated (Griffin: rows - malformed_rows). A check the tool cannot
express is absent from its dict and listed in its NOT_EXPRESSIBLE.
"""
import pathlib

from core_checks import _FLOAT as FLOAT_RE, _TIMESTAMP as TIMESTAMP_RE  # noqa: F401 (re-exported)

RULES_PATH = pathlib.Path(__file__).resolve().parent / "suite.rules.yaml"

EMAIL_RE = r"^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$"
INT_RE = r"[+-]?[0-9]+"
AMOUNT_MAX = 1_000_000
CURRENCIES = ["USD", "EUR", "GBP", "JPY"]
LABELS = [0, 1]
COUNTRY_LENGTH = 2
TIMESTAMP_FORMAT = "%Y-%m-%dT%H:%M:%SZ"  # the only valid spelling the generator writes

# Per-row checks, in rule-file order (violation counts).
CHECKS = [
    "txn_id.unique",          # second and later copies (rules-v1)
    "account_id.not_null",
    "amount.type",            # float64 text that does not parse
    "amount.max",             # > 1e6; NaN fails
    "currency.in",
    "email.regex",            # full match; warn, mostly 0.98
    "label.type",             # int64
    "label.in",
    "created_at.type",        # timestamp
    "country.length",         # code points, {2, 2}
    "refunds_are_negative",   # kind != 'refund' or amount < 0; null passes
]
# Table checks (observed values).
TABLE_CHECKS = ["email.null_fraction", "label.mean"]
ALL_NAMES = ["evaluated_rows"] + CHECKS + TABLE_CHECKS

# bench/run_spark_bench.py's jobs (its tools on Spark), the names its differences use.
SPARK_JOBS = ["griffin-native", "griffin-native-driver", "griffin-native-key", "griffin-sql", "pydeequ", "gx-spark"]

CSV = "csv"        # from the CSV file on disk to counts
MEMORY = "memory"  # from an in-memory frame (loaded from the Parquet copy) to counts
SCENARIOS = [CSV, MEMORY]

# (tool, scenario or None for every scenario, check or None for every count) ->
# (reason, bound). run_peers.py accepts a difference only where a key matches and
# the bound holds, and prints the reason beside the count. Bounds:
#   MALFORMED   within the input's malformed record count (the tool's reader cannot
#               skip them; an observed fraction/mean within 2 * malformed / rows)
#   ALL_COPIES  Griffin's count < the tool's <= 2 * Griffin's (+ malformed): every
#               duplicated value has at least two copies
#   FEWER       the tool's count <= Griffin's (it skips values Griffin counts)
MALFORMED, ALL_COPIES_BOUND, FEWER = "malformed", "all_copies", "fewer"
POLARS_RAGGED = ("polars' CSV reader cannot skip a record with the wrong field count "
                 "(truncate_ragged_lines cuts an extra field, a short record is padded with "
                 "nulls), so those records are evaluated as rows")
PANDAS_NAN = ("pandas' float64 uses NaN as its missing marker: a NaN amount is missing, so "
              "amount.max and the row expression skip it (Griffin: NaN fails max, NaN < 0 is false)")
ALL_COPIES = ("counts every copy of a duplicated value, the first too (Griffin: second and "
              "later copies, so dropping the violators keeps one copy)")
ALLOWED_DIFFERENCES = {
    ("polars", CSV, None): (POLARS_RAGGED, MALFORMED),
    ("pandera-polars", CSV, None): (POLARS_RAGGED, MALFORMED),
    ("pandera-polars", None, "txn_id.unique"): ("Column(unique=True) on polars " + ALL_COPIES,
                                                ALL_COPIES_BOUND),
    ("pandas", MEMORY, "amount.max"): (PANDAS_NAN, FEWER),
    ("pandas", MEMORY, "refunds_are_negative"): (PANDAS_NAN, FEWER),
    ("pandera-pandas", None, "amount.max"): (PANDAS_NAN, FEWER),
    ("pandera-pandas", None, "refunds_are_negative"): (PANDAS_NAN, FEWER),
    ("great-expectations", None, "amount.max"): (PANDAS_NAN, FEWER),
    ("great-expectations", None, "refunds_are_negative"): (PANDAS_NAN, FEWER),
    ("great-expectations", None, "txn_id.unique"): ("expect_column_values_to_be_unique " + ALL_COPIES,
                                                    ALL_COPIES_BOUND),
    # bench/run_spark_bench.py: GX on Spark (its Spark engine keeps NaN, so no PANDAS_NAN)
    ("gx-spark", None, "txn_id.unique"): ("expect_column_values_to_be_unique " + ALL_COPIES, ALL_COPIES_BOUND),
}


def allowed_difference(tool, scenario, check):
    """(reason, bound) for a documented difference of `tool` from Griffin, or None.
    The latency scenario uses the memory scenario's frames, so its entries."""
    scenario = MEMORY if scenario == "latency" else scenario
    for key in ((tool, scenario, check), (tool, None, check), (tool, scenario, None), (tool, None, None)):
        if key in ALLOWED_DIFFERENCES:
            return ALLOWED_DIFFERENCES[key]
    return None


def same_value(a, b):
    """Counts are equal; observed table values agree to 1e-9 (relative)."""
    if isinstance(a, float) or isinstance(b, float):
        if a is None or b is None:
            return a is b
        return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))
    return a == b


def same_counts(a, b):
    return a.keys() == b.keys() and all(same_value(a[k], b[k]) for k in a)
