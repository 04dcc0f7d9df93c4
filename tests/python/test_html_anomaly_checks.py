"""A run page's anomaly charts in a real headless Chromium: `griffin validate --html`,
`griffin report RUN_ID` and griffin serve's /ui/runs/RUN_ID draw, for each anomaly
check, the metric over the dataset's last runs (the report's anomaly.series), the
range that passed (min/max) as a band and this run's value, all from the check's
report. The points' values equal the report's, the runs compared with are marked,
this run's point lies outside the band when the check failed and inside when it
passed, and the page logs nothing to the console. Screenshots go to
build/html-screenshots/."""
import json
import random
import subprocess

import pytest
import requests

from chromium_page import load_page, screenshot
from griffin_cli import require_binary
from server_harness import GriffinServer, auth

RULES = """griffin: 1
dataset: daily
columns:
  amount: {type: float64}
table:
  - anomaly: {metric: row_count, relative_change: {max_increase: 0.5, max_decrease: 0.3}}
  - anomaly: {metric: amount.mean, z_score: {max: 4, window: 5, min_history: 3}, severity: warn}
  - anomaly: {metric: amount.max, z_score: {max: 3, window: 30, min_history: 20}}
"""
DAYS = 9  # the last one doubles its rows and moves the mean


def write_day(path, day):
    rng = random.Random(day)
    rows = 900 if day == DAYS - 1 else 400 + 10 * (day % 3)
    mean = 140.0 if day == DAYS - 1 else 100.0
    path.write_text("amount\n" + "".join(f"{rng.gauss(mean, 1.0)!r}\n" for _ in range(rows)))


def griffin(*args, ok=(0, 1)):
    done = subprocess.run([str(require_binary()), *map(str, args)], capture_output=True, timeout=120)
    assert done.returncode in ok, done.stderr.decode()
    return done


def cards(page):
    return {div.attrs["data-check"]: div for div in page.by_id("anomalies").iter("div")
            if div.attrs.get("class") == "anomaly-check"}


def points(card):
    """(classes, exact value, tooltip, cy) of each point, left to right."""
    return [(circle.attrs["class"].split(), float(circle.attrs["data-value"]), next(circle.iter("title")).text(),
             float(circle.attrs["cy"])) for circle in card.iter("circle")]


def band(card):
    rects = [r for r in card.iter("rect") if r.attrs.get("class") == "band"]
    if not rects:
        return None
    rect = rects[0]
    return float(rect.attrs["y"]), float(rect.attrs["y"]) + float(rect.attrs["height"]), next(rect.iter("title")).text()


def check_page(page, report):
    assert page.console == [] and page.all("html")[0].attrs.get("data-ready") == "true"
    anomaly_checks = [c for c in report["checks"] if c["check"] == "anomaly"]
    shown = cards(page)
    assert set(shown) == {c["name"] for c in anomaly_checks}
    for check in anomaly_checks:
        card, detail = shown[check["name"]], check["anomaly"]
        assert card.attrs["data-metric"] == detail["metric"]
        drawn = points(card)
        series = detail["series"]
        # every earlier run of the series, oldest first, then this run
        assert [value for _, value, _, _ in drawn] == [p["value"] for p in series] + [check["observed"]]
        assert [title.split(" ")[1] for _, _, title, _ in drawn[:-1]] == [str(p["version"]) for p in series]
        compared = {p["run_id"] for p in detail["history"]}
        assert [("history" in classes) for classes, _, _, _ in drawn[:-1]] == [p["run_id"] in compared for p in series]
        classes, _, title, current_y = drawn[-1]
        assert "current" in classes and title.startswith("this run: ")
        assert ("failed" in classes) == (not check["passed"])
        heading = next(card.iter("h3")).text()
        if check.get("note"):
            assert band(card) is None and check["note"] in card.text()
            continue
        top, bottom, label = band(card)
        low, high = check["min"], check["max"]
        # the page writes 6 significant digits, as the check's message does
        assert label.startswith("passes: ")
        assert [float(v) for v in label[len("passes: "):].split(" … ")] == pytest.approx([low, high], rel=1e-5)
        assert float(heading.split()[1]) == pytest.approx(check["observed"], rel=1e-5)
        # SVG y grows downwards: a value above max is drawn above the band.
        if check["passed"]:
            assert top <= current_y <= bottom and " within " in heading
        else:
            assert current_y < top and check["observed"] > high and " outside " in heading
            assert check["message"] in card.text()


def test_anomaly_charts_in_validate_report_and_ui(tmp_path):
    rules = tmp_path / "rules.yaml"
    rules.write_text(RULES)
    store = tmp_path / "store.db"
    for day in range(DAYS - 1):
        write_day(tmp_path / f"day{day}.csv", day)
        griffin("validate", "-r", rules, tmp_path / f"day{day}.csv", "--store", store, "--no-progress")
    write_day(tmp_path / "last.csv", DAYS - 1)
    page_path = tmp_path / "last.html"
    done = griffin("validate", "-r", rules, tmp_path / "last.csv", "--store", store, "--format", "json",
                   "--html", page_path, "--no-progress")
    report = json.loads(done.stdout)
    checks = {c["name"]: c for c in report["checks"]}
    rows, mean, too_short = (checks["table.row_count.anomaly"], checks["amount.mean.anomaly"],
                             checks["amount.max.anomaly"])
    assert not rows["passed"] and not mean["passed"] and too_short["passed"] and too_short["note"]
    # The series is every earlier run (fewer than 30), though relative_change compared with one.
    assert [p["value"] for p in rows["anomaly"]["series"]] == [400 + 10 * (d % 3) for d in range(DAYS - 1)]
    assert len(rows["anomaly"]["history"]) == 1 and len(mean["anomaly"]["history"]) == 5

    stored = tmp_path / "stored.html"
    griffin("report", report["run_id"], "--store", store, "-o", stored, ok=(0,))
    ui = tmp_path / "ui.html"
    with GriffinServer(tmp_path, {"daily": RULES}, store=str(store), flight=False) as server:
        answer = requests.get(server.url + f"/ui/runs/{report['run_id']}", headers=auth(), timeout=10)
        assert answer.status_code == 200
        ui.write_text(answer.text)
    for path, name in ((page_path, "validate-anomaly"), (stored, "report-anomaly"), (ui, "ui-anomaly")):
        page = load_page(path)
        check_page(page, report)
        screenshot(path, name)
    # /ui/ links each earlier run's point to its page.
    ui_cards = cards(load_page(ui))
    links = [a.attrs["href"] for a in ui_cards["table.row_count.anomaly"].iter("a")]
    assert links == [f"/ui/runs/{p['run_id']}" for p in rows["anomaly"]["series"]]
