"""pandera on pandas: one DataFrameSchema (lazy validation, every failure case
collected) over a frame typed by frames.pandas_typed. Type checks are regex checks
on the text (pandera's coerce cannot keep going past an unparseable value: the
column's other checks then fail on the raw strings); created_at.type and the row
expression are DataFrame-wide custom Checks; the table checks are custom Checks
that pandera reports as passed/failed only (no observed value)."""
import frames
import suite
from tools.base import cpu_extra_s, rss_extra_kib, teardown  # noqa: F401

VERSIONS = ["pandera", "pandas"]
NOT_EXPRESSIBLE = {}
# pandera reports pass/fail for a whole-column check, not the observed value:
# the table checks are compared as passed (True/False).
TABLE_AS_PASSED = True


def _schema(text_input):
    import pandera.pandas as pa
    Check, Column = pa.Check, pa.Column
    columns = {
        "txn_id": Column(unique=True, report_duplicates="exclude_first", nullable=True),
        "account_id": Column(nullable=False),
        "amount": Column(float, Check.le(suite.AMOUNT_MAX, name="amount.max"), nullable=True),
        "currency": Column(checks=Check.isin(suite.CURRENCIES, name="currency.in"), nullable=True),
        "email": Column(checks=[
            Check.str_matches(suite.EMAIL_RE, name="email.regex"),
            Check(lambda s: s.isna().mean() <= 0.05, ignore_na=False, element_wise=False,
                  name="email.null_fraction")], nullable=True),
        "label": Column(checks=[Check.isin(suite.LABELS, name="label.in"),
                                Check(lambda s: s.mean() <= 0.05, name="label.mean")], nullable=True),
        "country": Column(checks=Check.str_length(suite.COUNTRY_LENGTH, suite.COUNTRY_LENGTH,
                                                  name="country.length"), nullable=True),
    }
    if text_input:
        columns["amount_text"] = Column(checks=Check.str_matches(frames._FLOAT_FULL, name="amount.type"),
                                        nullable=True)
        columns["label_text"] = Column(checks=Check.str_matches(frames._INT_FULL, name="label.type"),
                                       nullable=True)
    checks = [
        Check(lambda df: df["created_at_text"].isna() | df["created_at"].notna(), name="created_at.type"),
        Check(lambda df: ~((df["kind"] == "refund") & df["amount"].notna() & ~(df["amount"] < 0)),
              name="refunds_are_negative"),
    ]
    return pa.DataFrameSchema(columns, checks=checks)


def setup():
    return {True: _schema(True), False: _schema(False)}


def load(ctx, path):
    return frames.pandas_read_parquet(path)


def from_csv(ctx, path):
    return from_frame(ctx, frames.pandas_read_csv(path))


def from_frame(ctx, frame):
    df = frames.pandas_typed(frame)
    return validated_counts(ctx, df, len(df), "amount_text" in df)


def validated_counts(schemas, df, rows, text_input):
    """Lazy validation of df by the schema for its input kind, then counts_of its
    failure cases (shared with pandera_polars)."""
    from pandera.errors import SchemaErrors
    schema = schemas[text_input]
    try:
        schema.validate(df, lazy=True)
        failures = None
    except SchemaErrors as errors:
        failures = errors.failure_cases
    return counts_of(failures, rows, text_input, schema)


def counts_of(failures, rows, text_input, schema):
    """Per-check counts from pandera's failure_cases frame (shared with
    pandera_polars): distinct failing rows per check. Column checks are told
    apart by their position in the column's checks (pandera names built-in checks
    by their description), DataFrame-wide checks by name."""
    import pandas as pd
    counts = {"evaluated_rows": rows}
    for name in suite.CHECKS + suite.TABLE_CHECKS:
        counts[name] = True if name in suite.TABLE_CHECKS else 0
    if not text_input:
        counts["amount.type"] = counts["label.type"] = 0
    if failures is None:
        return counts
    if not isinstance(failures, pd.DataFrame):
        failures = failures.to_pandas()
    special = {("txn_id", "field_uniqueness"): "txn_id.unique",
               ("account_id", "not_nullable"): "account_id.not_null"}
    failures = failures.assign(index=failures["index"].fillna(-1))
    keys = failures[["schema_context", "column", "check", "check_number"]].astype(object)
    failures = failures.assign(name=[
        check if context == "DataFrameSchema"
        else special.get((column, check)) if pd.isna(number)
        else schema.columns[column].checks[int(number)].name
        for context, column, check, number in keys.itertuples(index=False)])
    for name, n in failures.groupby("name")["index"].nunique().items():
        if name in suite.TABLE_CHECKS:
            counts[name] = False
        elif name in counts:
            counts[name] = int(n)
        else:
            raise SystemExit(f"pandera: a failure case of no suite check: {name!r}")
    unknown = failures[failures["name"].isna()]
    if len(unknown):
        raise SystemExit(f"pandera: failure cases of no suite check: {unknown.head().to_dict('records')}")
    return counts
