"""The core's picture helpers: where hexes are drawn, and the SVG documents the pictures build."""

from __future__ import annotations

import math

import pytest
from lxml import etree

from validator import hexgrid, svg
from validator.model import Location, MapData
from validator.web.pictures import clean_svg

RADIUS = 10.0


def distance(first: tuple[float, float], second: tuple[float, float]) -> float:
    return math.dist(first, second)


@pytest.mark.parametrize("layout", hexgrid.LAYOUTS)
def test_the_centres_of_neighbouring_hexes_are_one_hex_width_apart(layout):
    for column in range(4):
        for row in range(4):
            here = hexgrid.centre(layout, column, row, RADIUS)
            for other in hexgrid.neighbour_coordinates(layout, column, row):
                there = hexgrid.centre(layout, *other, RADIUS)
                assert distance(here, there) == pytest.approx(math.sqrt(3) * RADIUS), (layout, (column, row), other)


@pytest.mark.parametrize("layout", hexgrid.LAYOUTS)
def test_neighbouring_hexes_share_an_edge_and_other_hexes_do_not_touch(layout):
    flat = hexgrid.is_flat_topped(layout)

    def corners_of(column, row):
        centre = hexgrid.centre(layout, column, row, RADIUS)
        return {(round(x, 6), round(y, 6)) for x, y in hexgrid.corners(*centre, RADIUS, flat)}

    here = corners_of(2, 2)
    around = set(hexgrid.neighbour_coordinates(layout, 2, 2))
    for column in range(5):
        for row in range(5):
            if (column, row) == (2, 2):
                continue
            shared = here & corners_of(column, row)
            assert len(shared) == (2 if (column, row) in around else 0), (layout, (column, row))


def test_a_hex_has_six_corners_on_its_circle_with_a_flat_or_pointed_top():
    flat = hexgrid.corners(0.0, 0.0, RADIUS, True)
    pointed = hexgrid.corners(0.0, 0.0, RADIUS, False)
    assert all(distance((0.0, 0.0), corner) == pytest.approx(RADIUS) for corner in flat + pointed)
    assert flat[0] == pytest.approx((RADIUS, 0.0))  # a corner at the right: the top edge is flat
    assert pointed[0] == pytest.approx((RADIUS * math.sqrt(3) / 2, RADIUS / 2))
    assert min(y for _, y in pointed) == pytest.approx(-RADIUS)  # a corner at the top


def hex_map(layout: str | None, *hexes: Location) -> MapData:
    return MapData(
        attributes={"layout": layout} if layout else {}, locations={location.id: location for location in hexes}
    )


def test_hexes_with_columns_and_rows_are_drawn_where_the_map_puts_them():
    drawn = hexgrid.drawn_coordinates(
        hex_map(
            "even-r",
            Location("a", "hex", attributes={"column": "3", "row": "7"}),
            Location("b", "hex", attributes={"column": "4", "row": "7"}),
            Location("town", "box"),  # not a hex: not drawn as one
        )
    )
    assert drawn == ({"a": (3, 7), "b": (4, 7)}, "even-r")


def test_a_map_without_a_known_layout_is_drawn_in_the_default_one():
    drawn = hexgrid.drawn_coordinates(hex_map("diagonal", Location("a", "hex", attributes={"column": "1", "row": "1"})))
    assert drawn == ({"a": (1, 1)}, hexgrid.DEFAULT_LAYOUT)


def test_hexes_that_list_their_neighbours_are_set_out_in_reading_order_in_a_square_block():
    hexes = [Location(f"h{index}", "hex", neighbours=()) for index in range(5)]
    hexes[2] = Location("h2", "hex", attributes={"column": "9", "row": "9"})  # one placed hex places none of them
    coordinates, layout = hexgrid.drawn_coordinates(hex_map("odd-r", *hexes))
    assert layout == hexgrid.DEFAULT_LAYOUT
    assert coordinates == {"h0": (0, 0), "h1": (1, 0), "h2": (2, 0), "h3": (0, 1), "h4": (1, 1)}


def test_a_document_is_an_svg_image_with_its_title_first_and_text_escaped():
    root = svg.document("Zagreb & <Belgrade>", (-1.25, 0, 40, 20.5), width="40", font_family="serif")
    svg.element(root, "text", "<script>alert(1)</script>", x=svg.number(1.25), class_="label", font_size=9)
    written = svg.serialised(root)
    parsed = etree.fromstring(written.encode())
    assert parsed.tag == svg.tag("svg") and parsed.get("role") == "img"
    assert parsed.get("viewBox") == "-1.2 0 40 20.5"  # fractions to a tenth, whole numbers as they are
    assert (parsed.get("width"), parsed.get("font-family")) == ("40", "serif")
    title, text = list(parsed)
    assert title.tag == svg.tag("title") and title.text == "Zagreb & <Belgrade>"
    assert text.attrib == {"x": "1.2", "class": "label", "font-size": "9"}
    assert "<script>" not in written and "&lt;script&gt;" in written
    assert clean_svg(written)  # what the report page shows inline accepts it


def test_an_outline_is_an_unfilled_polygon_and_a_legend_entry_a_square_with_its_words():
    root = svg.document("marks", (0, 0, 10, 10))
    svg.outline(root, hexgrid.corners(5.0, 5.0, 2.0, True), "#d10000", 3, class_="offence")
    svg.legend_entry(root, 1.0, 2.0, "closed hexes", text_fill="#222222", fill="#c0262d", fill_opacity="0.3")
    _, polygon, square, words = list(root)
    assert polygon.get("fill") == "none" and polygon.get("stroke") == "#d10000" and polygon.get("stroke-width") == "3"
    assert polygon.get("class") == "offence" and len(polygon.get("points").split()) == 6
    assert (square.get("x"), square.get("y"), square.get("width"), square.get("fill-opacity")) == (
        "1.0",
        "2.0",
        "10",
        "0.3",
    )
    assert (words.text, words.get("x"), words.get("y"), words.get("fill")) == (
        "closed hexes",
        "15.0",
        "11.0",
        "#222222",
    )
