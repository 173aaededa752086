"""A Third World War mapping draft matches piece names and folders to kinds, nations and sides, properties to facts.

The module is written here: a hex board, and palette folders by side and
nation as modules arrange them ("NATO / West Germany").  The corpus holds
no Third World War module (its README); tests/vassal/test_mapping_draft_corpus.py
runs the draft on the corpus modules of other games.
"""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

from validator.games import get
from validator.saves.vassal.draft_state import UNMATCHED_TABLE
from validator.saves.vassal.mapping import read_mapping
from validator.saves.vassal.mapping_draft import classify

PACKAGE = "VASSAL.build.module"
BOARD = f"{PACKAGE}.map.boardPicker"


def referee(*arguments: object) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "validator.cli", *map(str, arguments)], capture_output=True,
                          text=True, check=False)


def slot(name: str) -> str:
    return (f'<VASSAL.build.widget.PieceSlot entryName="{name}">+/null/piece;;;;{name}/\tnull;0;0'
            "</VASSAL.build.widget.PieceSlot>")


def folder(name: str, *content: str) -> str:
    return f'<VASSAL.build.widget.TabWidget entryName="{name}">{"".join(content)}</VASSAL.build.widget.TabWidget>'


def tww_module() -> bytes:
    properties = "".join(f'<{PACKAGE}.properties.GlobalProperty name="{name}" initialValue=""/>' for name in (
        "Turn", "Impulse", "Sub Impulse", "Yugoslavia War Entry", "Finland Side", "Weather"))
    return f"""<?xml version="1.0"?>
<VASSAL.build.GameModule name="Club TWW" version="1.0">
  <{PACKAGE}.Map mapName="Europe">
    <{BOARD}.Board name="Theatre" width="200" height="200">
      <{BOARD}.board.HexGrid dy="64" x0="0" y0="32">
        <{BOARD}.board.mapgrid.HexGridNumbering first="H" hLeading="1" vLeading="1" hOff="1" vOff="1"/>
      </{BOARD}.board.HexGrid>
    </{BOARD}.Board>
  </{PACKAGE}.Map>
  <{PACKAGE}.PieceWindow name="Counters">
    {folder("NATO", folder("West Germany", slot("Inf Div"), slot("Arm Bde")), slot("Air Wing"))}
    {folder("NATO", folder("USA", slot("US Abn Div")), folder("UK", slot("British Inf Bde")))}
    {folder("Warsaw Pact", folder("Soviet Union", slot("Tank Army")))}
    {folder("Neutrals", folder("Finland", slot("Inf Bde")), folder("Sweden", slot("Mech Bde")))}
    {folder("Pact", folder("Syria", slot("Mech Bde")))}
  </{PACKAGE}.PieceWindow>
  <{PACKAGE}.properties.GlobalProperties>{properties}</{PACKAGE}.properties.GlobalProperties>
</VASSAL.build.GameModule>""".encode()


def test_tww_names_and_folders_give_kind_nation_and_side():
    tww = get("tww").vocabulary
    found = classify("3 Arm Div", "", "Counters / NATO / West Germany", tww)
    assert (found.kind, found.values) == ("armor", {"nationality": "west-germany", "side": "nato"})
    assert classify("Iranian Army Inf", "", "Neutrals", tww).value("nationality") == "iranian-army", (
        "the longest phrase is read first: the Iranian Army is not Iran")
    assert classify("Inf", "", "Warsaw Pact / Syria / NATO", tww).value("side") is None, "two sides give none"


def test_tww_us_and_british_pieces_get_their_nation_ids():
    tww = get("tww").vocabulary
    american = ("US Inf Div", "NATO"), ("USA Arm Bde", "NATO"), ("U.S. Mech Div", "NATO"), (
        "American Abn Div", "NATO"), ("Inf Div", "NATO / United States"), ("Arm Div", "NATO / America")
    british = ("UK Inf Bde", "NATO"), ("U.K. Arm Div", "NATO"), ("British Arm Div", "NATO"), (
        "Inf Div", "NATO / Britain"), ("Inf Div", "NATO / Great Britain"), ("Inf Bde", "NATO / United Kingdom")
    for nation, pieces in (("united-states", american), ("britain", british)):
        for name, folders in pieces:
            found = classify(name, "", folders, tww)
            assert found.values == {"nationality": nation, "side": "nato"}, (name, folders)
    assert classify("US Inf", "", "NATO / Britain", tww).value("nationality") is None, "two nations give none"


def test_the_tww_draft_describes_what_its_names_make_plain(tmp_path):
    module = tmp_path / "buildFile.xml"
    module.write_bytes(tww_module())
    drafted = referee("vassal", "mapping", "draft", "--module", module, "--game", "tww", "--output",
                      tmp_path / "club.xml")
    assert drafted.returncode == 0, drafted.stderr
    mapping = read_mapping(tmp_path / "club.xml")
    described = ("Inf Div", "Arm Bde", "US Abn Div", "British Inf Bde", "Tank Army", "Inf Bde")
    assert mapping.tables["unit-types"].entries == dict(zip(
        described, ("infantry", "armor", "airborne", "infantry", "armor", "infantry"), strict=True))
    assert mapping.tables["nationalities"].entries == dict(zip(
        described, ("west-germany", "west-germany", "united-states", "britain", "soviet-union", "finland"),
        strict=True)), "the United States' and Britain's pieces are filled in, not left to do"
    assert mapping.tables["sides"].entries == dict(zip(described, ("nato",) * 4 + ("pact", "neutral"), strict=True))
    left_out = [rule for rule in mapping.ignores if rule.todo]
    assert any(rule.applies("Air Wing", {}) for rule in left_out), "no nation in its name or folders: left out"
    assert any(rule.applies("Mech Bde", {}) for rule in left_out), "two slots of one name say two nations: left out"
    state = {rule.property: rule.position or rule.fact for rule in mapping.state}
    assert state == {"Turn": "turn", "Impulse": "impulse", "Sub Impulse": "sub-impulse",
                     "Yugoslavia War Entry": "war-entry:yugoslavia", "Finland Side": "side:finland"}
    assert mapping.tables[UNMATCHED_TABLE].entries == {"Weather": ""}
    attributes = {rule.name: rule.required for rule in mapping.attributes}
    assert attributes == {"type": True, "nationality": True, "side": True}


def test_a_tww_skeleton_refuses_a_terrain_the_game_does_not_have(tmp_path):
    module = tmp_path / "buildFile.xml"
    module.write_bytes(tww_module())
    assert referee("vassal", "mapping", "draft", "--module", module, "--game", "tww", "--output",
                   tmp_path / "club.xml").returncode == 0
    hexes, areas = tmp_path / "club-hexes.csv", tmp_path / "club-areas.csv"
    rows = list(csv.DictReader(hexes.open(encoding="utf-8")))
    assert list(rows[0])[-4:] == ["area", "terrain", "city", "region"]
    rows[0]["terrain"], rows[1]["terrain"] = "clear", "jungle"
    with hexes.open("w", newline="", encoding="utf-8") as stream:
        writer = csv.DictWriter(stream, list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    result = referee("vassal", "mapping", "skeleton", "--hexes", hexes, "--areas", areas, "--game", "tww",
                     "--output", tmp_path / "map.xml")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert (f"{hexes}, line 3: the hex '{rows[1]['id']}' has 'jungle' in the column terrain (column 9), which "
            "takes one of clear, wilderness, mountain, mountain-pass, rough, forest, marsh, desert, urban, other"
            ) in result.stderr
    assert not Path(tmp_path / "map.xml").exists()
