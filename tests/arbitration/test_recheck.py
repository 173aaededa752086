"""Re-checking a stored report under the current version: only an arbiter, and the comparison says what changed."""

from __future__ import annotations

import io
import json
from pathlib import Path

import lxml.html
import pytest

from validator import store
from validator.arbitration import arbiters
from validator.web import create_app

OVERSTACKED = Path(__file__).resolve().parents[1] / "fixtures" / "tito" / "6.21" / "fail-nine-italians.xml"
PASSWORD = "a long enough password"


@pytest.fixture
def client(database_target, tmp_path):
    connection = store.connect(database_target)
    arbiters.add(connection, "marta", PASSWORD)
    connection.close()
    app = create_app({"TESTING": True, "DATABASE": str(database_target), "INSTANCE": str(tmp_path / "web"),
                      "SECRET_KEY": "test-only"})
    test_client = app.test_client()
    test_client.database = database_target
    return test_client


def token_of(client, path: str = "/check") -> str:
    return lxml.html.fromstring(client.get(path).data).xpath("//input[@name='csrf_token']/@value")[0]


def sign_in(client) -> None:
    answer = client.post("/sign-in", data={"name": "marta", "password": PASSWORD, "next": "/",
                                           "csrf_token": token_of(client, "/sign-in")})
    assert answer.status_code == 303


def upload(client) -> str:
    data = {"csrf_token": token_of(client), "save": (io.BytesIO(OVERSTACKED.read_bytes()), "crowded.xml")}
    answer = client.post("/check", data=data, content_type="multipart/form-data")
    assert answer.status_code == 303
    return answer.headers["Location"].rsplit("/", 1)[1]


def test_a_player_cannot_recheck(client):
    report_id = upload(client)
    assert client.post(f"/reports/{report_id}/recheck", data={"csrf_token": token_of(client)}).status_code == 403
    page = lxml.html.fromstring(client.get(f"/reports/{report_id}").data)
    assert not page.xpath("//form[@class='recheck']")


def test_the_same_version_gives_the_same_verdict(client):
    report_id = upload(client)
    sign_in(client)
    page = lxml.html.fromstring(client.get(f"/reports/{report_id}").data)
    assert page.xpath("//form[@class='recheck']/@action") == [f"/reports/{report_id}/recheck"]
    answer = client.post(f"/reports/{report_id}/recheck", data={"csrf_token": token_of(client)})
    assert answer.status_code == 200
    shown = lxml.html.fromstring(answer.data).xpath("string(//p[contains(@class, 'recheck-verdict')])")
    assert shown == "The verdict stands: the position is illegal under the current version, with the same violations."
    compared = client.post(f"/reports/{report_id}/recheck.json", data={"csrf_token": token_of(client)}).get_json()
    assert compared["verdict_changed"] is False and compared["appeared"] == [] and compared["disappeared"] == []
    assert compared["checked_with_now"]["map_sha256"] == compared["checked_with_then"]["map_sha256"]


def test_a_verdict_an_older_version_gave_differently_is_shown_as_changed(client):
    report_id = upload(client)
    connection = store.connect(client.database)
    stored = json.loads(connection.execute("SELECT report FROM report WHERE id = ?", (report_id,)).fetchone()[0])
    missed = stored["violations"]
    older = {**stored, "legal": True, "violations": [], "checked_with": {**stored["checked_with"],
                                                                          "referee_version": "0.0.1"}}
    with store.write_transaction(connection):
        connection.execute("UPDATE report SET report = ? WHERE id = ?", (json.dumps(older), report_id))
    connection.close()
    sign_in(client)
    compared = client.post(f"/reports/{report_id}/recheck.json", data={"csrf_token": token_of(client)}).get_json()
    assert compared["verdict_changed"] is True and compared["legal_then"] is True and compared["legal_now"] is False
    assert [item["rule"] for item in compared["appeared"]] == [item["rule"] for item in missed]
    assert compared["checked_with_then"]["referee_version"] == "0.0.1"
    assert compared["sentence"] == ("The verdict changed: the position was legal and is illegal under the current "
                                    "version.")


def test_a_report_whose_uploads_were_removed_cannot_be_rechecked(client):
    report_id = upload(client)
    connection = store.connect(client.database)
    with store.write_transaction(connection):
        connection.execute("UPDATE report SET save_file = '', uploads_removed_at = '2026-01-01T00:00:00+00:00' "
                           "WHERE id = ?", (report_id,))
    connection.close()
    sign_in(client)
    answer = client.post(f"/reports/{report_id}/recheck", data={"csrf_token": token_of(client)})
    assert answer.status_code == 400
    assert b"is no longer kept (it was removed)" in answer.data and b"2026-01-01" in answer.data
