"""Delta tables in S3 (moto's server) and GCS (fake-gcs-server): `delta:s3://bucket/table`,
or `s3://bucket/table` (a prefix holding _delta_log, found without the prefix as a
local folder is), reads like the same table on local disk, time travel included, with
the checks of the same rows as a local CSV; `--clean delta:s3://...` commits one
version that the `deltalake` package reads back."""
import json
import pathlib
import subprocess

import deltalake
import pyarrow.fs as pafs

from griffin_cli import require_binary
from objectstore_servers import gcs_server, s3_server  # noqa: F401 (fixtures)
from test_delta_read import RULES, arrow, check_counts, csv_of, rows


def griffin(tmp_path, env, *args):
    rules = tmp_path / "rules.yaml"
    rules.write_text(RULES)
    return subprocess.run([str(require_binary()), "validate", "-r", str(rules), *map(str, args), "--no-store",
                           "--format", "json", "--max-violations", "100000"],
                          capture_output=True, text=True, timeout=180, env=env)


def upload(server, local, bucket, prefix):
    for path in sorted(pathlib.Path(local).rglob("*")):
        if path.is_file():
            server.put(f"{bucket}/{prefix}/{path.relative_to(local)}", path.read_bytes())


def stable(report):
    return {k: v for k, v in report.items() if k not in ("run_id", "elapsed_s", "inputs", "table_versions")}


def test_a_table_in_s3_reads_like_the_local_table(s3_server, tmp_path):
    bucket = s3_server.bucket("delta-read")
    local = tmp_path / "t"
    deltalake.write_deltalake(local, arrow(rows(0, 150)))
    deltalake.write_deltalake(local, arrow(rows(150, 50)), mode="append")
    upload(s3_server, local, bucket, "tables/t")
    for suffix, version in (("", 1), ("@v=0", 0)):
        remote = griffin(tmp_path, s3_server.env, f"delta:s3://{bucket}/tables/t{suffix}")
        assert remote.returncode == 1, remote.stderr
        on_disk = griffin(tmp_path, s3_server.env, f"{local}{suffix}")
        assert stable(json.loads(remote.stdout)) == stable(json.loads(on_disk.stdout))
        assert json.loads(remote.stdout)["table_versions"][0]["version"] == version
    missing = griffin(tmp_path, s3_server.env, f"delta:s3://{bucket}/tables/none")
    assert missing.returncode == 3 and missing.stderr.count("\n") == 1, missing.stderr
    assert f"delta:s3://{bucket}/tables/none" in missing.stderr


def test_clean_rows_committed_to_a_table_in_s3(s3_server, tmp_path):
    bucket = s3_server.bucket("delta-write")
    data = tmp_path / "t"
    deltalake.write_deltalake(data, arrow(rows(0, 100)))
    done = griffin(tmp_path, s3_server.env, data, "--clean", f"delta:s3://{bucket}/clean")
    assert done.returncode == 1, done.stderr
    assert json.loads(done.stdout)["table_versions"][-1] == {"table": f"delta:s3://{bucket}/clean", "role": "clean",
                                                             "version": 0}
    env = s3_server.env
    table = deltalake.DeltaTable(f"s3://{bucket}/clean", storage_options={
        "AWS_ENDPOINT_URL": env["AWS_ENDPOINT_URL"], "AWS_ACCESS_KEY_ID": env["AWS_ACCESS_KEY_ID"],
        "AWS_SECRET_ACCESS_KEY": env["AWS_SECRET_ACCESS_KEY"], "AWS_REGION": env["AWS_REGION"],
        "AWS_ALLOW_HTTP": "true"})
    clean = [r for r in rows(0, 100) if r["amount"] >= 0 and r["city"] != "Rome"]
    assert sorted(table.to_pyarrow_table()["id"].to_pylist()) == [r["id"] for r in clean]


def same_as_local(tmp_path, env, remote_table, local_table, suffix):
    remote = griffin(tmp_path, env, remote_table + suffix)
    assert remote.returncode == 1, remote.stderr
    on_disk = griffin(tmp_path, env, f"{local_table}{suffix}")
    assert on_disk.returncode == 1, on_disk.stderr
    assert stable(json.loads(remote.stdout)) == stable(json.loads(on_disk.stdout))
    return json.loads(remote.stdout)


def two_versions(tmp_path):
    local = tmp_path / "t"
    deltalake.write_deltalake(local, arrow(rows(0, 150)))
    deltalake.write_deltalake(local, arrow(rows(150, 50)), mode="append")
    return local


def csv_checks(tmp_path, env, count):
    done = griffin(tmp_path, env, csv_of(tmp_path, arrow(rows(0, count))))
    assert done.returncode == 1, done.stderr
    checks = check_counts(json.loads(done.stdout))
    assert checks[0]["name"] == "malformed" and checks[0]["violations"] == 0
    return checks[1:]


def test_a_prefix_holding_a_delta_log_is_a_table_without_the_prefix(s3_server, tmp_path):
    bucket = s3_server.bucket("delta-detect")
    local = two_versions(tmp_path)
    upload(s3_server, local, bucket, "tables/t")
    for suffix, version, count in (("", 1, 200), ("/", 1, 200), ("@v=0", 0, 150)):
        report = same_as_local(tmp_path, s3_server.env, f"s3://{bucket}/tables/t", local, suffix)
        assert report["rows"] == count
        assert report["table_versions"] == [{"table": f"s3://{bucket}/tables/t{suffix}", "role": "input",
                                             "version": version}]
        assert check_counts(report) == csv_checks(tmp_path, s3_server.env, count)
    # The table's Parquet files are not read as objects of a prefix (nor twice).
    assert len(json.loads(griffin(tmp_path, s3_server.env, f"s3://{bucket}/tables/t").stdout)["inputs"]) == 1
    # A prefix of plain Parquet objects is still a prefix of objects.
    for i, path in enumerate(sorted(local.glob("*.parquet"))):
        s3_server.put(f"{bucket}/plain/{i}.parquet", path.read_bytes())
    plain = griffin(tmp_path, s3_server.env, f"s3://{bucket}/plain/")
    assert plain.returncode == 1, plain.stderr
    assert "table_versions" not in json.loads(plain.stdout) and json.loads(plain.stdout)["rows"] == 200


def test_a_table_in_gcs_reads_like_the_local_table(gcs_server, tmp_path):
    bucket = gcs_server.bucket("delta-gcs")
    local = two_versions(tmp_path)
    upload(gcs_server, local, bucket, "tables/t")
    for prefix, suffix, version, count in (("delta:", "", 1, 200), ("", "", 1, 200), ("", "@v=0", 0, 150),
                                           ("delta:", "@v=0", 0, 150)):
        report = same_as_local(tmp_path, gcs_server.env, f"{prefix}gs://{bucket}/tables/t", local, suffix)
        assert report["rows"] == count and report["table_versions"][0]["version"] == version
        assert check_counts(report) == csv_checks(tmp_path, gcs_server.env, count)
    missing = griffin(tmp_path, gcs_server.env, f"delta:gs://{bucket}/tables/none")
    assert missing.returncode == 3 and missing.stderr.count("\n") == 1, missing.stderr
    assert f"delta:gs://{bucket}/tables/none" in missing.stderr



def test_a_table_output_in_gcs_is_one_line_and_no_commit(gcs_server, tmp_path):
    # fake-gcs-server does not take object_store's XML API PUT (docs/delta.md says what
    # was tried): the run fails with one line naming the output and commits nothing.
    # Should an emulator release take it, this fails and a round-trip test replaces it.
    bucket = gcs_server.bucket("delta-gcs-write")
    data = tmp_path / "t"
    deltalake.write_deltalake(data, arrow(rows(0, 50)))
    done = griffin(tmp_path, gcs_server.env, data, "--clean", f"delta:gs://{bucket}/clean")
    assert done.returncode == 3 and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith(f"griffin: delta:gs://{bucket}/clean: ") and "invalid uploadType" in done.stderr
    listed = gcs_server.fs.get_file_info(pafs.FileSelector(bucket, recursive=True))
    assert not [info.path for info in listed if "_delta_log" in info.path]
