"""Rule versions, run numbers and run ids through the CLI and the service, on
SQLite and a real PostgreSQL: `griffin rules --diff` is a unified diff (the
same as `diff -u`) in text and structured hunks in JSON; `griffin show` takes a
unique prefix of a run id; `griffin history` tells a run's number from its
rule version; `griffin serve`'s GET /v1/datasets gives the version number
`griffin rules` gives for the same rule file in the same store; counts read
"1 run", not "1 runs"."""
import json
import subprocess

import pytest
import requests

from server_harness import GriffinServer, auth
from test_server_reload import wait_until
from test_store_cli import fresh_pg_database, require_pg, run

RULES_V1 = """griffin: 1
dataset: ledger
description: the ledger
columns:
  id:
    type: int64
    unique: true
  amount:
    type: float64
    min: 0
  note:
    type: string
  day:
    type: date
  region:
    type: string
  channel:
    type: string
"""
# One line changed in the middle, one far below added: two hunks.
RULES_V2 = RULES_V1.replace("    min: 0\n", "    min: 1\n    max: 1000\n") + "table:\n  - row_count: {min: 1}\n"
DATA = "id,amount,note,day,region,channel\n1,5,a,2024-01-01,n,web\n2,-1,b,2024-01-02,s,web\n2,3,c,2024-01-03,e,shop\n"


@pytest.fixture(params=["sqlite", "postgres"])
def store(request, tmp_path):
    if request.param == "sqlite":
        return str(tmp_path / "runs.db")
    require_pg()
    return fresh_pg_database("griffin_versions")


def write(path, text):
    path.write_text(text)
    return path


def validate(workdir, store, rules="rules.yaml"):
    proc = run("validate", "-r", rules, "d.csv", "--format", "json", "--store", store, cwd=workdir)
    assert proc.returncode == 1, proc.stderr
    return json.loads(proc.stdout)


def cli_json(workdir, *args):
    proc = run(*args, "--format", "json", cwd=workdir)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_rules_diff_is_a_unified_diff_in_text_and_hunks_in_json(tmp_path, store):
    write(tmp_path / "d.csv", DATA)
    write(tmp_path / "rules.yaml", RULES_V1)
    first = validate(tmp_path, store)
    write(tmp_path / "rules.yaml", RULES_V2)
    second = validate(tmp_path, store)

    text = run("rules", "ledger", "--store", store, "--diff", "1", "--to", "2", cwd=tmp_path)
    assert text.returncode == 0, text.stderr
    lines = text.stdout.decode().splitlines(keepends=True)
    assert lines[0].startswith("--- rules v1 " + first["rules_sha256"][:12])
    assert lines[1].startswith("+++ rules v2 " + second["rules_sha256"][:12])
    old, new = write(tmp_path / "old.yaml", RULES_V1), write(tmp_path / "new.yaml", RULES_V2)
    expected = subprocess.run(["diff", "-u", str(old), str(new)], capture_output=True, text=True).stdout
    assert "".join(lines[2:]) == "".join(expected.splitlines(keepends=True)[2:])
    assert "-    min: 0\n+    min: 1\n+    max: 1000\n" in "".join(lines)   # removed before added
    assert sum(line.startswith("@@ ") for line in lines) == 2

    diff = cli_json(tmp_path, "rules", "ledger", "--store", store, "--diff", "v1", "--to", "v2")
    assert diff["dataset"] == "ledger" and diff["changed"] is True
    assert (diff["from"]["version"], diff["from"]["sha256"]) == (1, first["rules_sha256"])
    assert (diff["to"]["version"], diff["to"]["sha256"]) == (2, second["rules_sha256"])
    assert len(diff["hunks"]) == 2
    # The hunks, applied to the old text, give the new one.
    old_lines, rebuilt, at = RULES_V1.splitlines(), [], 0
    for hunk in diff["hunks"]:
        rebuilt += old_lines[at:hunk["old_start"] - 1]
        at = hunk["old_start"] - 1
        kinds = [line["kind"] for line in hunk["lines"]]
        assert kinds.count("context") + kinds.count("removed") == hunk["old_lines"]
        assert kinds.count("context") + kinds.count("added") == hunk["new_lines"]
        for line in hunk["lines"]:
            if line["kind"] != "added":
                assert old_lines[line["old_line"] - 1] == line["text"]
                at += 1
            if line["kind"] != "removed":
                assert len(rebuilt) + 1 == line["new_line"]
                rebuilt.append(line["text"])
    rebuilt += old_lines[at:]
    assert rebuilt == RULES_V2.splitlines()
    same = cli_json(tmp_path, "rules", "ledger", "--store", store, "--diff", "2", "--to", "2")
    assert same["changed"] is False and same["hunks"] == []
    unknown = run("rules", "ledger", "--store", store, "--diff", "7", "--format", "json", cwd=tmp_path)
    assert unknown.returncode == 2 and b"no single rule version matches" in unknown.stderr


def test_show_takes_a_unique_prefix_of_a_run_id(tmp_path, store):
    write(tmp_path / "d.csv", DATA)
    write(tmp_path / "rules.yaml", RULES_V1)
    reports = [validate(tmp_path, store) for _ in range(17)]   # 17 ids over 16 hex digits: two share one
    ids = [r["run_id"] for r in reports]

    target = reports[5]
    prefix = next(target["run_id"][:n] for n in range(1, 37)
                  if sum(i.startswith(target["run_id"][:n]) for i in ids) == 1)
    shown = run("show", prefix, "--store", store, "--format", "json", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout) == target
    whole = run("show", target["run_id"], "--store", store, "--format", "json", cwd=tmp_path)
    assert json.loads(whole.stdout) == target

    shared = next(i[0] for i in ids if sum(j.startswith(i[0]) for j in ids) > 1)
    matching = sum(i.startswith(shared) for i in ids)
    ambiguous = run("show", shared, "--store", store, cwd=tmp_path)
    assert ambiguous.returncode == 2 and ambiguous.stdout == b""
    message = ambiguous.stderr.decode()
    assert message.count("\n") == 1
    assert f"griffin: run id prefix '{shared}' is ambiguous: {matching} runs match (" in message, message

    none = run("show", "zz", "--store", store, cwd=tmp_path)   # run ids are hex
    assert none.returncode == 2 and none.stderr.decode().startswith("griffin: no finished run 'zz' in ")


def test_history_tells_run_numbers_from_rule_versions(tmp_path, store):
    write(tmp_path / "d.csv", DATA)
    write(tmp_path / "rules.yaml", RULES_V1)
    first = validate(tmp_path, store)
    text = run("history", "ledger", "--store", store, cwd=tmp_path).stdout.decode()
    assert "dataset ledger   1 run\n" in text and "1 runs" not in text
    header = next(line for line in text.splitlines() if line.startswith("RUN ID"))
    assert header.split()[:6] == ["RUN", "ID", "RUN", "#", "RULES", "STARTED"]
    row = next(line for line in text.splitlines() if line.startswith(first["run_id"]))
    assert row.split()[1:3] == ["1", "v1"]
    assert "  v1  " in run("rules", "ledger", "--store", store, cwd=tmp_path).stdout.decode()
    assert run("rules", "ledger", "--store", store, cwd=tmp_path).stdout.decode().rstrip().endswith("1 run")

    write(tmp_path / "rules.yaml", RULES_V2)
    second, third = validate(tmp_path, store), validate(tmp_path, store)
    runs = cli_json(tmp_path, "history", "ledger", "--store", store)["runs"]
    assert [r["run_id"] for r in runs] == [third["run_id"], second["run_id"], first["run_id"]]
    assert [r["run_number"] for r in runs] == [3, 2, 1] == [r["version"] for r in runs]
    assert [r["rules_version"] for r in runs] == [2, 2, 1]
    assert [r["rules_sha256"] for r in runs] == [third["rules_sha256"], second["rules_sha256"], first["rules_sha256"]]
    text = run("history", "ledger", "--store", store, cwd=tmp_path).stdout.decode()
    assert "dataset ledger   3 runs\n" in text
    row = next(line for line in text.splitlines() if line.startswith(third["run_id"]))
    assert row.split()[1:3] == ["3", "v2"]
    listed = run("rules", "ledger", "--store", store, cwd=tmp_path).stdout.decode()
    assert "1 run\n" in listed and "2 runs\n" in listed


def test_the_service_and_the_cli_number_rule_versions_alike(tmp_path, store):
    write(tmp_path / "d.csv", DATA)
    write(tmp_path / "rules.yaml", RULES_V1)
    cli_run = validate(tmp_path, store)   # the store's first version of ledger: v1

    (tmp_path / "serve").mkdir()
    with GriffinServer(tmp_path / "serve", {"ledger": RULES_V2}, store=store, flight=False) as server:
        def listed():
            return requests.get(server.url + "/v1/datasets", headers=auth(), timeout=5).json()["datasets"][0]

        def cli_versions():
            return cli_json(tmp_path, "rules", "ledger", "--store", store)["versions"]

        loaded = listed()
        versions = cli_versions()
        assert [(v["version"], v["sha256"]) for v in versions] == [(1, cli_run["rules_sha256"]),
                                                                 (2, loaded["rules_sha256"])]
        assert (loaded["version"], loaded["generation"]) == (2, 1)
        assert "(version 2, rules sha256 " + loaded["rules_sha256"] + ")" in server.find_log(r"loaded dataset ledger")

        # Back to the CLI's rules: the server shows the store's v1 again,
        # though it is this process's second load of the file.
        mark = len(server.lines)
        server.write_rules("ledger", RULES_V1)
        server.wait_for_log(r"reloaded dataset ledger .*\(version 1, rules sha256 " + cli_run["rules_sha256"], start=mark)
        assert (listed()["version"], listed()["generation"]) == (1, 2)
        assert [v["version"] for v in cli_versions()] == [1, 2]

        answer = requests.post(server.url + "/v1/datasets/ledger/validate", data=DATA,
                               headers={**auth(), "Content-Type": "text/csv"}, timeout=10)
        assert answer.status_code == 200, answer.text
        # The verdicts are the CLI's on the same rows and rules.
        assert (answer.json()["rows"], answer.json()["bad_rows"]) == (cli_run["rows"], cli_run["bad_rows"])
        run_id = answer.json()["run_id"]
        served = wait_until(lambda: [r for r in requests.get(server.url + "/v1/runs", params={"dataset": "ledger"},
                                                          headers=auth(), timeout=5).json()["runs"]
                                   if r["run_id"] == run_id and r["status"] == "complete"])[0]
        assert (served["run_number"], served["rules_version"], served["rules_sha256"]) == \
            (2, 1, cli_run["rules_sha256"])
        history = {r["run_id"]: r for r in cli_json(tmp_path, "history", "ledger", "--store", store)["runs"]}
        assert (history[run_id]["run_number"], history[run_id]["rules_version"]) == (2, 1)
