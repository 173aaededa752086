"""The Tito picture: zone panels with their displays, counts, division-equivalents, offences."""

from __future__ import annotations

from types import MappingProxyType

import pytest
from lxml import etree

from validator.model import Area, Display, MapData, Piece, Position
from validator.report import Report
from validator.rules import Finding, Violation
from validator.web.pictures import clean_svg

from plugin.tito import picture
from plugin.tito.locations import prepare_map

SVG = "http://www.w3.org/2000/svg"
NS = {"s": SVG}


def tito_map() -> MapData:
    areas = {
        zone: Area(id=zone, name=name)
        for zone, name in [("serbia", "Serbia"), ("bosnia", "Bosnia"), ("islands", "Islands")]
    }
    displays = {
        "belgrade": Display(id="belgrade", area="serbia", name="Belgrade"),
        "nis": Display(id="nis", area="serbia", name='Niš <b>&</b> "x"'),
        "sarajevo": Display(id="sarajevo", area="bosnia", name="Sarajevo"),
    }
    return prepare_map(MapData(id="test", areas=MappingProxyType(areas), displays=MappingProxyType(displays)))


def german(number: int, location: str, size: str = "division") -> Piece:
    return Piece(
        id=f"de-{number}",
        name=f"{number}th <Infantry>",
        side="axis",
        nationality="german",
        size=size,
        location=location,
    )


@pytest.fixture
def position() -> Position:
    pieces = [german(number, "serbia/belgrade/axis") for number in range(7)]
    pieces += [german(7, "serbia/belgrade/axis", "brigade"), german(8, "serbia/belgrade/axis", "battalion")]
    pieces += [
        Piece(
            id="p-1",
            name="1st Proletarian",
            side="yugoslav",
            nationality="partisan",
            size="brigade",
            location="bosnia/mountain/partisan",
        ),
        Piece(
            id="p-g1",
            name="Group",
            side="yugoslav",
            nationality="partisan",
            size="group",
            location="bosnia/mountain/partisan",
        ),
        Piece(id="off", name="Off the map", nationality="german", size="division"),
    ]
    return Position(game="tito", map=tito_map(), pieces=tuple(pieces), turn="5", phase="axis-combat")


@pytest.fixture
def drawn(position) -> etree._Element:
    results = (
        Violation("7 2/3 division-equivalents; the limit is 7", location="serbia/belgrade/axis", case="6.21"),
        Finding("a finding is not marked", location="bosnia/mountain/partisan", case="7.62"),
        Violation("hide-away", location="serbia/hide-away/axis", case="6.34"),
        Violation("again the same box", location="serbia/belgrade/axis", case="6.62"),
    )
    return etree.fromstring(picture.picture(position, Report(position, results)).encode())


def place(root, location: str):
    found = root.xpath(f"//s:g[@data-location='{location}']", namespaces=NS)
    assert len(found) == 1, location
    return found[0]


def test_every_zone_has_a_panel_with_its_zone_display(drawn):
    panels = drawn.xpath("//s:g[@class='zone']", namespaces=NS)
    assert [panel.xpath("string(s:text[1])", namespaces=NS) for panel in panels] == ["Serbia", "Bosnia", "Islands"]
    bosnia = panels[1]
    assert len(bosnia.xpath(".//s:polygon", namespaces=NS)) == 3  # three Mountain triangles
    assert len(bosnia.xpath(".//s:g[contains(@data-location, '/hide-away/')]/s:circle", namespaces=NS)) == 3
    assert bosnia.xpath(".//s:g/@data-location", namespaces=NS) == [
        "bosnia/mountain/partisan",
        "bosnia/mountain/axis",
        "bosnia/mountain/chetnik",
        "bosnia/hide-away/partisan",
        "bosnia/hide-away/axis",
        "bosnia/hide-away/chetnik",
        "bosnia/neutral-chetnik",
        "bosnia/sarajevo/yugoslav",
        "bosnia/sarajevo/axis",
    ]


def test_objective_displays_have_two_boxes_each_and_islands_none(drawn):
    serbia, _, islands = drawn.xpath("//s:g[@class='zone']", namespaces=NS)
    boxes = serbia.xpath(
        ".//s:g[contains(@data-location, 'belgrade') or contains(@data-location, 'nis')]/@data-location", namespaces=NS
    )
    assert boxes == ["serbia/belgrade/yugoslav", "serbia/belgrade/axis", "serbia/nis/yugoslav", "serbia/nis/axis"]
    assert 'Niš <b>&</b> "x"' in "".join(serbia.itertext())
    places = islands.xpath(".//s:g/@data-location", namespaces=NS)
    assert len(places) == 7  # the zone display only: 6.5 gives the Islands no Objective Displays
    assert all(place.split("/")[1] in ("mountain", "hide-away", "neutral-chetnik") for place in places)


def test_stacks_show_their_count_and_division_equivalents(drawn):
    belgrade = place(drawn, "serbia/belgrade/axis")
    assert "9 units · 7 2/3 div" in belgrade.xpath("s:text/text()", namespaces=NS)
    mountain = place(drawn, "bosnia/mountain/partisan")
    assert mountain.xpath("s:text/text()", namespaces=NS)[:2] == ["2 units", "1/2 div"]  # the group stacks free
    hover = mountain.xpath("string(s:title)", namespaces=NS)
    assert hover == "Bosnia / Partisan Mountain: 1st Proletarian (p-1), Group (p-g1)"


def test_offending_places_are_outlined_in_red_with_the_violation_numbers(drawn):
    belgrade = place(drawn, "serbia/belgrade/axis")
    assert belgrade.get("class") == "place offending"
    outline = belgrade.xpath("s:rect[@class='offending']", namespaces=NS)[0]
    assert outline.get("stroke") == "#c62828"
    assert belgrade.xpath("string(s:text[@class='badge-number'])", namespaces=NS) == "1, 3"
    hide_away = place(drawn, "serbia/hide-away/axis")
    assert hide_away.xpath("string(s:text[@class='badge-number'])", namespaces=NS) == "2"
    # a finding marks nothing; an untouched place is drawn plain
    assert place(drawn, "bosnia/mountain/partisan").get("class") == "place"
    marked = {
        group.get("data-location") for group in drawn.xpath("//s:g[contains(@class, 'offending')]", namespaces=NS)
    }
    assert marked == {"serbia/belgrade/axis", "serbia/hide-away/axis"}


def test_the_picture_uses_no_style_attributes_and_passes_the_app_cleaning(position, drawn):
    assert drawn.xpath("//@style | //s:style | //s:script", namespaces=NS) == []
    text = picture.picture(position, Report(position, ()))
    assert etree.fromstring(clean_svg(text).encode()).tag == f"{{{SVG}}}svg"
    assert "No place breaks a rule." in text


def test_names_from_the_save_stay_text(drawn):
    assert "7th <Infantry>" in drawn.xpath(
        "string(//s:g[@data-location='serbia/belgrade/axis']/s:title)", namespaces=NS
    )
    assert drawn.xpath("//s:Infantry | //s:b", namespaces=NS) == []


def test_an_empty_map_draws_an_empty_picture():
    empty = Position(game="tito", map=MapData())
    root = etree.fromstring(picture.picture(empty, Report(empty, ())).encode())
    assert root.xpath("//s:g[@class='zone']", namespaces=NS) == []
