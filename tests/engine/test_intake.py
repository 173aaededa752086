"""The one way in: what a user hands over becomes a position, or one input error naming the file.

The command line and the web app both call :func:`validator.intake.read_submission`;
these tests hold it to what both rely on, with the shipped example files.
"""

from __future__ import annotations

import zipfile
from dataclasses import replace
from pathlib import Path

import pytest

from validator import intake, runner
from validator.errors import InputError
from validator.intake import Submission, is_vassal_file, read_submission
from validator.saves.uploaded_maps import UploadedMap
from validator.saves.vassal import VassalFormatError

ROOT = Path(__file__).resolve().parents[2]
OVERSTACKED_XML = ROOT / "examples" / "tito" / "overstacked.xml"
OVERSTACKED_VSAV = ROOT / "examples" / "vassal" / "tito-overstacked.vsav"
MODULE = ROOT / "examples" / "vassal" / "tito-sample.vmod"
TITO_MAP = ROOT / "plugin" / "tito" / "maps" / "tito-map.xml"


@pytest.mark.parametrize(("name", "head", "vassal"), [
    ("game.vsav", b"<?xml", True),            # named like a save: its reader says it is no zip
    ("GAME.VLOG", b"", True),
    ("game.xml", b"PK\x03\x04", True),        # a zip whatever its name
    ("game.zip", b"PK", True),
    ("game.xml", b"<?xml", False),
    ("vsav", b"<position", False),
    ("game.vsav.xml", b"<?xml", False),
])
def test_which_files_are_vassal_files(name, head, vassal):
    assert is_vassal_file(name, head) is vassal


def test_a_path_and_its_bytes_give_the_same_position():
    from_path = read_submission(Submission(OVERSTACKED_XML))
    from_bytes = read_submission(Submission(OVERSTACKED_XML.read_bytes(), "overstacked.xml"))
    assert from_path.position.source == str(OVERSTACKED_XML) and from_bytes.position.source == "overstacked.xml"
    same_names = replace(from_bytes.position, source=from_path.position.source, map=from_path.position.map)
    assert same_names == from_path.position and from_bytes.position.map.locations == from_path.position.map.locations
    assert from_bytes.position.map.source == "tito-map.xml"  # an upload's map is named, never a server path
    assert from_path.note is None and from_path.map.data == TITO_MAP.read_bytes()
    assert (from_bytes.map.href, from_bytes.map.origin) == ("../../plugin/tito/maps/tito-map.xml", "shipped")


def test_a_vassal_save_from_a_path_or_bytes_is_the_same_position_with_its_note():
    from_path = read_submission(Submission(OVERSTACKED_VSAV, game="tito", module=MODULE))
    upload = Submission(OVERSTACKED_VSAV.read_bytes(), "mine.vsav", game="tito", module=MODULE)
    from_bytes = read_submission(upload)
    assert from_bytes.position.source == "mine.vsav"
    assert replace(from_bytes.position, source=from_path.position.source) == from_path.position
    assert from_path.note == from_bytes.note == "23 pieces exported; none skipped."
    assert (from_bytes.map.href, from_bytes.map.origin, from_bytes.map.data) == (
        "../maps/tito-map.xml", "shipped", TITO_MAP.read_bytes())
    assert [str(violation.case) for violation in runner.check(from_bytes.position).violations] == ["6.21", "6.21"]


def test_a_broken_vassal_file_gets_the_vassal_readers_sentence_whatever_it_holds():
    with pytest.raises(VassalFormatError) as raised:
        read_submission(Submission(b"<position/>", "game.vsav", game="tito", module=MODULE))
    assert str(raised.value).startswith("game.vsav: is not a readable zip archive")


@pytest.mark.parametrize(("given", "expected"), [
    ({"module": MODULE}, "a module goes with a VASSAL save (.vsav or .vlog)"),
    ({"mapping": ROOT / "plugin" / "tito" / "mappings" / "vassal-mapping.xml"}, "a module mapping goes with a VASSAL"),
    ({"viewer": "Axis"}, "a viewer or the arbiter's view chooses what a VASSAL save shows"),
    ({"arbiter": True}, "a viewer or the arbiter's view chooses what a VASSAL save shows"),
])
def test_what_only_a_vassal_save_needs_is_refused_with_our_save_xml(given, expected):
    with pytest.raises(InputError) as raised:
        read_submission(Submission(OVERSTACKED_XML.read_bytes(), "overstacked.xml", **given))
    assert str(raised.value).startswith(f"overstacked.xml: {expected}"), str(raised.value)


def test_a_map_file_the_check_would_not_use_is_refused():
    uploaded = UploadedMap(TITO_MAP.read_bytes(), "my-map.xml")
    with pytest.raises(InputError, match=r"^mine.vsav: a VASSAL save is read with the map of its game's module "
                                         r"mapping, so the map file my-map.xml would not be used"):
        read_submission(Submission(OVERSTACKED_VSAV.read_bytes(), "mine.vsav", game="tito", module=MODULE,
                                   map=uploaded))
    inline = OVERSTACKED_XML.read_bytes().replace(
        b'<map href="../../plugin/tito/maps/tito-map.xml"/>', TITO_MAP.read_bytes().split(b"?>", 1)[1])
    assert read_submission(Submission(inline, "inline.xml")).position.pieces
    with pytest.raises(InputError, match=r"^inline.xml: the save carries its own map, so the map file my-map.xml"):
        read_submission(Submission(inline, "inline.xml", map=uploaded))


def test_an_uploaded_map_answers_the_saves_href():
    uploaded = UploadedMap(TITO_MAP.read_bytes(), "my-map.xml")
    reading = read_submission(Submission(OVERSTACKED_XML.read_bytes(), "overstacked.xml", map=uploaded))
    assert (reading.map.origin, reading.position.map.source) == ("uploaded", "my-map.xml")


@pytest.mark.parametrize(("given", "expected"), [
    ({"module": MODULE}, intake.NO_GAME),
    ({"game": "tito"}, intake.NO_MODULE),
])
def test_a_vassal_save_without_its_game_or_module_says_what_is_missing(given, expected):
    with pytest.raises(InputError) as raised:
        read_submission(Submission(OVERSTACKED_VSAV, **given))
    assert str(raised.value) == f"{OVERSTACKED_VSAV}: {expected}"


def test_export_takes_only_vassal_files_and_reads_its_xml_back(tmp_path):
    with pytest.raises(InputError, match=r"overstacked.xml: only a VASSAL save or log \(.vsav, .vlog\) is exported"):
        intake.export_submission(Submission(OVERSTACKED_XML.read_bytes(), "overstacked.xml", game="tito",
                                            module=MODULE))
    exported = intake.export_submission(Submission(OVERSTACKED_VSAV, game="tito", module=MODULE), tmp_path)
    (tmp_path / "out.xml").write_bytes(exported.xml)
    assert read_submission(Submission(tmp_path / "out.xml")).position.pieces == read_submission(
        Submission(OVERSTACKED_VSAV, game="tito", module=MODULE)).position.pieces
    assert exported.note == "23 pieces exported; none skipped."


def test_a_zip_named_like_our_save_is_read_as_vassal(tmp_path):
    save = tmp_path / "game.xml"
    save.write_bytes(OVERSTACKED_VSAV.read_bytes())
    assert zipfile.is_zipfile(save)
    reading = read_submission(Submission(save, game="tito", module=MODULE))
    assert len(reading.position.pieces) == 23


def test_the_command_line_reads_through_the_intake(run_cli):
    code, _, err = run_cli("check", OVERSTACKED_XML, "--module", MODULE)
    assert code == 2
    assert err == f"referee: {OVERSTACKED_XML}: {intake.MODULE_WITH_XML}\n"
    code, out, err = run_cli("check", OVERSTACKED_VSAV, "--module", MODULE, "--game", "tito")
    assert code == 1 and err == f"{OVERSTACKED_VSAV}: 23 pieces read; none skipped.\n"
    assert sum("[6.21]" in line for line in out.splitlines()) == 2
    code, _, err = run_cli("check", OVERSTACKED_VSAV, "--module", MODULE, "--game", "tito", "--format", "json")
    assert code == 1 and err == ""  # nothing beside JSON
