"""Hostile and broken zips: each refused with one clear sentence, never a traceback."""

from __future__ import annotations

import zipfile

import pytest

from validator.saves.vassal import Limits, VassalFormatError, read_log, read_module, read_saved_game

from vassal_save_writer import obfuscate, restore, write_save

SAVE = restore("+/1/piece;;;a.png;A/Main Map;5;5;;0")


def _zip(path, entries, compression=zipfile.ZIP_DEFLATED):
    with zipfile.ZipFile(path, "w", compression) as archive:
        for name, data in entries:
            info = zipfile.ZipInfo(name)
            info.compress_type = compression
            archive.writestr(info, data)
    return path


def test_truncated_zip(tmp_path):
    whole = write_save(tmp_path / "whole.vsav", SAVE).read_bytes()
    cut = tmp_path / "cut.vsav"
    cut.write_bytes(whole[: len(whole) // 2])
    with pytest.raises(VassalFormatError, match=r"cut\.vsav: is not a readable zip archive"):
        read_saved_game(cut)


def test_corrupt_entry_data(tmp_path):
    path = write_save(tmp_path / "c.vsav", SAVE * 20)
    data = bytearray(path.read_bytes())
    data[60:80] = bytes(20)
    path.write_bytes(bytes(data))
    with pytest.raises(VassalFormatError, match=r"c\.vsav, entry 'savedGame'"):
        read_saved_game(path)


def test_not_a_zip_and_missing_file(tmp_path):
    text = tmp_path / "t.vsav"
    text.write_text("hello")
    with pytest.raises(VassalFormatError, match="not a readable zip"):
        read_saved_game(text)
    with pytest.raises(VassalFormatError, match="does not exist"):
        read_saved_game(tmp_path / "nowhere.vsav")


def test_no_saved_game_entry(tmp_path):
    path = _zip(tmp_path / "n.vsav", [("savedata", b"<data/>")])
    with pytest.raises(VassalFormatError, match=r"n\.vsav: has no savedGame entry"):
        read_saved_game(path)


def test_duplicate_entry_names(tmp_path):
    path = tmp_path / "d.vsav"
    with pytest.warns(UserWarning):
        _zip(path, [("savedGame", obfuscate(SAVE, "VCSK")), ("savedGame", b"plain")])
    with pytest.raises(VassalFormatError, match="has two entries named 'savedGame'"):
        read_saved_game(path)


@pytest.mark.parametrize("name", ["../evil", "/etc/passwd", "images\\x.png", "a/../../b", "C:/x"])
def test_path_like_entry_names(tmp_path, name):
    path = _zip(tmp_path / "p.vsav", [("savedGame", obfuscate(SAVE, "VCSK")), (name, b"x")])
    with pytest.raises(VassalFormatError, match=r"p\.vsav: has an? .*entry name"):
        read_saved_game(path)


def test_encrypted_entry(tmp_path):
    path = write_save(tmp_path / "e.vsav", SAVE)
    data = bytearray(path.read_bytes())
    for signature, flag_offset in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
        index = data.find(signature)
        data[index + flag_offset] |= 0x01
    path.write_bytes(bytes(data))
    with pytest.raises(VassalFormatError, match="entry 'savedGame': the entry is encrypted"):
        read_saved_game(path)


def test_zip_bomb_with_honest_header(tmp_path):
    path = _zip(tmp_path / "b.vsav", [("savedGame", b"\x1b" * (4 * 1024 * 1024))])
    assert path.stat().st_size < 10_000
    with pytest.raises(VassalFormatError, match="declares 4,194,304 bytes, more than the entry_bytes limit of 1,0"):
        read_saved_game(path, limits=Limits(entry_bytes=1024 * 1024))


def test_zip_bomb_with_lying_header_is_stopped_while_streaming(tmp_path):
    path = _zip(tmp_path / "l.vsav", [("savedGame", b"\x1b" * (4 * 1024 * 1024))])
    data = bytearray(path.read_bytes())
    central = data.find(b"PK\x01\x02")
    data[central + 24:central + 28] = (100).to_bytes(4, "little")      # claim 100 bytes uncompressed
    local = data.find(b"PK\x03\x04")
    data[local + 22:local + 26] = (100).to_bytes(4, "little")
    path.write_bytes(bytes(data))
    with pytest.raises(VassalFormatError, match=r"l\.vsav, entry 'savedGame'"):
        read_saved_game(path, limits=Limits(entry_bytes=1024 * 1024, chunk_bytes=4096))


def test_module_without_build_file(tmp_path):
    path = _zip(tmp_path / "m.vmod", [("moduledata", b"<data/>")])
    with pytest.raises(VassalFormatError, match=r"m\.vmod: has no buildFile\.xml or buildFile entry"):
        read_module(path)


def test_bare_build_file_with_entities_and_bad_xml(tmp_path):
    bad = tmp_path / "buildFile.xml"
    bad.write_bytes(b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><VASSAL.build.GameModule/>')
    with pytest.raises(VassalFormatError, match="DOCTYPE"):
        read_module(bad)
    bad.write_bytes(b"<VASSAL.build.GameModule>\n<oops></VASSAL.build.GameModule>")
    with pytest.raises(VassalFormatError, match=r"line 2, column \d+"):
        read_module(bad)
    bad.write_bytes(b"<html/>")
    with pytest.raises(VassalFormatError, match="not a VASSAL buildFile"):
        read_module(bad)
    with pytest.raises(VassalFormatError, match="more than the xml_bytes limit of 3"):
        read_module(bad, limits=Limits(xml_bytes=3))


@pytest.mark.parametrize(
    "fmt, data", [("empty", b""), ("VCSK header only", b"!VCSK58"), ("VOBS header only", b"!VOBS\x58")]
)
def test_a_saved_game_entry_without_commands_is_refused_not_read_as_an_empty_position(tmp_path, fmt, data):
    # An empty position breaks no rule: read on, a broken file would be reported as a legal one.
    path = _zip(tmp_path / "e.vsav", [("savedGame", data)])
    problem = "the entry is empty" if not data else "the entry holds nothing after its header"
    message = rf"e\.vsav, entry 'savedGame': {problem}, so the file holds no game\."
    for read in (read_saved_game, read_log):
        with pytest.raises(VassalFormatError, match=message):
            read(path)


def _module_with(tmp_path, map_attributes: str, board_attributes: str = 'width="100" height="100"') -> object:
    build = (
        '<VASSAL.build.GameModule name="M" version="1">\n'
        f'  <VASSAL.build.module.Map mapName="Main" {map_attributes}>\n'
        f'    <VASSAL.build.module.map.boardPicker.Board name="B" {board_attributes}/>\n'
        "  </VASSAL.build.module.Map>\n"
        "</VASSAL.build.GameModule>\n"
    )
    return _zip(tmp_path / "m.vmod", [("buildFile.xml", build.encode())])


@pytest.mark.parametrize(
    "map_attributes, board_attributes, named",
    [
        ('edgeWidth="1e999"', 'width="100"', 'Map\'s edgeWidth="1e999" is not a finite number'),
        ('edgeHeight="inf"', 'width="100"', 'Map\'s edgeHeight="inf" is not a finite number'),
        ('edgeWidth="nan"', 'width="100"', 'Map\'s edgeWidth="nan" is not a finite number'),
        ('edgeWidth="0"', 'width="-inf"', 'Board\'s width="-inf" is not a finite number'),
        ('edgeWidth="0"', 'height="1e300"', 'Board\'s height="1e300" is outside the whole numbers VASSAL reads'),
        ('edgeWidth="' + "9" * 5000 + '"', 'width="100"', "is not a finite number"),
    ],
)
def test_a_number_a_module_cannot_mean_is_refused_naming_file_line_and_attribute(
    tmp_path, map_attributes, board_attributes, named
):
    path = _module_with(tmp_path, map_attributes, board_attributes)
    line = 3 if "Board" in named else 2
    with pytest.raises(VassalFormatError) as raised:
        read_module(path)
    message = str(raised.value)
    assert message.startswith(f"{path}, entry 'buildFile.xml': line {line}: the ") and named in message, message
    assert message.endswith("the module must be corrected (in VASSAL's module editor) before its saves can be checked.")


@pytest.mark.parametrize(
    "value, expected", [("12", 12), ("12.7", 12), (" 7 ", 7), ("-3", -3), ("abc", 0), ("²", 0), ("١٢", 0), ("", 0)]
)
def test_a_malformed_number_falls_back_to_vassals_default_as_before(tmp_path, value, expected):
    module = read_module(_module_with(tmp_path, f'edgeWidth="{value}"'))
    assert module.maps["Main"].edge_width == expected
