"""`griffin alerts` (docs/alerts.md): the alert deliveries that `griffin validate`
recorded, listed from a SQLite store and from a real PostgreSQL, newest first: the
JSON listing equals the table's rows (read directly on SQLite), the filters
(--dataset, --run prefix, --status, --limit) pick what they say, the text form has
an undelivered alert's error under it and never the URL's secret, and usage errors
are exit 2 with one line."""
import json
import sqlite3
import subprocess
import time

import pytest

from griffin_cli import require_binary
from test_alerts import RULES, Receiver
from test_store_cli import fresh_pg_database, require_pg

DOWN_URL = "http://127.0.0.1:9/hook?token=SECRET123"  # nothing listens on port 9


def griffin(*args):
    return subprocess.run([str(require_binary()), *map(str, args)], capture_output=True, text=True, timeout=120)


def validate(tmp_path, store, url, rows, dataset="orders"):
    rules = tmp_path / f"{dataset}.rules.yaml"
    rules.write_text(RULES.format(url=url, format="json").replace("dataset: orders", f"dataset: {dataset}"))
    data = tmp_path / "data.csv"
    data.write_text("amount\n" + "".join(f"{v}\n" for v in rows))
    done = griffin("validate", "-r", rules, data, "--format", "json", "--store", store)
    assert done.returncode == 1, done.stderr
    return json.loads(done.stdout)["run_id"]


def listing(store, *args):
    done = griffin("alerts", "--store", store, "--format", "json", *args)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["deliveries"]


def three_deliveries(tmp_path, store):
    """A delivery retried twice, its duplicate suppressed, then one to a URL that is
    down (dataset payments); returns the three run ids in that order."""
    # The store times records to the second: a second apart, the order is known.
    receiver = Receiver(failures=2)
    try:
        first = validate(tmp_path, store, receiver.url, [1, -2])
        time.sleep(1.1)
        second = validate(tmp_path, store, receiver.url, [1, -2])
    finally:
        receiver.close()
    time.sleep(1.1)
    third = validate(tmp_path, store, DOWN_URL, [-5], dataset="payments")
    return first, second, third


def check_listing(store, runs):
    first, second, third = runs
    deliveries = listing(store)
    assert [(d["run_id"], d["status"]) for d in deliveries] == [
        (third, "failed"), (second, "suppressed"), (first, "delivered")]
    failed, suppressed, delivered = deliveries
    assert delivered["attempts"] == 3 and delivered["http_status"] == 200 and delivered["error"] == ""
    assert delivered["events"] == ["failure"] and delivered["format"] == "json" and delivered["dataset"] == "orders"
    assert suppressed["error"].startswith("the same alert was delivered less than 3600 s ago")
    assert failed["http_status"] is None and "Couldn't connect" in failed["error"] and failed["dataset"] == "payments"
    assert all(d["url"].endswith("/hook?…") for d in deliveries)
    assert "SECRET123" not in json.dumps(deliveries)

    assert [d["run_id"] for d in listing(store, "--dataset", "orders")] == [second, first]
    assert [d["run_id"] for d in listing(store, "--status", "failed")] == [third]
    assert [d["run_id"] for d in listing(store, "--run", first[:8])] == [first]
    assert [d["run_id"] for d in listing(store, "--limit", "1")] == [third]
    assert listing(store, "--dataset", "orders", "--status", "failed") == []

    text = griffin("alerts", "--store", store)
    assert text.returncode == 0 and text.stderr == ""
    lines = text.stdout.splitlines()
    assert lines[0].startswith("alert deliveries in ") and lines[0].endswith("newest first: 3 listed")
    assert lines[2].split() == ["CREATED", "STATUS", "TRIES", "HTTP", "DATASET", "RUN", "EVENTS", "FORMAT", "URL"]
    rows = lines[3:]
    assert rows[0].split()[1:6] == ["failed", str(failed["attempts"]), "-", "payments", third[:8]]
    assert "Couldn't connect" in rows[1] and rows[1].startswith(" " * 22)
    assert rows[2].split()[1:6] == ["suppressed", "0", "-", "orders", second[:8]]
    assert rows[4].split()[1:6] == ["delivered", "3", "200", "orders", first[:8]]
    assert len(rows) == 5 and "SECRET123" not in text.stdout

    empty = griffin("alerts", "--store", store, "--dataset", "nope")
    assert empty.returncode == 0 and empty.stdout.startswith("no alert deliveries for dataset nope in ")


def test_alerts_listed_from_sqlite(tmp_path):
    store = tmp_path / "store.db"
    runs = three_deliveries(tmp_path, store)
    check_listing(store, runs)
    # The listing is the table's rows, field for field.
    with sqlite3.connect(store) as db:
        db.row_factory = sqlite3.Row
        table = {r["delivery_id"]: dict(r) for r in db.execute("SELECT * FROM alert_deliveries")}
    for d in listing(store):
        row = table[d["delivery_id"]]
        assert d == {**row, "events": row["events"].split(","), "http_status": row["http_status"] or None}


def test_alerts_listed_from_postgres(tmp_path):
    require_pg()
    store = fresh_pg_database("griffin_alerts_cli")
    check_listing(store, three_deliveries(tmp_path, store))
    rows = subprocess.run(["psql", store, "-At", "-c", "SELECT delivery_id, status, attempts FROM alert_deliveries"
                           " ORDER BY created_at DESC, delivery_id DESC"], capture_output=True, text=True, timeout=60)
    assert rows.returncode == 0, rows.stderr
    assert [line.split("|") for line in rows.stdout.split()] == [
        [d["delivery_id"], d["status"], str(d["attempts"])] for d in listing(store)]


@pytest.mark.parametrize("args, message", [
    (["--status", "lost"], "--status 'lost': delivered, failed or suppressed"),
    (["--format", "xml"], "--format: text or json"),
    (["--run", "no-such-run"], "no finished run 'no-such-run'"),
    (["--limit", "0"], "--limit"),
])
def test_usage_errors_are_exit_2(tmp_path, args, message):
    done = griffin("alerts", "--store", tmp_path / "store.db", *args)
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.splitlines()) == 1 and message in done.stderr, done.stderr


def test_help_teaches(tmp_path):
    done = griffin("alerts", "--help")
    assert done.returncode == 0
    for text in ("delivered", "failed", "suppressed", "dedup_s", "--dataset", "--run", "--status", "--limit",
                 "Examples:", "docs/alerts.md", "Exit status"):
        assert text in done.stdout, text
    top = griffin("--help")
    assert "alerts" in top.stdout
