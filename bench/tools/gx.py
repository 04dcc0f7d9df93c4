"""Great Expectations (pandas engine, ephemeral context): one expectation suite
over a frame typed by frames.pandas_typed. GE has no per-row type parse: the type
checks are expect_column_values_to_match_regex / _match_strftime_format on the text;
the row expression is expect_column_values_to_be_between(amount, max 0, strict) with
row_condition kind=="refund"; null_fraction <= 0.05 is not_be_null with mostly 0.95."""
import frames
import suite
from tools.base import cpu_extra_s, rss_extra_kib, teardown  # noqa: F401

VERSIONS = ["great_expectations", "pandas"]
NOT_EXPRESSIBLE = {}


def _expectations(text_input, condition_parser="pandas"):
    """(check, expectation) pairs; condition_parser "pandas" or "spark" (the row
    expression's condition in that engine's syntax; bench/tools/gx_spark.py)."""
    import great_expectations as gx
    e = gx.expectations
    fmt = {"result_format": "BASIC"}
    listed = [
        ("txn_id.unique", e.ExpectColumnValuesToBeUnique(column="txn_id", **fmt)),
        ("account_id.not_null", e.ExpectColumnValuesToNotBeNull(column="account_id", **fmt)),
        ("amount.max", e.ExpectColumnValuesToBeBetween(column="amount", max_value=suite.AMOUNT_MAX, **fmt)),
        ("currency.in", e.ExpectColumnValuesToBeInSet(column="currency", value_set=suite.CURRENCIES, **fmt)),
        ("email.regex", e.ExpectColumnValuesToMatchRegex(column="email", regex=suite.EMAIL_RE,
                                                         mostly=0.98, **fmt)),
        ("label.in", e.ExpectColumnValuesToBeInSet(column="label", value_set=suite.LABELS, **fmt)),
        ("created_at.type", e.ExpectColumnValuesToMatchStrftimeFormat(
            column="created_at_text", strftime_format=suite.TIMESTAMP_FORMAT, **fmt)),
        ("country.length", e.ExpectColumnValueLengthsToEqual(column="country", value=suite.COUNTRY_LENGTH,
                                                             **fmt)),
        # kind != 'refund' or amount < 0, as "amount < 0 where kind == 'refund'"
        ("refunds_are_negative", e.ExpectColumnValuesToBeBetween(
            column="amount", max_value=0, strict_max=True,
            row_condition='kind=="refund"' if condition_parser == "pandas" else "kind = 'refund'",
            condition_parser=condition_parser, **fmt)),
        # null_fraction <= 0.05 is "not null, mostly 0.95"; observed = unexpected / element count
        ("email.null_fraction", e.ExpectColumnValuesToNotBeNull(column="email", mostly=0.95, **fmt)),
        ("label.mean", e.ExpectColumnMeanToBeBetween(column="label", max_value=0.05, **fmt)),
    ]
    if text_input:
        listed.append(("amount.type", e.ExpectColumnValuesToMatchRegex(
            column="amount_text", regex=frames._FLOAT_FULL, **fmt)))
        listed.append(("label.type", e.ExpectColumnValuesToMatchRegex(
            column="label_text", regex=frames._INT_FULL, **fmt)))
    return listed


def context():
    import logging
    import great_expectations as gx
    logging.getLogger("great_expectations").setLevel(logging.ERROR)
    made = gx.get_context(mode="ephemeral")
    try:
        made.variables.progress_bars = {"globally": False, "metric_calculations": False}
    except Exception:  # older context variables API: bars only cost terminal output
        pass
    return made


def add_suite(context, name, listed):
    """An ExpectationSuite of (check, expectation) pairs, each tagged with its check."""
    import great_expectations as gx
    names, expectations = zip(*listed)
    expectation_suite = gx.ExpectationSuite(name=name)
    for check, expectation in zip(names, expectations):
        expectation.meta = {"check": check}
        expectation_suite.add_expectation(expectation)
    return context.suites.add(expectation_suite)


def setup():
    context_ = context()
    asset = context_.data_sources.add_pandas("bench").add_dataframe_asset("frame")
    definition = asset.add_batch_definition_whole_dataframe("whole")
    suites = {text_input: add_suite(context_, f"suite_text_{text_input}", _expectations(text_input))
              for text_input in (True, False)}
    return {"context": context_, "definition": definition, "suites": suites}


def load(ctx, path):
    return frames.pandas_read_parquet(path)


def from_csv(ctx, path):
    return from_frame(ctx, frames.pandas_read_csv(path))


def from_frame(ctx, frame):
    df = frames.pandas_typed(frame)
    text_input = "amount_text" in df
    expectation_suite = ctx["suites"][text_input]
    batch = ctx["definition"].get_batch(batch_parameters={"dataframe": df})
    return counts_of(batch.validate(expectation_suite), len(df), text_input)


def counts_of(result, rows, text_input):
    """The suite's counts from a validation result of the suite (both engines)."""
    by_name = {r.expectation_config.meta["check"]: r for r in result.results}
    counts = {"evaluated_rows": rows}
    for name in suite.CHECKS:
        if name in by_name:
            counts[name] = int(by_name[name].result["unexpected_count"])
    if not text_input:  # typed columns cannot fail their type
        counts["amount.type"] = counts["label.type"] = 0
    nulls = by_name["email.null_fraction"].result
    counts["email.null_fraction"] = nulls["unexpected_count"] / nulls["element_count"]
    counts["label.mean"] = float(by_name["label.mean"].result["observed_value"])
    return counts
