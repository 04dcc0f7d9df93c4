"""S3 credentials from instance metadata: the last link of the AWS chain, served by
AWS's own metadata emulator (amazon-ec2-metadata-mock) on 127.0.0.1, named by
AWS_EC2_METADATA_SERVICE_ENDPOINT. moto checks credentials, and the only keys that
can read are an assumed role's (key, secret and session token), which only the
metadata emulator hands out: no keys in the environment, no profile, no shared
files. This holds for objects (the AWS C++ SDK's chain) and for Delta tables (the
kernel's object_store, which the same variable points at the emulator). The
verdicts equal `griffin validate` of the same rows read locally."""
import pathlib
import re
import subprocess

import deltalake

from objectstore_servers import free_port, running_imds, running_moto, server_program
from test_delta_read import arrow, rows
from test_objectstore_inputs import file_bytes, griffin, one_line_error, validate

ROLE = "griffin-reader"


def assumed_role_keys(server):
    """(access key, secret key, session token) of ROLE, made and assumed in `server`
    (moto checking credentials after these 3 requests) with boto3 from moto's venv."""
    python = pathlib.Path(server_program("moto_server")).parent / "python"
    script = f"""
import boto3, json
kw = dict(endpoint_url="{server.endpoint}", region_name="us-east-1", aws_access_key_id="setup",
          aws_secret_access_key="setup")
trust = {{"Version": "2012-10-17", "Statement": [{{"Effect": "Allow", "Action": "sts:AssumeRole",
          "Principal": {{"Service": "ec2.amazonaws.com"}}}}]}}
role = boto3.client("iam", **kw).create_role(RoleName="{ROLE}", AssumeRolePolicyDocument=json.dumps(trust))
boto3.client("iam", **kw).put_role_policy(RoleName="{ROLE}", PolicyName="all", PolicyDocument=json.dumps(
    {{"Version": "2012-10-17", "Statement": [{{"Effect": "Allow", "Action": "*", "Resource": "*"}}]}}))
keys = boto3.client("sts", **kw).assume_role(RoleArn=role["Role"]["Arn"], RoleSessionName="i-0griffin")
print(keys["Credentials"]["AccessKeyId"], keys["Credentials"]["SecretAccessKey"], keys["Credentials"]["SessionToken"])
"""
    done = subprocess.run([str(python), "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def chain_env(server, tmp_path, imds_endpoint):
    """An environment whose only credentials are the instance metadata's."""
    env = dict(server.env, AWS_EC2_METADATA_SERVICE_ENDPOINT=imds_endpoint, HOME=str(tmp_path),
               AWS_SHARED_CREDENTIALS_FILE=str(tmp_path / "no-credentials"),
               AWS_CONFIG_FILE=str(tmp_path / "no-config"))
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE",
                 "AWS_EC2_METADATA_DISABLED", "AWS_WEB_IDENTITY_TOKEN_FILE", "AWS_ROLE_ARN",
                 "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "AWS_CONTAINER_CREDENTIALS_FULL_URI"):
        env.pop(name, None)
    return env


def test_credentials_from_instance_metadata(tmp_path, monkeypatch):
    monkeypatch.setenv("INITIAL_NO_AUTH_ACTION_COUNT", "3")
    with running_moto() as strict:
        access, secret, token = assumed_role_keys(strict)
        fs = strict.fs_with_keys(access, secret, token)
        fs.create_dir("instance")
        with fs.open_output_stream("instance/data.csv") as out:
            out.write(file_bytes("data.csv"))
        local = tmp_path / "data.csv"
        local.write_bytes(file_bytes("data.csv"))
        uri = "s3://instance/data.csv"
        table = tmp_path / "table"
        deltalake.write_deltalake(table, arrow(rows(0, 150)))
        for path in sorted(table.rglob("*")):
            if path.is_file():
                with fs.open_output_stream(f"instance/table/{path.relative_to(table)}") as out:
                    out.write(path.read_bytes())

        with running_imds(tmp_path, ROLE, access, secret, token) as imds:
            env = chain_env(strict, tmp_path, imds.endpoint)
            remote = validate([uri], tmp_path, env)
            assert remote == validate([local], tmp_path, env) and remote[1]["rows"] > 200
            # The SDK asked the emulator for the role and then its keys.
            requests = imds.log.read_text()
            assert re.search(f"security-credentials/{ROLE}\\b", requests), requests
            # A Delta table in the bucket: the kernel's store takes the same keys.
            remote_table = validate(["delta:s3://instance/table"], tmp_path, env)
            local_table = validate([f"delta:{table}"], tmp_path, env)
            for report in (remote_table[1], local_table[1]):
                report.pop("table_versions")
            assert remote_table == local_table and remote_table[1]["rows"] == 150

        # The metadata serves the role's key with another session token: moto refuses it.
        with running_imds(tmp_path, ROLE, access, secret, "wrong" + token) as imds:
            done = griffin(["validate", "-r", tmp_path / "rules.yaml", uri, "--no-store"],
                           chain_env(strict, tmp_path, imds.endpoint))
            one_line_error(done, uri)
            assert f"security-credentials/{ROLE}" in imds.log.read_text()

        # No metadata service at all: no credentials, one line, exit 3.
        for source in (uri, "delta:s3://instance/table"):
            done = griffin(["validate", "-r", tmp_path / "rules.yaml", source, "--no-store"],
                           chain_env(strict, tmp_path, f"http://127.0.0.1:{free_port()}"), timeout=90)
            one_line_error(done, source)
