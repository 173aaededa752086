"""Once a report's uploads are removed (an arbiter's deletion or the retention period), its pages say when, and
offer neither a re-check nor a second deletion; a deletion sent again is answered with a sentence."""

from __future__ import annotations

import io
from contextlib import closing
from pathlib import Path

import lxml.html
import pytest

from validator import retention, store
from validator.arbitration import arbiters
from validator.web import create_app, records

from .test_recheck_moves import stored_log

OVERSTACKED = Path(__file__).resolve().parents[1] / "fixtures" / "tito" / "6.21" / "fail-nine-italians.xml"
PASSWORD = "a long enough password"


@pytest.fixture
def client(database_target, tmp_path):
    with closing(store.connect(database_target)) as connection:
        arbiters.add(connection, "marta", PASSWORD)
    app = create_app({"TESTING": True, "DATABASE": str(database_target), "INSTANCE": str(tmp_path / "web"),
                      "SECRET_KEY": "test-only"})
    test_client = app.test_client()
    test_client.database = database_target
    return test_client


def page_of(client, path: str) -> lxml.html.HtmlElement:
    answer = client.get(path)
    assert answer.status_code == 200, answer.get_data(as_text=True)
    return lxml.html.fromstring(answer.data)


def token_of(client, path: str = "/check") -> str:
    return page_of(client, path).xpath("//input[@name='csrf_token']/@value")[0]


def sign_in(client) -> None:
    answer = client.post("/sign-in", data={"name": "marta", "password": PASSWORD, "next": "/",
                                           "csrf_token": token_of(client, "/sign-in")})
    assert answer.status_code == 303


def filed_report(client) -> tuple[str, str]:
    """A single save checked and a case file opened on its report: the report's and the case file's ids."""
    data = {"csrf_token": token_of(client), "save": (io.BytesIO(OVERSTACKED.read_bytes()), "crowded.xml")}
    answer = client.post("/check", data=data, content_type="multipart/form-data")
    assert answer.status_code == 303
    report_id = answer.headers["Location"].rsplit("/", 1)[1]
    opened = client.post(f"/reports/{report_id}/case-file",
                         data={"title": "Crowded", "csrf_token": token_of(client, f"/reports/{report_id}")})
    assert opened.status_code == 303
    return report_id, opened.headers["Location"].rsplit("/", 1)[1]


def removed_notice(page) -> str:
    return " ".join(page.xpath("string(//p[@class='uploads-removed'])").split())


def removed_at(client, report_id: str) -> str | None:
    with closing(store.connect(client.database)) as connection:
        return retention.removed_at(connection, report_id)


def delete(client, case_file_id: str):
    return client.post(f"/case-files/{case_file_id}/uploads/delete",
                       data={"csrf_token": token_of(client, f"/case-files/{case_file_id}")})


def test_after_the_delete_button_the_pages_say_when_and_offer_no_recheck_or_delete(client):
    report_id, case_file_id = filed_report(client)
    sign_in(client)
    assert page_of(client, f"/reports/{report_id}").xpath("//form[@class='recheck']")
    assert page_of(client, f"/case-files/{case_file_id}").xpath("//form[@class='delete-uploads']")
    assert delete(client, case_file_id).status_code == 303
    removed = removed_at(client, report_id)
    assert removed

    report_page = page_of(client, f"/reports/{report_id}")
    assert not report_page.xpath("//form[@class='recheck']")
    assert removed_notice(report_page).startswith(f"The files uploaded for this report were removed on {removed}")
    assert "can no longer be re-checked" in removed_notice(report_page)
    case_file_page = page_of(client, f"/case-files/{case_file_id}")
    assert not case_file_page.xpath("//form[@class='delete-uploads']")
    assert f"(the last on {removed})" in removed_notice(case_file_page)


def test_a_second_delete_is_answered_with_a_sentence(client):
    report_id, case_file_id = filed_report(client)
    sign_in(client)
    assert delete(client, case_file_id).status_code == 303
    removed = removed_at(client, report_id)
    again = delete(client, case_file_id)
    assert again.status_code == 409
    message = " ".join(lxml.html.fromstring(again.data).xpath("string(//main)").split())
    assert (f"No report of this case file keeps its uploaded files any more (on {removed}), so nothing was "
            "deleted; the reports' verdicts and pages stay.") in message


def test_uploads_removed_after_the_retention_period_are_said_on_a_logs_page(client, tmp_path):
    report_id = stored_log(client, tmp_path)
    sign_in(client)
    assert page_of(client, f"/reports/{report_id}").xpath("//form[@class='recheck']")
    with closing(store.connect(client.database)) as connection:  # what ``referee maintenance expire`` runs
        removal = retention.remove_uploads(connection, records.uploads_folder(client.application.instance_path),
                                           [report_id])
        assert removal.report_ids == (report_id,)
        removed = retention.removed_at(connection, report_id)
    page = page_of(client, f"/reports/{report_id}")
    assert not page.xpath("//form[@class='recheck']")
    assert removed_notice(page).startswith(f"The files uploaded for this report were removed on {removed}")
    answer = client.post(f"/reports/{report_id}/recheck.json", data={"csrf_token": token_of(client)})
    assert answer.status_code == 400 and "no longer kept" in answer.get_json()["error"]


def test_a_player_sees_that_the_uploads_were_removed_too(client):
    report_id, case_file_id = filed_report(client)
    sign_in(client)
    assert delete(client, case_file_id).status_code == 303
    assert client.post("/sign-out", data={"csrf_token": token_of(client)}).status_code == 303
    page = page_of(client, f"/reports/{report_id}")
    assert "were removed on" in removed_notice(page) and not page.xpath("//form[@class='recheck']")
