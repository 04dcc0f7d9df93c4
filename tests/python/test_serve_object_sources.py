"""`griffin serve` datasets whose source is an object or a Delta table (issue 18):
POST /v1/datasets/{d}/validate?source=true reads a Parquet object in S3 (moto's
server), a Delta table in S3 (`delta:s3://...`) and a local Delta folder, and the
same in GCS (fake-gcs-server: a Parquet object, a CSV object, a Delta table named
`delta:gs://...` and as a plain gs:// prefix), and answers the report `griffin
validate` gives for the same input. The Delta table then gains a commit, and the
next request reads the new version. A source that is gone answers 503
source_failed; a local plain file is still refused at start (sources are where
data lives, not the service's disk)."""
import contextlib
import json
import subprocess

import deltalake
import pyarrow as pa
import pyarrow.parquet as pq
import requests

from griffin_cli import require_binary
from objectstore_servers import gcs_server, s3_server  # noqa: F401 (fixtures)
from server_harness import GriffinServer, auth, config_yaml
from test_delta_objectstore import upload
from test_delta_read import RULES, arrow, csv_of, rows


def comparable(report):
    return {k: report[k] for k in ("rows", "bad_rows", "passed", "schema_errors", "checks", "violations",
                                   "quality_score")}


def cli_report(tmp_path, source, env):
    rules = tmp_path / "cli_rules.yaml"
    rules.write_text(RULES)
    done = subprocess.run([str(require_binary()), "validate", "-r", str(rules), str(source), "--format", "json",
                           "--no-store"], capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 1, done.stderr  # the rows hold deliberate faults
    return json.loads(done.stdout)


def served(server, dataset):
    answer = requests.post(server.url + f"/v1/datasets/{dataset}/validate?source=true", headers=auth(), timeout=120)
    return answer


@contextlib.contextmanager
def serving(tmp_path, sources, env):
    """`griffin serve` with one dataset per source (the same rules for each)."""
    config = config_yaml() + "sources:\n" + "".join(f"  {name}: '{uri}'\n" for name, uri in sources.items())
    rules = {name: RULES.replace("dataset: delta", f"dataset: {name}") for name in sources}
    with GriffinServer(tmp_path, rules, config=config, store=False, flight=False, env=env) as server:
        yield server


def served_as_validated(server, tmp_path, sources, names, env):
    for name in names:
        answer = served(server, name)
        assert answer.status_code == 200, (name, answer.text)
        expected = cli_report(tmp_path, sources[name], env)
        assert comparable(answer.json()) == comparable(expected), name
        assert expected["rows"] in (300, 200) and expected["bad_rows"] > 0


def gone_is_source_failed(server, name, words):
    gone = served(server, name)
    assert gone.status_code == 503 and gone.json().get("code") == "source_failed", gone.text
    assert words in gone.json()["error"]
    assert server.process.poll() is None


def parquet_bytes(table):
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink)
    return sink.getvalue().to_pybytes()


def test_serve_reads_objects_and_delta_tables_as_validate_does(s3_server, tmp_path):
    bucket = s3_server.bucket("serve-sources")
    s3_server.put(f"{bucket}/orders.parquet", parquet_bytes(arrow(rows(0, 300))))
    local_table = tmp_path / "local_table"
    deltalake.write_deltalake(local_table, arrow(rows(0, 120)))
    deltalake.write_deltalake(local_table, arrow(rows(120, 80)), mode="append")
    upload(s3_server, local_table, bucket, "tables/t")

    sources = {"object": f"s3://{bucket}/orders.parquet", "s3_table": f"delta:s3://{bucket}/tables/t",
               "local_table": f"delta:{local_table}", "gone": f"s3://{bucket}/absent.parquet"}
    with serving(tmp_path, sources, s3_server.env) as server:
        served_as_validated(server, tmp_path, sources, ("object", "s3_table", "local_table"), s3_server.env)

        # A new commit is read by the next request: the service holds no stale snapshot.
        deltalake.write_deltalake(local_table, arrow(rows(200, 50)), mode="append")
        grown = served(server, "local_table")
        assert grown.status_code == 200 and grown.json()["rows"] == 250, grown.text
        assert comparable(grown.json()) == comparable(cli_report(tmp_path, sources["local_table"], s3_server.env))

        gone_is_source_failed(server, "gone", "absent.parquet")


def test_serve_reads_gcs_objects_and_delta_tables_as_validate_does(gcs_server, tmp_path):
    bucket = gcs_server.bucket("serve-gcs-sources")
    gcs_server.put(f"{bucket}/orders.parquet", parquet_bytes(arrow(rows(0, 300))))
    gcs_server.put(f"{bucket}/orders.csv", csv_of(tmp_path, arrow(rows(0, 300))).read_bytes())
    table = tmp_path / "table"
    deltalake.write_deltalake(table, arrow(rows(0, 120)))
    deltalake.write_deltalake(table, arrow(rows(120, 80)), mode="append")
    upload(gcs_server, table, bucket, "tables/t")

    sources = {"object": f"gs://{bucket}/orders.parquet", "csv_object": f"gs://{bucket}/orders.csv",
               "gcs_table": f"delta:gs://{bucket}/tables/t", "gcs_prefix_table": f"gs://{bucket}/tables/t",
               "gone": f"gs://{bucket}/absent.parquet"}
    with serving(tmp_path, sources, gcs_server.env) as server:
        served_as_validated(server, tmp_path, sources, ("object", "csv_object", "gcs_table", "gcs_prefix_table"),
                            gcs_server.env)
        # The table gains a commit in the store: the next request reads it.
        deltalake.write_deltalake(table, arrow(rows(200, 50)), mode="append")
        upload(gcs_server, table, bucket, "tables/t")
        grown = served(server, "gcs_table")
        assert grown.status_code == 200 and grown.json()["rows"] == 250, grown.text
        assert comparable(grown.json()) == comparable(cli_report(tmp_path, sources["gcs_table"], gcs_server.env))

        gone_is_source_failed(server, "gone", "absent.parquet")


def test_a_plain_file_is_not_a_source(tmp_path):
    data = tmp_path / "orders.parquet"
    pq.write_table(arrow(rows(0, 10)), data)
    config = tmp_path / "serve.yaml"
    config.write_text(config_yaml() + f"sources:\n  orders: '{data}'\n")
    (tmp_path / "rules").mkdir()
    done = subprocess.run([str(require_binary()), "serve", "--rules-dir", str(tmp_path / "rules"), "--config",
                           str(config), "--listen", "127.0.0.1:0", "--no-store"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done
    assert done.stderr.strip().splitlines() == [
        f"griffin: {config}:6: sources.orders: expected a source URI such as postgresql://user@host/db?table=name, "
        f"s3://bucket/key or delta:PATH, got '{data}'"], done.stderr
