"""`anomaly:` table checks (docs/rules.md "Anomaly checks") through `griffin
validate` with a real run store: synthetic daily histories with known jumps;
each strategy flags the jump and only the jump, the report carries the observed
value, the range that passed and the history compared with (equal to an
independent computation); too little history and --no-store pass with a note;
a wrong metric is a rule error naming the line."""
import random
import statistics
import subprocess

from griffin_cli import require_binary
from test_drift_checks import checks, validate

RULES = """griffin: 1
dataset: daily
columns:
  amount: {type: float64}
  tag: {type: string}
table:
  - anomaly: {metric: row_count, relative_change: {max_increase: 0.5, max_decrease: 0.3}}
  - anomaly: {metric: amount.mean, z_score: {max: 4, window: 30, min_history: 5}, severity: warn}
  - anomaly: {metric: tag.null_fraction, absolute_change: {max_increase: 0.1}}
"""


def write_day(path, rows, mean, null_share, seed):
    rng = random.Random(seed)
    values = [rng.gauss(mean, 1.0) for _ in range(rows)]
    lines = ["amount,tag"]
    for i, value in enumerate(values):
        tag = "" if rng.random() < null_share else "t%d" % (i % 5)
        lines.append(f"{value!r},{tag}")
    path.write_text("\n".join(lines) + "\n")
    return statistics.fmean(values)


def test_each_strategy_flags_its_jump_and_only_it(tmp_path):
    store = tmp_path / "store.db"
    rules = tmp_path / "rules.yaml"
    rules.write_text(RULES)
    # 12 steady days; day 8 doubles the rows, day 10 moves the mean by ~40
    # standard deviations of the daily means, day 11 has 40% null tags.
    history_rows, history_means = [], []
    for day in range(12):
        rows = 400 + 10 * (day % 3)
        if day == 8:
            rows = 900
        mean = 100.0 + (40.0 if day == 10 else 0.0)
        data = tmp_path / f"day{day}.csv"
        observed_mean = write_day(data, rows, mean, 0.4 if day == 11 else 0.02, seed=day)
        code, report = validate(rules, data, store)
        c = checks(report)
        row_check = c["table.row_count.anomaly"]
        mean_check = c["amount.mean.anomaly"]
        null_check = c["tag.null_fraction.anomaly"]
        assert row_check["check"] == "anomaly" and row_check["observed"] == rows
        assert abs(mean_check["observed"] - observed_mean) < 1e-9

        if day == 0:
            for check in (row_check, mean_check, null_check):
                assert check["passed"] and "too little history" in check["note"], check
        # relative_change against the previous day
        if day >= 1:
            previous = history_rows[-1]
            assert row_check["anomaly"]["expected"] == previous
            assert row_check["anomaly"]["history"][0]["value"] == previous
            assert abs(row_check["max"] - previous * 1.5) < 1e-9 and abs(row_check["min"] - previous * 0.7) < 1e-9
            jumped = rows > previous * 1.5 or rows < previous * 0.7
            assert row_check["passed"] == (not jumped), (day, row_check)
            assert jumped == (day in (8, 9)), day  # up on day 8, and back down on day 9
        if day == 8:
            assert row_check["message"].startswith(f"row_count 900 rose by ")
            assert code == 1 and not report["passed"]
        # z_score over the earlier daily means, from the 6th day on
        if day < 5:
            assert mean_check["passed"] and "too little history" in mean_check["note"]
        else:
            window = history_means[-30:]
            mu, sd = statistics.fmean(window), statistics.stdev(window)
            detail = mean_check["anomaly"]
            assert abs(detail["expected"] - mu) < 1e-9 and abs(detail["stddev"] - sd) < 1e-9
            assert len(detail["history"]) == len(window)
            assert all(abs(h["value"] - w) < 1e-9 for h, w in zip(detail["history"], window))
            assert abs(detail["z"] - (observed_mean - mu) / sd) < 1e-6
            assert mean_check["passed"] == (day != 10), (day, detail)
        if day == 10:
            assert mean_check["severity"] == "warn" and "standard deviations above the mean" in mean_check["message"]
        if day >= 1:
            assert null_check["passed"] == (day != 11), (day, null_check)
        history_rows.append(rows)
        history_means.append(mean_check["observed"])


def test_no_store_and_bad_metrics(tmp_path):
    rules = tmp_path / "rules.yaml"
    rules.write_text(RULES)
    data = tmp_path / "d.csv"
    write_day(data, 10, 1.0, 0.0, seed=1)
    code, report = validate(rules, data, None)
    assert code == 0
    for check in report["checks"]:
        if check["check"] == "anomaly":
            assert check["passed"] and check["note"].startswith("no run store (--no-store was given)")
    bad = tmp_path / "bad.yaml"
    bad.write_text(RULES.replace("metric: amount.mean", "metric: price.mean"))
    done = subprocess.run([str(require_binary()), "validate", "-r", str(bad), str(data), "--no-store"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip() == ("griffin: " + str(bad) + ":8: table[1].anomaly.metric: column 'price' is not "
                                   "declared in columns:")
