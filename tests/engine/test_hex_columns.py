"""A map's hexes read a column at a time (validator.model.HexColumns): the same locations as the reading hex by hex.

The map reader reads most maps as columns and leaves the others (neighbours
listed hex by hex, anything to name) to the reading hex by hex; both must
give the same locations, in the same order, with the same neighbours in the
same order, and the columns must answer for the whole map as the built
locations would.
"""

from __future__ import annotations

import marshal

import pytest

from validator import hexgrid
from validator.model import HexColumns, LocationTable
from validator.saves import map_reader
from validator.saves.source_lines import SourceLines
from validator.xmlparsing import parse_xml


def hex_map(layout: str) -> str:
    """A map with holes, negative and zero-padded coordinates, hexes written with several sets of attribute names
    (in different orders), a location that is not a hex, and a hex tag written over two lines."""
    hexes = []
    for column in range(-3, 6):
        for row in range(-2, 7):
            if (column * 3 + row) % 7 == 0:
                continue  # a hole
            hex_id = f"h{column}_{row}"
            if (column + row) % 3 == 0:
                hexes.append(f'<hex row="{row}" id="{hex_id}" column="{column:03d}" terrain="clear"/>')
            elif (column + row) % 3 == 1:
                hexes.append(f'<hex id="{hex_id}" area="land" column="{column}" row="{row}" features="city port"/>')
            else:
                hexes.append(f'<hex id="{hex_id}" column="{column}"\n     row="{row}" area="land" controller="x"/>')
    return (f'<map xmlns="urn:referee:save:1" game="awaw" grid="hex" layout="{layout}">\n'
            '<area id="land" name="Land"><location id="box" kind="box" name="A box" colour="red"/></area>\n'
            + "\n".join(hexes) + "\n</map>\n")


def read(text: str):
    data = text.encode()
    return map_reader.map_from(parse_xml(data, "map.xml"), "map.xml", SourceLines(data))


def read_hex_by_hex(text: str):
    data = text.encode()
    element, lines = parse_xml(data, "map.xml"), SourceLines(data)
    return map_reader._hexes_one_by_one(element, "map.xml", lines)


def described(location) -> tuple:
    """Everything a location holds, its attributes in their order."""
    return (location.id, location.kind, location.area, location.display, location.name,
            list(location.attributes.items()), location.neighbours, location.line)


@pytest.mark.parametrize("layout", hexgrid.LAYOUTS)
def test_the_columns_give_the_locations_the_reading_hex_by_hex_gives(layout):
    text = hex_map(layout)
    table = read(text).locations
    assert table.hexes is not None  # read as columns
    expected = read_hex_by_hex(text)
    hexes = [location_id for location_id in table if table[location_id].kind == "hex"]
    assert hexes == [row.id for row in expected]
    assert [described(table[hex_id]) for hex_id in hexes] == [
        described(LocationTable({row.id: tuple(row)})[row.id]) for row in expected]
    assert list(table)[0] == "box"  # the other locations come first, as before


@pytest.mark.parametrize("layout", hexgrid.LAYOUTS)
def test_every_neighbour_at_once_is_each_hexs_own(layout):
    text = hex_map(layout)
    one_by_one, at_once = read(text).locations, read(text).locations
    every = {location.id: location.neighbours for location in at_once.values()}  # worked out at once
    assert every == {location_id: one_by_one[location_id].neighbours for location_id in one_by_one}
    assert any(every.values())


def test_the_columns_answer_for_the_whole_map_as_the_locations_do():
    table = read(hex_map("odd-q")).locations
    locations = list(read(hex_map("odd-q")).locations.values())
    for name in ("id", "kind", "area", "display", "name", "neighbours", "line"):
        assert table.column(name) == [getattr(location, name) for location in locations]
    for name in ("features", "colour", "column", "nothing"):
        assert table.attribute_column(name) == [location.attributes.get(name) for location in locations]
    for kind in ("hex", "box"):
        expected: dict[str, set[str]] = {}
        for location in locations:
            if location.kind == kind:
                for name, value in location.attributes.items():
                    expected.setdefault(name, set()).add(value)
        assert table.attribute_values(kind) == expected
        skipped = table.attribute_values(kind, skip={"column", "colour"})  # listed, with no values gathered
        assert skipped == {name: set() if name in ("column", "colour") else values for name, values in expected.items()}
    assert table.any_neighbours("hex") and not table.any_neighbours("box")


def test_columns_made_again_from_their_parts_are_the_same_hexes():
    """As a prepared map keeps them: one marshal string, the grid's keys with it."""
    fresh = read(hex_map("even-r")).locations
    again = LocationTable(fresh.rows, HexColumns(*marshal.loads(marshal.dumps(fresh.hexes.parts()))))
    assert list(again) == list(fresh)
    assert [described(again[location_id]) for location_id in again] == [
        described(fresh[location_id]) for location_id in fresh]


def test_a_map_without_a_grid_has_hexes_without_neighbours():
    text = '<map xmlns="urn:referee:save:1"><hex id="a" area="x"/><hex id="b"/></map>'
    table = read(text).locations
    assert table.hexes is not None and table["a"].neighbours == () and not table.any_neighbours("hex")
    assert table["a"].area == "x" and table["b"].area is None


@pytest.mark.parametrize("change", [
    ('<hex id="h0_1" area="land"', '<hex id="h0_1" neighbours="h0_2" area="land"'),  # neighbours listed
    ('id="h0_2"', 'id="h0_1"'),  # an id used twice
    ('column="0" row="1"', 'column="0" row="2"'),  # two hexes on one place
    ('column="0" row="1"', 'column="zero" row="1"'),  # not a whole number
])
def test_a_map_the_columns_cannot_read_is_read_hex_by_hex(change):
    text = hex_map("odd-q")
    assert change[0] in text
    data = text.replace(*change, 1).encode()
    element = parse_xml(data, "map.xml")
    assert map_reader._hexes_by_columns(element, "odd-q", SourceLines(data)) is None
