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

from validator import hexgrid, model
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


def test_a_hexs_location_is_read_only_and_empty_attributes_are_the_shared_empty_mapping():
    text = '<map xmlns="urn:referee:save:1"><hex id="a" terrain="clear"/><hex id="b" area="x"/></map>'
    table = read(text).locations
    assert table.hexes is not None
    with pytest.raises(TypeError):
        table["a"].attributes["terrain"] = "sea"
    assert table["b"].attributes is model.EMPTY
    assert described(table["a"]) == ("a", "hex", None, None, "", [("terrain", "clear")], (), 1)


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


class CountedReads(list):
    """A column that counts the items read from it, one by one or by a pass over it."""

    def __init__(self, items) -> None:
        super().__init__(items)
        self.reads = 0

    def __iter__(self):
        for item in super().__iter__():
            self.reads += 1
            yield item

    def __getitem__(self, index):
        self.reads += 1
        return super().__getitem__(index)


@pytest.mark.parametrize("groups", [2, 30, 3000])
def test_grouping_the_hexes_by_their_names_reads_each_column_a_fixed_number_of_times(groups):
    """However many tuples of names the hexes are written with: picking each group out of the whole column read it
    once per group, so a map whose every hex had a name of its own took a time growing as the square of its size."""
    count = 3000
    shapes = [("id", "column", "row", f"n{shape}") for shape in range(groups)]
    names = CountedReads(shapes[(index * 7) % groups] for index in range(count))  # the groups interleaved
    values = CountedReads([f"h{index}", "1", "2", ""] for index in range(count))
    found = list(model._by_attribute_names(names, values))
    assert names.reads <= 2 * count and values.reads <= 2 * count
    assert len(found) == groups
    expected = {}  # the reference: each tuple's rows in map order, the tuples in the order they first appear
    for index, shape in enumerate(list.__iter__(names)):
        expected.setdefault(shape, []).append(index)
    assert [(shape, list(where)) for shape, where, _values in found] == list(expected.items())
    assert all(list(group_values) == [list.__getitem__(values, index) for index in where]
               for _shape, where, group_values in found)


def test_hexes_each_written_with_names_of_their_own_answer_as_their_locations_do():
    """Many distinct tuples of names, equal tuples that are not shared, column and row in different places."""
    hexes = []
    for index in range(400):
        column, row = divmod(index, 20)
        own = f' n{index}="{index % 3}"' if index % 4 else ' terrain="clear"'
        if index % 2:
            hexes.append(f'<hex row="{row}" id="h{index}" area="land" column="{column}"{own}/>')
        else:
            hexes.append(f'<hex id="h{index}" column="{column}" row="{row}"{own} features="f{index % 5}"/>')
    text = ('<map xmlns="urn:referee:save:1" game="awaw" grid="hex" layout="odd-q">\n<area id="land"/>\n'
            + "\n".join(hexes) + "\n</map>\n")
    table = read(text).locations
    assert table.hexes is not None and len(set(map(id, table.hexes.names))) > 300  # read as columns, many groups
    locations = list(read(text).locations.values())
    assert [described(table[location.id]) for location in locations] == [
        described(LocationTable({row.id: tuple(row)})[row.id]) for row in read_hex_by_hex(text)]
    for name in ("n1", "n398", "terrain", "features", "column", "row", "id", "area"):
        assert table.attribute_column(name) == [location.attributes.get(name) for location in locations]
    expected: dict[str, set[str]] = {}
    for location in locations:
        for name, value in location.attributes.items():
            expected.setdefault(name, set()).add(value)
    assert table.attribute_values("hex") == expected
    assert list(table.attribute_values("hex")) == list(expected)  # the names in the order they first appear


def test_the_columns_are_handed_out_read_only():
    """A prepared map's hexes are shared by every save checked on it: what they hand out cannot be changed."""
    table = read(hex_map("odd-q")).locations
    hexes = table.hexes
    for column in (hexes.ids, hexes.areas, hexes.names, hexes.values, hexes.lines, hexes.every_neighbours()):
        assert type(column) is tuple
    assert type(hexes.parts()[-1][0]) is tuple  # the grid's keys
    again = HexColumns(*marshal.loads(marshal.dumps(hexes.parts())))
    assert again.ids is again.parts()[0]  # made from tuples: nothing copied
