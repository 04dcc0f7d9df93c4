"""`griffin drift A B`: drift values equal an independent computation (scipy's
jensenshannon squared, log base 2, for numeric columns; the largest share change
for categorical ones) on generated distributions; data or profile states on
either side; wrong inputs (a corrupt baseline, one with other columns)."""
import json
import math
import random
import subprocess

import numpy as np
from scipy.spatial.distance import jensenshannon

from griffin_cli import require_binary

BINS = 20


def drift(*args, check=True):
    done = subprocess.run([str(require_binary()), "drift", *map(str, args)], capture_output=True, timeout=300)
    if check:
        assert done.returncode in (0, 1), done.stderr.decode()
    return done


def write(path, xs, cs):
    with open(path, "w") as f:
        f.write("x,c\n")
        for x, c in zip(xs, cs):
            f.write("%r,%s\n" % (x, c))


def reference_js(a, b):
    lo, hi = min(min(a), min(b)), max(max(a), max(b))
    width = (hi - lo) / BINS
    def binned(xs):
        counts = np.zeros(BINS)
        for x in xs:
            counts[min(max(int((x - lo) / width), 0), BINS - 1)] += 1
        return counts
    return jensenshannon(binned(a), binned(b), base=2) ** 2


def reference_linf(a, b):
    values = set(a) | set(b)
    return max(abs(a.count(v) / len(a) - b.count(v) / len(b)) for v in values)


def generated(tmp_path, name, seed, mu, sigma, weights):
    rng = random.Random(seed)
    xs = [round(rng.gauss(mu, sigma), 6) for _ in range(20000)]
    cs = rng.choices(["red", "green", "blue", "grey"], weights=weights, k=len(xs))
    write(tmp_path / name, xs, cs)
    return xs, cs


def test_values_equal_scipy_and_the_share_changes(tmp_path):
    base_x, base_c = generated(tmp_path, "train.csv", 1, 0.0, 1.0, [4, 3, 2, 1])
    cases = {"same.csv": (2, 0.0, 1.0, [4, 3, 2, 1]), "shift.csv": (3, 0.7, 1.3, [1, 2, 3, 4]),
             "far.csv": (4, 25.0, 0.5, [1, 0, 0, 0])}
    for name, (seed, mu, sigma, weights) in cases.items():
        xs, cs = generated(tmp_path, name, seed, mu, sigma, weights)
        report = json.loads(drift(tmp_path / "train.csv", tmp_path / name, "--format", "json").stdout)
        columns = {c["column"]: c for c in report["columns"]}
        assert columns["x"]["measure"] == "js"
        assert math.isclose(columns["x"]["value"], reference_js(base_x, xs), rel_tol=1e-9, abs_tol=1e-12), name
        assert columns["c"]["measure"] == "linf"
        assert math.isclose(columns["c"]["value"], reference_linf(base_c, cs), rel_tol=1e-12), name
        moved = columns["c"]["moved"][0]
        assert math.isclose(abs(moved["current_share"] - moved["baseline_share"]), columns["c"]["value"])
    # a known jump: the far distribution shares no bin with the baseline
    far = json.loads(drift(tmp_path / "train.csv", tmp_path / "far.csv", "--format", "json").stdout)
    assert far["columns"][0]["value"] > 0.99


def test_max_sets_the_exit_status_and_states_stand_for_data(tmp_path):
    generated(tmp_path, "train.csv", 1, 0.0, 1.0, [4, 3, 2, 1])
    generated(tmp_path, "serve.csv", 3, 0.7, 1.3, [1, 2, 3, 4])
    state = tmp_path / "train.state"
    subprocess.run([str(require_binary()), "profile", tmp_path / "train.csv", "--state", state],
                   check=True, capture_output=True)
    from_data = drift(tmp_path / "train.csv", tmp_path / "serve.csv", "--format", "json").stdout
    from_state = drift(state, tmp_path / "serve.csv", "--format", "json").stdout
    assert json.loads(from_state)["columns"] == json.loads(from_data)["columns"]
    assert drift(state, tmp_path / "serve.csv", "--max", "0.9").returncode == 0
    failed = drift(state, tmp_path / "serve.csv", "--max", "0.01")
    assert failed.returncode == 1 and b"FAIL" in failed.stdout


def test_wrong_inputs(tmp_path):
    generated(tmp_path, "serve.csv", 3, 0.7, 1.3, [1, 2, 3, 4])
    state = tmp_path / "train.state"
    subprocess.run([str(require_binary()), "profile", tmp_path / "serve.csv", "--state", state],
                   check=True, capture_output=True)
    cut = tmp_path / "cut.state"
    cut.write_bytes(state.read_bytes()[:200])
    done = drift(cut, tmp_path / "serve.csv", check=False)
    assert done.returncode == 3
    assert done.stderr.decode().strip() == "griffin: %s: corrupt Griffin profile state" % cut
    missing = drift(tmp_path / "nope.state", tmp_path / "serve.csv", check=False)
    assert missing.returncode == 3 and b"nope.state" in missing.stderr
    other = tmp_path / "other.csv"
    other.write_text("y,x\n1,a\n2,b\n")
    report = json.loads(drift(other, tmp_path / "serve.csv", "--format", "json", "--max", "0.5").stdout)
    notes = {c["column"]: c["note"] for c in report["columns"]}
    assert notes == {"x": "the type changed: string in the baseline, float64 now", "c": "not in the baseline",
                     "y": "not in the current data"}
    assert report["passed"] is True  # nothing comparable went over the maximum
    assert drift(other, tmp_path / "serve.csv", "--max", "2", check=False).returncode == 2


def test_python_drift_matches_the_cli(tmp_path):
    import griffin
    import pytest

    generated(tmp_path, "train.csv", 1, 0.0, 1.0, [4, 3, 2, 1])
    generated(tmp_path, "serve.csv", 3, 0.7, 1.3, [1, 2, 3, 4])
    cli = json.loads(drift(tmp_path / "train.csv", tmp_path / "serve.csv", "--format", "json", "--max", "0.1").stdout)
    assert griffin.drift(tmp_path / "train.csv", tmp_path / "serve.csv", max=0.1) == cli
    cut = tmp_path / "cut.state"
    subprocess.run([str(require_binary()), "profile", tmp_path / "train.csv", "--state", cut],
                   check=True, capture_output=True)
    cut.write_bytes(cut.read_bytes()[:100])
    with pytest.raises(griffin.InputError, match="corrupt Griffin profile state"):
        griffin.drift(cut, tmp_path / "serve.csv")
    with pytest.raises(ValueError):
        griffin.drift(tmp_path / "train.csv", tmp_path / "serve.csv", max=3)
