"""Values a mapping gives that our save format cannot carry are refused while the save is read, naming them.

A position read from a VASSAL save is never written as XML and parsed again,
so what the save schema would refuse in an export (a phase that is no
identifier, a strength beyond the schema's bound) must be refused by the
translation itself, with the global property or the VASSAL piece behind it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from modules import tito_game, tito_module, tito_unit
from submitting import check_file, export_file

from validator.saves.vassal.translation import ExportError

ROOT = Path(__file__).resolve().parents[2]
TITO_MAPPING = ROOT / "plugin" / "tito" / "mappings" / "vassal-mapping.xml"
GERMAN = {"Nationality": "German", "Unit": "Inf Div", "CF": "12", "Designation": "704"}
STATE = {"Scenario": "Campaign", "Turn": "4", "Phase": "Axis Combat", "Phasing": "Axis", "Tito": "Unidentified",
         "VP": "18"}


def _mapping(tmp_path: Path, old: str, new: str) -> Path:
    text = TITO_MAPPING.read_text(encoding="utf-8")
    assert old in text
    text = text.replace(old, new).replace('<map href="../maps/tito-map.xml"/>',
                                          f'<map href="{ROOT}/plugin/tito/maps/tito-map.xml"/>')
    path = tmp_path / "club-mapping.xml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_phase_that_is_no_identifier_names_its_global_property(tmp_path):
    mapping = _mapping(tmp_path, '<global property="Phase" position="phase" value="{value|slug}"/>',
                       '<global property="Phase" position="phase"/>')
    line = next(number for number, text in enumerate(mapping.read_text(encoding="utf-8").splitlines(), 1)
                if 'property="Phase"' in text)
    save = tito_game(tmp_path / "g.vsav", [tito_unit("de-1", "704th", "Bosnia: Sarajevo Axis", GERMAN)], STATE)
    for read in (check_file, export_file):
        with pytest.raises(ExportError) as raised:
            read(save, tito_module(tmp_path), "tito", mapping)
        message = str(raised.value)
        assert message.startswith(f"{save}: the game state cannot be exported with the mapping {mapping}: ")
        assert (f"the global property 'Phase' (line {line}) gives the phase 'Axis Combat', which is not a save "
                "identifier") in message


def test_a_strength_beyond_the_save_formats_bound_names_its_piece(tmp_path):
    save = tito_game(tmp_path / "g.vsav", [tito_unit("de-1", "704th", "Bosnia: Sarajevo Axis",
                                                     {**GERMAN, "CF": "1000000"})], STATE)
    with pytest.raises(ExportError) as raised:
        check_file(save, tito_module(tmp_path), "tito")
    assert ("(1) '704th' at Yugoslavia / Bosnia: Sarajevo Axis: 'strength' is '1000000', more than 999,999, the "
            "most a save's strength may be") in str(raised.value)
    highest = tito_game(tmp_path / "h.vsav", [tito_unit("de-1", "704th", "Bosnia: Sarajevo Axis",
                                                        {**GERMAN, "CF": "999999"})], STATE)
    assert check_file(highest, tito_module(tmp_path), "tito").position.pieces[0].strength == 999_999
