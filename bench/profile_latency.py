#!/usr/bin/env python3
"""Where Griffin's 10,000-row latency goes: CPU time per validate() call of the
peer suite (bench/suite.rules.yaml), then with its costliest checks removed one
by one. Single-threaded (threads=1), so CPU time is the work itself; run in .venv.

    .venv/bin/python bench/profile_latency.py [--calls 200]
"""
import argparse
import pathlib
import statistics
import sys
import time

BENCH_DIR = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH_DIR))

import datasets  # noqa: E402
import suite  # noqa: E402

EMAIL = "    regex: {pattern: '^[^@\\s]+@[^@\\s]+\\.[A-Za-z]{2,}$', mostly: 0.98, severity: warn}\n"
CREATED_AT = "  created_at:\n    type: timestamp\n"
UNIQUE = "  txn_id:\n    unique: true\n"


def variants():
    full = suite.RULES_PATH.read_text()
    for removed in (EMAIL, CREATED_AT, UNIQUE):
        if removed not in full:
            raise SystemExit(f"bench/suite.rules.yaml no longer holds {removed!r}")
    no_regex = full.replace(EMAIL, "")
    no_timestamp = no_regex.replace(CREATED_AT, "")
    return {"the suite (13 checks)": full, "without email.regex": no_regex,
            "... and without created_at.type": no_timestamp,
            "... and without txn_id.unique": no_timestamp.replace(UNIQUE, "")}


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=200)
    args = parser.parse_args(argv)
    import griffin
    import pyarrow.parquet as pq
    table = pq.read_table(datasets.transactions(10_000, "parquet"))
    for name, text in variants().items():
        validator = griffin.Validator.from_yaml(text)
        for _ in range(10):
            validator.validate(table, max_violations=0, threads=1)
        cpu = []
        for _ in range(args.calls):
            started = time.process_time()
            validator.validate(table, max_violations=0, threads=1)
            cpu.append(time.process_time() - started)
        checks = len(validator.validate(table, max_violations=0).checks)
        print(f"{name:<34} {checks:2d} checks  median CPU per call {statistics.median(cpu) * 1e6:7,.0f} µs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
