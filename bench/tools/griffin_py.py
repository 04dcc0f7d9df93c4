"""Griffin in-process: griffin.Validator (bench/suite.rules.yaml, compiled once)
over the CSV path (the engine's own streaming reader) or over a pyarrow Table
(read in place). Runs in .venv, where the griffin package is installed."""
import suite
from tools.base import cpu_extra_s, rss_extra_kib, teardown  # noqa: F401

VERSIONS = ["griffin", "pyarrow"]
NOT_EXPRESSIBLE = {}


def setup():
    import griffin
    return griffin.Validator.from_yaml(str(suite.RULES_PATH))


def load(validator, path):
    import pyarrow.parquet as pq
    return pq.read_table(path)


def counts_of(report_dict):
    """The suite's counts from a Griffin JSON report (also used for the CLI), and
    malformed_rows (the bound of suite.MALFORMED differences)."""
    counts = {"evaluated_rows": report_dict["rows"] - report_dict["malformed_rows"],
              "malformed_rows": report_dict["malformed_rows"]}
    for check in report_dict["checks"]:
        counts[check["name"]] = check["violations"] if "violations" in check else check["observed"]
    return counts


def from_csv(validator, path):
    return counts_of(validator.validate(str(path), max_violations=0).to_dict())


def from_frame(validator, table):
    return counts_of(validator.validate(table, max_violations=0).to_dict())
