"""Every savedGame generation, written as VASSAL writes it, and every way it can be broken."""

from __future__ import annotations

import lzma
import zipfile

import pytest

from validator.saves.vassal import Limits, VassalFormatError, read_log, read_saved_game
from validator.saves.vassal.obfuscation import decode_text, deobfuscate

from vassal_save_writer import add_piece, obfuscate, restore, write_save

PIECE = add_piece("11", ["mark;Side", "piece;;;inf.png;Infantry ÄÖ"], ["Axis", "Main Map;120;80;;0"])
STACK = "+/12/stack/Main Map;120;80;11;@@-1"
SAVE = restore(PIECE, STACK, components=("Main MapBoardPicker\tNorth\t0\t0", "GlobalProperty\t;Turn;4;Module"))


DEFAULT_LIMITS = Limits()


def _plain(data: bytes, limits: Limits = DEFAULT_LIMITS) -> str:
    return "".join(decode_text(deobfuscate([data], source="t.vsav", limits=limits)))


def test_the_test_vector_from_vassal():
    expected = (b"!VCSK581934347832393b333c392f2b7834372e3d783521783f2a3d392c782b283031362078373e78292d392a2c2276")
    assert obfuscate("All jackdaws love my great sphinx of quartz.", "VCSK", 0x58) == expected
    assert _plain(expected) == "All jackdaws love my great sphinx of quartz."


@pytest.mark.parametrize("fmt", ["VCSK", "VOBS", "VOXZ", "plain"])
@pytest.mark.parametrize("key", [0, 0x76, 0xFF])
def test_every_generation_round_trips(tmp_path, fmt, key):
    path = write_save(tmp_path / "g.vsav", SAVE, fmt, key=key)
    game = read_saved_game(path)
    assert game.format == fmt
    (piece,) = game.pieces
    assert (piece.name, piece.map, piece.x, piece.y, piece.stack_id) == ("Infantry ÄÖ", "Main Map", 120, 80, "12")
    assert piece.properties["Side"] == "Axis"
    assert game.global_properties == {"Turn": "4"}


def test_upper_case_hex_as_vassal_2007_wrote_it():
    assert _plain(obfuscate("begin_save", "VCSK", 0xA7, upper=True)) == "begin_save"


def test_chunk_boundaries_never_matter():
    data = obfuscate(SAVE, "VCSK", 0x31)
    for size in (1, 2, 3, 7, 64):
        chunks = [data[i:i + size] for i in range(0, len(data), size)]
        assert "".join(decode_text(deobfuscate(chunks, source="t"))) == SAVE


def test_bad_hex_digit_names_its_offset():
    data = bytearray(obfuscate("begin_save", "VCSK", 0x10))
    data[12] = ord("g")
    with pytest.raises(VassalFormatError, match=r"t\.vsav.*savedGame.*b'g' at offset 12 is not a hex digit"):
        _plain(bytes(data))


def test_whitespace_is_not_a_hex_digit():
    with pytest.raises(VassalFormatError, match="offset 9"):
        _plain(b"!VCSK1074 75")


def test_odd_digit_count():
    with pytest.raises(VassalFormatError, match="odd number of hex digits"):
        _plain(obfuscate("begin_save", "VCSK", 0x10) + b"7")


def test_bad_key_digit():
    with pytest.raises(VassalFormatError, match="offset 6"):
        _plain(b"!VCSK1z7475")


def test_unknown_header_is_named():
    with pytest.raises(VassalFormatError, match="unknown VASSAL save format: header !VXYZ"):
        _plain(b"!VXYZ\x01abc")
    with pytest.raises(VassalFormatError, match="!VCSZ"):
        _plain(b"!VCSZ\x01abc")


def test_corrupt_xz():
    data = bytearray(obfuscate(SAVE, "VOXZ", 0x42))
    data[30] ^= 0xFF
    with pytest.raises(VassalFormatError, match="XZ stream is corrupt"):
        _plain(bytes(data))


def test_truncated_xz():
    with pytest.raises(VassalFormatError, match="XZ stream is truncated"):
        _plain(obfuscate(SAVE, "VOXZ", 0x42)[:-20])


def test_xz_bomb_stops_at_the_text_cap(tmp_path):
    bomb = b"!VOXZ\x00" + lzma.compress(b"\x1b" * (8 * 1024 * 1024), format=lzma.FORMAT_XZ, preset=3)
    assert len(bomb) < 4096
    limits = Limits(text_bytes=1024 * 1024, chunk_bytes=64 * 1024)
    path = tmp_path / "bomb.vsav"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("savedGame", bomb)
    with pytest.raises(VassalFormatError, match=r"bomb\.vsav, entry 'savedGame': decodes to [0-9,]+ bytes of command "
                                                r"text or more, more than the text_bytes limit"):
        read_saved_game(path, limits=limits)


def test_metadata_entries_are_read(tmp_path):
    savedata = b'<?xml version="1.0"?><data version="1"><version>1.2</version><VassalVersion>3.7.0</VassalVersion>' \
               b"<dateSaved>1700000000000</dateSaved><description>Turn 3</description></data>"
    path = write_save(tmp_path / "m.vsav", SAVE, extra={"savedata": savedata})
    log = read_log(path)
    assert log.metadata.vassal_version == "3.7.0" and log.metadata.date_saved == 1700000000000
    assert log.metadata.description == "Turn 3"
    assert log.steps == ()


def test_metadata_with_a_doctype_is_refused(tmp_path):
    evil = b'<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x "y">]><data>&x;</data>'
    path = write_save(tmp_path / "m.vsav", SAVE, extra={"savedata": evil})
    with pytest.raises(VassalFormatError, match="savedata.*DOCTYPE"):
        read_saved_game(path)


@pytest.mark.parametrize("date", ["²", "١٧٠٠", "soon", "-5", "9" * 20, "9" * 5000, ""])
def test_a_save_date_that_is_no_number_is_unknown_and_the_save_still_reads(tmp_path, date):
    # str.isdigit() takes "²" (int() refuses it) and "١٧٠٠" (int() reads it as 1700): both are no date VASSAL wrote.
    savedata = f'<?xml version="1.0"?><data version="1"><dateSaved>{date}</dateSaved></data>'.encode()
    path = write_save(tmp_path / "d.vsav", SAVE, extra={"savedata": savedata, "moduledata": savedata})
    game = read_saved_game(path)
    assert game.metadata.date_saved is None and game.module_metadata.date_saved is None
