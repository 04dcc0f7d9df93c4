"""Delta tables in S3 (moto's server): `delta:s3://bucket/table` reads like the same
table on local disk, time travel included, and `--clean delta:s3://...` commits one
version that the `deltalake` package reads back."""
import json
import pathlib
import subprocess

import deltalake

from griffin_cli import require_binary
from objectstore_servers import s3_server  # noqa: F401 (fixture)
from test_delta_read import RULES, arrow, rows


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
