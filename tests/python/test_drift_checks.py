"""`drift:` checks in rule files (docs/rules.md "Drift checks"): the observed
value equals an independent computation (scipy's jensenshannon squared in log
base 2; the largest share change) and `griffin drift` on the same files, for
each baseline form (last_passed, run:ID, profile:FILE); the run store keeps the
validated columns' profiles; wrong baselines fail their check with a message
and never stop validation; no history passes with a note."""
import json
import math
import random
import subprocess

import pytest

from griffin_cli import require_binary
from test_drift import reference_js, reference_linf, generated

RULES = """griffin: 1
dataset: drifting
columns:
  x:
    type: float64
    drift: {{baseline: "{baseline}", max: {max_x}}}
  c:
    drift: {{baseline: "{baseline}", max: 0.2, severity: warn}}
"""


def validate(rules, data, store, *extra):
    args = [str(require_binary()), "validate", "-r", str(rules), str(data), "--format", "json"]
    args += ["--no-store"] if store is None else ["--store", str(store)]
    done = subprocess.run(args + list(extra), capture_output=True, timeout=300)
    assert done.returncode in (0, 1), done.stderr.decode()
    return done.returncode, json.loads(done.stdout)


def checks(report):
    return {c["name"]: c for c in report["checks"]}


def write_rules(path, baseline, max_x=0.05):
    path.write_text(RULES.format(baseline=baseline, max_x=max_x))
    return path


def test_last_passed_compares_with_the_newest_passed_run(tmp_path):
    store = tmp_path / "store.db"
    rules = write_rules(tmp_path / "rules.yaml", "last_passed")
    base_x, base_c = generated(tmp_path, "train.csv", 1, 0.0, 1.0, [4, 3, 2, 1])
    same_x, same_c = generated(tmp_path, "same.csv", 2, 0.0, 1.0, [4, 3, 2, 1])
    shift_x, shift_c = generated(tmp_path, "shift.csv", 3, 0.7, 1.3, [1, 2, 3, 4])

    # no history yet: passes with a note
    code, first = validate(rules, tmp_path / "train.csv", store)
    assert code == 0
    x = checks(first)["x.drift"]
    assert x["passed"] and x["observed"] is None and "nothing to compare with yet" in x["note"]
    assert x["check"] == "drift" and x["drift"]["baseline"] == "last_passed"

    # a close sample: compared with the first run, passes
    code, second = validate(rules, tmp_path / "same.csv", store)
    assert code == 0
    x, c = checks(second)["x.drift"], checks(second)["c.drift"]
    assert x["drift"]["baseline_run_id"] == first["run_id"]
    assert math.isclose(x["observed"], reference_js(base_x, same_x), rel_tol=1e-9, abs_tol=1e-12)
    assert math.isclose(c["observed"], reference_linf(base_c, same_c), rel_tol=1e-12)
    assert x["drift"]["measure"] == "js" and c["drift"]["measure"] == "linf"

    # a shifted sample fails x (error) and c (warn); the baseline is still the
    # newest passed run (the second)
    code, third = validate(rules, tmp_path / "shift.csv", store)
    assert code == 1 and not third["passed"]
    x, c = checks(third)["x.drift"], checks(third)["c.drift"]
    assert x["drift"]["baseline_run_id"] == second["run_id"]
    assert math.isclose(x["observed"], reference_js(same_x, shift_x), rel_tol=1e-9, abs_tol=1e-12)
    assert not x["passed"] and x["max"] == 0.05 and "drifted from last_passed" in x["message"]
    assert math.isclose(c["observed"], reference_linf(same_c, shift_c), rel_tol=1e-12)
    assert not c["passed"] and c["severity"] == "warn"
    moved = c["drift"]["moved"]
    assert len(moved) == 4 and {m["value"] for m in moved} == {"red", "green", "blue", "grey"}
    assert math.isclose(abs(moved[0]["current_share"] - moved[0]["baseline_share"]), c["observed"])

    # the same value as `griffin drift` on the two files
    done = subprocess.run([str(require_binary()), "drift", tmp_path / "same.csv", tmp_path / "shift.csv",
                           "--format", "json"], capture_output=True, check=True)
    columns = {col["column"]: col for col in json.loads(done.stdout)["columns"]}
    assert columns["x"]["value"] == x["observed"] and columns["c"]["value"] == c["observed"]

    # the failed run is no baseline: the next run is compared with the second again
    code, fourth = validate(rules, tmp_path / "same.csv", store)
    assert checks(fourth)["x.drift"]["drift"]["baseline_run_id"] == second["run_id"]
    assert checks(fourth)["x.drift"]["observed"] == 0


def test_run_id_and_profile_baselines(tmp_path):
    store = tmp_path / "store.db"
    base_x, base_c = generated(tmp_path, "train.csv", 1, 0.0, 1.0, [4, 3, 2, 1])
    shift_x, _ = generated(tmp_path, "shift.csv", 3, 0.7, 1.3, [1, 2, 3, 4])
    _, first = validate(write_rules(tmp_path / "rules.yaml", "last_passed"), tmp_path / "train.csv", store)

    # run:ID, by a unique prefix of the id
    rules = write_rules(tmp_path / "by_run.yaml", "run:" + first["run_id"][:12], max_x=1)
    code, report = validate(rules, tmp_path / "shift.csv", store)
    x = checks(report)["x.drift"]
    assert x["passed"] and x["drift"]["baseline_run_id"] == first["run_id"]
    assert math.isclose(x["observed"], reference_js(base_x, shift_x), rel_tol=1e-9, abs_tol=1e-12)

    # profile:FILE, a state from griffin profile --state, found from the rule file's folder;
    # no run store needed
    subprocess.run([str(require_binary()), "profile", tmp_path / "train.csv", "--state", tmp_path / "train.state"],
                   check=True, capture_output=True)
    sub = tmp_path / "rules"
    sub.mkdir()
    (sub / "by_profile.yaml").write_text(RULES.format(baseline="profile:../train.state", max_x=1))
    code, report = validate(sub / "by_profile.yaml", tmp_path / "shift.csv", None)
    x = checks(report)["x.drift"]
    assert code == 0 and x["drift"]["baseline_run_id"] is None
    assert math.isclose(x["observed"], reference_js(base_x, shift_x), rel_tol=1e-9, abs_tol=1e-12)
    # profile:FILE may also be data, read as the validated input is
    (sub / "by_data.yaml").write_text(RULES.format(baseline="profile:../train.csv", max_x=1))
    _, again = validate(sub / "by_data.yaml", tmp_path / "shift.csv", None)
    assert checks(again)["x.drift"]["observed"] == x["observed"]


def test_wrong_baselines_fail_their_check_and_never_stop_validation(tmp_path):
    generated(tmp_path, "train.csv", 1, 0.0, 1.0, [4, 3, 2, 1])
    store = tmp_path / "store.db"
    for baseline, expected in [("run:0000-no-such-run", "no run with that id"),
                               ("profile:missing.state", "missing.state"),
                               ("profile:rules.yaml", "rules.yaml")]:
        rules = write_rules(tmp_path / "rules.yaml", baseline)
        code, report = validate(rules, tmp_path / "train.csv", store)
        x = checks(report)["x.drift"]
        assert code == 1 and not x["passed"] and expected in x["message"], (baseline, x)
        assert report["rows"] == 20000 and "x.type" in checks(report)
    # run:ID without a store
    code, report = validate(write_rules(tmp_path / "rules.yaml", "run:abc"), tmp_path / "train.csv", None)
    assert code == 1 and "--no-store" in checks(report)["x.drift"]["message"]
    # last_passed without a store: no history, a note
    code, report = validate(write_rules(tmp_path / "rules.yaml", "last_passed"), tmp_path / "train.csv", None)
    assert code == 0 and "no run store" in checks(report)["x.drift"]["note"]
    # a baseline of another form is a rule error (exit 2) naming the line
    (tmp_path / "bad.yaml").write_text(RULES.format(baseline="yesterday", max_x=0.1))
    done = subprocess.run([str(require_binary()), "validate", "-r", tmp_path / "bad.yaml", tmp_path / "train.csv",
                           "--no-store"], capture_output=True)
    assert done.returncode == 2
    assert "bad.yaml:6:" in done.stderr.decode() and "unknown baseline 'yesterday'" in done.stderr.decode()


def test_a_column_new_to_the_baseline_passes_with_a_note(tmp_path):
    store = tmp_path / "store.db"
    (tmp_path / "old.csv").write_text("x\n1\n2\n")
    (tmp_path / "new.csv").write_text("x,y\n1,a\n2,b\n")
    rules = tmp_path / "rules.yaml"
    rules.write_text("griffin: 1\ndataset: d\ncolumns:\n  x: {type: int64}\n  y: {required: false, drift: {baseline: last_passed, max: 0.1}}\n")
    validate(rules, tmp_path / "old.csv", store)
    code, report = validate(rules, tmp_path / "new.csv", store)
    y = checks(report)["y.drift"]
    assert code == 0 and y["passed"] and "the baseline has no column 'y'" in y["note"]


def test_serve_judges_drift_as_griffin_validate_does(tmp_path):
    """A dataset with a drift check against the last passed run: the service
    judges it against its run store, with the distance griffin validate gives
    for the same rows against the same baseline (a store both share)."""
    import requests
    from server_harness import GRIFFIN, GriffinServer, auth

    rules_text = ("griffin: 1\ndataset: labels\ncolumns:\n  y:\n    type: string\n"
                  "    drift: {baseline: last_passed, max: 0.2}\n")
    baseline, moved = "y\na\na\na\nb\n", "y\nb\nb\nb\na\n"
    with GriffinServer(tmp_path, {"labels": rules_text}, flight=False) as server:
        def post(csv):
            answer = requests.post(server.url + "/v1/datasets/labels/validate?store=true", data=csv,
                                   headers={**auth(), "Content-Type": "text/csv"}, timeout=30)
            assert answer.status_code == 200, answer.text
            return next(c for c in answer.json()["checks"] if c["name"] == "y.drift")

        first = post(baseline)
        assert first["passed"] and "note" in first and "not evaluated" not in first["note"], first
        served = post(moved)
        assert not served["passed"], served

        rules = tmp_path / "labels.yaml"
        rules.write_text(rules_text)
        data = tmp_path / "moved.csv"
        data.write_text(moved)
        done = subprocess.run([GRIFFIN, "validate", "-r", rules, data, "--store", server.store_path, "--format",
                               "json"], capture_output=True, text=True, timeout=60)
        assert done.returncode == 1, done.stderr
        by_cli = next(c for c in json.loads(done.stdout)["checks"] if c["name"] == "y.drift")
        assert (by_cli["passed"], by_cli["observed"], by_cli["drift"]) == (
            served["passed"], served["observed"], served["drift"])


def test_store_profiles_all_keeps_every_declared_column_as_a_baseline(tmp_path):
    """--store-profiles all (Python: store_profiles="all") records every declared
    column's profile, so a drift check added later can name that run as its
    baseline; by default the record keeps only drift-checked columns (none
    here), and the later check fails saying that run has no stored profile."""
    import griffin

    store = tmp_path / "store.db"
    plain = tmp_path / "plain.yaml"
    plain.write_text("griffin: 1\ndataset: d\ncolumns:\n  y: {type: string}\n")
    old, new = tmp_path / "old.csv", tmp_path / "new.csv"
    old.write_text("y\n" + "a\n" * 8 + "b\n" * 2)
    new.write_text("y\n" + "b\n" * 10)
    _, kept = validate(plain, old, store, "--store-profiles", "all")
    _, default = validate(plain, old, store)
    by_python = griffin.Validator(str(plain)).validate(str(old), store=str(store), store_profiles="all")

    def later(baseline_run):
        rules = tmp_path / "later.yaml"
        rules.write_text("griffin: 1\ndataset: d\ncolumns:\n  y:\n    type: string\n"
                         f"    drift: {{baseline: 'run:{baseline_run}', max: 0.2}}\n")
        return checks(validate(rules, new, store)[1])["y.drift"]

    for run in (kept["run_id"], by_python.run_id):
        judged = later(run)
        assert not judged["passed"] and judged["observed"] == 0.8, judged
    lacking = later(default["run_id"])
    assert not lacking["passed"] and "has no stored profile" in lacking["message"], lacking

    for args, expected in ((["--store-profiles", "some"], "--store-profiles"),
                           (["--store-profiles", "all", "--no-store"], "--no-store turns off")):
        done = subprocess.run([str(require_binary()), "validate", "-r", str(plain), str(old), *args],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 2 and expected in done.stderr, done.stderr
    with pytest.raises(ValueError, match="store_profiles"):
        griffin.Validator(str(plain)).validate(str(old), store_profiles="all")
