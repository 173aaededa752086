"""Checking the real Tito examples through the web: report, picture, case pages.

The Tito plugin does not register its picture yet (the lead adds
``picture=draw`` to plugin/tito/__init__.py); until then these tests put it
in place for themselves.
"""

from __future__ import annotations

import dataclasses
import io
from pathlib import Path

import lxml.etree
import pytest

from validator import games
from validator.web import create_app

from plugin.tito import picture

from .conftest import SVG, form_token, html, report_id_of, text_of

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "tito"
NS = {"s": SVG}


@pytest.fixture
def tito_picture(monkeypatch):
    tito = games.get("tito")
    if tito.picture is None:
        monkeypatch.setitem(games.registry(), "tito", dataclasses.replace(tito, picture=picture.picture))


@pytest.fixture
def tito_client(tito_picture, tmp_path):
    app = create_app({"TESTING": True, "INSTANCE": str(tmp_path / "tito-instance"), "SECRET_KEY": "test-only"})
    return app.test_client()


def opening() -> bytes:
    return (EXAMPLES / "opening-setup.xml").read_bytes()


def overstacked() -> bytes:
    """The opening with seven more German divisions in Belgrade's Axis box."""
    extra = "".join(
        f'<piece id="de-x{number}" name="Extra {number}" nationality="german" type="infantry" size="division" '
        f'strength="12" designation="x{number}" location="serbia/belgrade/axis"/>\n'
        for number in range(7)
    )
    return opening().replace(b"<pieces>\n", b"<pieces>\n" + extra.encode(), 1)


def check_form(client, save: bytes, name: str) -> str:
    response = client.post(
        "/check",
        data={"csrf_token": form_token(client), "save": (io.BytesIO(save), name)},
        content_type="multipart/form-data",
    )
    assert response.status_code == 303, html(response).xpath("string(//p[@class='error-message'])")
    return report_id_of(response)


def test_the_legal_opening_is_legal_and_its_map_comes_from_the_examples(tito_client):
    report_id = check_form(tito_client, opening(), "opening-setup.xml")
    page = html(tito_client.get(f"/reports/{report_id}"))
    assert text_of(page.xpath("//p[contains(@class, 'verdict')]")[0]).startswith("Legal")
    facts = text_of(page.xpath("//dl[@class='position-facts']")[0])
    assert "Tito and His Partisan Army (SPI)" in facts and "campaign" in facts
    findings = page.xpath("//section[@class='findings']//h3/a/@href")
    assert f"/tito/rules/7.62B?report={report_id}" in findings
    svg = page.xpath("//figure[@class='position-picture']/*[local-name()='svg']")
    assert len(svg) == 1
    assert svg[0].xpath(".//*[contains(@class, 'offending')]") == []


def test_an_overstacked_box_is_listed_linked_and_marked_on_the_picture(tito_client):
    report_id = check_form(tito_client, overstacked(), "overstacked.xml")
    response = tito_client.get(f"/reports/{report_id}")
    page = html(response)
    group = page.xpath("//section[@class='violations']/section[@id='v-c6-21']")[0]
    assert group.xpath("h3/a/@href") == [f"/tito/rules/6.21?report={report_id}"]
    line = group.xpath(".//li")[0]
    assert "8 2/3 division-equivalents" in text_of(line)
    assert line.xpath("string(span[@class='where'])") == "Serbia / Belgrade Axis box"
    number = line.xpath("string(span[@class='marker'])")

    raw = response.get_data(as_text=True)
    drawn = lxml.etree.fromstring(raw[raw.index("<svg") : raw.index("</svg>") + 6].encode())
    marked = drawn.xpath("//s:g[contains(@class, 'offending')]/@data-location", namespaces=NS)
    assert marked == ["serbia/belgrade/axis"]
    badge = drawn.xpath(
        "string(//s:g[@data-location='serbia/belgrade/axis']/s:text[@class='badge-number'])", namespaces=NS
    )
    assert badge.split(", ")[0] == number


def test_the_api_reports_the_real_violation_with_its_case_url(tito_client, tmp_path):
    client = create_app({"INSTANCE": str(tmp_path / "api"), "SECRET_KEY": "t"}).test_client()
    response = client.post(
        "/api/check", data={"save": (io.BytesIO(overstacked()), "x.xml")}, content_type="multipart/form-data"
    )
    assert response.status_code == 200
    report = response.get_json()
    stacking = [item for item in report["violations"] if item["case"] == "6.21"]
    assert stacking[0]["location"] == "serbia/belgrade/axis"
    assert stacking[0]["url"] == "http://localhost/tito/rules/6.21"


def test_the_case_page_before_import_lists_the_reports_violation(tito_client):
    report_id = check_form(tito_client, overstacked(), "overstacked.xml")
    page = html(tito_client.get(f"/tito/rules/6.21?report={report_id}"))
    block = page.xpath("//section[contains(@class, 'report-block')]")[0]
    assert text_of(block.xpath("h2")[0]) == "This report breaks this case"
    assert "Serbia / Belgrade Axis box" in text_of(block)


@pytest.mark.rulebooks
def test_the_case_page_of_the_imported_rulebook_is_highlighted(tito_picture, import_real):
    import_real("tito")  # into the instance folder the test's REFEREE_INSTANCE names
    client = create_app({"TESTING": True, "SECRET_KEY": "test-only"}).test_client()
    report_id = check_form(client, overstacked(), "overstacked.xml")
    page = html(client.get(f"/tito/rules/6.21?report={report_id}"))
    assert page.xpath("//article[contains(@class, 'broken')]/h1")
    assert text_of(page.xpath("//section[contains(@class, 'report-block')]/h2")[0]) == "This report breaks this case"
    group = html(client.get(f"/reports/{report_id}")).xpath("//section[@id='v-c6-21']/h3")[0]
    assert text_of(group).startswith("6.21")
    assert len(text_of(group)) > len("6.21 ")


def test_a_missing_map_names_it_and_says_how_to_provide_it(tito_client):
    save = opening().replace(b'href="../../plugin/tito/maps/tito-map.xml"', b'href="our-club-map.xml"')
    response = tito_client.post(
        "/check",
        data={"csrf_token": form_token(tito_client), "save": (io.BytesIO(save), "club.xml")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 400
    message = html(response).xpath("string(//p[@class='error-message'])")
    assert "the map 'our-club-map.xml' cannot be used" in message
    assert "Tito and His Partisan Army (SPI) ships no map of that name" in message
    with_map = tito_client.post(
        "/check",
        data={
            "csrf_token": form_token(tito_client),
            "save": (io.BytesIO(save), "club.xml"),
            "map": (
                io.BytesIO((EXAMPLES.parents[1] / "plugin" / "tito" / "maps" / "tito-map.xml").read_bytes()),
                "our-club-map.xml",
            ),
        },
        content_type="multipart/form-data",
    )
    assert with_map.status_code == 303


def test_the_report_shows_how_referee_reads_an_open_case(tito_client):
    report_id = check_form(tito_client, overstacked(), "overstacked.xml")
    group = html(tito_client.get(f"/reports/{report_id}")).xpath("//section[@id='v-c6-21']")[0]
    note = group.xpath("p[@class='decision-note']")
    assert note and text_of(note[0]).startswith("How Referee reads this case:")
