"""s3:// inputs against a real S3 server (moto): every input format and
compression, prefixes, the endpoint override, and the wrong inputs. The
verdicts, --quarantine and --clean of an object equal `griffin validate` on the
same file read locally."""
import gzip
import json
import os
import pathlib
import subprocess
import time

import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.feather as feather
import pyarrow.parquet as pq
import pytest

from griffin_cli import require_binary
from objectstore_servers import running_moto, s3_server  # noqa: F401 (fixture)

RULES = """griffin: 1
dataset: objects
columns:
  id:
    type: int64
    not_null: true
    unique: true
  amount:
    type: float64
    min: 0
  city:
    type: string
    in: [Oslo, Lima, Pune]
"""

ROWS = [
    {"id": 1, "amount": 10.5, "city": "Oslo"},
    {"id": 2, "amount": -3.0, "city": "Lima"},   # amount.min
    {"id": 3, "amount": 7.0, "city": "Rome"},    # city.in
    {"id": 1, "amount": 8.0, "city": "Pune"},    # id.unique
    {"id": 4, "amount": None, "city": None},
    {"id": None, "amount": 9.0, "city": "Oslo"},  # id.not_null
] + [{"id": 10 + i, "amount": float(i), "city": "Pune"} for i in range(200)]
MALFORMED_CSV_LINE = "5,1,Oslo,extra\n"


def csv_text(delimiter=","):
    def cell(v):
        return "" if v is None else (str(int(v)) if isinstance(v, float) and v.is_integer() else str(v))
    lines = [delimiter.join(["id", "amount", "city"])]
    lines += [delimiter.join(cell(r[k]) for k in ("id", "amount", "city")) for r in ROWS]
    return "\n".join(lines[:4]) + "\n" + MALFORMED_CSV_LINE.replace(",", delimiter) + "\n".join(lines[4:]) + "\n"


def jsonl_text():
    return "".join(json.dumps(r) + "\n" for r in ROWS) + "{not json\n"


def table():
    return pa.Table.from_pylist(ROWS, schema=pa.schema([("id", pa.int64()), ("amount", pa.float64()),
                                                        ("city", pa.string())]))


def file_bytes(name):
    """The bytes of input `name` (its extension says the format and compression)."""
    base = name.removesuffix(".gz").removesuffix(".zst")
    if base.endswith(".csv"):
        data = csv_text().encode()
    elif base.endswith(".tsv"):
        data = csv_text("\t").encode()
    elif base.endswith(".jsonl"):
        data = jsonl_text().encode()
    elif base.endswith(".json"):
        data = json.dumps(ROWS).encode()
    elif base.endswith(".parquet"):
        sink = pa.BufferOutputStream()
        pq.write_table(table(), sink, row_group_size=50)
        data = sink.getvalue().to_pybytes()
    elif base.endswith(".arrow"):
        sink = pa.BufferOutputStream()
        feather.write_feather(table(), sink, compression="uncompressed", chunksize=64)
        data = sink.getvalue().to_pybytes()
    else:
        raise ValueError(name)
    if name.endswith(".gz"):
        return gzip.compress(data)
    if name.endswith(".zst"):
        return _zstd(data)
    return data


def _zstd(data):
    return pa.compress(data, codec="zstd", asbytes=True)


def griffin(args, env, timeout=120):
    return subprocess.run([str(require_binary()), *map(str, args)], capture_output=True, env=env, timeout=timeout)


def validate(inputs, tmp, env, outputs_suffix=None, extra=()):
    """(exit, report without volatile fields, quarantine bytes, clean bytes)."""
    rules = tmp / "rules.yaml"
    rules.write_text(RULES)
    args = ["validate", "-r", rules, *inputs, "--format", "json", "--no-store", "--threads", "2", *extra]
    tag = str(abs(hash(tuple(map(str, inputs)))))
    quarantine = clean = None
    if outputs_suffix:
        quarantine = tmp / f"q{tag}{outputs_suffix}"
        clean = tmp / f"c{tag}{outputs_suffix}"
        args += ["--quarantine", quarantine, "--clean", clean]
    done = griffin(args, env)
    assert done.returncode in (0, 1), done.stderr.decode()
    report = json.loads(done.stdout)
    for key in ("run_id", "elapsed_s", "inputs"):
        report.pop(key, None)
    return (done.returncode, report, quarantine.read_bytes() if quarantine else None,
            clean.read_bytes() if clean else None)


FORMATS = ["data.csv", "data.csv.gz", "data.csv.zst", "data.tsv", "data.jsonl", "data.jsonl.gz",
           "data.json", "data.parquet", "data.arrow"]


@pytest.mark.parametrize("name", FORMATS)
def test_an_object_gives_the_verdicts_and_outputs_of_the_same_local_file(s3_server, tmp_path, name):
    bucket = s3_server.bucket("formats")
    data = file_bytes(name)
    local = tmp_path / name
    local.write_bytes(data)
    s3_server.put(f"{bucket}/in/{name}", data)
    out = ".parquet" if name.endswith((".parquet", ".arrow")) else ".csv" if ".csv" in name else ".jsonl"
    if ".tsv" in name:
        out = ".tsv"
    want = validate([local], tmp_path, s3_server.env, out)
    got = validate([f"s3://{bucket}/in/{name}"], tmp_path, s3_server.env, out)
    assert got[0] == want[0] == 1
    assert got[1] == want[1]
    assert want[1]["bad_rows"] >= 4
    assert got[2] == want[2], "quarantine differs"
    assert got[3] == want[3], "clean differs"


def test_a_prefix_reads_its_supported_objects_in_key_order_like_a_local_folder(s3_server, tmp_path):
    bucket = s3_server.bucket("prefix")
    folder = tmp_path / "folder"
    (folder / "sub").mkdir(parents=True)
    parts = {"a.csv": file_bytes("data.csv"), "sub/b.jsonl.gz": file_bytes("data.jsonl.gz"),
             "c.parquet": file_bytes("data.parquet")}
    for key, data in parts.items():
        (folder / key).write_bytes(data)
        s3_server.put(f"{bucket}/day/{key}", data)
    s3_server.put(f"{bucket}/day/_SUCCESS", b"")
    s3_server.put(f"{bucket}/day/notes.txt", b"not an input")
    s3_server.put(f"{bucket}/other/x.csv", b"id\n1\n")
    want = validate([folder], tmp_path, s3_server.env)
    for uri in (f"s3://{bucket}/day/", f"s3://{bucket}/day"):
        got = validate([uri], tmp_path, s3_server.env)
        assert got[1] == want[1], uri
        assert got[1]["rows"] == 3 * len(ROWS) + 2  # the malformed CSV and JSON lines included


def test_the_endpoint_comes_from_the_uri_without_the_environment(s3_server, tmp_path):
    bucket = s3_server.bucket("endpoint")
    s3_server.put(f"{bucket}/x.csv", file_bytes("data.csv"))
    env = dict(s3_server.env)
    del env["AWS_ENDPOINT_URL"]
    local = tmp_path / "x.csv"
    local.write_bytes(file_bytes("data.csv"))
    want = validate([local], tmp_path, env)
    got = validate([f"s3://{bucket}/x.csv?endpoint={s3_server.endpoint}"], tmp_path, env)
    assert got[1] == want[1]


def test_many_blocks_stream_through_the_read_ahead(s3_server, tmp_path):
    # 30 MB: several 8 MiB read-ahead blocks, records cut across block edges.
    bucket = s3_server.bucket("large")
    data = ("id,amount,city\n" + "".join(f"{i},{i % 97}.5,Pune\n" for i in range(1_600_000))).encode()
    s3_server.put(f"{bucket}/big.csv", data)
    local = tmp_path / "big.csv"
    local.write_bytes(data)
    rules = "griffin: 1\ndataset: big\ncolumns:\n  id: {type: int64, unique: true}\n  amount: {type: float64, max: 90}\n"
    (tmp_path / "big.yaml").write_text(rules)
    def run(inp):
        done = griffin(["validate", "-r", tmp_path / "big.yaml", inp, "--format", "json", "--no-store"], s3_server.env)
        assert done.returncode == 1, done.stderr.decode()
        report = json.loads(done.stdout)
        return {k: v for k, v in report.items() if k not in ("run_id", "elapsed_s", "inputs")}
    assert run(f"s3://{bucket}/big.csv") == run(local)


def one_line_error(done, uri):
    err = done.stderr.decode()
    assert done.returncode == 3, (done.returncode, err)
    assert err.count("\n") == 1 and err.startswith("griffin: "), err
    assert uri in err, err
    return err


def test_wrong_inputs_give_one_line_naming_the_uri_and_exit_3(s3_server, tmp_path):
    bucket = s3_server.bucket("wrong")
    rules = tmp_path / "rules.yaml"
    rules.write_text(RULES)
    s3_server.put(f"{bucket}/empty/notes.txt", b"x")
    gz = gzip.compress(csv_text().encode() * 50)
    s3_server.put(f"{bucket}/cut.csv.gz", gz[: len(gz) // 2])
    s3_server.put(f"{bucket}/corrupt.parquet", b"PAR1" + os.urandom(300) + b"PAR1")
    parquet = file_bytes("data.parquet")
    s3_server.put(f"{bucket}/cut.parquet", parquet[: len(parquet) // 2])  # an upload cut short
    s3_server.put(f"{bucket}/data.csv", file_bytes("data.csv"))
    cases = {
        "s3://no-such-bucket-here/x.csv": "no such bucket 'no-such-bucket-here'",
        f"s3://{bucket}/nothing/": "prefix holds no supported input files",
        f"s3://{bucket}/missing.csv": "no such object",
        f"s3://{bucket}/empty/": "prefix holds no supported input files",
        f"s3://{bucket}/cut.csv.gz": "truncated gzip stream",
        f"s3://{bucket}/corrupt.parquet": "",
        f"s3://{bucket}/cut.parquet": "",
    }
    for uri, words in cases.items():
        done = griffin(["validate", "-r", rules, uri, "--no-store"], s3_server.env)
        err = one_line_error(done, uri)
        assert words in err, err


def test_an_endpoint_that_is_down_fails_fast_with_one_line(s3_server, tmp_path):
    rules = tmp_path / "rules.yaml"
    rules.write_text(RULES)
    from objectstore_servers import free_port
    uri = f"s3://bucket/x.csv?endpoint=http://127.0.0.1:{free_port()}"
    started = time.monotonic()
    done = griffin(["validate", "-r", rules, uri, "--no-store"], s3_server.env, timeout=60)
    elapsed = time.monotonic() - started
    one_line_error(done, "s3://bucket/x.csv")
    assert elapsed < 30, elapsed


def test_refused_credentials_give_one_line_and_exit_3(tmp_path, monkeypatch):
    # A second moto server that checks credentials from its first request on:
    # the keys in the environment belong to no IAM user there.
    monkeypatch.setenv("INITIAL_NO_AUTH_ACTION_COUNT", "0")
    with running_moto() as strict:
        rules = tmp_path / "rules.yaml"
        rules.write_text(RULES)
        uri = "s3://locked/data.csv"
        done = griffin(["validate", "-r", rules, uri, "--no-store"], strict.env)
        err = one_line_error(done, uri)
        assert "ACCESS_DENIED" in err, err


def make_iam_user(server):
    """An IAM user of `server` (moto checking credentials) allowed everything:
    its (access key, secret key). Made with boto3 from moto's own venv (the
    first requests of a strict moto are not checked)."""
    from objectstore_servers import server_program
    python = pathlib.Path(server_program("moto_server")).parent / "python"
    script = f"""
import boto3, json
iam = boto3.client("iam", endpoint_url="{server.endpoint}", region_name="us-east-1",
                   aws_access_key_id="setup", aws_secret_access_key="setup")
iam.create_user(UserName="reader")
key = iam.create_access_key(UserName="reader")["AccessKey"]
iam.put_user_policy(UserName="reader", PolicyName="all", PolicyDocument=json.dumps(
    {{"Version": "2012-10-17", "Statement": [{{"Effect": "Allow", "Action": "*", "Resource": "*"}}]}}))
print(key["AccessKeyId"], key["SecretAccessKey"])
"""
    done = subprocess.run([str(python), "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_credentials_from_a_profile_in_the_shared_files(tmp_path, monkeypatch):
    # moto checks credentials after its first 3 requests (the IAM set-up): only
    # the keys of the profile in the shared files can read, none are in the
    # environment, and the endpoint comes from AWS_ENDPOINT_URL.
    monkeypatch.setenv("INITIAL_NO_AUTH_ACTION_COUNT", "3")
    with running_moto() as strict:
        access, secret = make_iam_user(strict)
        fs = strict.fs_with_keys(access, secret)
        fs.create_dir("profiled")
        with fs.open_output_stream("profiled/data.csv") as out:
            out.write(file_bytes("data.csv"))
        credentials = tmp_path / "credentials"
        credentials.write_text(f"[griffin-test]\naws_access_key_id = {access}\naws_secret_access_key = {secret}\n")
        config = tmp_path / "config"
        config.write_text("[profile griffin-test]\nregion = us-east-1\n")
        env = dict(strict.env, AWS_PROFILE="griffin-test", AWS_SHARED_CREDENTIALS_FILE=str(credentials),
                   AWS_CONFIG_FILE=str(config), HOME=str(tmp_path))
        for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_REGION", "AWS_DEFAULT_REGION"):
            env.pop(name, None)
        local = tmp_path / "data.csv"
        local.write_bytes(file_bytes("data.csv"))
        assert validate(["s3://profiled/data.csv"], tmp_path, env)[1] == validate([local], tmp_path, env)[1]
        # Another profile has no keys there: refused, one line, exit 3.
        rules = tmp_path / "rules.yaml"
        done = griffin(["validate", "-r", rules, "s3://profiled/data.csv", "--no-store"],
                       dict(env, AWS_PROFILE="nobody"))
        one_line_error(done, "s3://profiled/data.csv")
