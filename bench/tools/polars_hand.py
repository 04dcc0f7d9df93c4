"""Polars, hand-written: the suite as one select of expressions (run on all
cores by polars' engine) over a frame typed by frames.polars_typed."""
import frames
import suite
from tools.base import cpu_extra_s, rss_extra_kib, teardown  # noqa: F401

VERSIONS = ["polars"]
NOT_EXPRESSIBLE = {}


def setup():
    return None


def load(ctx, path):
    return frames.polars_read_parquet(path)


def from_csv(ctx, path):
    return from_frame(ctx, frames.polars_read_csv(path))


def _count(violated):
    import polars as pl
    return violated.fill_null(False).cast(pl.Int64).sum()


def from_frame(ctx, frame):
    import polars as pl
    df = frames.polars_typed(frame)
    col = pl.col
    has_text = "amount_text" in df.columns
    exprs = [
        pl.len().alias("evaluated_rows"),
        (col("txn_id").count() - col("txn_id").drop_nulls().n_unique()).alias("txn_id.unique"),
        col("account_id").is_null().sum().alias("account_id.not_null"),
        (_count(col("amount_text").is_not_null() & col("amount").is_null()) if has_text
         else pl.lit(0)).alias("amount.type"),
        _count(col("amount").is_nan() | (col("amount") > suite.AMOUNT_MAX)).alias("amount.max"),
        _count(~col("currency").is_in(suite.CURRENCIES)).alias("currency.in"),
        _count(~col("email").str.contains(suite.EMAIL_RE)).alias("email.regex"),
        (_count(col("label_text").is_not_null() & col("label").is_null()) if has_text
         else pl.lit(0)).alias("label.type"),
        _count(~col("label").is_in(suite.LABELS)).alias("label.in"),
        _count(col("created_at_text").is_not_null() & col("created_at").is_null()).alias("created_at.type"),
        _count(col("country").str.len_chars() != suite.COUNTRY_LENGTH).alias("country.length"),
        _count((col("kind") == "refund") & col("amount").is_not_null() & ~(col("amount") < 0))
        .alias("refunds_are_negative"),
        col("email").is_null().mean().alias("email.null_fraction"),
        col("label").mean().alias("label.mean"),
    ]
    row = df.select(exprs).row(0, named=True)
    return {name: (float(v) if name in suite.TABLE_CHECKS else int(v)) for name, v in row.items()}
