"""A report's link to the house rule it was made under keeps landing on the house-rules page after the rule changes."""

from __future__ import annotations

import lxml.html

from validator import games

from tests.house_rules import test_house_rules_web as web
from tests.house_rules.test_house_rules_web import set_rule, sign_in, token_of, upload

client = web.client  # the same site, with an arbiter to sign in

ANCHOR = "rule-6.21-overstacked_location"


def linked_rule(client, report_path: str) -> str:
    """The fragment the report's house-rules section links to, after checking it points at the game's page."""
    page = lxml.html.fromstring(client.get(report_path).data)
    [link] = page.get_element_by_id("house-rules").xpath(".//a/@href")
    path, _, fragment = link.partition("#")
    assert path == "/house-rules/tito"
    return fragment


def landing(client, fragment: str):
    return lxml.html.fromstring(client.get("/house-rules/tito").data).get_element_by_id(fragment, None)


def test_the_link_still_lands_after_the_rule_is_removed(client):
    sign_in(client)
    set_rule(client, severity="off")
    report_path = upload(client)
    fragment = linked_rule(client, report_path)
    assert fragment == ANCHOR and "off" in landing(client, fragment).text_content()
    removed = client.post("/house-rules/tito/remove", data={"check": "6.21 overstacked_location",
                                                            "csrf_token": token_of(client, "/check")})
    assert removed.status_code == 303
    entry = landing(client, linked_rule(client, report_path))
    assert entry is not None and entry.tag == "li" and "overstacked_location" in entry.text_content()
    assert entry.xpath("ancestor::section/h2")[0].text_content() == "Checks without a house rule"
    report = lxml.html.fromstring(client.get(report_path).data).get_element_by_id("house-rules")
    assert "is off" in report.text_content()  # the report still shows the rule as it was


def test_the_link_lands_on_the_rule_as_it_is_after_a_change(client):
    sign_in(client)
    set_rule(client, severity="off")
    report_path = upload(client)
    set_rule(client, severity="warning")
    entry = landing(client, linked_rule(client, report_path))
    assert entry is not None and entry.tag == "tr" and "warning" in entry.text_content()
    report = lxml.html.fromstring(client.get(report_path).data).get_element_by_id("house-rules")
    assert "is off" in report.text_content()


def test_every_check_of_the_game_has_its_anchor(client):
    page = lxml.html.fromstring(client.get("/house-rules/tito").data)
    anchors = set(page.xpath("//section[@class='unruled-checks']//li/@id"))
    expected = {f"rule-{check.case}-{check.name}" for check in games.get("tito").rules.checks()}
    assert ANCHOR in expected and anchors == expected
