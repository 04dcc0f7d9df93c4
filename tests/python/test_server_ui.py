"""griffin serve's web pages under /ui/ through a real HTTP client: behind the same
API keys as the API (401 without one, a key limited to other datasets sees neither
the dataset nor its runs), an index of datasets and runs, and each run's page as
`griffin report` renders it from the same store; both pages load clean in headless
Chromium (screenshots in build/html-screenshots/)."""
import re

import requests

from chromium_page import load_page, screenshot
from server_harness import TOKENS, GriffinServer, auth
from test_html_report import HOSTILE, cells, griffin, violation_rows

STEPS = """griffin: 1
dataset: steps
columns:
  x: {type: float64, not_null: true, min: 0}
"""
ORDERS = """griffin: 1
dataset: orders
columns:
  id: {type: int64, unique: true}
  note: {length: {max: 5}}
"""


def validate(server, dataset, body, key="trainer"):
    answer = requests.post(server.url + f"/v1/datasets/{dataset}/validate", params={"store": "true"}, data=body,
                           headers={**auth(key), "Content-Type": "text/csv"}, timeout=30)
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_ui_pages_behind_the_api_keys(tmp_path):
    with GriffinServer(tmp_path, {"steps": STEPS, "orders": ORDERS}, flight=False) as server:
        steps_run = validate(server, "steps", "x\n1\n-1\n2\n")
        hostile = HOSTILE.replace('"', '""')
        orders_run = validate(server, "orders", f'id,note\n1,ok\n1,"{hostile}"\n')

        for path in ("/ui/", f"/ui/runs/{steps_run['run_id']}"):
            for headers in ({}, {"Authorization": "Bearer wrong"}):
                answer = requests.get(server.url + path, headers=headers, timeout=10)
                assert answer.status_code == 401, (path, answer.status_code)
                assert answer.headers["WWW-Authenticate"] == 'Bearer, Basic realm="griffin", charset="UTF-8"'
                assert "<html" not in answer.text
        # A browser sends the key as Basic credentials' password (any user name).
        assert requests.get(server.url + "/ui/", auth=("me", TOKENS["trainer"]), timeout=10).status_code == 200
        assert requests.get(server.url + "/ui/", auth=("me", "wrong"), timeout=10).status_code == 401
        assert requests.get(server.url + "/v1/datasets", auth=("me", TOKENS["trainer"]), timeout=10).status_code == 401

        index = requests.get(server.url + "/ui/", headers=auth(), timeout=10)
        assert index.status_code == 200
        assert index.headers["Content-Type"].startswith("text/html")
        assert index.headers["Content-Security-Policy"].startswith("default-src 'none'")
        for run in (steps_run, orders_run):
            assert f'href="/ui/runs/{run["run_id"]}"' in index.text

        page = requests.get(server.url + f"/ui/runs/{orders_run['run_id']}", headers=auth(), timeout=10)
        assert page.status_code == 200
        # The same page as griffin report renders from the same store, but for the links.
        reported = griffin("report", orders_run["run_id"], "--store", server.store_path, ok=(0,)).stdout.decode()
        unlinked = re.sub(r'<nav>.*?</nav>', '', page.text)
        unlinked = re.sub(r'<a href="/ui/runs/[^"]*">(<circle.*?</circle>)</a>', r'\1', unlinked)
        assert unlinked == reported

        # A key limited to steps: orders is not listed and its run is not found.
        limited_index = requests.get(server.url + "/ui/", headers=auth("reader"), timeout=10)
        assert limited_index.status_code == 200
        assert "orders" not in limited_index.text and steps_run["run_id"] in limited_index.text
        hidden = requests.get(server.url + f"/ui/runs/{orders_run['run_id']}", headers=auth("reader"), timeout=10)
        assert hidden.status_code == 404
        assert requests.get(server.url + "/ui/runs/no-such-run", headers=auth(), timeout=10).status_code == 404
        assert requests.get(server.url + "/ui/?x=1", headers=auth(), timeout=10).status_code == 400

    index_file, run_file = tmp_path / "index.html", tmp_path / "run.html"
    index_file.write_text(index.text)
    run_file.write_text(page.text)
    index_page = load_page(index_file)
    assert index_page.console == [] and index_page.all("html")[0].attrs.get("data-ready") == "true"
    datasets = [div.attrs["data-dataset"] for div in index_page.by_id("datasets").iter("div")
                if div.attrs.get("class") == "dataset"]
    assert datasets == ["orders", "steps"]
    run_page = load_page(run_file)
    assert run_page.console == []
    for section in ("verdict", "checks", "violations", "trend", "profiles", "drift", "anomalies", "schema"):
        assert run_page.by_id(section) is not None, section
    assert HOSTILE in [cells(tr)[3] for tr in violation_rows(run_page)]
    assert run_page.all("img") == [] and len(run_page.all("script")) == 1
    screenshot(index_file, "serve-index")
    screenshot(run_file, "serve-run")
