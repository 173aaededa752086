"""Exporting through a mapping: what is skipped and counted, fog of war, and every unusable input's sentence."""

from __future__ import annotations

import dataclasses
import zipfile
from pathlib import Path

import pytest
from modules import (
    TITO_MODULE_NAME,
    TWW,
    build_file,
    map_element,
    piece,
    region_grid,
    tito_game,
    tito_module,
    tito_unit,
    write_module,
)
from submitting import check_file, export_file

from validator import games, intake
from validator.games import UnknownGame
from validator.saves.vassal import VassalFormatError
from validator.saves.vassal.mapping import MappingError
from validator.saves.vassal.translation import ExportError

from vassal_save_writer import add_piece

ROOT = Path(__file__).resolve().parents[2]
TITO_MAPPING = ROOT / "plugin" / "tito" / "mappings" / "vassal-mapping.xml"
GERMAN = {"Nationality": "German", "Unit": "Inf Div", "CF": "12", "Designation": "704"}
STATE = {"Scenario": "Campaign", "Turn": "4", "Phase": "Axis Combat", "Phasing": "Axis", "Tito": "Unidentified",
         "VP": "18"}


def german(number: int, at: str = "Bosnia: Sarajevo Axis", **changes) -> str:
    return tito_unit(f"de-{number}", f"{number}th Infantry Division", at, {**GERMAN, "Designation": str(number),
                                                                          **changes})


@pytest.fixture
def module(tmp_path):
    return tito_module(tmp_path)


def test_skipped_pieces_are_counted_in_the_note(tmp_path, module):
    turn_marker = piece("t1", "Turn Marker", "Turn Track", 20, 20, {})
    off_map = tito_unit("de-9", "9th Infantry Division", None, GERMAN)
    dead = german(8, "Dead Pile")
    phase_marker = tito_unit("ph", "Phase Marker", "Serbia Axis Mountain", {})
    save = tito_game(tmp_path / "g.vsav", [german(1), turn_marker, off_map, dead, phase_marker], STATE)
    notes = []
    xml = export_file(save, module, "tito", notes=notes.append)
    assert notes == [f"{save}: 1 piece exported; skipped 1 off the map, 1 on maps the mapping ignores, "
                     "1 left out by the mapping's <ignore> rules, 1 at locations the mapping skips."]
    assert xml.count(b"<piece ") == 1 and b'location="bosnia/sarajevo/axis"' in xml
    assert b"1 piece exported; skipped 1 off the map" in xml     # the same note, as a comment in the file
    assert b'<fact name="tito-state" value="unidentified"/>' in xml and b'phase="axis-combat"' in xml


def _masked_german(number: int, owner: str) -> str:
    properties = {**GERMAN, "Designation": str(number)}
    marker = "mark;" + ",".join(properties)
    return add_piece(
        f"de-{number}",
        [marker, "obs;77,130;back.png;Mask;G;Hidden unit;side:", f"piece;;;;{number}th Division"],
        [",".join(properties.values()), f"{owner};", "Yugoslavia;20;20;;0"],
    )


def test_fog_of_war_masked_pieces_are_left_out_unless_the_viewer_may_see_them(tmp_path, module):
    save = tito_game(tmp_path / "fog.vsav", [german(1), _masked_german(2, "Axis")], STATE)
    notes = []
    spectator = check_file(save, module, "tito", notes=notes.append)
    assert [p.id for p in spectator.position.pieces] == ["de-1"]
    assert "skipped 1 masked from this viewer" in notes[0]
    assert [p.id for p in check_file(save, module, "tito", viewer="Yugoslav").position.pieces] == ["de-1"]
    assert [p.id for p in check_file(save, module, "tito", viewer="Axis").position.pieces] == ["de-1", "de-2"]
    assert [p.id for p in check_file(save, module, "tito", arbiter=True).position.pieces] == ["de-1", "de-2"]
    assert b"de-2" not in export_file(save, module, "tito")
    assert b"de-2" in export_file(save, module, "tito", arbiter=True)


def test_an_unmapped_location_names_the_piece_and_its_vassal_location(tmp_path):
    points = {"Serbia Axis Mountain": (20, 20), "Adriatic Sea": (300, 20)}
    build = build_file(TITO_MODULE_NAME, "1.0", map_element("Yugoslavia", "Zones", region_grid(points), 400, 100))
    module = write_module(tmp_path / "sea.vmod", build, TITO_MODULE_NAME, "1.0")
    units = [piece(f"de-{n}", f"{n}th Division", "Yugoslavia", 300, 20, GERMAN) for n in range(1, 13)]
    save = tito_game(tmp_path / "sea.vsav", [piece("ok", "OK", "Yugoslavia", 20, 20, GERMAN), *units], STATE)
    with pytest.raises(ExportError) as raised:
        export_file(save, module, "tito")
    message = str(raised.value)
    assert message.startswith(f"{save}: 12 pieces cannot be exported with the mapping {TITO_MAPPING}: ")
    assert (
        "(1) '1th Division' at Yugoslavia / Adriatic Sea: no location rule matches 'Adriatic Sea' on the map "
        "'Yugoslavia'" in message
    )
    assert "(10) '10th Division'" in message and "'11th Division'" not in message
    assert message.endswith("; and 2 more")


def test_pieces_missing_a_required_attribute_or_a_word_the_table_lacks(tmp_path, module):
    no_nationality = tito_unit("x1", "Mystery Division", "Serbia Axis Mountain", {"Unit": "Inf Div"})
    hungarian = german(2, Nationality="Hungarian")
    save = tito_game(tmp_path / "bad.vsav", [german(1), no_nationality, hungarian], STATE)
    with pytest.raises(ExportError) as raised:
        check_file(save, module, "tito")
    message = str(raised.value)
    assert "2 pieces cannot be exported" in message
    assert (
        "(1) 'Mystery Division' at Yugoslavia / Serbia Axis Mountain: no value for 'nationality' (the property "
        "'Nationality' gives none and there is no default)"
    ) in message
    assert (
        "(2) '2th Infantry Division' at Yugoslavia / Bosnia: Sarajevo Axis: 'nationality' from the property "
        "'Nationality': 'Hungarian' is not in the table 'nationalities'"
    ) in message


def test_a_translation_to_a_value_the_plugin_rejects_is_traced_to_its_vassal_piece(tmp_path, module):
    mapping = tmp_path / "club-mapping.xml"
    text = TITO_MAPPING.read_text(encoding="utf-8").replace(
        '<map href="../maps/tito-map.xml"/>', f'<map href="{ROOT}/plugin/tito/maps/tito-map.xml"/>'
    )
    mapping.write_text(
        text.replace('<table name="nationalities">', '<table name="nationalities" otherwise="keep">'), encoding="utf-8"
    )
    save = tito_game(tmp_path / "hu.vsav", [german(1), german(2, Nationality="Hungarian")], STATE)
    with pytest.raises(ExportError) as raised:
        check_file(save, module, "tito", mapping)
    message = str(raised.value)
    assert message.startswith(
        f"{save}: the position exported from it is refused: the piece 'de-2' has "
        "nationality='Hungarian'; it takes a Tito nationality"
    )
    assert message.endswith(
        "(the piece 'de-2' is the VASSAL piece '2th Infantry Division' at Yugoslavia / Bosnia: Sarajevo Axis)"
    )


def test_a_strength_that_is_not_a_number_and_a_state_word_the_table_lacks(tmp_path, module):
    save = tito_game(tmp_path / "cf.vsav", [german(1, CF="12*")], STATE)
    with pytest.raises(ExportError, match=r"'strength' is '12\*', which is not a whole number"):
        export_file(save, module, "tito")
    save = tito_game(tmp_path / "phasing.vsav", [german(1)], {**STATE, "Phasing": "Allies"})
    with pytest.raises(ExportError, match=r"the global property 'Phasing' \(line \d+\): 'Allies' is not in the table"):
        export_file(save, module, "tito")


def test_the_plugin_checks_translated_state_values(tmp_path, module):
    save = tito_game(tmp_path / "phase.vsav", [german(1)], {**STATE, "Phase": "Lunch Break"})
    with pytest.raises(ExportError, match="the position has phase='lunch-break'; it takes one of setup, "):
        check_file(save, module, "tito")


def test_module_and_save_must_be_the_mappings(tmp_path):
    other = tito_module(tmp_path, name="Tito Deluxe")
    save = tito_game(tmp_path / "g.vsav", [german(1)], STATE)
    with pytest.raises(
        ExportError,
        match="the module is 'Tito Deluxe', but the mapping .* is for the module "
        r"'Tito \(Referee sample module\)'",
    ):
        export_file(save, other, "tito")
    folder = tmp_path / "new"
    folder.mkdir()
    newer = tito_module(folder, version="2.0")
    with pytest.raises(ExportError, match="is version 2.0, but the mapping .* is for versions 1.0 to 1"):
        export_file(save, newer, "tito")
    stranger = tito_game(tmp_path / "s.vsav", [german(1)], STATE, module=("Other Game", "1.0"))
    with pytest.raises(ExportError, match="the save was made with the module 'Other Game'"):
        export_file(stranger, tito_module(tmp_path), "tito")


def test_the_mapping_defaults_to_the_games_own(tmp_path, module, monkeypatch):
    assert intake.mapping_for("tito").source == str(TITO_MAPPING)
    save = tito_game(tmp_path / "g.vsav", [german(1)], STATE)
    assert export_file(save, module, "tito") == export_file(save, module, "tito", TITO_MAPPING)
    # the same game in a folder without mappings/: a copy of its case index and nothing else
    folder = tmp_path / "bare-tito"
    folder.mkdir()
    tito = games.get("tito")
    (folder / "cases.toml").write_bytes(tito.case_index_path.read_bytes())
    monkeypatch.setitem(games.registry(), "tito", dataclasses.replace(tito, folder=folder))
    with pytest.raises(MappingError, match="the game 'tito' ships no VASSAL module mapping; .* give it with --mapping"):
        export_file(save, module, "tito")


def test_the_wrong_game_unknown_games_and_unreadable_files(tmp_path, module):
    save = tito_game(tmp_path / "g.vsav", [german(1)], STATE)
    with pytest.raises(MappingError, match="the mapping is for the game 'tito', not 'tww'"):
        export_file(save, module, "tww", TITO_MAPPING)
    with pytest.raises(UnknownGame):
        check_file(save, module, "chess")
    broken = tmp_path / "broken.vsav"
    broken.write_bytes(b"PK\x03\x04 not really a zip")
    with pytest.raises(VassalFormatError):
        export_file(broken, module, "tito")
    with zipfile.ZipFile(tmp_path / "empty.vmod", "w") as archive:
        archive.writestr("readme.txt", "no buildFile")
    with pytest.raises(VassalFormatError, match="no buildFile.xml"):
        export_file(save, tmp_path / "empty.vmod", "tito")


def test_vassal_names_with_characters_xml_cannot_carry(tmp_path, module):
    save = tito_game(tmp_path / "g.vsav", [tito_unit("de-1", "Bad\x01Name", "Bosnia: Sarajevo Axis", GERMAN)], STATE)
    report = check_file(save, module, "tito")
    assert report.position.pieces[0].name == "Bad\ufffdName"


def test_a_piece_id_that_is_no_save_identifier_is_cleaned_and_kept_unique(tmp_path, module):
    units = [tito_unit(name, "Division", "Bosnia: Sarajevo Axis", GERMAN) for name in ("#1", "_1", "a b")]
    report = check_file(tito_game(tmp_path / "g.vsav", units, STATE), module, "tito")
    assert [p.id for p in report.position.pieces] == ["p_1", "p_1-2", "a_b"]


def test_hex_games_take_arithmetic_on_hex_numbers(tmp_path):
    module = TWW.module(tmp_path)
    unit = TWW.unit(
        "nl-1",
        "Dutch territorials",
        "h0002",
        {"Side": "NATO", "Nation": "Netherlands", "Type": "Infantry", "Territorial": "Yes"},
    )
    save = TWW.game_file(
        tmp_path / "t.vsav", [unit], {"Turn": "3", "Phase": "Movement", "Phasing": "NATO", "Impulse": "First"}
    )
    report = check_file(save, module, "tww")
    (only,) = report.position.pieces
    assert (only.location, only.nationality, only.attributes["territorial"]) == ("h0002", "netherlands", "yes")
    assert [str(v.case) for v in report.violations] == ["15.1.3"]
    outside = TWW.game_file(tmp_path / "o.vsav", [piece("x", "Lost", "Europe", 3000, 3000, {"Side": "NATO"})], {})
    notes = []
    export_file(outside, module, "tww", notes=notes.append)
    assert "skipped 1 off the map" in notes[0]


def test_a_module_the_mapping_is_not_for_says_how_to_draft_one(tmp_path, run_cli):
    other = tito_module(tmp_path, name="Tito Deluxe")
    save = tito_game(tmp_path / "g.vsav", [german(1)], STATE)
    code, out, err = run_cli("check", save, "--module", other, "--game", "tito")
    assert code == 2 and "Traceback" not in err
    assert f"`referee vassal mapping draft --module {other} --game tito --output club.xml`" in err
    assert err.rstrip().endswith("check with --mapping club.xml.")
