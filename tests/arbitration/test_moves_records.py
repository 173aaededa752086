"""Rulings and requests on a moves report (a log or a chain): its steps' and links' results are offered."""

from __future__ import annotations

import json
import secrets
from contextlib import closing

from validator import store
from validator.arbitration import case_files, counters
from validator.web import create_app

from .conftest import VIOLATIONS
from .test_web import sign_in
from tests.web.conftest import html, text_of

UNCHECKED = {"rule": "rain", "case": "1.1", "severity": "unchecked", "message": "rain is not read"}


def stored_log(database_path) -> str:
    """A log report as the moves pages store it: its results in its start and steps only."""
    report_id = secrets.token_urlsafe(16)
    report = {"game": "alpha", "kind": "log", "legal": False, "start": {"violations": [], "findings": []},
              "steps": [{"index": 1, "violations": [], "findings": []},
                        {"index": 2, "violations": [VIOLATIONS[0]], "findings": [UNCHECKED]}]}
    with closing(store.connect(database_path)) as connection, store.write_transaction(connection):
        connection.execute(
            "INSERT INTO report (id, game, created_at, source_name, report, save_file) VALUES (?, ?, ?, ?, ?, ?)",
            (report_id, "alpha", "2026-12-01T00:00:00+00:00", "moves.log", json.dumps(report), "none.log"))
    return report_id


def test_a_ruling_excepts_a_violation_of_a_logs_step(check_client, arbiter, database_path):
    report_id = stored_log(database_path)
    sign_in(check_client)
    form = html(check_client.get(f"/rulings/new?report={report_id}"))
    values = form.xpath("//input[@name='except']/@value")
    assert values == [f"{report_id}:1"]
    assert "(step 2)" in text_of(form.xpath("//fieldset[@class='exceptions']")[0])
    response = check_client.post("/rulings/", data={
        "csrf_token": form.xpath("//input[@name='csrf_token']/@value")[0], "report": report_id,
        "decision": "A decoy.", "cases": "2.2", "status": "ruled", "except": values[0],
        f"reason-{values[0]}": "agreed"})
    assert response.status_code == 303, response.get_data(as_text=True)
    assert "agreed" in text_of(html(check_client.get(response.headers["Location"])))


def test_a_request_is_opened_from_an_unchecked_finding_of_a_logs_step(check_client, arbiter, database_path):
    report_id = stored_log(database_path)
    sign_in(check_client)
    form = html(check_client.get(f"/requests/new?report={report_id}"))
    assert form.xpath("//select[@name='case_number']/option/@value") == ["", "1.1"]
    assert "(step 2)" in text_of(form.xpath("//select[@name='case_number']")[0])


def test_the_request_form_offers_every_option_a_request_may_weigh(check_client, arbiter):
    sign_in(check_client)
    form = html(check_client.get("/requests/new"))
    assert form.xpath("//input[starts-with(@name, 'option-')]/@name") == [f"option-{label}" for label in "ABCDEF"]


def test_a_player_opens_a_case_file_on_a_log_as_a_log_with_a_clean_title(check_client, database_path):
    report_id = stored_log(database_path)
    token = html(check_client.get(f"/reports/{report_id}")).xpath(
        "//form[@class='open-case-file']//input[@name='csrf_token']/@value")[0]
    opened = check_client.post(f"/reports/{report_id}/case-file",
                               data={"csrf_token": token, "title": "Gate\x1b[31m\x00 fight"})
    assert opened.status_code == 303
    with closing(store.connect(database_path)) as connection:
        filed = case_files.load(connection, opened.headers["Location"].rsplit("/", 1)[-1])
    assert (filed.kind, [report.role for report in filed.reports]) == ("log", ["log"])
    assert filed.title == "Gate [31m fight"


def test_a_case_file_on_a_missing_report_uses_up_no_opening(checking_games, book, database_path, tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(database_path), "INSTANCE": str(tmp_path / "limited"),
                      "SECRET_KEY": "test-only", "REFEREE_CASE_FILE_LIMIT": counters.Limit(count=1, seconds=3600)})
    client = app.test_client()
    report_id = stored_log(database_path)
    token = html(client.get(f"/reports/{report_id}")).xpath("//input[@name='csrf_token']/@value")[0]
    assert client.post("/reports/no-such-report/case-file", data={"csrf_token": token}).status_code == 404
    assert client.post(f"/reports/{report_id}/case-file", data={"csrf_token": token}).status_code == 303
    limited = client.post(f"/reports/{report_id}/case-file", data={"csrf_token": token})
    assert limited.status_code == 429 and 0 < int(limited.headers["Retry-After"]) <= 3600
