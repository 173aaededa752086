"""The module summary names what Referee cannot compute, and extensions join their module."""

from __future__ import annotations

from validator.saves.vassal.extensions import with_extensions
from validator.saves.vassal.locations import location_of
from validator.saves.vassal.module import parse_build_file
from validator.saves.vassal.module_summary import render_text, summarise, unknown_reasons

PACKAGE = "VASSAL.build.module"
BOARD = f"{PACKAGE}.map.boardPicker"


def module_with_numbering(numbering: str) -> bytes:
    return f"""<?xml version="1.0"?>
<VASSAL.build.GameModule name="Custom" version="1">
  <{PACKAGE}.Map mapName="Main">
    <{BOARD}.Board name="Board" width="300" height="300">
      <{BOARD}.board.HexGrid dy="64"><{numbering} hOff="1" vOff="1"/></{BOARD}.board.HexGrid>
    </{BOARD}.Board>
  </{PACKAGE}.Map>
  <{PACKAGE}.properties.GlobalProperty name="Turn" initialValue="1"/>
</VASSAL.build.GameModule>""".encode()


def test_an_unknown_numbering_class_names_every_point_unknown_and_is_named_as_the_reason():
    module = parse_build_file(module_with_numbering("Club.SpiralNumbering"), source="custom.xml")
    assert location_of(module, "Main", 100, 100) == "unknown"
    board = module.maps["Main"].boards[0]
    assert unknown_reasons(board.grid) == ["the grid numbering class Club.SpiralNumbering"]
    text = render_text(summarise(module))
    assert "numbered by Club.SpiralNumbering" in text and "which Referee does not compute" in text
    assert "global properties (1): Turn" in text


def test_the_vassal_numbering_is_computed():
    module = parse_build_file(module_with_numbering(f"{BOARD}.board.mapgrid.HexGridNumbering"), source="v.xml")
    assert location_of(module, "Main", 0, 32) == "0101"
    assert unknown_reasons(module.maps["Main"].boards[0].grid) == []


def test_an_extension_adds_its_maps_and_pieces_to_its_module():
    extension = parse_build_file(f"""<?xml version="1.0"?>
<{PACKAGE}.ModuleExtension module="Custom" version="0.1" vassalVersion="3.7.0">
  <{PACKAGE}.ExtensionElement target="">
    <{PACKAGE}.Map mapName="Extra"><{BOARD}.Board name="Extra" width="10" height="10"/></{PACKAGE}.Map>
  </{PACKAGE}.ExtensionElement>
  <{PACKAGE}.ExtensionElement target="{PACKAGE}.PieceWindow:Pieces">
    <VASSAL.build.widget.PieceSlot entryName="Scout">+/null/piece;;;scout.png;Scout/\tnull;0;0
    </VASSAL.build.widget.PieceSlot>
  </{PACKAGE}.ExtensionElement>
</{PACKAGE}.ModuleExtension>""".encode(), source="extra.vmdx")
    module = parse_build_file(module_with_numbering("Club.SpiralNumbering"), source="custom.xml")
    joined = with_extensions(module, [extension])
    assert list(joined.maps) == ["Main", "Extra"] and [slot.name for slot in joined.piece_slots] == ["Scout"]
    summary = summarise(joined)
    assert summary["module"]["extensions"] == ["extra.vmdx"] and summary["pieces"][0]["image"] == "scout.png"
