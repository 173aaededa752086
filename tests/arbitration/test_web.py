"""The arbitration pages: sign-in, who may write, CSRF, excepted violations on the report, records kept."""

from __future__ import annotations

import re
from contextlib import closing

import pytest

from validator import store
from validator.arbitration import arbiters, counters
from validator.web import create_app

from .conftest import PASSWORD
from tests.web.conftest import html, orchard_save, report_id_of, text_of, upload


def token_of(client, path: str = "/sign-in") -> str:
    return html(client.get(path)).xpath("//input[@name='csrf_token']/@value")[0]


def sign_in(client, name: str = "alice", password: str = PASSWORD, **extra):
    return client.post("/sign-in", data={"csrf_token": token_of(client), "name": name, "password": password,
                                         **extra})


def checked_report(client) -> str:
    return report_id_of(upload(client, orchard_save()))


def test_signing_in_sets_an_http_only_lax_cookie_and_signing_out_ends_it(check_client, arbiter):
    response = sign_in(check_client, next="/case-files/")
    assert response.status_code == 303 and response.headers["Location"] == "/case-files/"
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Secure" not in cookie
    assert check_client.get("/case-files/").status_code == 200
    page = html(check_client.get("/case-files/"))
    sign_out = page.xpath("//form[@class='sign-out']//input[@name='csrf_token']/@value")[0]
    assert check_client.post("/sign-out", data={"csrf_token": sign_out}).status_code == 303
    assert check_client.get("/case-files/").status_code == 302


def test_the_session_cookie_is_secure_when_the_request_came_over_https(check_client, arbiter):
    token = html(check_client.get("/sign-in", base_url="https://localhost")).xpath(
        "//input[@name='csrf_token']/@value")[0]
    response = check_client.post("/sign-in", base_url="https://localhost",
                                 data={"csrf_token": token, "name": "alice", "password": PASSWORD})
    assert response.status_code == 303 and "Secure" in response.headers["Set-Cookie"]


def test_a_wrong_password_is_refused_and_repeated_failures_are_slowed(check_client, arbiter):
    wrong = sign_in(check_client, password="not-the-password")
    assert wrong.status_code == 401 and "wrong" in text_of(html(wrong).xpath("//p[@role='alert']")[0])
    for _ in range(arbiters.FREE_FAILURES - 1):
        sign_in(check_client, password="not-the-password")
    slowed = sign_in(check_client)
    assert slowed.status_code == 429 and int(slowed.headers["Retry-After"]) > 0
    assert "wait" in text_of(html(slowed).xpath("//p[@role='alert']")[0])


def test_a_next_address_on_another_site_is_not_followed(check_client, arbiter):
    assert sign_in(check_client, next="//evil.example/").headers["Location"] == "/"


WRITES = [
    ("/rulings/", {"decision": "x", "cases": "2.2", "game": "alpha"}),
    ("/requests/", {"question": "x", "option-A": "a", "option-B": "b", "game": "alpha"}),
    ("/case-files/", {"kind": "save", "reports": "x"}),
]


@pytest.mark.parametrize(("path", "fields"), WRITES)
def test_no_ruling_request_or_case_file_list_write_without_an_arbiter(check_client, arbiter, path, fields):
    token = token_of(check_client)
    response = check_client.post(path, data={"csrf_token": token, **fields})
    assert response.status_code == 403 and "signed-in arbiter" in response.get_data(as_text=True)
    with closing(store.connect(check_client.application.config["DATABASE"])) as connection:
        assert connection.execute("SELECT COUNT(*) FROM ruling").fetchone()[0] == 0
        assert connection.execute("SELECT COUNT(*) FROM ruling_request").fetchone()[0] == 0


@pytest.mark.parametrize("path", ["/case-files/", "/rulings/new", "/requests/new"])
def test_the_arbiters_pages_send_a_player_to_the_sign_in(check_client, path):
    response = check_client.get(path)
    assert response.status_code == 302 and response.headers["Location"].startswith("/sign-in?next=")


def test_editing_a_ruling_needs_an_arbiter(check_client, arbiter):
    report_id = checked_report(check_client)
    sign_in(check_client)
    ruling_url = write_ruling(check_client, report_id, cases="2.2")
    check_client.post("/sign-out", data={"csrf_token": token_of(check_client)})
    refused = check_client.post(ruling_url, data={"csrf_token": token_of(check_client), "decision": "changed",
                                                  "cases": "2.2", "status": "ruled"})
    assert refused.status_code == 403
    assert check_client.get(ruling_url + "/edit").status_code == 302
    assert "changed" not in check_client.get(ruling_url).get_data(as_text=True)


def test_a_form_post_without_its_token_is_refused(check_client, arbiter):
    report_id = checked_report(check_client)
    assert check_client.post("/sign-in", data={"name": "alice", "password": PASSWORD}).status_code == 400
    sign_in(check_client)
    response = check_client.post("/rulings/", data={"report": report_id, "decision": "x", "cases": "2.2"})
    assert response.status_code == 400 and "reload the page" in response.get_data(as_text=True)
    opened = check_client.post(f"/reports/{report_id}/case-file", data={"title": "x"})
    assert opened.status_code == 400


def write_ruling(client, report_id: str, cases: str, excepted: int | None = None, reason: str = "") -> str:
    form = html(client.get(f"/rulings/new?report={report_id}"))
    data = {"csrf_token": form.xpath("//form[contains(@class,'ruling')]//input[@name='csrf_token']/@value")[0],
            "report": report_id, "decision": "The third token is a decoy.", "cases": cases, "status": "ruled"}
    if excepted is not None:
        value = form.xpath("//input[@name='except']/@value")[excepted - 1]
        data["except"] = value
        data[f"reason-{value}"] = reason
    response = client.post("/rulings/", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"]


def test_an_excepted_violation_is_shown_as_such_on_the_report_with_the_rulings_link(check_client, arbiter):
    report_id = checked_report(check_client)
    assert "excepted" not in text_of(html(check_client.get(f"/reports/{report_id}")))
    sign_in(check_client)
    ruling_url = write_ruling(check_client, report_id, cases="2.2", excepted=1, reason="a decoy by agreement")
    page = html(check_client.get(f"/reports/{report_id}"))
    excepted = page.xpath("//li[@class='excepted']")
    assert len(excepted) == 1
    assert "Violation 1 [2.2]" in text_of(excepted[0]) and "a decoy by agreement" in text_of(excepted[0])
    assert excepted[0].xpath(".//a/@href") == [ruling_url]
    ruling = html(check_client.get(ruling_url))
    assert "2.2" in ruling.xpath("//section[@id='cited']//a/text()")


def test_an_unknown_case_is_refused_with_a_sentence(check_client, arbiter):
    report_id = checked_report(check_client)
    sign_in(check_client)
    form = html(check_client.get(f"/rulings/new?report={report_id}"))
    token = form.xpath("//input[@name='csrf_token']/@value")[0]
    response = check_client.post("/rulings/", data={"csrf_token": token, "report": report_id, "decision": "x",
                                                    "cases": "2.2, 9.9", "status": "ruled"})
    assert response.status_code == 400
    assert "Case 9.9 is not in the imported rulebook of alpha" in response.get_data(as_text=True)


def test_the_case_page_lists_the_rulings_that_cite_it_though_the_page_is_kept(check_client, arbiter):
    report_id = checked_report(check_client)
    assert "No ruling cites this case" in check_client.get("/alpha/rules/2.2").get_data(as_text=True)
    sign_in(check_client)
    ruling_url = write_ruling(check_client, report_id, cases="2.2")
    links = html(check_client.get("/alpha/rules/2.2")).xpath("//section[@id='rulings']//a/@href")
    assert links == [ruling_url]
    assert html(check_client.get("/alpha/rules/2.1")).xpath("//section[@id='rulings']//a") == []


def test_a_player_opens_a_case_file_on_a_report_and_comments_in_plain_text(check_client):
    report_id = checked_report(check_client)
    report_page = html(check_client.get(f"/reports/{report_id}"))
    token = report_page.xpath("//form[@class='open-case-file']//input[@name='csrf_token']/@value")[0]
    opened = check_client.post(f"/reports/{report_id}/case-file", data={"csrf_token": token, "title": "Gate"})
    assert opened.status_code == 303
    case_file_url = opened.headers["Location"]
    assert re.fullmatch(r"/case-files/[A-Za-z0-9_-]{22}", case_file_url)
    page = html(check_client.get(case_file_url))
    assert page.xpath("//ol[@class='filed-reports']//a/@href") == [f"/reports/{report_id}"]
    posted = check_client.post(case_file_url + "/comments", data={
        "csrf_token": token, "author": "Red", "body": "<b>He</b> <script>alert(1)</script> moved twice."})
    assert posted.status_code == 303
    shown = check_client.get(case_file_url).get_data(as_text=True)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in shown and "<script>alert(1)" not in shown
    assert check_client.get(f"/reports/{report_id}").get_data(as_text=True).count(case_file_url) == 1


def test_comments_are_rate_limited_per_client_address(checking_games, book, database_path, tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(database_path), "INSTANCE": str(tmp_path / "limited"),
                      "SECRET_KEY": "test-only", "REFEREE_COMMENT_LIMIT": counters.Limit(count=2, seconds=3600)})
    client = app.test_client()
    report_id = checked_report(client)
    token = token_of(client, f"/reports/{report_id}")
    case_file_url = client.post(f"/reports/{report_id}/case-file", data={"csrf_token": token}).headers["Location"]
    statuses = [client.post(case_file_url + "/comments", data={"csrf_token": token, "author": "Red",
                                                               "body": f"comment {n}"}).status_code
                for n in range(3)]
    assert statuses == [303, 303, 429]
    limited = client.post(case_file_url + "/comments", data={"csrf_token": token, "author": "Red", "body": "more"})
    assert 3500 < int(limited.headers["Retry-After"]) <= 3600
    other = client.post(case_file_url + "/comments", environ_base={"REMOTE_ADDR": "10.9.9.9"},
                        data={"csrf_token": token, "author": "Blue", "body": "mine"})
    assert other.status_code == 303


def test_records_survive_a_restart(checking_games, book, database_path, tmp_path, arbiter):
    config = {"TESTING": True, "DATABASE": str(database_path), "INSTANCE": str(tmp_path / "web"),
              "SECRET_KEY": "test-only"}
    first = create_app(config).test_client()
    report_id = checked_report(first)
    sign_in(first)
    ruling_url = write_ruling(first, report_id, cases="2.2", excepted=1, reason="kept across restarts")
    again = create_app(config).test_client()  # a new app on the same database
    assert "kept across restarts" in text_of(html(again.get(f"/reports/{report_id}")))
    assert "The third token is a decoy." in again.get(ruling_url).get_data(as_text=True)


def test_an_arbiter_opens_a_request_from_an_unchecked_finding_and_a_ruling_answers_it(check_client, arbiter):
    report_id = checked_report(check_client)
    sign_in(check_client)
    form = html(check_client.get(f"/requests/new?report={report_id}"))
    assert form.xpath("//select[@name='case_number']/option/@value") == ["", "1.1"]
    opened = check_client.post("/requests/", data={
        "csrf_token": form.xpath("//input[@name='csrf_token']/@value")[0], "report": report_id,
        "case_number": "1.1", "question": "Does rain stop tokens?", "option-A": "always", "option-B": "never"})
    assert opened.status_code == 303
    request_url = opened.headers["Location"]
    request_page = html(check_client.get(request_url))
    assert "alpha ruling request 1" in text_of(request_page.xpath("//h1")[0])
    answer = html(check_client.get(request_page.xpath("//a[contains(., 'Answer it')]/@href")[0]))
    data = {"csrf_token": answer.xpath("//input[@name='csrf_token']/@value")[0], "decision": "Never.",
            "cases": "1.1", "status": "ruled", "choice": "B", "report": report_id,
            "request": request_url.rsplit("/", 1)[-1]}
    assert check_client.post("/rulings/", data=data).status_code == 303
    answered = text_of(html(check_client.get(request_url)))
    assert "B: never (the arbiter's choice)" in answered and "Answered by a ruling" in answered


def test_rulings_are_searchable_by_case_and_text(check_client, arbiter):
    report_id = checked_report(check_client)
    sign_in(check_client)
    ruling_url = write_ruling(check_client, report_id, cases="2.2")
    found = html(check_client.get("/rulings/?game=alpha&case=2.2&q=decoy"))
    assert found.xpath("//ul[@class='rulings']//a/@href") == [ruling_url]
    assert html(check_client.get("/rulings/?q=nothing-like-it")).xpath("//ul[@class='rulings']") == []
    assert check_client.get("/rulings/?case=not-a-case").status_code == 400
