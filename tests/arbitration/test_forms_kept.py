"""A mistake in the ruling or request form shows the form again, filled in with what was typed, and the sentence."""

from __future__ import annotations

from .test_web import checked_report, sign_in, token_of, write_ruling
from tests.web.conftest import html, text_of


def test_a_refused_ruling_keeps_what_the_arbiter_typed(check_client, arbiter):
    report_id = checked_report(check_client)
    sign_in(check_client)
    form = html(check_client.get(f"/rulings/new?report={report_id}"))
    value = form.xpath("//input[@name='except']/@value")[0]
    answer = check_client.post("/rulings/", data={
        "csrf_token": token_of(check_client, f"/rulings/new?report={report_id}"), "report": report_id,
        "decision": "A long careful decision.", "cases": "2.2, 9.9", "status": "open", "except": value,
        f"reason-{value}": "agreed beforehand"})
    assert answer.status_code == 400
    page = html(answer)
    assert "Case 9.9 is not in the imported rulebook of alpha" in text_of(page.xpath("//p[@role='alert']")[0])
    assert page.xpath("//textarea[@name='decision']/text()") == ["A long careful decision."]
    assert page.xpath("//input[@name='cases']/@value") == ["2.2, 9.9"]
    assert page.xpath("//select[@name='status']/option[@selected]/text()") == ["open"]
    assert page.xpath("//input[@name='except'][@checked]/@value") == [value]
    assert page.xpath(f"//input[@name='reason-{value}']/@value") == ["agreed beforehand"]


def test_a_refused_edit_keeps_the_new_text(check_client, arbiter):
    report_id = checked_report(check_client)
    sign_in(check_client)
    ruling_url = write_ruling(check_client, report_id, cases="2.2")
    answer = check_client.post(ruling_url, data={"csrf_token": token_of(check_client, ruling_url + "/edit"),
                                                 "decision": "Rewritten at length.", "cases": "nonsense",
                                                 "status": "ruled"})
    assert answer.status_code == 400
    page = html(answer)
    assert "is not a case number" in text_of(page.xpath("//p[@role='alert']")[0])
    assert page.xpath("//textarea[@name='decision']/text()") == ["Rewritten at length."]


def test_a_refused_request_keeps_the_question_and_options(check_client, arbiter):
    sign_in(check_client)
    answer = check_client.post("/requests/", data={
        "csrf_token": token_of(check_client, "/requests/new"), "game": "alpha",
        "question": "Do bridges count as roads?", "option-A": "yes, always"})
    assert answer.status_code == 400
    page = html(answer)
    assert "at least two options" in text_of(page.xpath("//p[@role='alert']")[0])
    assert page.xpath("//textarea[@name='question']/text()") == ["Do bridges count as roads?"]
    assert page.xpath("//input[@name='option-A']/@value") == ["yes, always"]
