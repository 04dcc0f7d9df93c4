"""Soda Core v4 on DuckDB: one data contract over a DuckDB view that types the
columns (bench/suite_sql.typed_select). Native checks: duplicate, missing, invalid
(valid_max, valid_values, valid_format regex, valid_length), aggregate avg, row_count.
Soda has no per-row "parses as" check: the type checks and the row expression are
`failed_rows` checks with a SQL expression."""
import os
import pathlib
import tempfile

import suite
import suite_sql
from tools.base import cpu_extra_s, rss_extra_kib  # noqa: F401

VERSIONS = ["soda-core", "soda-duckdb", "duckdb"]
NOT_EXPRESSIBLE = {}

CONTRACT = """
dataset: bench/main/frame_typed
columns:
  - name: txn_id
    checks:
      - duplicate:
  - name: account_id
    checks:
      - missing:
  - name: amount
    checks:
      - invalid:
          valid_max: {amount_max}
  - name: currency
    checks:
      - invalid:
          valid_values: {currencies}
  - name: email
    checks:
      - invalid:
          valid_format: {{regex: '{email_re}', name: email}}
          threshold: {{metric: percent, must_be_less_than_or_equal: 2}}
      - missing:
          threshold: {{metric: percent, must_be_less_than_or_equal: 5}}
  - name: label
    checks:
      - invalid:
          valid_values: {labels}
      - aggregate:
          function: avg
          threshold: {{must_be_less_than_or_equal: 0.05}}
  - name: country
    checks:
      - invalid:
          valid_length: {length}
checks:
  - row_count:
  - failed_rows:
      name: amount.type
      qualifier: amount_type
      expression: "amount_text IS NOT NULL AND amount IS NULL"
  - failed_rows:
      name: label.type
      qualifier: label_type
      expression: "label_text IS NOT NULL AND label IS NULL"
  - failed_rows:
      name: created_at.type
      qualifier: created_at_type
      expression: "created_at_text IS NOT NULL AND created_at IS NULL"
  - failed_rows:
      name: refunds_are_negative
      qualifier: refunds
      expression: "kind = 'refund' AND amount IS NOT NULL AND NOT (amount < 0)"
"""

# Soda check (column, type) -> suite check; failed_rows checks carry the suite name.
_COLUMN_CHECKS = {("txn_id", "duplicate"): "txn_id.unique", ("account_id", "missing"): "account_id.not_null",
                  ("amount", "invalid"): "amount.max", ("currency", "invalid"): "currency.in",
                  ("email", "invalid"): "email.regex", ("email", "missing"): "email.null_fraction",
                  ("label", "invalid"): "label.in", ("label", "aggregate"): "label.mean",
                  ("country", "invalid"): "country.length"}


def setup():
    os.environ["SODA_CORE_TELEMETRY_ENABLED"] = "false"  # no network here; and no cost measured
    import duckdb
    import soda_core.contracts.api.verify_api  # noqa: F401 (before the plugin: its import order)
    from soda_duckdb.common.data_sources.duckdb_data_source import DuckDBDataSourceImpl
    connection = duckdb.connect()
    connection.execute("SET TimeZone = 'UTC'")
    folder = tempfile.mkdtemp(prefix="griffin-bench-soda-")
    contracts = {}
    for text_input in (True, False):
        text = CONTRACT.format(amount_max=suite.AMOUNT_MAX, currencies=suite.CURRENCIES, labels=suite.LABELS,
                               email_re=suite.EMAIL_RE.replace("'", "''"), length=suite.COUNTRY_LENGTH)
        if not text_input:  # typed columns: no type check to run
            text = text.replace("amount_text IS NOT NULL", "false").replace("label_text IS NOT NULL", "false")
        path = pathlib.Path(folder, f"contract_{text_input}.yaml")
        path.write_text(text)
        contracts[text_input] = str(path)
    source = DuckDBDataSourceImpl.from_existing_cursor(connection, name="bench")
    return {"connection": connection, "source": source, "contracts": contracts, "folder": folder}


def load(ctx, path):
    import pyarrow.parquet as pq
    return pq.read_table(path)


def _verify(ctx, source_sql, text_input):
    from soda_core.contracts.api.verify_api import verify_contract_locally
    connection = ctx["connection"]
    connection.execute(f"CREATE OR REPLACE VIEW frame_typed AS {suite_sql.typed_select(source_sql, text_input)}")
    session = verify_contract_locally(data_sources=[ctx["source"]], contract_file_path=ctx["contracts"][text_input])
    return session_counts(session)


def session_counts(session):
    """The suite's counts from a Soda verification session of CONTRACT."""
    counts = {}
    for result in session.contract_verification_results:
        for check_result in result.check_results:
            check = check_result.check
            values = check_result.diagnostic_metric_values or {}
            name = _COLUMN_CHECKS.get((getattr(check, "column_name", None), check.type), check.name)
            if check.type == "row_count":
                counts["evaluated_rows"] = int(values["check_rows_tested"])
            elif name == "email.null_fraction":
                counts[name] = values["missing_count"] / values["check_rows_tested"]
            elif name == "label.mean":
                counts[name] = float(values["avg"])
            else:
                metric = {"duplicate": "duplicate_count", "missing": "missing_count", "invalid": "invalid_count",
                          "failed_rows": "failed_rows_count"}[check.type]
                counts[name] = int(values[metric])
    if set(counts) != set(suite.ALL_NAMES):
        raise SystemExit(f"soda: got {sorted(counts)}; errors: {session.get_errors_str()}")
    return counts


def from_csv(ctx, path):
    return _verify(ctx, suite_sql.csv_source(path), text_input=True)


def from_frame(ctx, table):
    ctx["connection"].register("frame", table)
    return _verify(ctx, "frame", text_input=False)


def teardown(ctx):
    import shutil
    shutil.rmtree(ctx["folder"], ignore_errors=True)
