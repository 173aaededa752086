"""6.15 under its own number: the report links the enemy placement to 6.15,
whose page lists the check and the violation.

A German division in the Partisan Hide-away breaks 6.13 (not its own
triangle or circle) and 6.15 (a location of the other side); each case
reports what it forbids, and neither message borrows the other's number.
"""

from __future__ import annotations

import io
from pathlib import Path

import lxml.html
import pytest

from validator.runner import iter_results
from validator.saves.xml_reader import read_position_file
from validator.web import create_app

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "tito"
ENEMY_PLACEMENT = FIXTURES / "6.15" / "fail-german-in-partisan-hide-away.xml"


def page(response) -> lxml.html.HtmlElement:
    assert response.status_code == 200, response.status_code
    return lxml.html.fromstring(response.get_data(as_text=True))


def text(element) -> str:
    return " ".join(element.text_content().split())


@pytest.fixture
def client(tmp_path):
    return create_app({"INSTANCE": str(tmp_path / "instance"), "SECRET_KEY": "test-only"}).test_client()


@pytest.fixture
def report(client):
    save = ENEMY_PLACEMENT.read_bytes().replace(b"../../../../plugin/tito/maps/", b"")
    response = client.post(
        "/api/check", data={"save": (io.BytesIO(save), "enemy.xml")}, content_type="multipart/form-data"
    )
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_json()


def test_the_enemy_placement_is_reported_under_6_15_and_its_own_placement_under_6_13(report):
    by_case = {item["case"]: item for item in report["violations"]}
    assert set(by_case) == {"6.13", "6.15"}
    assert by_case["6.15"]["rule"] == "tito:6.15"
    assert by_case["6.15"]["url"] == "http://localhost/tito/rules/6.15"
    assert "a Yugoslav location" in by_case["6.15"]["message"]
    assert "6.15" not in by_case["6.13"]["message"]


def test_the_6_15_page_lists_its_check_and_the_reports_violation(client, report):
    shown = page(client.get(f"/tito/rules/6.15?report={report['id']}"))
    checks = text(shown.xpath("//section[@class='enforced-by']")[0])
    assert "unit_in_enemy_location" in checks or "No Yugoslav unit stands in an Axis box" in checks
    block = shown.xpath("//section[contains(@class, 'report-block')]")[0]
    assert "broken" in block.get("class").split()
    assert "1 Axis-side unit stands in the Partisan Hide-away, a Yugoslav location" in text(block)
    assert "broken" in shown.xpath("//article/@class")[0].split()


def test_6_13_and_6_14_messages_no_longer_carry_6_15():
    for folder in ("6.13", "6.14"):
        for path in sorted((FIXTURES / folder).glob("fail-*.xml")):
            messages = [
                result.message
                for result in iter_results(read_position_file(path, "tito"))
                if str(result.case) == folder
            ]
            assert messages and not any("6.15" in message for message in messages), (path.name, messages)
