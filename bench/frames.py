"""Reading the benchmark data into pandas and polars frames, and typing them the
way rules-v1 types text, for the peers built on those frames.

Text input (the CSV): every column is read as text, empty fields as null, then
amount/label/created_at are parsed (exact spelling by regex, then the library's
own cast) into typed columns, with the text kept as <col>_text for the type
checks. Typed input (the Parquet copy): amount/label are already float64/int64;
created_at is text in the Parquet copy too, so it is always parsed.
"""
import suite

_FLOAT_FULL = rf"^[ \t]*(?:{suite.FLOAT_RE})[ \t]*$"
_INT_FULL = rf"^[ \t]*(?:{suite.INT_RE})[ \t]*$"


def pandas_read_csv(path):
    """All columns as text; "" is null and nothing else (no "N/A" -> NaN); records
    with the wrong field count are skipped (the pyarrow engine's on_bad_lines)."""
    import pandas as pd
    return pd.read_csv(path, dtype=str, keep_default_na=False, na_values=[""], engine="pyarrow",
                       on_bad_lines="skip")


def pandas_read_parquet(path):
    import pandas as pd
    return pd.read_parquet(path)


def pandas_typed(frame):
    """A copy of `frame` with typed amount (float64), label (float64 with NaN for
    null: pandas' int64 has no null) and created_at (datetime64, UTC), and the
    text of each parsed column as <col>_text. For text input it also adds
    amount_nan: the value parsed is NaN (pandas' float64 cannot tell it from null)."""
    import pandas as pd
    out = frame.copy(deep=False)
    for column, pattern in (("amount", _FLOAT_FULL), ("label", _INT_FULL)):
        values = frame[column]
        if pd.api.types.is_string_dtype(values.dtype):
            ok = values.str.fullmatch(pattern).fillna(False).astype(bool)
            out[column + "_text"] = values
            out[column] = pd.to_numeric(values.where(ok).str.strip(), errors="coerce").astype("float64")
            if column == "amount":
                out["amount_nan"] = ok & values.str.strip().str.lower().str.endswith("nan").fillna(False)
    text = frame["created_at"]
    out["created_at_text"] = text
    out["created_at"] = pd.to_datetime(text, format=suite.TIMESTAMP_FORMAT, errors="coerce", utc=True)
    return out


def polars_read_csv(path):
    """All columns as text (empty = null). polars cannot skip a record with the
    wrong field count: truncate_ragged_lines cuts extra fields, short records are
    padded with nulls (suite.POLARS_RAGGED)."""
    import polars as pl
    return pl.read_csv(path, infer_schema=False, truncate_ragged_lines=True)


def polars_read_parquet(path):
    import polars as pl
    return pl.read_parquet(path)


def polars_typed(frame):
    """`frame` with typed amount (Float64), label (Int64), created_at (Datetime,
    UTC) and <col>_text beside each parsed text column."""
    import polars as pl
    columns = []
    for column, pattern, dtype in (("amount", _FLOAT_FULL, pl.Float64), ("label", _INT_FULL, pl.Int64)):
        if frame.schema[column] == pl.String:
            text = pl.col(column)
            columns += [text.alias(column + "_text"),
                        pl.when(text.str.contains(pattern))
                        .then(text.str.strip_chars(" \t").cast(dtype, strict=False))
                        .alias(column)]
    text = pl.col("created_at")
    columns += [text.alias("created_at_text"),
                text.str.to_datetime(suite.TIMESTAMP_FORMAT, strict=False, time_zone="UTC")
                .alias("created_at")]
    return frame.with_columns(columns)
