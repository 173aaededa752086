"""Importing the real rulebooks (read at run time from REFEREE_RULEBOOKS).

The counts are checked two independent ways: against the plugin case
indexes, written by hand from reading the texts, and against a plain scan
of the raw lines for lettered items.
"""

import json
import re

import pytest

from validator import instance, store
from validator.cases import CaseNumber
from validator.games import get
from validator.rulebook import storage

from tests.conftest import GAME_FILES

EXPECTED_COUNTS = {
    "tito": {"sections": 17, "cases": 168, "items": 73, "tables": 1},
    "awaw": {"sections": 2, "cases": 66, "items": 42, "tables": 2},
    "tww": {"sections": 1, "cases": 20, "items": 0, "tables": 0},
}
# Lines that look like lettered items in a plain scan but are not: verified by hand.
NOT_ITEMS = {("a-world-at-war-11-partisans.txt", "W. Poland")}  # a row label of the 11.23 table


def load(game):
    connection = store.connect(instance.database_path(instance.folder()))
    try:
        return storage.load(connection, game)
    finally:
        connection.close()


@pytest.mark.rulebooks
@pytest.mark.parametrize("game", sorted(GAME_FILES))
def test_import_counts_match_the_texts(game, import_real, rulebooks_dir):
    summary = import_real(game)
    book = load(game)
    counts = book.counts()
    assert {key: counts[key] for key in EXPECTED_COUNTS[game]} == EXPECTED_COUNTS[game]
    assert counts["unplaced"] == 0
    assert f"lettered items:  {counts['items']}" in summary

    # Every numbered rule the plugin index lists (from reading the text) is a case, and no other.
    imported = {case.number for case in book.cases.values() if case.kind != "item"}
    assert imported == {entry.number for entry in get(game).case_index}

    # Every lettered line of the raw text is an addressable item at that line.
    item_lines = {(case.source, case.line) for case in book.cases.values() if case.kind == "item"}
    raw_lines = set()
    for name in GAME_FILES[game]:
        for number, line in enumerate((rulebooks_dir / name).read_text(encoding="utf-8").split("\n"), 1):
            if re.match(r"^\s*(• ?)?[A-Z]\.\s*\S", line) and (name, line.strip()) not in NOT_ITEMS:
                raw_lines.add((name, number))
    assert item_lines == raw_lines


@pytest.mark.rulebooks
def test_tito_structure_and_references(import_real, run_cli):
    summary = import_real("tito")
    book = load("tito")
    number = CaseNumber.parse
    assert [str(case.number) for case in book.cited_by(number("6.22"))] == ["6.21", "7.51", "8.42"]
    assert [str(case.number) for case in book.cited_by(number("13.91D"))] == ["14.4"]
    assert [str(case.number) for case in book.cited_by(number("7.42"))] == ["16"]
    assert book.cases[number("13.91D")].parent == number("13.91")
    assert book.cases[number("6.2")].title == "Stacking Restrictions"
    assert "unresolved 7.64: cited in 7.62" in summary
    # the example after 7.55 belongs to 7.5; the note after 7.62B to 7.62
    assert book.cases[number("7.5")].blocks[-1].text.startswith("Example of Guerrilla Uprising")
    assert book.cases[number("7.62")].blocks[3].text.startswith("Note:")
    # the front matter is kept, the table of contents is not
    headings = [block.text for block in book.front_matter if block.kind == "heading"]
    assert [len(heading.split()) for heading in headings] == [3, 7]  # the two unnumbered headings
    assert headings[0].startswith("Read This")
    references = json.loads(run_cli("rules", "refs", "tito", "--format", "json")[1])
    assert {"from": "6.42", "to": "6.43", "resolved": True} in [
        {key: reference[key] for key in ("from", "to", "resolved")} for reference in references
    ]
    texts = {reference["text"] for reference in references}
    assert not texts & {"704", "12", "15", "45"}  # strengths, turns and VP are not references


@pytest.mark.rulebooks
def test_awaw_tables_items_and_cross_file_references(import_real):
    import_real("awaw")
    book = load("awaw")
    number = CaseNumber.parse
    assert [str(case.number) for case in book.cited_by(number("11.341A"))] == ["11.353C", "11.42", "44.35A"]
    assert [str(case.number) for case in book.cited_by(number("11.353B"))] == ["44.34A"]
    major = next(block for block in book.cases[number("11.22")].blocks if block.kind == "table")
    (part,) = major.table
    assert part.header == ("", "Axis", "Western Allies", "Communist")
    assert [row[0] for row in part.rows] == ["France", "Britain", "Russia", "Siberia", "Italy", "China"]
    assert all(len(row) == 4 for row in part.rows)
    minor = next(block for block in book.cases[number("11.23")].blocks if block.kind == "table")
    europe, pacific = minor.table
    assert (europe.title, len(europe.rows), len(europe.header)) == ("European Theater", 19, 10)
    assert (pacific.title, len(pacific.rows), len(pacific.header)) == ("Pacific Theater", 4, 9)
    turkey = next(row for row in europe.rows if row[0] == "Turkey")
    assert len(turkey) == 10 and turkey[5] == "2§" and turkey[-1] == "2:4"  # the footnote mark stays
    assert book.cases[number("11.353E")].parent == number("11.353")
    assert book.cases[number("44.32B")].title == "PARTISANS"


@pytest.mark.rulebooks
def test_tww_fixups_repair_the_text(import_real):
    summary = import_real("tww")
    book = load("tww")
    number = CaseNumber.parse
    assert "repairs from fixups: 6" in summary
    yugoslav = " ".join(block.text for block in book.cases[number("15.2.4")].blocks)
    assert "rest of the game. Affected units" in yugoslav
    assert "u nits" not in book.cases[number("15.2.2")].blocks[0].text
    assert book.cases[number("15.4.2")].notes
    assert not book.front_matter[1:]  # only the title; the misplaced fragment is gone
    assert book.cases[number("15.4.1.1")].parent == number("15.4.1")


@pytest.mark.rulebooks
def test_reimport_replaces_and_search_finds(import_real):
    import_real("tito")
    import_real("tito")
    connection = store.connect(instance.database_path(instance.folder()))
    try:
        assert storage.statuses(connection)["tito"].cases == 17 + 168 + 73
        hits = storage.search(connection, "tito", "hide-away")
        assert hits and all(storage.HIGHLIGHT_START in hit.snippet for hit in hits)
        assert storage.search(connection, "tito", "\"unbalanced ( quote AND") is not None
    finally:
        connection.close()
