"""A run left `running` by the server (issue 12): a run whose record failed
after it began (FinishRun refused) was answered 200 and stayed `running` for
good. Now the server marks it `record_failed`, and a request that asked for
store=true is answered 503 with code store_failed, not 200. The failure is
real: a trigger in the store database refuses to mark a run complete, as a
full disk or a report past the database's size limit would."""
import json
import sqlite3
import time

import pytest
import requests

from server_harness import GriffinServer, auth
from test_lost_data import DATA, REFUSE_COMPLETE_SQLITE, RULES


def wait_for_status(db_path, run_id, timeout=10):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with sqlite3.connect(db_path) as db:
            row = db.execute("SELECT status FROM runs WHERE run_id = ?", (run_id,)).fetchone()
        if row and row[0] != "running":
            return row[0]
        time.sleep(0.05)
    return row[0] if row else None


def test_the_server_marks_failed_records_and_does_not_answer_200_for_store_true(tmp_path):
    with GriffinServer(tmp_path, {"ledger": RULES}, flight=False) as server:
        url = server.url + "/v1/datasets/ledger/validate"
        csv = {**auth(), "Content-Type": "text/csv"}
        ok = requests.post(url + "?store=true", data=DATA, headers=csv, timeout=30)
        assert ok.status_code == 200, ok.text
        with sqlite3.connect(server.store_path) as db:
            db.execute(REFUSE_COMPLETE_SQLITE)
        # Asked for: not 200 while the record failed.
        asked = requests.post(url + "?store=true", data=DATA, headers=csv, timeout=30)
        assert asked.status_code == 503, asked.text
        body = asked.json()
        assert body["code"] == "store_failed"
        assert body["error"].startswith("the run could not be recorded: ")
        assert "database or disk is full" in body["error"]
        assert "Retry-After" in asked.headers
        # Not asked for (the default): answered, and the run marked, not left running.
        default = requests.post(url, data=DATA, headers=csv, timeout=30)
        assert default.status_code == 200, default.text
        assert wait_for_status(server.store_path, default.json()["run_id"]) == "record_failed"
        with sqlite3.connect(server.store_path) as db:
            statuses = [s for (s,) in db.execute("SELECT status FROM runs ORDER BY version")]
        assert statuses == ["complete", "record_failed", "record_failed"]
        # store=false records nothing and is answered as before.
        assert requests.post(url + "?store=false", data=DATA, headers=csv, timeout=30).status_code == 200


def test_flight_put_with_store_true_is_refused_when_its_record_failed(tmp_path):
    import pyarrow as pa
    import pyarrow.flight as flight
    from server_harness import TOKENS

    rules = "griffin: 1\ndataset: ledger\ncolumns:\n  id: {type: int64, unique: true}\n  amount: {type: float64, min: 0}\n"
    table = pa.table({"id": [1, 2, 2], "amount": [5.0, -1.0, 3.0]})
    call = flight.FlightCallOptions(headers=[(b"authorization", ("Bearer " + TOKENS["trainer"]).encode())])

    def put(command):
        client = flight.FlightClient(server.flight_url)
        writer, reader = client.do_put(flight.FlightDescriptor.for_command(json.dumps(command)), table.schema,
                                       options=call)
        writer.write_table(table)
        writer.done_writing()
        answer = reader.read()
        writer.close()
        return answer

    with GriffinServer(tmp_path, {"ledger": rules}) as server:
        put({"dataset": "ledger", "store": True})
        with sqlite3.connect(server.store_path) as db:
            db.execute(REFUSE_COMPLETE_SQLITE)
        with pytest.raises(flight.FlightUnavailableError) as refused:
            put({"dataset": "ledger", "store": True})
        assert "the run could not be recorded: " in str(refused.value)
        assert "[store_failed]" in str(refused.value)
        put({"dataset": "ledger"})  # not asked for: answered, and marked in the background
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with sqlite3.connect(server.store_path) as db:
                statuses = [s for (s,) in db.execute("SELECT status FROM runs ORDER BY version")]
            if "running" not in statuses and len(statuses) == 3:
                break
            time.sleep(0.05)
        assert statuses == ["complete", "record_failed", "record_failed"]
