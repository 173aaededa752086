"""Location names from grids, zones, board layouts and image headers."""

from __future__ import annotations

import struct
import zipfile
import zlib

import pytest

from validator.saves.vassal import BoardPlacement, location_of, read_module
from validator.saves.vassal.grids import HexGrid, Numbering, RegionGrid, SquareGrid, Zone, ZonedGrid, polygon_contains
from validator.saves.vassal.images import image_size

P = "VASSAL.build.module.map.boardPicker."


@pytest.mark.parametrize("value, kind, leading, name", [
    (0, "A", 1, "A"), (25, "A", 1, "Z"), (26, "A", 1, "AA"), (27, "A", 1, "BB"), (52, "A", 1, "AAA"),
    (5, "N", 1, "05"), (15, "N", 1, "15"), (5, "N", 2, "005"), (50, "N", 2, "050"), (-3, "N", 0, "-3"),
])
def test_numbering_parts(value, kind, leading, name):
    assert Numbering.part(value, kind, leading) == name


def test_hex_grid_worked_example_from_tld():
    grid = HexGrid(x0=-19, y0=32, dx=55.4256, dy=64.0, numbering=Numbering(h_off=0, v_off=1, stagger=False))
    assert grid.location_name(1977, 576, 5340, 5024) == "3610"
    assert grid.location_name(1090, 896, 5340, 5024) == "2015"


def test_hex_grid_stagger_uses_the_raw_column():
    grid = HexGrid(x0=0, y0=32, dx=50, dy=64, numbering=Numbering())
    assert grid.location_name(0, 32, None, None) == "0101"        # even column, stagger adds nothing
    assert grid.location_name(50, 64, None, None) == "0202"       # odd column: row + 1
    descending = HexGrid(x0=0, y0=32, dx=50, dy=64, numbering=Numbering(h_descend=True))
    assert descending.location_name(0, 32, 500, 500) == "0901"    # maxCols = floor(W/dy + .5) = 8, VASSAL's divisor
    with pytest.raises(LookupError):
        descending.location_name(0, 32, None, None)


def test_square_grid_truncates_rows_and_offboard_without_numbering():
    grid = SquareGrid(x0=36, y0=36, dx=50, dy=50, numbering=Numbering(h_type="A"))
    assert grid.location_name(36, 236, 275, 275) == "B05"
    assert grid.location_name(36, 0, 275, 275) == "B01"       # int(-0.22) truncates to 0
    assert SquareGrid().location_name(10, 10, 100, 100) is None


def test_regions_zones_and_formats():
    regions = RegionGrid((("Toledo", 10, 10), ("Madrid", 100, 100)))
    square = [(0, 0), (50, 0), (50, 50), (0, 50)]
    zoned = ZonedGrid((Zone("North", tuple(square), "$name$ ($gridLocation$)", grid=regions),), background=None)
    assert zoned.location_name(20, 20, None, None) == "North (Toledo)"
    assert zoned.location_name(70, 70, None, None) is None
    assert polygon_contains(tuple(square), 0, 0) and not polygon_contains(tuple(square), 50, 10)


def _png(width, height):
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + ihdr + struct.pack(">I", zlib.crc32(b"IHDR" + ihdr))


def test_image_headers():
    assert image_size(_png(2048, 2593)) == (2048, 2593)
    assert image_size(b"GIF89a" + struct.pack("<HH", 30, 40)) == (30, 40)
    jpeg = (
        b"\xff\xd8" + b"\xff\xe0" + struct.pack(">H", 4) + b"JF" + b"\xff\xc0" + struct.pack(">HBHH", 11, 8, 600, 800)
    )
    assert image_size(jpeg) == (800, 600)
    assert image_size(b"<svg/>") is None


BUILD = f"""<?xml version="1.0" encoding="UTF-8"?>
<VASSAL.build.GameModule name="Two Boards" version="1" VassalVersion="3.7.0">
 <VASSAL.build.module.Map mapName="Main Map" edgeWidth="10" edgeHeight="0">
  <VASSAL.build.module.map.BoardPicker>
   <{P}Board image="west.png" name="West">
    <{P}board.SquareGrid dx="100" dy="100" x0="50" y0="50">
     <{P}board.mapgrid.SquareGridNumbering hType="A" vType="N" hOff="0" vOff="1"/>
    </{P}board.SquareGrid>
   </{P}Board>
   <{P}Board image="east.png" name="East">
    <{P}board.mapgrid.Weird/>
   </{P}Board>
  </VASSAL.build.module.map.BoardPicker>
  <VASSAL.build.module.map.DrawPile name="Cards" owningBoard="East" x="5" y="5"/>
 </VASSAL.build.module.Map>
</VASSAL.build.GameModule>""".encode()


def test_module_board_layout_from_image_sizes(tmp_path):
    path = tmp_path / "m.vmod"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("buildFile.xml", BUILD)
        archive.writestr("images/west.png", _png(400, 300))
        archive.writestr("images/east.png", _png(200, 300))
        archive.writestr("moduledata", b"<data version='1'><name>Two Boards</name></data>")
    module = read_module(path)
    assert module.metadata.name == "Two Boards"
    layout = [BoardPlacement("Main Map", "West", 0, 0), BoardPlacement("Main Map", "East", 1, 0)]
    assert location_of(module, "Main Map", 60, 50, layout) == "A01"
    assert location_of(module, "Main Map", 409, 299, layout) == "D03"
    assert location_of(module, "Main Map", 415, 5, layout) == "Cards"  # 10 edge + 400 west + 5
    assert location_of(module, "Main Map", 450, 100, layout) == "unknown"  # a grid class we do not know
    assert location_of(module, "Main Map", 700, 100, layout) == "offboard"
    assert location_of(module, "Nowhere", 1, 1, layout) == "unknown"
    reversed_layout = [BoardPlacement("Main Map", "West", 0, 0, reversed=True)]
    assert location_of(module, "Main Map", 10 + 60, 50, reversed_layout) == "D03"
