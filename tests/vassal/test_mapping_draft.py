"""The mapping draft, its skeleton tables and the coverage check, on small modules written here.

The A3R corpus module is tested end to end in tests/awaw/test_a3r.py; these
cover the matching rules one by one, the skeleton's geometry on a board whose
hexes can be counted by hand, and the refusals of the read-back.
"""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest
from lxml import etree

from validator.saves.vassal.map_skeleton import SkeletonError, build_skeleton, read_skeleton, write_tables
from validator.saves.vassal.mapping import NAMESPACE, MappingError, parse_mapping, read_mapping
from validator.saves.vassal.mapping_draft import classify, draft_mapping, name_patterns, normalised
from validator.saves.vassal.module import parse_build_file

M = f"{{{NAMESPACE}}}"
PACKAGE = "VASSAL.build.module"
BOARD = f"{PACKAGE}.map.boardPicker"
GRID = f"{BOARD}.board"


def referee(*arguments: object) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "validator.cli", *map(str, arguments)], capture_output=True,
                          text=True, check=False)


def slot(name: str, image: str) -> str:
    return (f'<VASSAL.build.widget.PieceSlot entryName="{name}">+/null/piece;;;{image};{name}/\tnull;0;0'
            "</VASSAL.build.widget.PieceSlot>")


def tito_like_module() -> bytes:
    """A map whose regions are named after Tito's areas (two of them), and a dead pile."""
    return f"""<?xml version="1.0"?>
<VASSAL.build.GameModule name="Club Tito" version="2.0">
  <{PACKAGE}.Map mapName="Yugoslavia">
    <{BOARD}.Board name="Main" width="400" height="300">
      <{GRID}.RegionGrid>
        <{GRID}.Region name="Serbia" originx="10" originy="10"/>
        <{GRID}.Region name="BOSNIA" originx="100" originy="10"/>
        <{GRID}.Region name="Dead Pile" originx="200" originy="10"/>
      </{GRID}.RegionGrid>
    </{BOARD}.Board>
  </{PACKAGE}.Map>
  <{PACKAGE}.Map mapName="Charts"><{BOARD}.Board name="Charts" width="10" height="10"/></{PACKAGE}.Map>
  <{PACKAGE}.PieceWindow name="Pieces">{slot("German Inf Div", "de-inf.png")}</{PACKAGE}.PieceWindow>
</VASSAL.build.GameModule>""".encode()


def hex_module(width: int = 200, height: int = 200) -> bytes:
    """One 200 x 200 board with VASSAL's default hex grid (x0 0, y0 32, dy 64) numbered from 01."""
    return f"""<?xml version="1.0"?>
<VASSAL.build.GameModule name="Club AWAW" version="1.0">
  <{PACKAGE}.Map mapName="Europe">
    <{BOARD}.Board name="Theatre" width="{width}" height="{height}">
      <{GRID}.HexGrid dy="64" x0="0" y0="32">
        <{GRID}.mapgrid.HexGridNumbering first="H" hLeading="1" vLeading="1" hOff="1" vOff="1" stagger="false"/>
      </{GRID}.HexGrid>
    </{BOARD}.Board>
  </{PACKAGE}.Map>
  <{PACKAGE}.PieceWindow name="Pieces">
    <VASSAL.build.widget.TabWidget entryName="Germany">{slot("GE Inf 3-3", "ge-inf-33.png")}
    </VASSAL.build.widget.TabWidget>
    <VASSAL.build.widget.TabWidget entryName="Britain">{slot("Partisan", "br-partisan.png")}
    </VASSAL.build.widget.TabWidget>
    {slot("Control Marker", "control.png")}
    {slot("Inf Arm 1-1", "inf.png")}
  </{PACKAGE}.PieceWindow>
</VASSAL.build.GameModule>""".encode()


def test_names_match_only_when_normalised_names_are_equal():
    module = parse_build_file(tito_like_module(), source="club-tito.xml")
    draft = draft_mapping(module, "tito", map_href="map.xml", game_map=Path("plugin/tito/maps/tito-map.xml"),
                          skeleton=None)
    assert draft.matched_locations == {("Yugoslavia", "Serbia"): "serbia", ("Yugoslavia", "BOSNIA"): "bosnia"}
    mapping = parse_mapping(draft.xml, "draft.xml", Path.cwd())
    assert mapping.exact_locations[("Yugoslavia", "Serbia")].template.text == "serbia"
    dead = mapping.exact_locations[("Yugoslavia", "Dead Pile")]
    assert dead.skip and dead.todo, "an unmatched place is skipped and marked to fill in"
    assert "Charts" in mapping.todo_maps, "a map with no matched place is ignored until filled in"
    assert normalised("Banja Luka / Axis") == "banja-luka-axis"


def vocabulary(game: str):
    from validator.games import get

    return get(game).vocabulary


def test_piece_kinds_need_one_plain_word():
    awaw = vocabulary("awaw")
    assert classify("UK Part 1-3", "br-part", "", awaw).kind == "partisan"
    assert classify("Partisan", "br-partisan.png", "Britain", awaw).value("owner") == "britain"  # from the folder
    assert classify("Inf Arm 1-1", "inf.png", "", awaw).kind is None  # two kinds: nothing guessed
    assert classify("GE Inf 3-3", "ge-arm-46", "", awaw).kind is None  # name and image disagree
    assert classify("br-AB-3m3", "br-inf-33ab", "", awaw).kind_from == "image"
    assert classify("Infantryman", "x", "", awaw).kind is None  # whole words only
    assert classify("UK Submarine", "", "Britain", awaw, "Naval / Basic").kind == "submarine", "a name first"
    assert classify("UK Jet", "br-jet", "Britain", awaw, "Air / KIA").kind_from == "prototypes", (
        "a prototype is read only when the name and image name nothing")
    refused = classify("GE Inf 3-3", "ge-inf", "Counters / Italy", awaw)
    assert refused.value("owner") is None and refused.missing == (
        "no owner: its name says germany but its folder says italy",), "a name and a folder that disagree give none"


def test_ignore_patterns_fit_the_schema_and_keep_prefixes_apart():
    many = [f"Counter number {index}" for index in range(200)]
    patterns = name_patterns(many)
    assert len(patterns) > 1 and all(len(pattern) <= 1000 for pattern in patterns)
    assert name_patterns(["GE Inf"], ["GE Inf 3-3"]) == ["^(?:GE Inf$)"]
    assert name_patterns(["a.b (c)"]) == [r"^(?:a\.b \(c\))"]


def test_the_skeleton_counts_the_hexes_whose_centres_lie_on_the_board():
    """Columns at x = 0, 55, 111, 166; even ones hold centres at y 32, 96, 160, odd ones at 0, 64, 128, 192: 14."""
    module = parse_build_file(hex_module(), source="club-awaw.xml")
    skeleton = build_skeleton(module)
    assert len(skeleton.hexes) == 14 and not skeleton.notes
    by_name = {h.vassal: h for h in skeleton.hexes}
    assert (by_name["0101"].x, by_name["0101"].y) == (0, 32)
    # 0202 is in an odd raw column, half a hex lower than its neighbours' columns: it touches their rows 2 and 3.
    assert set(by_name["0202"].neighbours) == {"0201", "0203", "0102", "0103", "0302", "0303"}
    assert all(h.id in by_name[other].neighbours for h in skeleton.hexes for other in h.neighbours)


def test_tables_round_trip_into_our_map_with_only_what_was_filled_in(tmp_path):
    module = parse_build_file(hex_module(), source="club-awaw.xml")
    skeleton = build_skeleton(module)
    hexes, areas = tmp_path / "hexes.csv", tmp_path / "areas.csv"
    write_tables(skeleton, "awaw", hexes, areas)
    rows = list(csv.DictReader(hexes.open(encoding="utf-8")))
    assert list(rows[0]) == ["id", "vassal", "map", "board", "x", "y", "neighbours", "area", "features",
                             "controller", "sea", "island", "terrain", "name"]
    rows[0]["area"], rows[0]["features"] = "france", "city"
    with hexes.open("w", newline="", encoding="utf-8") as stream:
        writer = csv.DictWriter(stream, list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    areas.write_text("id,name,part-of\nfrance,France,\n", encoding="utf-8")
    root = etree.fromstring(read_skeleton(hexes, areas, "awaw", "club"))
    hexes_read = root.findall("{urn:referee:save:1}hex")
    assert len(hexes_read) == 14
    assert dict(hexes_read[0].attrib) == {"id": rows[0]["id"], "neighbours": rows[0]["neighbours"], "area": "france",
                                          "features": "city"}
    assert all(set(h.attrib) == {"id", "neighbours"} for h in hexes_read[1:])


@pytest.mark.parametrize(("change", "problem"), [
    (lambda rows: rows[1].update(neighbours="9999"), "names the neighbour '9999', which the table does not list"),
    (lambda rows: rows[1].update(area="spain"), "is in the area 'spain', which areas.csv does not list"),
    (lambda rows: rows[1].update(terrain="land", island="true", area="") or rows.append(dict(rows[1])),
     "the hex '0102' is listed twice"),
    (lambda rows: rows[1].update(features="volcano"), "the hex '0102' has 'volcano' in the column features (column 9), "
                                                      "which takes hex features (city, port, capital"),
    (lambda rows: rows[1].update(island="maybe"), "the hex '0102' has 'maybe' in the column island (column 12), which "
                                                  "takes true or false"),
    (lambda rows: rows[1].update(terrain="clear"), "the hex '0102' has 'clear' in the column terrain (column 13), "
                                                   "which takes a terrain the partisan rules tell apart (land, sea)"),
    (lambda rows: rows[1].update(controller="vichy"), "the hex '0102' has 'vichy' in the column controller (column "
                                                      "10), which takes a power, 'neutral' or 'none' (the words it "
                                                      "takes: germany, italy, japan, britain, france, usa, china, "
                                                      "russia, communist-china, neutral, none)"),
    (lambda rows: rows[1].update(terrain="sea", sea="false"), "the hex '0102' has the terrain 'sea' but the sea "
                                                              "'false'; a terrain of sea means sea true"),
])
def test_a_bad_table_is_refused_with_its_file_and_line(tmp_path, change, problem):
    module = parse_build_file(hex_module(), source="club-awaw.xml")
    hexes, areas = tmp_path / "hexes.csv", tmp_path / "areas.csv"
    write_tables(build_skeleton(module), "awaw", hexes, areas)
    rows = list(csv.DictReader(hexes.open(encoding="utf-8")))
    change(rows)
    with hexes.open("w", newline="", encoding="utf-8") as stream:
        writer = csv.DictWriter(stream, list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    with pytest.raises(SkeletonError) as raised:
        read_skeleton(hexes, areas, "awaw", "club")
    assert problem in raised.value.sentence() and f"{hexes}, line " in raised.value.sentence()
    result = referee("vassal", "mapping", "skeleton", "--hexes", hexes, "--areas", areas, "--game", "awaw",
                     "--output", tmp_path / "map.xml")
    assert result.returncode == 2 and problem in result.stderr and "Traceback" not in result.stderr


def write_rows(path: Path, rows: list[dict]) -> None:
    with path.open("w", newline="", encoding="utf-8") as stream:
        writer = csv.DictWriter(stream, list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def test_a_terrain_of_sea_makes_a_sea_hex_and_land_a_land_hex(tmp_path):
    module = parse_build_file(hex_module(), source="club-awaw.xml")
    hexes, areas = tmp_path / "hexes.csv", tmp_path / "areas.csv"
    write_tables(build_skeleton(module), "awaw", hexes, areas)
    rows = list(csv.DictReader(hexes.open(encoding="utf-8")))
    rows[0].update(terrain="sea")
    rows[1].update(terrain="land", sea="false")
    rows[2].update(terrain="land")
    write_rows(hexes, rows)
    read = {h.get("id"): dict(h.attrib) for h in etree.fromstring(read_skeleton(hexes, areas, "awaw", "club"))}
    assert (read[rows[0]["id"]]["sea"], read[rows[1]["id"]]["sea"], read[rows[2]["id"]]["sea"]) == (
        "true", "false", "false")
    assert "sea" not in read[rows[3]["id"]], "a hex the club left empty says nothing"


def test_an_area_part_of_an_unknown_country_is_refused_at_its_line(tmp_path):
    module = parse_build_file(hex_module(), source="club-awaw.xml")
    hexes, areas = tmp_path / "hexes.csv", tmp_path / "areas.csv"
    write_tables(build_skeleton(module), "awaw", hexes, areas)
    areas.write_text("id,name,part-of\nkiev,Kiev,ukraine\nulster,Ulster,britian\n", encoding="utf-8")
    with pytest.raises(SkeletonError) as raised:
        read_skeleton(hexes, areas, "awaw", "club")
    sentence = raised.value.sentence()
    assert sentence.startswith(f"{areas}, line 3: the area 'ulster' has 'britian' in the column part-of (column 3)")
    assert "britain" in sentence and "kiev" in sentence, "the known countries and the table's own areas are listed"
    areas.write_text("id,name,part-of\nkiev,Kiev,ukraine\nulster,Ulster,britain\nukraine,Ukraine,russia\n",
                     encoding="utf-8")
    assert b'part-of="britain"' in read_skeleton(hexes, areas, "awaw", "club"), "an area of the table counts too"
    areas.write_text("id,name,part-of\nkiev,Kiev,ukraine\nukraine,Ukraine,russia\ngermny,Germany,\n"
                     "algeria,Algeria,\n", encoding="utf-8")
    result = referee("vassal", "mapping", "skeleton", "--hexes", hexes, "--areas", areas, "--game", "awaw",
                     "--output", tmp_path / "map.xml")
    assert result.returncode == 0, result.stderr
    assert f"{areas}: the areas 'germny', 'algeria' are no country of awaw and part of none" in result.stderr, (
        "a colony is legal and a misspelt country looks like one: both are named, neither refused")
    assert "kiev" not in result.stderr.split("are no country")[0], "an area part of a country is in it"


def test_the_draft_command_writes_a_valid_mapping_and_its_skeleton(tmp_path):
    module = tmp_path / "buildFile.xml"
    module.write_bytes(hex_module())
    result = referee("vassal", "mapping", "draft", "--module", module, "--game", "awaw", "--output",
                     tmp_path / "club.xml")
    assert result.returncode == 0, result.stderr
    mapping = read_mapping(tmp_path / "club.xml")
    assert mapping.map_path == (tmp_path / "club-map.xml").resolve() and mapping.map_path.is_file()
    assert mapping.tables["piece-types"].entries == {"GE Inf 3-3": "infantry", "Partisan": "partisan"}
    assert mapping.tables["owners"].entries == {"GE Inf 3-3": "germany"}
    assert mapping.tables["partisan-builders"].entries == {"Partisan": "britain"}
    ignored = [rule for rule in mapping.ignores if rule.todo]
    assert ignored and ignored[0].applies("Control Marker", {}) and not ignored[0].applies("GE Inf 3-3", {})
    assert "14 hexes in the skeleton" in result.stderr and "marked todo" in result.stderr


def test_a_hex_game_draft_needs_an_output_file(tmp_path):
    module = tmp_path / "buildFile.xml"
    module.write_bytes(hex_module())
    result = referee("vassal", "mapping", "draft", "--module", module, "--game", "awaw")
    assert result.returncode == 2 and "give --output FILE" in result.stderr


def test_a_non_hex_draft_goes_to_standard_output(tmp_path):
    module = tmp_path / "buildFile.xml"
    module.write_bytes(tito_like_module())
    result = referee("vassal", "mapping", "draft", "--module", module, "--game", "tito")
    assert result.returncode == 0, result.stderr
    root = etree.fromstring(result.stdout.encode())
    assert root.find(f"{M}module").get("name") == "Club Tito" and root.find(f"{M}module").get("min-version") == "2.0"
    assert root.find(f"{M}map").get("href").endswith("plugin/tito/maps/tito-map.xml")


def test_lookup_gives_nothing_for_a_word_the_table_lacks():
    text = f"""<mapping xmlns="{NAMESPACE}" version="1" game="awaw"><module name="X"/><map href="m.xml"/>
      <table name="owners"><entry vassal="GE Inf" ours="germany"/></table>
      <pieces><attribute name="owner" value="{{basic_name|lookup:owners}}" required="no"/></pieces>
      <locations/></mapping>""".encode()
    mapping = parse_mapping(text, "m.xml", Path.cwd())
    template = mapping.attributes[0].value
    assert template.render({"basic_name": "GE Inf"}, mapping.tables) == "germany"
    assert template.render({"basic_name": "Season"}, mapping.tables) == ""
    with pytest.raises(MappingError, match="the filter 'lookup:nations' names no <table>"):
        parse_mapping(text.replace(b"lookup:owners", b"lookup:nations"), "m.xml", Path.cwd())


def test_every_shipped_mapping_is_still_valid_and_has_nothing_to_fill_in():
    for path in sorted(Path("plugin").glob("*/mappings/*.xml")):
        assert read_mapping(path).to_fill_in == ()


def test_mapping_check_on_a_sample_save_reports_json(tmp_path):
    from tests.vassal.modules import tito_game, tito_module, tito_unit

    module = tito_module(tmp_path)
    german = {"Nationality": "German", "Unit": "Inf Div", "CF": "12"}
    save = tito_game(tmp_path / "game.vsav", [tito_unit("de-1", "704th", "Bosnia: Sarajevo Axis", german),
                                              tito_unit("de-2", "718th", "Serbia Axis Mountain", german)],
                     {"Turn": "4", "Phase": "Axis Combat"})
    result = referee("vassal", "mapping", "check", "--mapping", "plugin/tito/mappings/vassal-mapping.xml",
                     "--module", module, save, "--format", "json")
    assert result.returncode == 0, result.stderr
    counted = json.loads(result.stdout)["coverage"][0]
    assert counted["pieces"] == counted["resolved"] + counted["unresolved"] + sum(counted["skipped"].values())
    assert (counted["pieces"], counted["resolved"], counted["to_fill_in"], counted["unresolved"]) == (2, 2, 0, 0)
    # The function the web report calls gives the same object.
    from validator.saves.vassal.mapping_coverage import coverage
    from validator.saves.vassal.module import read_module
    from validator.saves.vassal.reader import read_saved_game

    mapping = read_mapping("plugin/tito/mappings/vassal-mapping.xml")
    direct = coverage(read_module(module), mapping, read_saved_game(save))
    assert {key: value for key, value in direct.to_json().items() if key != "unchecked"} == {
        key: value for key, value in counted.items() if key != "unchecked"}


def test_a_draft_needs_the_module_an_extension_extends(tmp_path):
    extension = tmp_path / "buildFile.xml"
    extension.write_text('<VASSAL.build.module.ModuleExtension module="VASL" version="1"/>', encoding="utf-8")
    result = referee("vassal", "mapping", "draft", "--module", extension, "--game", "tito")
    assert result.returncode == 2 and "is an extension (for the module 'VASL'), not a module" in result.stderr
    listed = referee("vassal", "module", extension)
    assert listed.returncode == 0 and "an extension for the module 'VASL'" in listed.stdout


def test_pieces_without_a_name_are_left_out_until_filled_in():
    module = parse_build_file(f"""<?xml version="1.0"?>
<VASSAL.build.GameModule name="Unnamed" version="1">
  <{PACKAGE}.PieceWindow name="Pieces">{slot("", "blank.png")}</{PACKAGE}.PieceWindow>
</VASSAL.build.GameModule>""".encode(), source="unnamed.xml")
    draft = draft_mapping(module, "awaw", map_href="map.xml", game_map=None, skeleton=None)
    mapping = parse_mapping(draft.xml, "draft.xml", Path.cwd())
    assert any(rule.todo and rule.applies("", {}) for rule in mapping.ignores)
    assert not any(rule.applies("GE Inf", {}) for rule in mapping.ignores)


def test_draft_and_check_replay_a_log_to_its_final_position(tmp_path):
    sys.path.insert(0, str(Path("examples/vassal").resolve()))
    from sample_modules import tito_log_from_position, tito_module

    module = tito_module(tmp_path)
    log = tito_log_from_position(Path("examples/tito/overstacked.xml"), tmp_path / "game.vlog", [])
    drafted = referee("vassal", "mapping", "draft", "--module", module, "--game", "tito", log,
                      "--output", tmp_path / "club.xml")
    assert drafted.returncode == 0 and "Traceback" not in drafted.stderr, drafted.stderr
    assert read_mapping(tmp_path / "club.xml").game == "tito"
    checked = referee("vassal", "mapping", "check", "--mapping", "plugin/tito/mappings/vassal-mapping.xml",
                      "--module", module, log, "--format", "json")
    assert checked.returncode == 0, checked.stderr
    assert json.loads(checked.stdout)["coverage"][0]["pieces"] > 0


def test_a_second_draft_refuses_to_overwrite_the_filled_in_files_unless_forced(tmp_path):
    module = tmp_path / "buildFile.xml"
    module.write_bytes(hex_module())
    command = ("vassal", "mapping", "draft", "--module", module, "--game", "awaw", "--output", tmp_path / "club.xml")
    assert referee(*command).returncode == 0
    filled = {path: path.read_bytes() + b"\n<!-- filled in -->" for path in tmp_path.glob("club*")}
    for path, data in filled.items():
        path.write_bytes(data)
    again = referee(*command)
    assert again.returncode == 2 and "Traceback" not in again.stderr
    assert "give --force to overwrite" in again.stderr
    for name in ("club.xml", "club-hexes.csv", "club-areas.csv", "club-map.xml"):
        assert str(tmp_path / name) in again.stderr
    assert {path: path.read_bytes() for path in filled} == filled
    forced = referee(*command, "--force")
    assert forced.returncode == 0, forced.stderr
    assert all(path.read_bytes() != data for path, data in filled.items())


def test_a_skeleton_past_the_hexes_limit_is_refused_before_it_is_listed(tmp_path):
    module = tmp_path / "buildFile.xml"
    module.write_bytes(hex_module(width=20_000, height=20_000))
    with pytest.raises(SkeletonError, match=r"more than the hexes limit of 1,000; .* --limit hexes=N"):
        build_skeleton(parse_build_file(hex_module(width=20_000, height=20_000), source="m.xml"), most_hexes=1_000)
    result = referee("vassal", "mapping", "draft", "--module", module, "--game", "awaw", "--output",
                     tmp_path / "club.xml", "--limit", "hexes=1000")
    assert result.returncode == 2 and "more than the hexes limit of 1,000" in result.stderr
    assert not (tmp_path / "club-hexes.csv").exists()
    assert len(build_skeleton(parse_build_file(hex_module(), source="m.xml"), most_hexes=1_000).hexes) == 14


def test_a_board_size_for_a_board_the_module_lacks_is_refused(tmp_path):
    module = tmp_path / "buildFile.xml"
    module.write_bytes(hex_module())
    result = referee("vassal", "mapping", "draft", "--module", module, "--game", "awaw", "--output",
                     tmp_path / "club.xml", "--board-size", "Nope=10x10")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "--board-size names the board 'Nope', which the module does not have; its boards are 'Theatre'" in (
        result.stderr)


def test_the_skeleton_command_counts_rows_against_the_hexes_limit(tmp_path):
    module = parse_build_file(hex_module(), source="club-awaw.xml")
    hexes, areas = tmp_path / "hexes.csv", tmp_path / "areas.csv"
    write_tables(build_skeleton(module), "awaw", hexes, areas)
    command = ("vassal", "mapping", "skeleton", "--hexes", hexes, "--areas", areas, "--game", "awaw",
               "--output", tmp_path / "map.xml")
    refused = referee(*command, "--limit", "hexes=10")
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert f"{hexes}, line 12: has more than 10 rows, the hexes limit" in refused.stderr
    assert not (tmp_path / "map.xml").exists()
    assert referee(*command, "--limit", "hexes=14").returncode == 0
