import pytest

from validator import hexgrid
from validator.saves.xml_reader import SaveInputError, read_position_file

from .conftest import position_xml


@pytest.mark.parametrize(
    "layout, hex_, expected",
    [
        ("odd-q", (2, 2), {(3, 1), (3, 2), (2, 3), (1, 2), (1, 1), (2, 1)}),
        ("odd-q", (1, 2), {(2, 2), (2, 3), (1, 3), (0, 3), (0, 2), (1, 1)}),
        ("even-q", (2, 2), {(3, 2), (3, 3), (2, 3), (1, 3), (1, 2), (2, 1)}),
        ("odd-r", (2, 1), {(3, 1), (3, 2), (2, 2), (1, 1), (2, 0), (3, 0)}),
        ("even-r", (2, 2), {(3, 2), (3, 3), (2, 3), (1, 2), (2, 1), (3, 1)}),
    ],
)
def test_six_neighbours_per_layout(layout, hex_, expected):
    assert set(hexgrid.neighbour_coordinates(layout, *hex_)) == expected


def test_neighbourhood_is_symmetric():
    for layout in hexgrid.LAYOUTS:
        hexes = {(column, row): f"{column:02}{row:02}" for column in range(6) for row in range(6)}
        found = hexgrid.neighbours(layout, hexes)
        for hex_id, around in found.items():
            for other in around:
                assert hex_id in found[other], (layout, hex_id, other)


HEX_MAP = """<map xmlns="urn:referee:save:1" grid="hex" layout="odd-q">
  <hex id="0101" column="1" row="1"/>
  <hex id="0102" column="1" row="2"/>
  <hex id="0201" column="2" row="1" neighbours="0101"/>
</map>"""


def test_map_neighbours_from_the_grid_or_listed(pond, write_save):
    write_save(HEX_MAP, "pond-map.xml")
    position = read_position_file(write_save(position_xml("")))
    locations = position.map.locations
    assert set(locations["0101"].neighbours) == {"0102", "0201"}
    assert locations["0201"].neighbours == ("0101",)


@pytest.mark.parametrize(
    "change, message",
    [
        (('neighbours="0101"', 'neighbours="9999"'), "names a neighbour '9999' that the map does not have"),
        (('column="1" row="2"', 'row="2"'), "needs whole-number column and row"),
        (('column="1" row="2"', 'column="1" row="1"'), "share column 1, row 1"),
        (('layout="odd-q"', 'layout="spiral"'), "the hex layout 'spiral' is unknown"),
        (('grid="hex"', 'grid="square"'), "the grid 'square' is unknown"),
        (('grid="hex" ', ''), "gives the layout 'odd-q' but no grid"),
        (('column="1" row="2"', 'column="99999999" row="2"'), "greater than the maximum value allowed"),
        (('neighbours="0101"', 'neighbours="0201"'), "the hex '0201' lists itself as a neighbour"),
        (('neighbours="0101"', 'neighbours="0101 0101"'), "the hex '0201' lists the neighbour '0101' twice"),
        (('neighbours="0101"', 'neighbours="0101 0102"'),
         "the hex '0201' lists '0102' as a neighbour, but '0102' does not have '0201' among its neighbours"),
    ],
)
def test_bad_hex_maps(pond, write_save, change, message):
    write_save(HEX_MAP.replace(*change), "pond-map.xml")
    with pytest.raises(SaveInputError, match=message):
        read_position_file(write_save(position_xml("")))


@pytest.mark.parametrize("layout", hexgrid.LAYOUTS)
def test_the_whole_map_answer_matches_hex_by_hex_in_order(layout):
    """``neighbours`` decides the layout once; it must give what ``neighbour_coordinates`` gives, in the same order."""
    hexes = {(column, row): f"{column}:{row}" for column in range(-3, 5) for row in range(-2, 6) if (column + row) % 7}
    expected = {
        hex_id: tuple(hexes[place] for place in hexgrid.neighbour_coordinates(layout, column, row) if place in hexes)
        for (column, row), hex_id in hexes.items()
    }
    assert hexgrid.neighbours(layout, hexes) == expected


def test_an_unknown_layout_is_refused():
    with pytest.raises(ValueError, match="spiral"):
        hexgrid.neighbours("spiral", {(0, 0): "a"})
