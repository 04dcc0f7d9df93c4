"""The suite in SQL for the DuckDB-based peers (bench/tools/duckdb_sql.py, soda.py).

typed_select() turns a source relation into one with the suite's typed columns,
following rules-v1 as bench/core_checks.py does: a text value is NULL when empty
or when it does not parse (exact spelling by regex, then TRY_CAST), and the
original text stays beside it as <col>_text for the type checks. A source whose
amount/label are already typed (the Parquet copy) passes them through.
"""
import suite

CSV_OPTIONS = ("header = true, all_varchar = true, delim = ',', quote = '\"', escape = '\"', "
               "ignore_errors = true")


def csv_source(path):
    """read_csv over the file, every column as text, malformed records skipped."""
    quoted = str(path).replace("'", "''")
    return f"read_csv('{quoted}', {CSV_OPTIONS})"


def _parsed(column, pattern, sql_type):
    trimmed = f"trim({column}, ' ' || chr(9))"
    return (f"CASE WHEN regexp_full_match({trimmed}, '{pattern}') "
            f"THEN TRY_CAST({trimmed} AS {sql_type}) END")


def typed_select(source, text_input):
    """SELECT over `source` with amount (DOUBLE), label (BIGINT), created_at
    (TIMESTAMPTZ) typed and amount_text/label_text/created_at_text beside them."""
    if text_input:
        amount = _parsed("amount", suite.FLOAT_RE, "DOUBLE")
        label = _parsed("label", suite.INT_RE, "BIGINT")
    else:
        amount, label = "amount", "label"
    created_at = _parsed("created_at", suite.TIMESTAMP_RE, "TIMESTAMPTZ")
    text = "" if not text_input else "amount AS amount_text, label AS label_text, "
    return (f"SELECT * REPLACE ({amount} AS amount, {label} AS label, {created_at} AS created_at), "
            f"{text}created_at AS created_at_text FROM {source}")


# check -> SQL boolean: the row violates the check (over typed_select's columns).
VIOLATIONS = {
    "account_id.not_null": "account_id IS NULL",
    "amount.type": "amount_text IS NOT NULL AND amount IS NULL",
    "amount.max": f"isnan(amount) OR amount > {suite.AMOUNT_MAX}",
    "currency.in": "currency NOT IN (" + ", ".join(f"'{c}'" for c in suite.CURRENCIES) + ")",
    "email.regex": f"NOT regexp_full_match(email, '{suite.EMAIL_RE}')",
    "label.type": "label_text IS NOT NULL AND label IS NULL",
    "label.in": "label NOT IN (" + ", ".join(str(v) for v in suite.LABELS) + ")",
    "created_at.type": "created_at_text IS NOT NULL AND created_at IS NULL",
    "country.length": f"length(country) <> {suite.COUNTRY_LENGTH}",
    "refunds_are_negative": "kind = 'refund' AND amount IS NOT NULL AND NOT (amount < 0)",
}


def counts_query(source, text_input):
    """One statement: evaluated_rows and every count and observed value of the suite."""
    columns = ["count(*) AS evaluated_rows",
               'count(txn_id) - count(DISTINCT txn_id) AS "txn_id.unique"']
    for name, violated in VIOLATIONS.items():
        if (name.endswith(".type") and not text_input and not name.startswith("created_at")):
            columns.append(f'0 AS "{name}"')  # a typed column cannot fail its type
        else:
            columns.append(f'count_if(coalesce({violated}, false)) AS "{name}"')
    columns.append('avg(CASE WHEN email IS NULL THEN 1.0 ELSE 0.0 END) AS "email.null_fraction"')
    columns.append('avg(label) AS "label.mean"')
    return f"WITH typed AS ({typed_select(source, text_input)}) SELECT {', '.join(columns)} FROM typed"
