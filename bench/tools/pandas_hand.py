"""pandas, hand-written and vectorized: the suite as boolean Series over a frame
typed by frames.pandas_typed (pyarrow-backed strings, numpy float64)."""
import frames
import suite
from tools.base import cpu_extra_s, rss_extra_kib, teardown  # noqa: F401

VERSIONS = ["pandas", "pyarrow", "numpy"]
NOT_EXPRESSIBLE = {}


def setup():
    return None


def load(ctx, path):
    return frames.pandas_read_parquet(path)


def from_csv(ctx, path):
    return from_frame(ctx, frames.pandas_read_csv(path))


def _count(mask):
    return int(mask.fillna(False).astype(bool).sum())


def from_frame(ctx, frame):
    import numpy as np
    df = frames.pandas_typed(frame)
    amount, label = df["amount"], df["label"]
    counts = {"evaluated_rows": len(df)}
    txn = df["txn_id"]
    counts["txn_id.unique"] = int(txn.notna().sum() - txn.nunique(dropna=True))
    counts["account_id.not_null"] = int(df["account_id"].isna().sum())
    if "amount_text" in df:  # the text tells a NaN value from a null one
        nan_value = df["amount_nan"]
        counts["amount.type"] = _count(df["amount_text"].notna() & amount.isna() & ~nan_value)
        counts["amount.max"] = _count((amount > suite.AMOUNT_MAX) | nan_value)
        refund_bad = (df["kind"] == "refund") & (amount.notna() | nan_value) & ~(amount < 0)
    else:  # float64 from Parquet: NaN is pandas' missing marker (suite.PANDAS_NAN)
        counts["amount.type"] = 0  # a float64 column cannot fail its type
        counts["amount.max"] = _count(amount > suite.AMOUNT_MAX)
        refund_bad = (df["kind"] == "refund") & amount.notna() & ~(amount < 0)
    counts["currency.in"] = _count(df["currency"].notna() & ~df["currency"].isin(suite.CURRENCIES))
    email = df["email"]
    counts["email.regex"] = _count(email.notna() & ~email.str.fullmatch(suite.EMAIL_RE).fillna(True))
    counts["label.type"] = _count(df["label_text"].notna() & label.isna()) if "label_text" in df else 0
    counts["label.in"] = _count(label.notna() & ~label.isin(suite.LABELS))
    counts["created_at.type"] = _count(df["created_at_text"].notna() & df["created_at"].isna())
    country = df["country"]
    counts["country.length"] = _count(country.notna() & (country.str.len() != suite.COUNTRY_LENGTH))
    counts["refunds_are_negative"] = _count(refund_bad)
    counts["email.null_fraction"] = float(email.isna().mean())
    counts["label.mean"] = float(np.nanmean(label.to_numpy(dtype="float64")))
    return counts
