"""pandera on polars: one DataFrameSchema (lazy validation) over a frame typed by
frames.polars_typed, expressed as for pandera on pandas (regex checks on the text
for types, DataFrame-wide custom Checks for created_at.type and the row expression,
pass/fail custom Checks for the table checks); Column(unique=True) counts every copy."""
import frames
import suite
from tools.base import cpu_extra_s, rss_extra_kib, teardown  # noqa: F401
from tools.pandera_pandas import validated_counts

VERSIONS = ["pandera", "polars"]
NOT_EXPRESSIBLE = {}
TABLE_AS_PASSED = True  # pandera reports pass/fail of a whole-column check


def _schema(text_input):
    import pandera.polars as pa
    import polars as pl
    Check, Column = pa.Check, pa.Column

    def wide(expr):
        return lambda data: data.lazyframe.select(expr.fill_null(True))

    columns = {
        "txn_id": Column(unique=True, nullable=True),  # pandera-polars: is_duplicated (every copy)
        "account_id": Column(nullable=False),
        "amount": Column(pl.Float64, Check.le(suite.AMOUNT_MAX, name="amount.max"), nullable=True),
        "currency": Column(checks=Check.isin(suite.CURRENCIES, name="currency.in"), nullable=True),
        "email": Column(checks=[
            Check.str_matches(suite.EMAIL_RE, name="email.regex"),
            Check(lambda data: data.lazyframe.select(pl.col(data.key).is_null().mean() <= 0.05),
                  name="email.null_fraction")], nullable=True),
        "label": Column(checks=[
            Check.isin(suite.LABELS, name="label.in"),
            Check(lambda data: data.lazyframe.select(pl.col(data.key).mean() <= 0.05), name="label.mean")],
            nullable=True),
        "country": Column(checks=Check.str_length(suite.COUNTRY_LENGTH, suite.COUNTRY_LENGTH,
                                                  name="country.length"), nullable=True),
    }
    if text_input:
        columns["amount_text"] = Column(checks=Check.str_matches(frames._FLOAT_FULL, name="amount.type"),
                                        nullable=True)
        columns["label_text"] = Column(checks=Check.str_matches(frames._INT_FULL, name="label.type"),
                                       nullable=True)
    col = pl.col
    checks = [
        Check(wide(col("created_at_text").is_null() | col("created_at").is_not_null()), name="created_at.type"),
        Check(wide(~((col("kind") == "refund") & col("amount").is_not_null() & ~(col("amount") < 0))),
              name="refunds_are_negative"),
    ]
    return pa.DataFrameSchema(columns, checks=checks)


def setup():
    return {True: _schema(True), False: _schema(False)}


def load(ctx, path):
    return frames.polars_read_parquet(path)


def from_csv(ctx, path):
    return from_frame(ctx, frames.polars_read_csv(path))


def from_frame(ctx, frame):
    df = frames.polars_typed(frame)
    return validated_counts(ctx, df, df.height, "amount_text" in df.columns)
