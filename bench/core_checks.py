"""The core benchmark's rule file and the one DuckDB query that counts the same
violations (rules-v1 semantics written in SQL over all-VARCHAR columns).

How the SQL follows the spec:
  - every column is read as text (all_varchar); an empty field is NULL, as
    Griffin's default null_values [""];
  - a typed column's value is NULL when the text is NULL or does not parse (rules-v1:
    a type failure counts as null for every other check); parse = a regex for the
    exact spelling Griffin accepts, then TRY_CAST;
  - `unique` counts second and later occurrences = count(x) - count(DISTINCT x);
  - NaN fails min/max (DuckDB orders NaN above everything, so it is tested apart);
  - the row expression is violated only when it is false (null passes);
  - records with the wrong field count are skipped (ignore_errors), as Griffin never
    evaluates malformed rows; the row count compared is rows - malformed_rows.
"""

RULES_HEAD = """# Written by bench/run_core_bench.py: the core benchmark's checks.
griffin: 1
dataset: bench_transactions
columns:
  txn_id:
    not_null: true
"""
RULES_UNIQUE = "    unique: true\n"
RULES_TAIL = r"""    regex: '^TX[0-9]{10}$'
  amount:
    type: float64
    finite: true
    max: 1000000
  currency:
    in: [USD, EUR, GBP, JPY]
  email:
    regex: {pattern: '^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$', mostly: 0.98, severity: warn}
  kind:
    in: [purchase, refund, transfer]
  label:
    type: int64
    in: [0, 1]
  created_at:
    type: timestamp
    max: now
  country:
    length: {min: 2, max: 2}
rows:
  - name: refunds_are_negative
    expr: "kind != 'refund' or amount < 0"
"""


def rules_text(with_unique=True):
    return RULES_HEAD + (RULES_UNIQUE if with_unique else "") + RULES_TAIL


_TIMESTAMP = r"[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})?"
_FLOAT = r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?|[+-]?(?i:nan|inf|infinity)"

# check name -> SQL boolean: the row violates the check (typed values: amt, lab, ts).
VIOLATIONS = {
    "txn_id.not_null": "txn_id IS NULL",
    "txn_id.unique": None,  # aggregate, see query()
    "txn_id.regex": "NOT regexp_full_match(txn_id, '^TX[0-9]{10}$')",
    "amount.type": "amount IS NOT NULL AND amt IS NULL",
    "amount.finite": "NOT isfinite(amt)",
    "amount.max": "isnan(amt) OR amt > 1000000",
    "currency.in": "currency NOT IN ('USD', 'EUR', 'GBP', 'JPY')",
    "email.regex": r"NOT regexp_full_match(email, '^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$')",
    "kind.in": "kind NOT IN ('purchase', 'refund', 'transfer')",
    "label.type": "label IS NOT NULL AND lab IS NULL",
    "label.in": "lab NOT IN (0, 1)",
    "created_at.type": "created_at IS NOT NULL AND ts IS NULL",
    "created_at.max": "ts > now()",
    "country.length": "length(country) NOT BETWEEN 2 AND 2",
    "refunds_are_negative": "kind = 'refund' AND amt IS NOT NULL AND NOT (amt < 0)",
}


def check_names(with_unique=True):
    return [n for n in VIOLATIONS if with_unique or n != "txn_id.unique"]


def query(csv_path, with_unique=True):
    """One SQL statement returning evaluated_rows and one count per check."""
    path = csv_path.replace("'", "''")
    columns = ["count(*) AS evaluated_rows"]
    for name in check_names(with_unique):
        if name == "txn_id.unique":
            columns.append(f'count(txn_id) - count(DISTINCT txn_id) AS "{name}"')
        else:
            columns.append(f'count_if(coalesce({VIOLATIONS[name]}, false)) AS "{name}"')
    return f"""
WITH raw AS (
  SELECT * FROM read_csv('{path}', header = true, all_varchar = true, delim = ',',
                         quote = '"', escape = '"', ignore_errors = true)
), typed AS (
  SELECT *,
    CASE WHEN regexp_full_match(trim(amount, ' ' || chr(9)), '{_FLOAT}')
         THEN TRY_CAST(trim(amount, ' ' || chr(9)) AS DOUBLE) END AS amt,
    CASE WHEN regexp_full_match(trim(label, ' ' || chr(9)), '[+-]?[0-9]+')
         THEN TRY_CAST(trim(label, ' ' || chr(9)) AS BIGINT) END AS lab,
    CASE WHEN regexp_full_match(trim(created_at, ' ' || chr(9)), '{_TIMESTAMP}')
         THEN TRY_CAST(trim(created_at, ' ' || chr(9)) AS TIMESTAMPTZ) END AS ts
  FROM raw
)
SELECT {", ".join(columns)} FROM typed
"""
