"""The HTML pages (griffin validate --html, griffin profile --html, griffin drift --html)
in a real headless Chromium: every section is in the DOM, the page's script ran (the
Content-Security-Policy admits only it) with no console error, a hostile value renders as
text, the violations table sorts and filters, and the verdicts equal griffin validate's
JSON report on the same rows. Screenshots go to build/html-screenshots/."""
import hashlib
import base64
import json
import re
import subprocess

from chromium_page import load_page, screenshot
from griffin_cli import require_binary

HOSTILE = "<script>document.title='pwned'</script><img src=x onerror=\"document.body.dataset.pwned=1\">"
SECTIONS = ["verdict", "checks", "violations", "trend", "profiles", "drift", "anomalies", "schema"]

RULES = """griffin: 1
dataset: orders
columns:
  id:
    type: int64
    not_null: true
    unique: true
  amount:
    type: float64
    max: 100
  note:
    length: {max: 5}
table:
  - row_count: {min: 1}
"""


def write_data(path, rows):
    lines = ["id,amount,note"]
    for row_id, amount, note in rows:
        lines.append(f'{row_id},{amount},"{note.replace(chr(34), chr(34) * 2)}"')
    path.write_text("\n".join(lines) + "\n")


def griffin(*args, ok=(0, 1)):
    done = subprocess.run([str(require_binary()), *map(str, args)], capture_output=True, timeout=120)
    assert done.returncode in ok, f"griffin {' '.join(map(str, args))}: {done.returncode} {done.stderr.decode()}"
    return done


def validate_html(tmp_path, rows, runs=1):
    rules = tmp_path / "rules.yaml"
    rules.write_text(RULES)
    data = tmp_path / "orders.csv"
    write_data(data, rows)
    page = tmp_path / "report.html"
    store = tmp_path / "store.db"
    for _ in range(runs):
        done = griffin("validate", "-r", rules, data, "--store", store, "--format", "json", "--html", page,
                       "--no-progress")
    return page, json.loads(done.stdout)


ROWS = [(1, 10.5, "ok"), (2, 200, HOSTILE), (3, 50, "fine"), (4, 120, "x"), (5, 101, "toolong"),
        (6, 7, "ab"), (7, 99, "abc")]


def cells(row):
    return [td.text() for td in row.iter("td")]


def violation_rows(page, visible_only=True):
    body = next(page.by_id("violations-table").iter("tbody"))
    return [tr for tr in body.iter("tr") if not (visible_only and "hidden" in tr.attrs)]


def test_validate_html_has_every_section_and_runs_clean_in_chromium(tmp_path):
    page_path, report = validate_html(tmp_path, ROWS, runs=3)
    page = load_page(page_path)
    assert page.console == []
    html_element = page.all("html")[0]
    assert html_element.attrs.get("data-ready") == "true"  # the script ran under the page's CSP
    for section in SECTIONS:
        assert page.by_id(section) is not None and page.by_id(section).tag == "section", section
    # The hostile value is text: the title is the page's, no element came from it.
    assert page.all("title")[0].text() == "orders validation"
    assert len(page.all("script")) == 1 and page.all("img") == []
    assert "pwned" not in page.all("body")[0].attrs.get("data-pwned", "")
    values = [cells(tr)[3] for tr in violation_rows(page)]
    assert HOSTILE in values
    # The verdict and the checks agree with the JSON report of the same run.
    verdict = page.by_id("verdict").text()
    assert ("failed" if not report["passed"] else "passed") in verdict
    assert f"{report['quality_score'] * 100:.1f}%" in verdict
    checks = next(page.by_id("checks-table").iter("tbody"))
    listed = {cells(tr)[0]: cells(tr) for tr in checks.iter("tr")}
    assert set(listed) == {c["name"] for c in report["checks"]}
    for check in report["checks"]:
        if "pass_rate" in check and check.get("violations") is not None:
            assert listed[check["name"]][5] == str(check["violations"])
            assert listed[check["name"]][6].endswith(f"{check['pass_rate'] * 100:.1f}%")
        assert listed[check["name"]][8].startswith("passed" if check["passed"] else "failed")
    assert len(violation_rows(page)) == len(report["violations"])
    # The trend has one point per stored run; the profiles one card per rule column.
    assert len(list(page.by_id("trend").iter("circle"))) == 3
    cards = [div for div in page.by_id("profiles").iter("div") if div.attrs.get("class") == "column"]
    assert [card.attrs["data-column"] for card in cards] == ["id", "amount", "note"]
    assert len([r for r in page.by_id("profiles").iter("rect")]) == 40  # id and amount: 20 bins each
    screenshot(page_path, "validate")


def test_violations_table_sorts_and_filters_by_its_fragment(tmp_path):
    page_path, report = validate_html(tmp_path, ROWS)
    violations = report["violations"]
    # Sorted by row, descending (numbers as numbers), and filtered to the rows whose
    # text holds every word, as a shared link opens it.
    page = load_page(page_path, "violations-table.sort=row&violations-table.dir=desc&violations-table.q=amount%20ABOVE")
    assert page.console == []
    expected = [v for v in violations if "amount" in json.dumps(v).lower() and "above" in v["message"].lower()]
    assert 0 < len(expected) < len(violations)
    shown = violation_rows(page)
    assert [int(cells(tr)[0]) for tr in shown] == sorted((v["row"] for v in expected), reverse=True)
    header = [th for th in page.by_id("violations-table").iter("th") if th.attrs.get("data-col") == "row"][0]
    assert header.attrs.get("aria-sort") == "descending"
    assert page.by_id("violations-table").attrs["data-visible-rows"] == str(len(expected))
    assert page.by_id("violations-table-shown").text() == f"{len(expected)} of {len(violations)} shown"
    assert len(violation_rows(page, visible_only=False)) == len(violations)  # hidden, not removed


def test_page_script_is_the_one_the_policy_admits(tmp_path):
    page_path, _ = validate_html(tmp_path, ROWS[:2])
    text = page_path.read_text()
    script = re.search(r"<script>(.*?)</script>", text, re.S).group(1)
    digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
    assert f"script-src 'sha256-{digest}'" in text
    assert "http://" not in text and "https://" not in text


def test_console_errors_are_caught(tmp_path):
    # The harness itself: a page that throws is seen (else the checks above could not fail).
    bad = tmp_path / "bad.html"
    bad.write_text("<!DOCTYPE html><html><body><script>nosuchfunction();</script></body></html>")
    page = load_page(bad)
    assert len(page.console) == 1 and "nosuchfunction is not defined" in page.console[0]
    from cdp_page import CdpPage

    with CdpPage(bad) as driven:
        driven.evaluate("setTimeout(() => { throw new Error('boom') }, 0); console.log('said')")
        driven.wait_for("new Promise(done => setTimeout(() => done(true), 50))")
        kinds = sorted(event["method"] for event in driven.problems())
        assert "Runtime.exceptionThrown" in kinds and "Runtime.consoleAPICalled" in kinds


def test_profile_html_in_chromium(tmp_path):
    data = tmp_path / "orders.csv"
    write_data(data, ROWS + [(8, 5.5, "ok"), (9, 6.5, "ok")])
    page_path = tmp_path / "profile.html"
    done = griffin("profile", data, "--html", page_path, "--format", "json", ok=(0,))
    profile = json.loads(done.stdout)
    page = load_page(page_path)
    assert page.console == []
    assert page.by_id("verdict") is None and page.by_id("profiles") is not None
    cards = {div.attrs["data-column"]: div for div in page.by_id("profiles").iter("div")
             if div.attrs.get("class") == "column"}
    assert list(cards) == [c["name"] for c in profile["columns"]]
    amount = next(c for c in profile["columns"] if c["name"] == "amount")
    bars = [int(float(r.iter("title").__next__().text().rsplit(": ", 1)[1])) for r in cards["amount"].iter("rect")]
    assert bars == [b["count"] for b in amount["numbers"]["histogram"]]
    note = next(c for c in profile["columns"] if c["name"] == "note")
    top = [cells(tr) for tr in next(cards["note"].iter("tbody")).iter("tr")]
    assert top[0][:2] == [note["top_values"]["values"][0]["value"], str(note["top_values"]["values"][0]["count"])]
    assert page.all("img") == [] and len(page.all("script")) == 1
    screenshot(page_path, "profile")


def test_drift_html_in_chromium(tmp_path):
    baseline, current = tmp_path / "train.csv", tmp_path / "serve.csv"
    write_data(baseline, [(i, i % 10, "a" if i % 4 else "b") for i in range(200)])
    write_data(current, [(i, i % 10 + 5, "b" if i % 4 else "a") for i in range(200)])
    page_path = tmp_path / "drift.html"
    done = griffin("drift", baseline, current, "--max", "0.1", "--format", "json", "--html", page_path)
    drift = json.loads(done.stdout)
    page = load_page(page_path)
    assert page.console == []
    section = page.by_id("drift")
    columns = {div.attrs["data-column"]: div for div in section.iter("div") if div.attrs.get("class") == "drift-column"}
    for column in drift["columns"]:
        heading = next(columns[column["column"]].iter("h3")).text()
        if column["value"] is not None:
            assert f"{column['measure']} " in heading
            assert abs(float(heading.split(column["measure"] + " ")[1].split()[0]) - column["value"]) < 1e-3
    note = next(c for c in drift["columns"] if c["column"] == "note")
    moved = [cells(tr)[0] for tr in next(columns["note"].iter("tbody")).iter("tr")]
    assert moved == [m["value"] for m in note["moved"]]
    assert "over max" in next(columns["note"].iter("h3")).text()
    screenshot(page_path, "drift")


def test_html_over_an_input_is_refused(tmp_path):
    rules = tmp_path / "rules.yaml"
    rules.write_text(RULES)
    data = tmp_path / "orders.csv"
    write_data(data, ROWS[:2])
    before = data.read_bytes()
    done = griffin("validate", "-r", rules, data, "--no-store", "--html", data, ok=(2,))
    assert "--html" in done.stderr.decode() and data.read_bytes() == before
    done = griffin("profile", data, "--html", data, ok=(2,))
    assert "--html" in done.stderr.decode() and data.read_bytes() == before
    done = griffin("validate", "-r", rules, data, "--no-store", "--html", tmp_path / "no" / "dir" / "r.html", ok=(3,))
    assert "r.html" in done.stderr.decode()


def test_report_of_a_stored_run_in_chromium(tmp_path):
    page_path, report = validate_html(tmp_path, ROWS, runs=2)
    store = tmp_path / "store.db"
    run_id = report["run_id"]
    out = tmp_path / "stored.html"
    griffin("report", run_id[:8], "--store", store, "-o", out, ok=(0,))
    to_stdout = griffin("report", run_id, "--store", store, ok=(0,)).stdout.decode()
    assert to_stdout == out.read_text()
    shown = json.loads(griffin("show", run_id, "--store", store, "--format", "json", ok=(0,)).stdout)
    page = load_page(out)
    assert page.console == [] and page.all("html")[0].attrs.get("data-ready") == "true"
    for section in SECTIONS:
        assert page.by_id(section) is not None, section
    assert run_id in page.by_id("verdict").text()
    assert f"{shown['quality_score'] * 100:.1f}%" in page.by_id("verdict").text()
    assert len(violation_rows(page)) == len(shown["violations"])
    assert HOSTILE in [cells(tr)[3] for tr in violation_rows(page)]
    assert page.all("img") == [] and len(page.all("script")) == 1
    assert len(list(page.by_id("trend").iter("circle"))) == 2
    screenshot(out, "report")
    done = griffin("report", "no-such-run", "--store", store, ok=(2,))
    assert "no finished run 'no-such-run'" in done.stderr.decode()
    done = griffin("report", run_id, "--store", store, "-o", tmp_path / "missing" / "x.html", ok=(3,))
    assert "x.html" in done.stderr.decode()


def test_violations_table_sorts_and_filters_by_clicks_and_typing(tmp_path):
    from cdp_page import CdpPage

    page_path, report = validate_html(tmp_path, ROWS)
    violations = report["violations"]
    rows_js = ("Array.from(document.querySelectorAll('#violations-table tbody tr'))"
               ".filter(tr => !tr.hidden).map(tr => tr.cells[0].textContent)")
    with CdpPage(page_path) as page:
        assert page.evaluate("document.documentElement.dataset.ready") == "true"
        click_row = "document.querySelector('#violations-table th[data-col=row] button').click()"
        page.evaluate(click_row)
        assert page.evaluate(rows_js) == [str(r) for r in sorted(v["row"] for v in violations)]
        page.evaluate(click_row)  # again: descending
        assert page.evaluate(rows_js) == [str(r) for r in sorted((v["row"] for v in violations), reverse=True)]
        assert page.evaluate("document.querySelector('#violations-table th[data-col=row]').getAttribute('aria-sort')") \
            == "descending"
        page.evaluate("const box = document.querySelector('input[data-filter-for=violations-table]');"
                      "box.value = 'LENGTH'; box.dispatchEvent(new Event('input'))")
        expected = sorted((v["row"] for v in violations if "length" in v["message"].lower()), reverse=True)
        assert 0 < len(expected) < len(violations)
        assert page.evaluate(rows_js) == [str(r) for r in expected]
        assert page.evaluate("document.getElementById('violations-table-shown').textContent") \
            == f"{len(expected)} of {len(violations)} shown"
        # The state is in the fragment: a link to it opens the same view.
        assert page.evaluate("location.hash") == "#violations-table.sort=row&violations-table.dir=desc&violations-table.q=LENGTH"
        page.evaluate("document.querySelector('#checks-table th[data-col=violations] button').click()")
        counts = page.evaluate("Array.from(document.querySelectorAll('#checks-table tbody tr'))"
                               ".map(tr => tr.cells[5].textContent)")
        numbers = [int(c) for c in counts if c]
        assert numbers == sorted(numbers) and numbers[-1] == max(c.get("violations", 0) for c in report["checks"])
        assert counts[:counts.count("")] == [""] * counts.count("")  # table checks (no count) first
        assert page.problems() == []


def test_standard_input_is_not_profiled_twice(tmp_path):
    rules = tmp_path / "rules.yaml"
    rules.write_text(RULES)
    data = tmp_path / "orders.csv"
    write_data(data, ROWS)
    page_path = tmp_path / "stdin.html"
    done = subprocess.run([str(require_binary()), "validate", "-r", str(rules), "-", "--no-store", "--format", "json",
                           "--html", str(page_path)], input=data.read_bytes(), capture_output=True, timeout=60)
    assert done.returncode == 1, done.stderr.decode()
    text = page_path.read_text()
    assert "Not profiled: standard input is read only once." in text
    assert "Run with --no-store: no history." in text
    assert text.count('<tr><td class="num" data-key=') == len(json.loads(done.stdout)["violations"])


def test_a_large_violations_table_sorts_and_filters_quickly(tmp_path):
    from cdp_page import CdpPage

    rules = tmp_path / "rules.yaml"
    rules.write_text(RULES)
    data = tmp_path / "orders.csv"
    write_data(data, [(i, 150 + i % 7, "toolong" if i % 2 else "ok") for i in range(6000)])
    page_path = tmp_path / "large.html"
    griffin("validate", "-r", rules, data, "--no-store", "--max-violations", "1000000", "--html", page_path)
    with CdpPage(page_path) as page:
        elapsed = page.evaluate(
            "(() => { const t0 = performance.now();"
            "document.querySelector('#violations-table th[data-col=value] button').click();"
            "document.querySelector('#violations-table th[data-col=value] button').click();"
            "const box = document.querySelector('input[data-filter-for=violations-table]');"
            "box.value = 'length'; box.dispatchEvent(new Event('input'));"
            "return performance.now() - t0; })()")
        assert page.evaluate("document.getElementById('violations-table-shown').textContent") == "3000 of 9000 shown"
        assert elapsed < 3000, f"{elapsed:.0f} ms to sort twice and filter 9,000 rows"
        assert page.problems() == []
