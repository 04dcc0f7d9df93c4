"""The SQL benchmark (issue 13): the benchmark suite's checks (bench/suite.rules.yaml)
over a table in the test PostgreSQL, in one run:

- Griffin --mode pushdown (the planner: with this suite, whose regex and row
  expression PostgreSQL cannot run, the whole suite in one scan) and --mode
  pushdown-split (the aggregate, the sample queries and the engine's scan of the rest);
- Griffin --mode scan (every row through the engine; its peak RSS is reported: scan
  memory is bounded by batch x threads, not by the table);
- the floor: one hand-written aggregate query computing the same counts;
- Soda Core v4 on PostgreSQL and Great Expectations' SQL engine (bench/sql_peers.py,
  run from .venv-bench; --no-peers skips them). Their times are of the verification
  call only (context set up before); Griffin's are its whole process (start, connect,
  run, report); the floor's is the query on an open connection.

Counts are compared first (every tool's count of every check must be equal, but
for GX_DIFFERENCES, each with its reason and bound); then the wall times and the
ratios to the floor are printed. --runs rounds, each running every tool once in the
same order (a peer in a fresh process each round, its setup untimed), so a slow
spell of the machine weighs on every tool alike; each tool's median is reported.

    GRIFFIN_TEST_PG_URI=$(scripts/pg_test_cluster.sh start) \\
        .venv/bin/python bench/run_sql_bench.py --rows 10000000
    .venv/bin/python bench/run_sql_bench.py --quick        # 20,000 rows, one run, peers included
    ... --breakdown     # also each query of griffin sql timed alone: where pushdown spends
"""
import argparse
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import suite  # noqa: E402

TABLE = "griffin_bench.txns"

# Deterministic rows from generate_series; each check has violations.
CREATE = f"""
CREATE SCHEMA IF NOT EXISTS griffin_bench;
DROP TABLE IF EXISTS {TABLE};
CREATE TABLE {TABLE} AS
SELECT CASE WHEN i % 50000 = 7 THEN 'T' || (i - 1) ELSE 'T' || i END AS txn_id,
       CASE WHEN i % 997 = 0 THEN NULL ELSE 'A' || (i % 100000) END AS account_id,
       CASE WHEN i % 100003 = 0 THEN 2e6::float8 ELSE ((i * 7919) % 200000) / 10.0 - 1000 END AS amount,
       (ARRAY['USD', 'EUR', 'GBP', 'JPY', 'XXX'])[1 + (CASE WHEN i % 1009 = 0 THEN 4 ELSE i % 4 END)] AS currency,
       CASE WHEN i % 31 = 0 THEN NULL WHEN i % 101 = 0 THEN 'not-an-email' ELSE 'u' || i || '@example.com' END AS email,
       CASE WHEN i % 23 = 0 THEN 1 WHEN i % 10007 = 0 THEN 2 ELSE 0 END::bigint AS label,
       timestamptz '2024-01-01 00:00:00+00' + (i % 86400) * interval '1 second' AS created_at,
       CASE WHEN i % 2003 = 0 THEN 'USA' ELSE (ARRAY['US', 'DE', 'FR', 'JP'])[1 + i % 4] END AS country,
       CASE WHEN i % 10 = 0 THEN 'refund' ELSE 'sale' END AS kind
FROM generate_series(1::bigint, ROWS) AS i;
ANALYZE {TABLE};
"""

# The floor: the suite's counts in one aggregate, written by hand.
FLOOR = f"""
SELECT count(*) AS rows,
       count(txn_id) - count(DISTINCT txn_id COLLATE "C") AS "txn_id.unique",
       count(*) FILTER (WHERE account_id IS NULL) AS "account_id.not_null",
       0 AS "amount.type",
       count(*) FILTER (WHERE amount > {suite.AMOUNT_MAX} OR amount = 'NaN') AS "amount.max",
       count(*) FILTER (WHERE currency NOT IN ({", ".join(f"'{c}'" for c in suite.CURRENCIES)})) AS "currency.in",
       count(*) FILTER (WHERE email !~ '{suite.EMAIL_RE}') AS "email.regex",
       0 AS "label.type",
       count(*) FILTER (WHERE label NOT IN (0, 1)) AS "label.in",
       0 AS "created_at.type",
       count(*) FILTER (WHERE char_length(country) <> {suite.COUNTRY_LENGTH}) AS "country.length",
       count(*) FILTER (WHERE kind = 'refund' AND NOT (amount < 0)) AS "refunds_are_negative",
       1 - count(email)::float8 / count(*) AS "email.null_fraction",
       avg(label)::float8 AS "label.mean"
FROM {TABLE}
"""


# Where a peer's count may differ from the floor's, why, and the bound checked.
GX_DIFFERENCES = {"txn_id.unique": "expect_column_values_to_be_unique counts every copy of a duplicated "
                                   "value, rules-v1 the second and later copies: floor < gx <= 2 * floor"}
# pushdown: the planner's choice (one scan when checks must run in the engine);
# pushdown-split: the aggregate, the sample queries and the engine's scan of the rest.
MODES = ("pushdown", "pushdown-split", "scan")
PEERS = {"soda": "Soda Core (soda-postgres)", "gx": "Great Expectations (SQL)"}


def run_peer(tool, uri, runs):
    """(median seconds, counts, not expressible) of bench/sql_peers.py's `tool`."""
    python = ROOT / ".venv-bench" / "bin" / "python"
    done = subprocess.run([str(python), str(ROOT / "bench" / "sql_peers.py"), tool, "--uri", uri, "--table", TABLE,
                           "--runs", str(runs)], capture_output=True, text=True, cwd=ROOT / "bench")
    if done.returncode != 0:
        raise SystemExit(f"{tool} failed ({done.returncode}): {done.stderr.strip()[-2000:]}")
    out = json.loads(done.stdout.strip().splitlines()[-1])
    return statistics.median(out["times"]), out["counts"], out["not_expressible"]


def compare_peer(tool, counts, reference):
    """The differences of a peer's counts from the floor's that no documented reason allows."""
    peer = {("rows" if k == "evaluated_rows" else k): v for k, v in counts.items()}
    differ = []
    for line in compare(peer, reference, tool):
        key = line.split(" ")[1].rstrip(":")
        if tool == "gx" and key in GX_DIFFERENCES and reference[key] < peer[key] <= 2 * reference[key]:
            continue
        differ.append(line)
    return differ


def connect(uri):
    import adbc_driver_postgresql.dbapi as dbapi
    return dbapi.connect(uri)


def load(uri, rows, reuse=False):
    with connect(uri) as connection:
        with connection.cursor() as cursor:
            if reuse:
                cursor.execute(f"SELECT to_regclass('{TABLE}') IS NOT NULL")
                if cursor.fetchone()[0]:
                    cursor.execute(f"SELECT count(*) FROM {TABLE}")
                    if cursor.fetchone()[0] == rows:
                        print(f"reusing {TABLE}: it holds {rows:,} rows", flush=True)
                        return
            for statement in CREATE.replace("ROWS", str(int(rows))).split(";"):
                if statement.strip():
                    cursor.execute(statement)
        connection.commit()


def timed_child(args):
    """(seconds, peak RSS in MiB, stdout) of a child process."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        start = time.perf_counter()
        process = subprocess.Popen(args, stdout=out, stderr=err, text=True)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        if process.returncode not in (0, 1):
            raise SystemExit(f"{args[0]} failed ({process.returncode}): {err.read().strip()}")
        return seconds, usage.ru_maxrss / 1024, out.read()


def griffin_counts(report):
    out = {"rows": report["rows"]}
    for check in report["checks"]:
        out[check["name"]] = check["observed"] if "observed" in check else check["violations"]
    return out


def run_griffin(binary, uri, mode, memory_limit=None):
    """(seconds, peak RSS, counts, where its checks ran: {ran_in: count}, whether it spilled)."""
    limit = ["--memory-limit", memory_limit] if memory_limit else []
    seconds, peak, out = timed_child([binary, "validate", "-r", str(suite.RULES_PATH), f"{uri}?table={TABLE}",
                                      "--mode", mode, "--format", "json", "--no-store", *limit])
    report = json.loads(out)
    places = {}
    for check in report["checks"]:
        places[check.get("ran_in", "engine")] = places.get(check.get("ran_in", "engine"), 0) + 1
    return seconds, peak, griffin_counts(report), places, "spill" in report


def run_floor(uri):
    with connect(uri) as connection:
        with connection.cursor() as cursor:
            start = time.perf_counter()
            cursor.execute(FLOOR)
            row = cursor.fetchone()
            seconds = time.perf_counter() - start
            names = [d[0] for d in cursor.description]
    return seconds, dict(zip(names, row))


def breakdown(binary, uri):
    """Each query of `griffin sql` (the aggregate, the sample queries, the engine's
    scan) timed alone on one connection, its result fetched as Arrow: where
    pushdown's time goes. Run as a whole, pushdown runs only the samples of failing
    checks."""
    script = subprocess.run([binary, "sql", "-r", str(suite.RULES_PATH), "--dialect", "postgresql", "--table", TABLE],
                            capture_output=True, text=True, check=True).stdout
    with connect(uri) as connection:
        with connection.cursor() as cursor:
            for statement in script.split(";\n"):
                lines = statement.strip().splitlines()
                sql = "\n".join(line for line in lines if not line.startswith("--"))
                if "SELECT" not in sql:
                    continue
                start = time.perf_counter()
                cursor.execute(sql)
                table = cursor.fetch_arrow_table()
                label = [line for line in lines if line.startswith("-- ")][-1][3:]
                print(f"  {time.perf_counter() - start:7.3f} s  {table.num_rows:9,} rows  {label}")


def compare(counts, reference, name):
    """The names whose counts differ from the reference (floats within 1e-12)."""
    differ = []
    for key, value in reference.items():
        got = counts.get(key)
        if isinstance(value, float) or isinstance(got, float):
            if got is None or abs(float(got) - float(value)) > 1e-12 * max(1.0, abs(float(value))):
                differ.append(f"{name} {key}: {got} vs {value}")
        elif got != value:
            differ.append(f"{name} {key}: {got} vs {value}")
    return differ


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--quick", action="store_true", help="20,000 rows, one run (CI)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--uri", default=os.environ.get("GRIFFIN_TEST_PG_URI"))
    parser.add_argument("--griffin", default=os.environ.get("GRIFFIN_BIN", str(ROOT / "build" / "griffin")))
    parser.add_argument("--json", help="also write the results there")
    parser.add_argument("--no-peers", action="store_true", help="skip Soda and Great Expectations")
    parser.add_argument("--breakdown", action="store_true", help="also time each query of griffin sql alone")
    parser.add_argument("--reuse", action="store_true",
                        help="keep the table when it already holds --rows rows (it is always the same rows)")
    parser.add_argument("--modes", default=",".join(MODES),
                        help="the griffin modes to run, comma-separated (default all: %(default)s)")
    parser.add_argument("--memory-limit", help="griffin's --memory-limit (default its own, 512MB): scan's "
                                                "memory is bounded by it, whatever the table's size")
    args = parser.parse_args()
    if not args.uri:
        raise SystemExit("no PostgreSQL: give --uri or set GRIFFIN_TEST_PG_URI (scripts/pg_test_cluster.sh start)")
    rows, runs = (20_000, 1) if args.quick else (args.rows, args.runs)
    print(f"loading {rows:,} rows into {TABLE} ...", flush=True)
    load(args.uri, rows, args.reuse)

    results = {}
    modes = [mode for mode in MODES if mode in args.modes.split(",")]
    if not modes:
        raise SystemExit(f"--modes: none of {', '.join(MODES)}")
    tools = [] if args.no_peers else list(PEERS)
    # Rounds: each round runs every tool once, in the same order, so a slow
    # spell of this shared machine weighs on every tool alike; medians over rounds.
    times = {name: [] for name in ["floor", *modes, *tools]}
    peaks = {mode: [] for mode in modes}
    floor_counts, counts, places, spilled, peers = None, {}, {}, {}, {}
    for _ in range(runs):
        seconds, floor_counts = run_floor(args.uri)
        times["floor"].append(seconds)
        for mode in modes:
            seconds, peak, counts[mode], places[mode], spilled[mode] = run_griffin(args.griffin, args.uri, mode,
                                                                                   args.memory_limit)
            times[mode].append(seconds)
            peaks[mode].append(peak)
        for tool in tools:
            seconds, peer_counts, not_expressible = run_peer(tool, args.uri, 1)
            times[tool].append(seconds)
            peers[tool] = (seconds, peer_counts, not_expressible)
    for name, values in times.items():
        results[name] = statistics.median(values)
    for mode in modes:
        results[mode + "_peak_rss_mib"] = max(peaks[mode])

    # Counts first: every tool must agree on every check.
    reference = {k: float(v) if k in ("email.null_fraction", "label.mean") else int(v) for k, v in floor_counts.items()}
    differ = []
    for mode in modes:
        differ += compare(counts[mode], reference, f"{mode} vs floor")
    for tool, (_, peer_counts, not_expressible) in peers.items():
        differ += compare_peer(tool, {k: v for k, v in peer_counts.items() if k not in not_expressible}, reference)
    if differ:
        raise SystemExit("counts differ:\n  " + "\n  ".join(differ))
    print(f"counts: equal in griffin {', '.join(modes)} and the floor ({len(reference)} values)"
          + "".join(f"; {PEERS[t]}: equal" + (f" but {', '.join(GX_DIFFERENCES)} (below)" if t == "gx" else "")
                    + (f", not expressible: {', '.join(p[2])}" if p[2] else "") for t, p in peers.items()))
    for key, reason in GX_DIFFERENCES.items():
        if "gx" in peers:
            print(f"  gx {key}: {peers['gx'][1][key]} vs {reference[key]}: {reason}")
    print(f"rows {rows:,}, median of {runs} run(s), PostgreSQL on the same machine")
    print(f"  floor (hand-written aggregate) {results['floor']:.3f} s")
    for mode in modes:
        ran = ", ".join(f"{n} in the {where}" for where, n in sorted(places[mode].items()))
        print(f"  griffin {mode:14s} {results[mode]:.3f} s  = {results[mode] / results['floor']:.2f}x the floor"
              f"  (peak RSS {results[mode + '_peak_rss_mib']:.0f} MiB{', spilled' if spilled[mode] else ''};"
              f" checks: {ran})")
    for tool in peers:
        print(f"  {PEERS[tool]:26s} {results[tool]:.3f} s  = {results[tool] / results['floor']:.2f}x the floor"
              f"  ({tool} / " + ", / ".join(f"griffin {mode} {results[tool] / results[mode]:.2f}" for mode in modes)
              + "; above 1: griffin is faster)")
    if args.breakdown:
        print("pushdown's queries, each alone (griffin sql):")
        breakdown(args.griffin, args.uri)
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps({"rows": rows, "runs": runs, **results}, indent=2))


if __name__ == "__main__":
    main()
