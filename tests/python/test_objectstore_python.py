"""griffin.Validator.validate("s3://...") against a real S3 server (moto): the
report equals validate() on the same local file and `griffin validate` on the
object; a wrong object raises InputError naming the URI."""
import json
import os

import pytest

import griffin
from objectstore_servers import s3_server  # noqa: F401 (fixture)
from test_objectstore_inputs import ROWS, RULES, file_bytes, griffin as run_cli

VOLATILE = ("run_id", "elapsed_s", "inputs")


def stable(report_dict):
    return {k: v for k, v in report_dict.items() if k not in VOLATILE}


@pytest.fixture
def s3_env(s3_server, monkeypatch):
    for name in ("AWS_PROFILE", "AWS_SESSION_TOKEN", "AWS_ENDPOINT_URL_S3"):
        monkeypatch.delenv(name, raising=False)
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_REGION", "AWS_EC2_METADATA_DISABLED",
                 "AWS_ENDPOINT_URL"):
        monkeypatch.setenv(name, s3_server.env[name])
    return s3_server


@pytest.mark.parametrize("name", ["data.csv.gz", "data.parquet", "data.jsonl"])
def test_validate_an_object_like_the_local_file_and_the_cli(s3_env, tmp_path, name):
    bucket = s3_env.bucket("python")
    s3_env.put(f"{bucket}/{name}", file_bytes(name))
    local = tmp_path / name
    local.write_bytes(file_bytes(name))
    validator = griffin.Validator.from_yaml(RULES)
    uri = f"s3://{bucket}/{name}"
    remote = validator.validate(uri, threads=2, max_violations=1000)
    assert remote.bad_rows >= 4 and not remote.passed
    assert stable(remote.to_dict()) == stable(validator.validate(str(local), threads=2, max_violations=1000).to_dict())
    rules = tmp_path / "rules.yaml"
    rules.write_text(RULES)
    cli = run_cli(["validate", "-r", rules, uri, "--format", "json", "--no-store", "--max-violations", "1000"],
                  s3_env.env)
    assert cli.returncode == 1, cli.stderr.decode()
    assert stable(json.loads(cli.stdout)) == stable(remote.to_dict())


def test_a_prefix_and_a_missing_object(s3_env, tmp_path):
    bucket = s3_env.bucket("pyprefix")
    s3_env.put(f"{bucket}/day/a.csv", file_bytes("data.csv"))
    s3_env.put(f"{bucket}/day/b.parquet", file_bytes("data.parquet"))
    validator = griffin.Validator.from_yaml(RULES)
    folder = tmp_path / "day"
    folder.mkdir()
    (folder / "a.csv").write_bytes(file_bytes("data.csv"))
    (folder / "b.parquet").write_bytes(file_bytes("data.parquet"))
    prefix = validator.validate(f"s3://{bucket}/day/", max_violations=1000)
    listed = validator.validate([f"s3://{bucket}/day/a.csv", f"s3://{bucket}/day/b.parquet"], max_violations=1000)
    local = validator.validate(str(folder), max_violations=1000)
    assert prefix.rows == 2 * len(ROWS) + 1
    assert stable(prefix.to_dict()) == stable(listed.to_dict()) == stable(local.to_dict())
    with pytest.raises(griffin.InputError, match=f"s3://{bucket}/day/missing.csv: no such object"):
        validator.validate(f"s3://{bucket}/day/missing.csv")
