"""The peers of bench/run_sql_bench.py on PostgreSQL, run from .venv-bench (their
pinned venv, bench/requirements.txt): Soda Core v4 (soda-postgres) and Great
Expectations' SQL engine (SQLAlchemy, psycopg2). Each computes the benchmark
suite's checks over the same table, in the database; prints one JSON object:
{"times": [seconds per run], "counts": {...}, "not_expressible": {check: reason}}.

A run is timed from the verification call to its result (the tool's context and
data source are set up once, before, as a long-lived service would hold them).

The table's amount (double precision), label (bigint) and created_at (timestamptz)
are typed by the database, so their type checks cannot fail: 0, as in the floor
query and Griffin's report, not computed by the peer.

    .venv-bench/bin/python bench/sql_peers.py soda --uri postgresql://... --table s.t --runs 3
"""
import argparse
import json
import os
import pathlib
import shutil
import sys
import tempfile
import time
from urllib.parse import unquote, urlsplit

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import suite  # noqa: E402

TYPED = {"amount.type": 0, "label.type": 0, "created_at.type": 0}


def soda(uri, table, runs):
    os.environ["SODA_CORE_TELEMETRY_ENABLED"] = "false"
    from soda_core.contracts.api.verify_api import verify_contract_locally
    from tools import soda as soda_tool
    parts = urlsplit(uri)
    database = parts.path.lstrip("/")
    schema, name = table.split(".")
    folder = pathlib.Path(tempfile.mkdtemp(prefix="griffin-bench-soda-pg-"))
    source = folder / "postgres.yaml"
    source.write_text(json.dumps({"type": "postgres", "name": "bench", "connection": {
        "host": parts.hostname, "port": parts.port or 5432, "user": unquote(parts.username or ""),
        "password": unquote(parts.password or ""), "database": database}}))
    text = soda_tool.CONTRACT.format(amount_max=suite.AMOUNT_MAX, currencies=suite.CURRENCIES, labels=suite.LABELS,
                                     email_re=suite.EMAIL_RE.replace("'", "''"), length=suite.COUNTRY_LENGTH)
    for column in ("amount", "label", "created_at"):  # typed by the database: the type check is constant false
        text = text.replace(f"{column}_text IS NOT NULL AND {column} IS NULL", "false")
    text = text.replace("dataset: bench/main/frame_typed", f"dataset: bench/{database}/{schema}/{name}")
    contract = folder / "contract.yaml"
    contract.write_text(text)
    times, counts = [], None
    try:  # the folder holds the server's password: removed however the runs end
        for _ in range(runs):
            start = time.perf_counter()
            session = verify_contract_locally(data_source_file_path=str(source), contract_file_path=str(contract))
            counts = soda_tool.session_counts(session)
            times.append(time.perf_counter() - start)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    counts.update(TYPED)
    return times, counts, {}


def gx(uri, table, runs):
    import logging
    import great_expectations as gxl
    logging.getLogger("great_expectations").setLevel(logging.ERROR)
    e = gxl.expectations
    from tools import gx as gx_tool
    # bench/tools/gx.py's suite over typed columns, but for what differs in SQL: created_at
    # is typed by the database, and a row condition is GX's own syntax, not pandas'.
    listed = [(n, x) for n, x in gx_tool._expectations(False) if n not in ("created_at.type", "refunds_are_negative")]
    listed.append(("refunds_are_negative", e.ExpectColumnValuesToBeBetween(
        column="amount", max_value=0, strict_max=True, row_condition='col("kind")=="refund"',
        condition_parser="great_expectations", result_format="BASIC")))
    context = gxl.get_context(mode="ephemeral")
    try:
        context.variables.progress_bars = {"globally": False, "metric_calculations": False}
    except Exception:  # older context variables API: bars only cost terminal output
        pass
    schema, name = table.split(".")
    connection = "postgresql+psycopg2://" + uri.split("://", 1)[1]
    asset = context.data_sources.add_postgres("bench", connection_string=connection).add_table_asset(
        name, table_name=name, schema_name=schema)
    definition = asset.add_batch_definition_whole_table("whole")
    expectation_suite = gxl.ExpectationSuite(name="suite_sql")
    for check, expectation in listed:
        expectation.meta = {"check": check}
        expectation_suite.add_expectation(expectation)
    expectation_suite = context.suites.add(expectation_suite)
    times, counts = [], None
    for _ in range(runs):
        start = time.perf_counter()
        result = definition.get_batch().validate(expectation_suite)
        times.append(time.perf_counter() - start)
        by_name = {r.expectation_config.meta["check"]: r for r in result.results}
        failed = [n for n, r in by_name.items() if r.exception_info.get("raised_exception")]
        if failed:
            raise SystemExit(f"gx: {failed[0]}: {by_name[failed[0]].exception_info['exception_message']}")
        counts = {n: int(r.result["unexpected_count"]) for n, r in by_name.items()
                  if n not in ("email.null_fraction", "label.mean")}
        nulls = by_name["email.null_fraction"].result
        counts["evaluated_rows"] = int(nulls["element_count"])
        counts["email.null_fraction"] = nulls["unexpected_count"] / nulls["element_count"]
        counts["label.mean"] = float(by_name["label.mean"].result["observed_value"])
    counts.update(TYPED)
    return times, counts, {}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("tool", choices=["soda", "gx"])
    parser.add_argument("--uri", required=True)
    parser.add_argument("--table", required=True)
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()
    times, counts, not_expressible = {"soda": soda, "gx": gx}[args.tool](args.uri, args.table, args.runs)
    print(json.dumps({"times": times, "counts": counts, "not_expressible": not_expressible}))


if __name__ == "__main__":
    main()
