"""Reading a fixture's header: what it expects, and a sentence for a header the harness cannot read."""

from __future__ import annotations

import re

import pytest

from validator.cases import CaseNumber

from tests.game_fixtures import Expectation, HeaderError, bad_inputs, read_fixture

DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n'
POSITION = '<position xmlns="urn:referee:save:1" version="1" game="fen"/>\n'


def write(tmp_path, name: str, header: str, folder: str = "fen/3.1"):
    path = tmp_path / folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(DECLARATION + header + "\n" + POSITION, encoding="utf-8")
    return path


def test_a_header_gives_the_case_verdict_description_and_expectations(tmp_path):
    fixture = read_fixture(write(tmp_path, "fail-three-units.xml", (
        "<!-- fixture: Three units in one hex,\n"
        "     at the end of the turn.\n"
        "     expect: 3.1 error | 3 units | the limit is 2\n"
        "     expect: 3.1A unchecked\n"
        "-->"
    )))
    assert (fixture.game, fixture.case, fixture.verdict) == ("fen", CaseNumber.parse("3.1"), "fail")
    assert fixture.description == "Three units in one hex, at the end of the turn."
    assert fixture.expectations == (
        Expectation(CaseNumber.parse("3.1"), "error", ("3 units", "the limit is 2")),
        Expectation(CaseNumber.parse("3.1A"), "unchecked", ()),
    )
    assert fixture.id == "fen/3.1/fail-three-units"


def test_a_header_without_expectations_expects_nothing(tmp_path):
    fixture = read_fixture(write(tmp_path, "pass-quiet.xml", "<!-- fixture:\n-->"))
    assert fixture.expectations == () and fixture.description == ""


@pytest.mark.parametrize(
    ("name", "header", "folder", "sentence"),
    [
        ("three-units.xml", "<!-- fixture: x -->", "fen/3.1", "named neither pass-<what>.xml nor fail-<what>.xml"),
        ("fail-Three.xml", "<!-- fixture: x -->", "fen/3.1", "named neither"),
        ("fail-x.xml", "<!-- fixture: x -->", "fen/stacking", "is not a case number"),
        ("fail-x.xml", "<!-- three units -->", "fen/3.1", "does not start with a <!-- fixture: ... --> header"),
        ("fail-x.xml", "<!-- fixture: x\n expect: 3.1 fatal -->", "fen/3.1", "should read 'expect: CASE SEVERITY"),
        ("fail-x.xml", "<!-- fixture: x\n expect: three error -->", "fen/3.1", "should read 'expect: CASE SEVERITY"),
        ("fail-x.xml", "<!-- fixture: x\n expect: 3.1 error || limit -->", "fen/3.1", "an empty part"),
    ],
)
def test_a_header_the_harness_cannot_read_is_one_sentence(tmp_path, name, header, folder, sentence):
    with pytest.raises(HeaderError, match=re.escape(sentence)):
        read_fixture(write(tmp_path, name, header, folder))


def test_a_bad_input_save_names_its_line_and_words(tmp_path):
    write(tmp_path, "unknown-side.xml", "<!-- expect-error: line 8 | has the side 'allied' -->", "fen/bad-input")
    write(tmp_path, "map-zones.xml", "<!-- expect-error: line none | no zones -->", "fen/bad-input")
    found = {bad.path.name: (bad.line, bad.words, bad.id) for bad in bad_inputs(tmp_path / "fen")}
    assert found == {
        "unknown-side.xml": (8, "has the side 'allied'", "fen/bad-input/unknown-side"),
        "map-zones.xml": (None, "no zones", "fen/bad-input/map-zones"),
    }
    write(tmp_path, "silent.xml", "<!-- nothing expected -->", "fen/bad-input")
    with pytest.raises(HeaderError, match="has no <!-- expect-error"):
        bad_inputs(tmp_path / "fen")
