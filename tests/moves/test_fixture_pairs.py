"""The fixture harness reads a move as a folder holding the save before and the save after."""

from __future__ import annotations

import pytest

from tests.game_fixtures import HeaderError, read_fixture

HEADER = ('<?xml version="1.0" encoding="UTF-8"?>\n'
          '<!-- fixture: a move\n     expect: 6.41 error | does not border\n-->\n<position/>\n')


def pair(tmp_path, name: str, files: dict[str, str]):
    folder = tmp_path / "tito" / "6.41" / name
    folder.mkdir(parents=True)
    for file_name, text in files.items():
        (folder / file_name).write_text(text, encoding="utf-8")
    return folder


def test_a_pair_reads_its_header_from_the_save_after(tmp_path):
    fixture = read_fixture(pair(tmp_path, "fail-too-far", {"before.xml": "<position/>", "after.xml": HEADER}))
    assert fixture.is_pair and fixture.header_path.name == "after.xml"
    assert (fixture.game, str(fixture.case), fixture.verdict) == ("tito", "6.41", "fail")
    assert [str(expected) for expected in fixture.expectations] == ["6.41 error | does not border"]


@pytest.mark.parametrize(("name", "files", "words"), [
    ("fail-no-before", {"after.xml": HEADER}, "holds exactly before.xml and after.xml"),
    ("fail-extra", {"before.xml": "", "after.xml": HEADER, "notes.txt": ""}, "holds exactly before.xml and after.xml"),
    ("Fail-Capitals", {"before.xml": "", "after.xml": HEADER}, "is named neither pass-<what> nor fail-<what>"),
    ("pass-no-header", {"before.xml": "", "after.xml": "<?xml version=\"1.0\"?>\n<position/>"}, "does not start with"),
])
def test_a_malformed_pair_is_refused_saying_why(tmp_path, name, files, words):
    with pytest.raises(HeaderError, match=words):
        read_fixture(pair(tmp_path, name, files))
