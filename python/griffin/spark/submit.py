"""The job `griffin validate --engine spark` submits (spark-submit runs this
file): griffin.spark.validate over Parquet inputs, the report printed as the
CLI prints it, the run recorded in the store, and the CLI's exit status
(0 passed, 1 failed checks, 2 rules or command line, 3 input or store).

    spark-submit --master URL .../griffin/spark/submit.py --rules R [--key K]... \\
        [--format text|json] [--store URI | --no-store] [--quarantine DIR] [--clean DIR] -- INPUT...

--quarantine / --clean write Parquet folders (Spark's writer)."""
from __future__ import annotations

import argparse
import sys
from typing import List, Optional


def _arguments(argv: Optional[List[str]]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="griffin validate --engine spark")
    parser.add_argument("--rules", required=True)
    parser.add_argument("--format", choices=["text", "json"], default="text")
    parser.add_argument("--max-violations", type=int, default=100)
    parser.add_argument("--key", action="append", default=[])
    parser.add_argument("--store")
    parser.add_argument("--no-store", action="store_true")
    parser.add_argument("--quarantine")
    parser.add_argument("--clean")
    parser.add_argument("inputs", nargs="+")
    return parser.parse_args(argv)


def _text(report: dict) -> str:
    lines = ["%s: %s  rows %d  bad rows %d  quality score %.4f" % (
        report.get("dataset", ""), "PASSED" if report["passed"] else "FAILED", report["rows"], report["bad_rows"],
        report["quality_score"])]
    for error in report.get("schema_errors", []):
        lines.append("  schema: %s: %s" % (error["column"], error["message"]))
    for check in report["checks"]:
        counts = (" %d of %d rows" % (check["violations"], check["evaluated"])) if "violations" in check else ""
        lines.append("  %-4s %s%s" % ("ok" if check["passed"] else "FAIL", check["name"], counts))
    return "\n".join(lines)


def main(argv: Optional[List[str]] = None) -> int:
    args = _arguments(argv)
    import json

    import griffin
    import griffin.spark
    from pyspark.sql import SparkSession
    spark = SparkSession.builder.appName("griffin validate").getOrCreate()
    try:
        try:
            df = spark.read.parquet(*args.inputs)
        except Exception as error:   # noqa: BLE001 - Spark's AnalysisException: a path that is not there
            print("griffin: %s" % str(error).splitlines()[0], file=sys.stderr)
            return 3
        try:
            result = griffin.spark.validate(df, args.rules, key=args.key or None, max_violations=args.max_violations)
            if not args.no_store:
                result.save(args.store or ".griffin/griffin.db")
        except griffin.RuleError as error:
            print("griffin: %s" % error, file=sys.stderr)
            return 2
        except (griffin.GriffinError, ValueError) as error:
            print("griffin: %s" % error, file=sys.stderr)
            return 2 if isinstance(error, ValueError) else 3
        if args.quarantine:
            result.quarantine.write.parquet(args.quarantine)
        if args.clean:
            result.clean.write.parquet(args.clean)
        report = json.loads(result.report.to_json())
        print(result.report.to_json() if args.format == "json" else _text(report))
        return 0 if report["passed"] else 1
    finally:
        spark.stop()


if __name__ == "__main__":
    sys.exit(main())
