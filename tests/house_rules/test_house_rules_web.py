"""House rules on the web: only a signed-in arbiter sets them; web checks are rated under them and say so."""

from __future__ import annotations

import io
from pathlib import Path

import lxml.html
import pytest

from validator import store
from validator.arbitration import arbiters
from validator.web import create_app

OVERSTACKED = Path(__file__).resolve().parents[1] / "fixtures" / "tito" / "6.21" / "fail-nine-italians.xml"
REASON = "The club lets a box hold one division more in the opening turn."
PASSWORD = "a long enough password"


@pytest.fixture
def client(database_target, tmp_path):
    connection = store.connect(database_target)
    arbiters.add(connection, "marta", PASSWORD)
    connection.close()
    app = create_app({"TESTING": True, "DATABASE": str(database_target), "INSTANCE": str(tmp_path / "web"),
                      "SECRET_KEY": "test-only"})
    return app.test_client()


def token_of(client, path: str) -> str:
    page = lxml.html.fromstring(client.get(path).data)
    return page.xpath("//input[@name='csrf_token']/@value")[0]


def sign_in(client) -> None:
    answer = client.post("/sign-in", data={"name": "marta", "password": PASSWORD, "next": "/",
                                           "csrf_token": token_of(client, "/sign-in")})
    assert answer.status_code == 303


def set_rule(client, severity: str = "warning", check: str = "6.21 overstacked_location", token: str | None = "fetch"):
    data = {"check": check, "severity": severity, "reason": REASON}
    if token == "fetch":
        token = token_of(client, "/check")
    if token is not None:
        data["csrf_token"] = token
    return client.post("/house-rules/tito", data=data)


def upload(client):
    data = {"csrf_token": token_of(client, "/check"), "save": (io.BytesIO(OVERSTACKED.read_bytes()), "crowded.xml")}
    answer = client.post("/check", data=data, content_type="multipart/form-data")
    assert answer.status_code == 303
    return answer.headers["Location"]


def test_no_house_rule_is_written_without_an_arbiter_sign_in(client):
    answer = set_rule(client)
    assert answer.status_code == 403
    page = client.get("/house-rules/tito")
    assert page.status_code == 200 and b"None: every check is rated as Referee rates it." in page.data


def test_a_post_without_its_csrf_token_is_refused(client):
    sign_in(client)
    answer = set_rule(client, token=None)
    assert answer.status_code == 400
    assert b"None: every check is rated" in client.get("/house-rules/tito").data


def test_an_arbiter_sets_a_rule_and_a_web_check_is_rated_under_it(client):
    sign_in(client)
    answer = set_rule(client)
    assert answer.status_code == 303 and answer.headers["Location"].endswith("/house-rules/tito")
    rules_page = lxml.html.fromstring(client.get("/house-rules/tito").data)
    row = rules_page.get_element_by_id("rule-6.21-overstacked_location")
    assert REASON in row.text_content() and "warning" in row.text_content()

    report_path = upload(client)
    report = client.get(report_path + ".json").get_json()
    assert report["legal"] is True and report["violations"] == []
    assert report["house_rules"]["rules"][0]["url"] == "/house-rules/tito#rule-6.21-overstacked_location"
    assert [item["severity"] for item in report["findings"] if item["case"] == "6.21"] == ["warning"]
    page = lxml.html.fromstring(client.get(report_path).data)
    section = page.get_element_by_id("house-rules")
    assert REASON in section.text_content()
    assert section.xpath(".//a/@href") == ["/house-rules/tito#rule-6.21-overstacked_location"]
    assert "Legal" in page.xpath("string(//p[contains(@class, 'verdict')])")


def test_a_report_keeps_the_rules_it_was_made_under_after_they_are_removed(client):
    sign_in(client)
    set_rule(client, severity="off")
    report_path = upload(client)
    removed = client.post("/house-rules/tito/remove", data={"check": "6.21 overstacked_location",
                                                            "csrf_token": token_of(client, "/check")})
    assert removed.status_code == 303
    assert b"None: every check" in client.get("/house-rules/tito").data
    report = client.get(report_path + ".json").get_json()
    assert report["house_rules"]["rules"][0]["severity"] == "off"
    assert not [item for item in report["violations"] + report["findings"] if item["case"] == "6.21"]
    later = client.get(upload(client) + ".json").get_json()
    assert "house_rules" not in later and later["legal"] is False


def test_an_unknown_check_is_the_page_again_with_a_sentence(client):
    sign_in(client)
    answer = set_rule(client, check="6.21 overstacked")
    assert answer.status_code == 400
    assert b"case 6.21 of tito has no check named" in answer.data


def test_an_unknown_game_has_no_house_rules_page(client):
    assert client.get("/house-rules/chess").status_code == 404
