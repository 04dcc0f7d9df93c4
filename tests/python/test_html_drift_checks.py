"""A run page's drift charts and stored column profiles in a real headless Chromium:
`griffin validate --html` and `griffin report RUN_ID` draw, for each drift check, the
baseline's distribution against the run's (every bin of a numeric column, the most
common values of a categorical one) from the check's report, and `griffin report` shows
the profile stored with the run, with histograms. The charts' shares are the JSON
report's, whose Jensen-Shannon divergence (recomputed here) is the check's value.
Screenshots go to build/html-screenshots/."""
import json
import math
import random
import subprocess

from chromium_page import load_page, screenshot
from griffin_cli import require_binary

RULES = """griffin: 1
dataset: drifting
columns:
  amount:
    type: float64
    drift: {baseline: last_passed, max: 0.05}
  color:
    drift: {baseline: last_passed, max: 0.2, severity: warn}
"""


def write(path, seed, shift, colors):
    rng = random.Random(seed)
    lines = ["amount,color"] + [f"{rng.gauss(shift, 1.0)!r},{rng.choices(['red', 'green', 'blue'], colors)[0]}"
                                for _ in range(2000)]
    path.write_text("\n".join(lines) + "\n")


def griffin(*args, ok=(0, 1)):
    done = subprocess.run([str(require_binary()), *map(str, args)], capture_output=True, timeout=120)
    assert done.returncode in ok, done.stderr.decode()
    return done


def js_base2(p, q):
    total = 0.0
    for a, b in zip(p, q):
        m = (a + b) / 2
        if a > 0:
            total += 0.5 * a * math.log2(a / m)
        if b > 0:
            total += 0.5 * b * math.log2(b / m)
    return total


def drift_cards(page):
    return {div.attrs["data-check"]: div for div in page.by_id("drift").iter("div")
            if div.attrs.get("class") == "drift-column"}


def bar_titles(card, series):
    return [next(rect.iter("title")).text() for rect in card.iter("rect")
            if rect.attrs.get("class") == f"bar series-{series}"]


def test_drift_charts_and_stored_profiles_in_chromium(tmp_path):
    rules = tmp_path / "rules.yaml"
    rules.write_text(RULES)
    store = tmp_path / "store.db"
    write(tmp_path / "day1.csv", 1, 0.0, [5, 3, 2])
    write(tmp_path / "day2.csv", 2, 0.8, [2, 3, 5])
    griffin("validate", "-r", rules, tmp_path / "day1.csv", "--store", store, "--no-progress")
    page_path = tmp_path / "day2.html"
    done = griffin("validate", "-r", rules, tmp_path / "day2.csv", "--store", store, "--format", "json",
                   "--html", page_path, "--no-progress")
    report = json.loads(done.stdout)
    checks = {c["name"]: c for c in report["checks"]}
    amount, color = checks["amount.drift"], checks["color.drift"]
    assert not amount["passed"] and not color["passed"]
    # The report's distribution: 20 bins for amount, whose JS divergence is the check's value.
    bins = amount["drift"]["distribution"]
    assert len(bins) == 20
    assert math.isclose(sum(b["baseline_share"] for b in bins), 1.0, rel_tol=1e-9)
    assert math.isclose(sum(b["current_share"] for b in bins), 1.0, rel_tol=1e-9)
    assert math.isclose(js_base2([b["baseline_share"] for b in bins], [b["current_share"] for b in bins]),
                        amount["observed"], rel_tol=1e-9)
    assert {v["value"] for v in color["drift"]["distribution"]} == {"red", "green", "blue"}

    stored = tmp_path / "stored.html"
    griffin("report", report["run_id"], "--store", store, "-o", stored, ok=(0,))
    for path, name in ((page_path, "validate-drift"), (stored, "report-drift")):
        page = load_page(path)
        assert page.console == [] and page.all("html")[0].attrs.get("data-ready") == "true"
        cards = drift_cards(page)
        assert set(cards) == {"amount.drift", "color.drift"}
        for check, card in ((amount, cards["amount.drift"]), (color, cards["color.drift"])):
            heading = next(card.iter("h3")).text()
            assert heading.startswith(check["column"]) and "> max" in heading
            assert abs(float(heading.split(check["drift"]["measure"] + " ")[1].split()[0]) - check["observed"]) < 1e-3
            distribution = check["drift"]["distribution"]
            # one bar per bin or value and series, titled with its label
            for series, key in ((0, "baseline_share"), (1, "current_share")):
                titles = bar_titles(card, series)
                assert len(titles) == len(distribution)
                assert [t.rsplit(": ", 1)[0].rsplit(" ", 1)[0] for t in titles] == [d["value"] for d in distribution]
                assert all(t.rsplit(" ", 2)[1] == ("baseline:" if series == 0 else "current:") for t in titles)
            moved = [tr.iter("td").__next__().text() for tr in next(card.iter("tbody")).iter("tr")]
            assert moved == [m["value"] for m in check["drift"]["moved"]]
            assert check["drift"]["baseline_run_id"][:8] in card.text()
        profiles = [div for div in page.by_id("profiles").iter("div") if div.attrs.get("class") == "column"]
        assert sorted(card.attrs["data-column"] for card in profiles) == ["amount", "color"]
        amount_card = next(card for card in profiles if card.attrs["data-column"] == "amount")
        assert len([r for r in amount_card.iter("rect") if "bar" in r.attrs.get("class", "")]) == 20
        screenshot(path, name)
