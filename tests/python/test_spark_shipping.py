"""Shipping griffin to Spark executors (issue 14), as users do it: the wheel
installed into a fresh venv, packed with venv-pack (pinned), passed with
spark.archives, and the executors' Python set to the archive's
(spark.pyspark.python=./env/bin/python) on local-cluster[2,1,1024]. The
executors must import griffin from the unpacked archive, not from the
source tree or the project venv; examples/spark_validate.py runs that way
with spark-submit and its report equals `griffin validate`.

Builds the wheel (minutes cold), so it runs when GRIFFIN_WHEEL_TEST=1 or with
GRIFFIN_WHEEL=path/to.whl, as tests/python/test_wheel.py; about 2-3 minutes
beyond the wheel (the venv, packing ~100 MB, two spark-submit runs)."""
import json
import os
import pathlib
import subprocess
import sys

import pytest

from griffin_cli import REPO_ROOT
from test_wheel import build_wheel, site_packages

pytestmark = pytest.mark.skipif(
    not (os.environ.get("GRIFFIN_WHEEL_TEST") or os.environ.get("GRIFFIN_WHEEL")),
    reason="set GRIFFIN_WHEEL_TEST=1 (builds the wheel) or GRIFFIN_WHEEL=path")
pyspark = pytest.importorskip("pyspark", reason="pyspark is installed by scripts/setup_spark.sh")

VENV_PACK = "venv-pack==0.2.0"
# pyspark's mapInArrow requires pandas on the driver and the executors (it checks
# its version even though no pandas object is made), so the packed venv holds it.
PANDAS = next(line.strip() for line in (REPO_ROOT / "requirements.txt").read_text().splitlines()
              if line.startswith("pandas=="))

PROBE = '''
import json, sys
from pyspark.sql import SparkSession
import griffin.spark
spark = SparkSession.builder.getOrCreate()
df = spark.read.parquet(sys.argv[2]).repartition(4)
def where(batches):
    import pyarrow as pa, griffin, sys as s
    for _ in batches:
        pass
    yield pa.RecordBatch.from_pydict({"file": [griffin.__file__], "python": [s.executable]})
seen = {tuple(r) for r in df.mapInArrow(where, "file string, python string").collect()}
result = griffin.spark.validate(df, sys.argv[1], key="txn_id")
print(json.dumps({"executors": sorted(seen), "driver": griffin.__file__,
                  "rows": result.quarantine.count() + result.clean.count(), "report": result.report.to_dict()}))
spark.stop()
'''


@pytest.fixture(scope="module")
def packed(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("ship")
    wheel = build_wheel(tmp)
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    subprocess.run([str(venv / "bin" / "pip"), "install", "-q", str(wheel), PANDAS, VENV_PACK], check=True, timeout=900)
    archive = tmp / "griffin-env.tar.gz"
    subprocess.run([str(venv / "bin" / "venv-pack"), "-p", str(venv), "-o", str(archive), "-q"],
                   check=True, timeout=900)
    # The driver: the venv's python (griffin from the wheel) with only pyspark and
    # py4j from the project venv on its path (the archive does not carry Spark).
    driver_path = tmp / "driver-path"
    driver_path.mkdir()
    project_site = pathlib.Path(pyspark.__file__).parent.parent
    for name in ("pyspark", "py4j"):
        (driver_path / name).symlink_to(project_site / name)
    return tmp, venv, archive, driver_path


@pytest.fixture(scope="module")
def parquet_data(packed):
    import pyarrow.csv as csv
    import pyarrow.parquet as pq
    tmp = packed[0]
    rules = REPO_ROOT / "examples" / "transactions.rules.yaml"
    table = csv.read_csv(REPO_ROOT / "examples" / "transactions.csv",
                         parse_options=csv.ParseOptions(invalid_row_handler=lambda row: "skip"),
                         convert_options=csv.ConvertOptions(null_values=["", "NA"], strings_can_be_null=True,
                                                            column_types={"created_at": "string"}))
    import pyarrow.compute as pc
    # created_at as a timestamp (rules: type timestamp); an impossible date becomes null
    created = pc.strptime(table["created_at"], format="%Y-%m-%dT%H:%M:%SZ", unit="us", error_is_null=True)
    table = table.set_column(table.schema.get_field_index("created_at"), "created_at",
                             created.cast(__import__("pyarrow").timestamp("us", tz="UTC")))
    path = tmp / "transactions.parquet"
    pq.write_table(table, path, row_group_size=4000)
    return rules, path


def submit(packed, script, *args):
    tmp, venv, archive, driver_path = packed
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYSPARK_PYTHON", "PYSPARK_DRIVER_PYTHON")}
    env.update(PYTHONPATH=str(driver_path), PYSPARK_DRIVER_PYTHON=str(venv / "bin" / "python"),
               SPARK_LOCAL_IP="127.0.0.1")
    spark_submit = pathlib.Path(pyspark.__file__).parent / "bin" / "spark-submit"
    command = [str(spark_submit), "--master", "local-cluster[2,1,1024]", "--archives", f"{archive}#env",
               "--conf", "spark.pyspark.python=./env/bin/python",
               "--conf", f"spark.pyspark.driver.python={venv / 'bin' / 'python'}", "--conf", "spark.ui.enabled=false",
               "--conf", "spark.driver.host=127.0.0.1", "--conf", "spark.ui.showConsoleProgress=false",
               str(script), *map(str, args)]
    return subprocess.run(command, capture_output=True, text=True, timeout=600, env=env, cwd=tmp)


def python_errors(stderr):
    """stderr without Spark's log lines (a traceback is what explains a failed job)."""
    return "\n".join(line for line in stderr.splitlines()
                     if not any(word in line for word in (" INFO ", " WARN ", "\tat ")))[-4000:]


def cli_report(venv, rules, path):
    out = subprocess.run([str(venv / "bin" / "griffin"), "validate", "-r", str(rules), str(path), "--format",
                          "json", "--no-store", "--input-format", "parquet"], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode in (0, 1), out.stderr
    return json.loads(out.stdout)


def test_executors_import_griffin_from_the_packed_venv(packed, parquet_data):
    tmp, venv, _archive, _ = packed
    rules, path = parquet_data
    probe = tmp / "probe.py"
    probe.write_text(PROBE)
    run = submit(packed, probe, rules, path)
    assert run.returncode == 0, run.stdout[-2000:] + python_errors(run.stderr)
    out = json.loads(run.stdout.strip().splitlines()[-1])
    assert out["driver"].startswith(str(site_packages(venv)))
    assert out["executors"], out
    for file, python in out["executors"]:
        assert "/env/lib/python3" in file and file.endswith("griffin/__init__.py"), file
        # The archive unpacked in the executor's work dir (Spark puts it under SPARK_HOME/work,
        # which is inside the project's .venv here): not the source tree, not the driver's venv.
        assert not file.startswith((str(REPO_ROOT / "python"), str(site_packages(venv)))), file
        assert python.endswith("/env/bin/python"), python
    expected = cli_report(venv, rules, path)
    assert out["rows"] == expected["rows"]
    for field in ("rows", "bad_rows", "quality_score", "passed"):
        assert out["report"][field] == expected[field], field


def test_the_example_job_runs_with_spark_submit_and_the_archive(packed, parquet_data):
    tmp, venv, _archive, _ = packed
    rules, path = parquet_data
    store = tmp / "runs.db"
    run = submit(packed, REPO_ROOT / "examples" / "spark_validate.py", rules, path, "--key", "txn_id",
                 "--out", tmp / "out", "--store", store)
    assert run.returncode == 1, python_errors(run.stderr)   # the example feed fails its checks, on purpose
    report = json.loads(run.stdout[run.stdout.index("{"):])
    expected = cli_report(venv, rules, path)
    assert [(c["name"], c.get("violations"), c["passed"]) for c in report["checks"]] == \
        [(c["name"], c.get("violations"), c["passed"]) for c in expected["checks"]]
    import pyarrow.parquet as pq
    quarantine = pq.read_table(tmp / "out" / "quarantine")
    clean = pq.read_table(tmp / "out" / "clean")
    assert quarantine.num_rows == expected["bad_rows"] and clean.num_rows + quarantine.num_rows == expected["rows"]
    history = subprocess.run([str(venv / "bin" / "griffin"), "history", "transactions", "--store", str(store),
                              "--format", "json"], capture_output=True, text=True, timeout=60)
    assert history.returncode == 0 and report["run_id"] in history.stdout, history.stderr
