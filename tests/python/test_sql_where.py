"""source.where / --where (issue 13, docs/sql.md#where): a predicate in Griffin's own
language, sent as SQL Griffin writes (quoted identifiers, bound values). On SQLite and
DuckDB files and the real PostgreSQL (GRIFFIN_TEST_PG_URI): the verdicts with a where,
in scan, pushdown and pushdown-split modes, equal `griffin validate` on the filtered
rows as a Parquet file; a where outside the language is refused at load (exit 2, one
line naming the file and line); `griffin sql` prints placeholders and their values.
Hostile values (bound harmlessly) are in test_sql_sources.py and
test_sql_serve_and_safety.py.
"""
import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import griffin
from test_sql_sources import TABLES, run_cli, rules  # noqa: F401  (rules is a fixture)

WHERE = "(k BETWEEN 1 AND 3 OR k IS NULL) AND s NOT IN ('zz', 'b') AND id <> -5 AND NOT (s LIKE 'é%')"


def keep(row):
    """WHERE, in Python, for the reference rows (NULL makes a comparison unknown: not kept)."""
    k, s, row_id = row["k"], row["s"], row["id"]
    return ((k is None or 1 <= k <= 3) and s is not None and s not in ("zz", "b") and row_id is not None
            and row_id != -5 and not s.startswith("é"))


def report(rules, source, *extra):
    done = run_cli("validate", "-r", rules, source, "--format", "json", "--no-store", *extra)
    assert done.returncode in (0, 1), done.stderr
    out = json.loads(done.stdout)
    for check in out["checks"]:
        check.pop("ran_in", None)
        check.pop("ran_in_reason", None)
    return {key: out[key] for key in ("rows", "bad_rows", "passed", "schema_errors", "checks", "violations")}


@pytest.mark.parametrize("engine", sorted(TABLES))
def test_a_where_gives_the_verdicts_of_the_filtered_rows_as_a_file(engine, rules, tmp_path):  # noqa: F811
    uri, reference = TABLES[engine](tmp_path)
    kept = reference.filter(pa.array([keep(row) for row in reference.to_pylist()]))
    parquet = tmp_path / "kept.parquet"
    pq.write_table(kept, parquet)
    from_file = report(rules, parquet)
    assert 0 < from_file["rows"] < reference.num_rows
    for mode in ("scan", "pushdown", "pushdown-split"):
        assert report(rules, uri, "--where", WHERE, "--mode", mode) == from_file, mode
    # The same predicate from the rule file, and in Python.
    with_source = tmp_path / "where.rules.yaml"
    with_source.write_text(rules.read_text().replace("dataset: sql_scan\n",
                                                     f"dataset: sql_scan\nsource:\n  where: \"{WHERE}\"\n"))
    assert report(with_source, uri) == from_file
    py = griffin.Validator.from_yaml(str(with_source)).validate(uri)
    assert (py.rows, py.bad_rows) == (from_file["rows"], from_file["bad_rows"])


def test_a_where_outside_the_language_is_refused_at_load(rules, tmp_path):  # noqa: F811
    uri, _ = TABLES["sqlite"](tmp_path)
    bad = tmp_path / "bad.rules.yaml"
    bad.write_text(rules.read_text().replace("dataset: sql_scan\n",
                                             "dataset: sql_scan\nsource:\n  where: \"k > 1; DROP TABLE rows\"\n"))
    done = run_cli("validate", "-r", bad, uri, "--no-store")
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert f"{bad}:4: source.where: at offset 5: unexpected character ';'" in done.stderr, done.stderr
    with pytest.raises(griffin.RuleError, match="source.where: at offset 5"):
        griffin.Validator.from_yaml(str(bad))
    done = run_cli("validate", "-r", rules, uri, "--no-store", "--where", "lower(s) = 'a'")
    assert done.returncode == 2 and done.stderr.startswith("griffin: --where: at offset 5: "), done.stderr
    # A column the source lacks: one line, exit 3 (SQLite would take "nope" for a string).
    done = run_cli("validate", "-r", rules, uri, "--no-store", "--where", "nope = 1")
    assert done.returncode == 3 and "where names column 'nope', which the source does not have" in done.stderr


def test_griffin_sql_prints_placeholders_and_their_values(rules):  # noqa: F811
    where = "s = 'it''s' AND k IN (1, 2) AND d >= DATE '2026-12-01'"
    for dialect, first in (("postgresql", '"s" = $1'), ("duckdb", '"s" = $1'), ("sqlite", '"s" = ?1')):
        done = run_cli("sql", "-r", rules, "--dialect", dialect, "--table", "t", "--where", where)
        assert done.returncode == 0, done.stderr
        assert first in done.stdout and "it''s" not in done.stdout.split("\n", 2)[2], done.stdout
        mark = first.split(" = ")[1][0]
        assert (f"-- where's bound parameters: {mark}1 = 'it''s', {mark}2 = 1, {mark}3 = 2, "
                f"{mark}4 = DATE '2026-12-01'\n") in done.stdout
    spark = run_cli("sql", "-r", rules, "--dialect", "spark", "--table", "t", "--where", where)
    assert spark.returncode == 0 and "(`s` = 'it\\'s')" in spark.stdout, spark.stdout
    done = run_cli("sql", "-r", rules, "--dialect", "sqlite", "--table", "t", "--where", "1=1; DROP TABLE t")
    assert done.returncode == 2 and done.stderr.startswith("griffin: --where: at offset 3"), done.stderr
