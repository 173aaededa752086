"""Rulings and ruling requests as JSON at their addresses, on SQLite and PostgreSQL.

What the page shows is in the JSON: the cited cases with the text kept when
cited, status, dates, history, exceptions and the request answered; an
e-mail address typed into a decision, a reason or a question is withheld.
"""

from __future__ import annotations

from contextlib import closing

from validator import privacy, store
from validator.arbitration import requests, rulings

from .test_web import checked_report, sign_in, token_of, write_ruling
from tests.web.conftest import html

ADDRESS = "red.player@example.org"


def test_a_ruling_as_json_holds_its_cases_kept_text_exceptions_and_history(check_client, arbiter):
    report_id = checked_report(check_client)
    sign_in(check_client)
    ruling_url = write_ruling(check_client, report_id, cases="2.2", excepted=1, reason=f"agreed, ask {ADDRESS}")
    assert html(check_client.get(ruling_url)).xpath("//p[@class='as-json']/a/@href") == [ruling_url + ".json"]
    edited = check_client.post(ruling_url, data={"csrf_token": token_of(check_client, ruling_url + "/edit"),
                                                 "decision": f"Withdrawn; write to {ADDRESS} for why",
                                                 "cases": "2.2, 2.13A", "status": "withdrawn"})
    assert edited.status_code == 303

    answer = check_client.get(ruling_url + ".json")
    assert answer.status_code == 200 and answer.mimetype == "application/json"
    ruling = answer.get_json()
    assert ADDRESS not in answer.get_data(as_text=True)
    assert ruling["url"] == f"http://localhost{ruling_url}" and ruling["game"] == "alpha"
    assert ruling["status"] == "withdrawn" and ruling["decision"] == f"Withdrawn; write to {privacy.WITHHELD} for why"
    assert ruling["cases"] == ["2.13A", "2.2"]  # in the rulebook's order
    stream, stacking = ruling["citations"]
    assert stacking["url"] == "http://localhost/alpha/rules/2.2" and "At most two tokens share" in stacking["case_text"]
    assert stream["number"] == "2.13A" and "stops at a stream" in stream["case_text"]
    (exception,) = ruling["exceptions"]
    assert exception["report_id"] == report_id and exception["report_url"] == f"http://localhost/reports/{report_id}"
    assert (exception["case"], exception["location"], exception["pieces"]) == ("2.2", "north/gate", ["t1", "t2", "t3"])
    assert exception["reason"] == f"agreed, ask {privacy.WITHHELD}"
    assert [(item["revision"], item["status"], item["cases"]) for item in ruling["history"]] == [
        (1, "ruled", ["2.2"]), (2, "withdrawn", ["2.2", "2.13A"])]
    assert ruling["created_at"] == ruling["history"][0]["written_at"] <= ruling["updated_at"]
    assert ruling["case_file"] is None and ruling["request"] is None and ruling["review_note"] is None


def test_a_ruling_request_as_json_holds_its_options_choice_and_answers(check_client, arbiter):
    report_id = checked_report(check_client)
    sign_in(check_client)
    opened = check_client.post("/requests/", data={
        "csrf_token": token_of(check_client, "/requests/new"), "report": report_id, "case_number": "1.1",
        "question": f"Does rain stop tokens? Asked by {ADDRESS}", "option-A": "always", "option-B": "never"})
    request_url = opened.headers["Location"]
    request_id = request_url.rsplit("/", 1)[-1]
    unanswered = check_client.get(request_url + ".json").get_json()
    assert unanswered["choice"] is None and unanswered["rulings"] == []
    ruled = check_client.post("/rulings/", data={
        "csrf_token": token_of(check_client, request_url), "decision": "Never.", "cases": "1.1", "status": "ruled",
        "choice": "B", "report": report_id, "request": request_id})
    ruling_url = ruled.headers["Location"]

    answer = check_client.get(request_url + ".json")
    found = answer.get_json()
    assert ADDRESS not in answer.get_data(as_text=True)
    assert (found["id"], found["game"], found["number"], found["origin"]) == (request_id, "alpha", 1, "unchecked")
    assert found["question"] == f"Does rain stop tokens? Asked by {privacy.WITHHELD}"
    assert found["options"] == [{"label": "A", "reading": "always"}, {"label": "B", "reading": "never"}]
    assert found["choice"] == "B" and found["case_number"] == "1.1" and found["opened_by"] == "alice"
    assert found["report"] == {"id": report_id, "url": f"http://localhost/reports/{report_id}"}
    assert found["rulings"] == [{"id": ruling_url.rsplit("/", 1)[-1], "url": f"http://localhost{ruling_url}"}]
    assert html(check_client.get(request_url)).xpath("//p[@class='as-json']/a/@href") == [request_url + ".json"]
    answered = check_client.get(ruling_url + ".json").get_json()["request"]
    assert answered == {"id": request_id, "url": f"http://localhost{request_url}", "number": 1, "choice": "B"}


def test_an_unknown_ruling_or_request_as_json_is_a_404_with_a_sentence(check_client):
    for path in ("/rulings/no-such-ruling.json", "/requests/no-such-request.json"):
        answer = check_client.get(path)
        assert answer.status_code == 404 and answer.mimetype == "application/json"
        assert answer.get_json()["error"].startswith("There is no ruling")


def test_each_answering_rulings_json_gives_its_own_choice(check_client, arbiter, database_path):
    with closing(store.connect(database_path)) as connection:
        asked = requests.open_request(connection, game="alpha", question="Do bridges count?",
                                      readings=["yes", "no"], opened_by="alice")
        first = rulings.write(connection, arbiter="alice", game="alpha", decision="Yes.", cases=["1.1"],
                              request_id=asked.id, choice="A")
        second = rulings.write(connection, arbiter="alice", game="alpha", decision="No.", cases=["1.1"],
                               request_id=asked.id, choice="B")
    assert check_client.get(f"/rulings/{first.id}.json").get_json()["request"]["choice"] == "A"
    assert check_client.get(f"/rulings/{second.id}.json").get_json()["request"]["choice"] == "B"
