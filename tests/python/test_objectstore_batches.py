"""griffin.iter_batches() and Report.split() on s3:// and gs:// URIs, against
moto and fake-gcs-server: the batches of an object hold the rows of the same
local file, and their row-level verdicts add up to `griffin validate` on the
object; a prefix reads its objects as the CLI does; wrong URIs raise InputError
naming them."""
import json
import warnings

import pyarrow as pa
import pytest

import griffin
from objectstore_servers import gcs_server, s3_server  # noqa: F401 (fixtures)
from test_objectstore_inputs import ROWS, RULES, file_bytes, griffin as run_cli
from test_objectstore_python import s3_env  # noqa: F401 (fixture)
from test_package_batches import row_level_counts

FORMATS = ["data.csv.gz", "data.tsv", "data.parquet", "data.arrow", "data.json", "data.csv.zst"]


@pytest.fixture
def gcs_env(gcs_server, monkeypatch):  # noqa: F811
    monkeypatch.setenv("STORAGE_EMULATOR_HOST", gcs_server.endpoint)
    return gcs_server


@pytest.fixture(params=["s3", "gs"])
def store(request):
    """(scheme, server) with the environment set for the process's own reads."""
    name = "s3_env" if request.param == "s3" else "gcs_env"
    return request.param, request.getfixturevalue(name)


def batches(paths, validator, batch_rows):
    """[(clean, report)], and the number of malformed records pyarrow skipped."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = list(griffin.iter_batches(paths, validator, batch_rows=batch_rows, max_violations=10_000))
    skipped = [w for w in caught if "malformed CSV record" in str(w.message)]
    return out, int(str(skipped[0].message).split(": ")[1].split()[0]) if skipped else 0


def cli_report(uri, tmp_path, env):
    rules = tmp_path / "rules.yaml"
    rules.write_text(RULES)
    done = run_cli(["validate", "-r", rules, uri, "--format", "json", "--no-store", "--max-violations", "10000"], env)
    assert done.returncode == 1, done.stderr.decode()
    return json.loads(done.stdout)


def object_and_file(store, tmp_path, bucket, key, name):
    """Input `name`'s bytes as object `key` of a fresh bucket and as a local
    file: (the object's URI, the file's path)."""
    scheme, server = store
    server.bucket(bucket)
    server.put(f"{bucket}/{key}", file_bytes(name))
    local = tmp_path / key.rsplit("/", 1)[-1]
    local.write_bytes(file_bytes(name))
    return f"{scheme}://{bucket}/{key}", local


def stable(report):
    return {k: v for k, v in report.to_dict().items() if k not in ("run_id", "elapsed_s", "inputs")}


@pytest.mark.parametrize("name", FORMATS)
def test_batches_of_an_object_are_those_of_the_local_file_and_add_up_to_the_cli(store, tmp_path, name):
    _, server = store
    uri, local = object_and_file(store, tmp_path, "batches", f"in/{name}", name)
    validator = griffin.Validator.from_yaml(RULES)
    remote, remote_skipped = batches(uri, validator, 64)
    near, near_skipped = batches(str(local), validator, 64)
    assert len(remote) == len(near) == -(-len(ROWS) // 64)
    assert remote_skipped == near_skipped
    for (clean, report), (local_clean, local_report) in zip(remote, near):
        assert clean.equals(local_clean)
        assert stable(report) == stable(local_report)
    cli = cli_report(uri, tmp_path, server.env)
    reports = [report for _, report in remote]
    assert sum(r.rows for r in reports) + remote_skipped == cli["rows"]
    assert row_level_counts(reports) == row_level_counts([cli])
    assert sum(r.bad_rows for r in reports) > 0


def test_a_prefix_reads_its_objects_like_a_local_folder(store, tmp_path):
    scheme, server = store
    bucket = server.bucket("bprefix")
    folder = tmp_path / "day"
    folder.mkdir()
    for name in ("a.csv", "b.parquet", "c.arrow"):
        server.put(f"{bucket}/day/{name}", file_bytes("data" + name[1:]))
        (folder / name).write_bytes(file_bytes("data" + name[1:]))
    server.put(f"{bucket}/day/_SUCCESS", b"")
    validator = griffin.Validator.from_yaml(RULES)
    remote, _ = batches(f"{scheme}://{bucket}/day/", validator, 100)
    near, _ = batches(folder, validator, 100)
    assert [r.rows for _, r in remote] == [r.rows for _, r in near] == [100, 100, 6] * 3
    assert all(c.equals(n) for (c, _), (n, _) in zip(remote, near))
    cli = cli_report(f"{scheme}://{bucket}/day/", tmp_path, server.env)
    # unique is checked per batch by iter_batches (its docstring); the three
    # objects repeat each other's ids, which only the whole run sees.
    per_batch, whole = row_level_counts([r for _, r in remote]), row_level_counts([cli])
    assert per_batch.pop("id.unique") == 3 and whole.pop("id.unique") > 3
    assert per_batch == whole


def test_split_of_an_object_is_that_of_the_local_file(store, tmp_path):
    uri, local = object_and_file(store, tmp_path, "bsplit", "x.parquet", "data.parquet")
    validator = griffin.Validator.from_yaml(RULES)
    clean, quarantined = validator.validate(uri, max_violations=10_000).split(uri)
    local_clean, local_quarantined = validator.validate(str(local), max_violations=10_000).split(str(local))
    assert clean.num_rows + quarantined.num_rows == len(ROWS)
    assert clean.equals(local_clean) and quarantined.equals(local_quarantined)


def test_wrong_uris_raise_input_error_naming_them(store, tmp_path):
    scheme, server = store
    bucket = server.bucket("bwrong")
    parquet = file_bytes("data.parquet")
    server.put(f"{bucket}/cut.parquet", parquet[: len(parquet) // 2])
    gz = file_bytes("data.csv.gz")
    server.put(f"{bucket}/cut.csv.gz", gz[: len(gz) // 2])
    server.put(f"{bucket}/notes.txt", b"x")
    validator = griffin.Validator.from_yaml(RULES)
    cases = {f"{scheme}://no-such-bucket-b/x.csv": "no such bucket",
             f"{scheme}://{bucket}/missing.csv": "no such object",
             f"{scheme}://{bucket}/empty/": "prefix holds no supported input files",
             f"{scheme}://{bucket}/cut.parquet": "",
             f"{scheme}://{bucket}/cut.csv.gz": ""}
    for uri, words in cases.items():
        with pytest.raises(griffin.InputError) as caught:
            list(griffin.iter_batches(uri, validator, batch_rows=50))
        message = str(caught.value)
        assert message.startswith(uri + ": ") and words in message and "\n" not in message, message


def test_jax_batches_of_an_object_are_those_of_the_local_file(store, tmp_path):
    import numpy as np
    from griffin.jax import batches as jax_batches

    _, server = store
    uri, local = object_and_file(store, tmp_path, "bjax", "x.csv.gz", "data.csv.gz")
    validator = griffin.Validator.from_yaml(RULES)

    def ids(source):
        stream = jax_batches(source, validator, batch_size=32, columns=["id"], drop_remainder=False)
        values = np.concatenate([np.asarray(batch["id"]) for batch in stream])
        return values, stream.report

    remote, remote_report = ids(uri)
    near, near_report = ids(str(local))
    assert np.array_equal(remote, near) and len(remote) > 0
    cli = cli_report(uri, tmp_path, server.env)
    assert len(remote) == cli["rows"] - cli["bad_rows"]
    assert stable(remote_report) == stable(near_report) == {k: v for k, v in cli.items()
                                                            if k not in ("run_id", "elapsed_s", "inputs")}
