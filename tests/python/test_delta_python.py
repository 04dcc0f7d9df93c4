"""Delta tables in the Python API, wherever its inputs go: Validator.validate(),
Report.split() and iter_batches() take "delta:PATH", a folder holding _delta_log,
time travel (`@v=N`) and tables in S3 (moto's server), read through the engine's
Delta reader. Each report equals `griffin validate`'s JSON report on the same table;
split()'s clean and quarantined rows equal what the CLI's `--clean delta:` and
`--quarantine delta:` commit (read back with the `deltalake` package); a missing
table, a version the log lacks and a corrupt log raise InputError with the CLI's line."""
import json

import deltalake
import pyarrow as pa
import pytest

import delta_tables
import griffin
import griffin.jax
from objectstore_servers import s3_server  # noqa: F401 (fixture)
from test_delta_objectstore import upload
from test_delta_read import RULES, arrow, rows, validate as run_cli
from test_objectstore_python import s3_env  # noqa: F401 (fixture: moto reached through the environment)

VOLATILE = ("run_id", "elapsed_s")
BIG = 1_000_000


def stable(report):
    return {k: v for k, v in report.items() if k not in VOLATILE}


def cli_report(tmp_path, target, *extra):
    done = run_cli(tmp_path, target, *extra)
    assert done.returncode == 1, done.stderr
    return json.loads(done.stdout)


def python_report(target):
    return griffin.Validator.from_yaml(RULES).validate(target, max_violations=BIG, threads=2)


def two_versions(table):
    deltalake.write_deltalake(table, arrow(rows(0, 150)))
    deltalake.write_deltalake(table, arrow(rows(150, 50)), mode="append")
    return table


def sorted_rows(table):
    return sorted(table.to_pylist(), key=lambda r: json.dumps(r, sort_keys=True))


def test_validate_a_table_and_time_travel_like_the_cli(tmp_path):
    table = str(two_versions(tmp_path / "t"))
    for target, version, count in ((f"delta:{table}", 1, 200), (table, 1, 200), (f"{table}@v=0", 0, 150),
                                   (f"delta:{table}@v=1", 1, 200)):
        report = python_report(target)
        assert report.rows == count and not report.passed
        assert report.to_dict()["table_versions"] == [{"table": target, "role": "input", "version": version}]
        assert stable(report.to_dict()) == stable(cli_report(tmp_path, target))


def test_a_folder_holding_delta_log_is_the_table_not_its_parquet_files(tmp_path):
    # An overwrite leaves the first version's Parquet files in the folder: read as a
    # folder of files they would count twice; as the table they are gone.
    table = tmp_path / "t"
    deltalake.write_deltalake(table, arrow(rows(0, 120)))
    deltalake.write_deltalake(table, arrow(rows(500, 40)), mode="overwrite")
    assert len(list(table.glob("*.parquet"))) == 2
    report = python_report(str(table))
    assert report.rows == 40
    assert stable(report.to_dict()) == stable(cli_report(tmp_path, table))
    clean, quarantined = report.split(str(table))
    assert clean.num_rows + quarantined.num_rows == 40
    assert sorted(clean["id"].to_pylist() + quarantined["id"].to_pylist()) == list(range(500, 540))
    batches = list(griffin.iter_batches(str(table), griffin.Validator.from_yaml(RULES), batch_rows=16))
    assert [b.num_rows + r.bad_rows for b, r in batches] == [16, 16, 8]


def cli_outputs(tmp_path, target):
    """The CLI's --clean and --quarantine of `target`, committed to Delta tables, read back."""
    out = tmp_path / "cli-out"
    report = cli_report(tmp_path, target, "--clean", f"delta:{out}/clean", "--quarantine", f"delta:{out}/bad")
    roles = {v["role"]: v["version"] for v in report["table_versions"]}
    assert roles == {"input": roles["input"], "clean": 0, "quarantine": 0}
    return (deltalake.DeltaTable(str(out / "clean")).to_pyarrow_table(),
            deltalake.DeltaTable(str(out / "bad")).to_pyarrow_table())


@pytest.mark.parametrize("kind", ["versions", "deletion_vectors"])
def test_split_and_iter_batches_equal_the_clis_delta_outputs(tmp_path, kind):
    table = tmp_path / "t"
    if kind == "versions":
        two_versions(table)
        target, count = f"{table}@v=0", 150
    else:  # rows 3, 7 of the first file and 0, 5 of the second are deleted
        delta_tables.write_deletion_vector_table(table, arrow(rows(0, 30)), arrow(rows(30, 20)), [3, 7], [0, 5])
        target, count = f"delta:{table}", 46
    report = python_report(target)
    assert report.rows == count
    clean, quarantined = report.split(target)
    cli_clean, cli_bad = cli_outputs(tmp_path, target)
    assert clean.num_rows == cli_clean.num_rows and quarantined.num_rows == cli_bad.num_rows == report.bad_rows
    assert clean.num_rows > 0 and quarantined.num_rows > 0
    assert clean.schema.names == cli_clean.schema.names
    assert quarantined.schema.names == cli_bad.schema.names
    assert sorted_rows(clean) == sorted_rows(cli_clean)
    assert sorted_rows(quarantined) == sorted_rows(cli_bad)
    if kind == "deletion_vectors":
        ids = set(clean["id"].to_pylist()) | set(quarantined["id"].to_pylist())
        assert ids == set(range(50)) - {3, 7, 30, 35}
    # iter_batches: the same rows in order, batch by batch; each batch's clean rows are
    # the split of that batch (rules such as `unique` see one batch at a time).
    validator = griffin.Validator.from_yaml(RULES)
    seen = []
    for batch_clean, batch_report in griffin.iter_batches(target, validator, batch_rows=32):
        assert batch_clean.num_rows == batch_report.rows - batch_report.bad_rows
        seen.append(batch_report.rows)
    assert sum(seen) == count and max(seen) == 32


def test_jax_batches_of_a_table_are_the_clis_clean_rows(tmp_path):
    table = tmp_path / "t"
    delta_tables.write_deletion_vector_table(table, arrow(rows(0, 30)), arrow(rows(30, 20)), [3, 7], [0, 5])
    strict = RULES.replace("  amount:\n    type: float64\n", "  amount:\n    type: float64\n    not_null: true\n")
    assert strict != RULES
    validator = griffin.Validator.from_yaml(strict)
    fed = griffin.jax.batches(f"delta:{table}", validator, columns=["id", "amount"], batch_size=8,
                              drop_remainder=False)
    ids = [int(i) for batch in fed for i in batch["id"].tolist()]
    cli_clean, _ = cli_outputs(tmp_path, f"delta:{table}")  # RULES: amount has no nulls here
    assert ids and sorted(ids) == sorted(cli_clean["id"].to_pylist())
    assert not {3, 7, 30, 35} & set(ids)


def test_a_table_in_s3_through_validate_split_and_iter_batches(s3_env, tmp_path):
    bucket = s3_env.bucket("delta-python")
    local = two_versions(tmp_path / "t")
    upload(s3_env, local, bucket, "tables/t")
    for target, version, count in ((f"s3://{bucket}/tables/t", 1, 200), (f"delta:s3://{bucket}/tables/t@v=0", 0, 150)):
        report = python_report(target)
        assert report.rows == count and report.to_dict()["table_versions"][0]["version"] == version
        assert stable(report.to_dict()) == stable(cli_report(tmp_path, target))
        suffix = target.rsplit("/t", 1)[1]
        assert stable(report.to_dict())["checks"] == stable(python_report(f"{local}{suffix}").to_dict())["checks"]
        clean, quarantined = report.split(target)
        runs = tmp_path / f"v{version}"
        runs.mkdir()
        cli_clean, cli_bad = cli_outputs(runs, target)
        assert sorted_rows(clean) == sorted_rows(cli_clean) and sorted_rows(quarantined) == sorted_rows(cli_bad)
        batches = list(griffin.iter_batches(target, griffin.Validator.from_yaml(RULES), batch_rows=64))
        assert sum(r.rows for _, r in batches) == count
        assert pa.concat_tables([b for b, _ in batches]).num_rows == count - sum(r.bad_rows for _, r in batches)


def bad_tables(tmp_path):
    missing = tmp_path / "none"
    versions = two_versions(tmp_path / "t")
    corrupt = two_versions(tmp_path / "corrupt")
    (corrupt / "_delta_log" / f"{1:020d}.json").write_text('{"add": {"path": "part-x.parquet", "size"\n')
    return {"missing table": f"delta:{missing}", "missing version": f"{versions}@v=9",
            "corrupt log": f"delta:{corrupt}"}


@pytest.mark.parametrize("case", ["missing table", "missing version", "corrupt log"])
def test_bad_tables_raise_input_error_with_the_clis_line(tmp_path, case):
    target = bad_tables(tmp_path)[case]
    cli = run_cli(tmp_path, target)
    assert cli.returncode == 3 and cli.stdout == "", cli.stderr
    assert cli.stderr.count("\n") == 1 and cli.stderr.startswith("griffin: "), cli.stderr
    line = cli.stderr[len("griffin: "):].rstrip("\n")
    assert target.split("@")[0].removeprefix("delta:") in line
    if case == "missing version":
        assert line.endswith("@v=9: no version 9 (the latest version is 1)"), line
    validator = griffin.Validator.from_yaml(RULES)
    with pytest.raises(griffin.InputError) as raised:
        validator.validate(target)
    assert str(raised.value) == line
    with pytest.raises(griffin.InputError) as raised:
        list(griffin.iter_batches(target, validator))
    assert str(raised.value) == line
