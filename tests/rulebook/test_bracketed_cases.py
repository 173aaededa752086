"""A rulebook laid out unlike the SPI texts: case numbers in brackets, items indented under them.

``texts/harbour-watch.txt`` is a rulebook of our own for an invented game
(Harbour Watch); the reference-only game tests import it as a game with no
plugin.  Here it is read straight through the importer.
"""

from pathlib import Path

from validator.cases import CaseNumber
from validator.rulebook.importer import RulebookFile, import_texts, read_file
from validator.rulebook.lines import numbers_in_brackets, parse_heading
from validator.rulebook.model import BULLET, HEADING, ITEM, PARAGRAPH, TABLE

HARBOUR_WATCH = Path(__file__).parent / "texts" / "harbour-watch.txt"


def harbour_watch():
    return import_texts("harbour-watch", [read_file(HARBOUR_WATCH)])


def case(book, number):
    return book.cases[CaseNumber.parse(number)]


def test_in_a_bracketed_file_a_bracketed_number_at_the_start_of_a_line_opens_a_case():
    heading = parse_heading("[4.12] Some spaces cost more:", bracketed=True)
    assert (str(heading.number), heading.label, heading.rest, heading.bulleted) == (
        "4.12", "4.12", "Some spaces cost more:", False,
    )
    assert str(parse_heading("[4.0] MOVING BOATS", bracketed=True).number) == "4"
    for text in ("[4] Four", "[4.12 unclosed", "[4.12]x", "[A.1] Letters", "[1234.5] Too long", "4.12 Bare"):
        assert parse_heading(text, bracketed=True) is None, text


def test_the_first_numbered_line_of_a_file_decides_its_style():
    assert numbers_in_brackets(["Title", "", "[1.0] ONE", "1.1 Bare"]) is True
    assert numbers_in_brackets(["Title", "1.0 ONE", "[1.1] Bracketed"]) is False
    assert numbers_in_brackets(["No numbers here", None]) is False


def test_in_a_bare_file_a_bracketed_number_is_a_reference_not_a_case():
    assert parse_heading("[4.12] Some spaces cost more:") is None
    text = "1.1 Scope\n• [1.2] (see there)\n[1.2] (addition) More.\n1.2 Other\nText.\n"
    book = import_texts("pond", [RulebookFile("pond.txt", text)])
    assert [str(number) for number in sorted(book.cases)] == ["1.1", "1.2"]
    bullet, note = case(book, "1.1").blocks
    assert (bullet.kind, note.kind) == (BULLET, PARAGRAPH)
    assert [(str(reference.target), reference.resolved) for reference in bullet.references] == [("1.2", True)]


def test_in_a_bracketed_file_a_bare_number_is_running_text():
    text = "[1.0] ONE\n[1.1] Scope. Boats float.\n1.2 Boats sink only in 1.3 Storms.\n[1.2] Sinking.\n"
    book = import_texts("pond", [RulebookFile("pond.txt", text)])
    assert [str(number) for number in sorted(book.cases)] == ["1", "1.1", "1.2"]
    assert [block.text for block in case(book, "1.1").blocks] == ["Boats float.", "1.2 Boats sink only in 1.3 Storms."]


def test_each_file_of_a_rulebook_has_its_own_style():
    book = import_texts("pond", [
        RulebookFile("bare.txt", "1.0 ONE\n1.1 Scope\n[1.1] (see above)\n"),
        RulebookFile("bracketed.txt", "[2.0] TWO\n[2.1] Scope. See 1.1.\n"),
    ])
    assert [str(number) for number in sorted(book.cases)] == ["1", "1.1", "2", "2.1"]
    assert [(str(reference.target), reference.resolved) for _case, _block, reference in book.references()] == [
        ("1.1", True), ("1.1", True),
    ]


def test_harbour_watch_sections_cases_and_items():
    book = harbour_watch()
    assert [str(number) for number in sorted(book.cases)] == [
        "1", "1.1", "1.2", "1.3", "2", "2.1", "2.2", "2.3", "3", "3.1", "3.2",
        "4", "4.1", "4.11", "4.12", "4.12A", "4.12B", "4.12C", "4.2", "4.3",
        "5", "5.1", "5.2", "5.21", "5.22", "6", "6.1", "6.2",
    ]
    assert case(book, "4").title == "MOVING BOATS" and case(book, "4").label == "4.0"
    assert case(book, "4.1").title == "Movement Allowance"
    assert case(book, "4.11").title == "" and case(book, "4.11").parent == CaseNumber.parse("4.1")
    # the line after the indented items goes back to the case they stand in
    assert [block.kind for block in case(book, "4.12").blocks] == [PARAGRAPH, ITEM, ITEM, ITEM, PARAGRAPH]
    assert case(book, "4.12C").parent == CaseNumber.parse("4.12")
    assert [block.kind for block in case(book, "3.1").blocks] == [PARAGRAPH, BULLET, BULLET, BULLET, BULLET]
    assert book.unplaced == []


def test_harbour_watch_contents_are_navigation_and_the_title_is_front_matter():
    book = harbour_watch()
    assert [block.kind for block in book.front_matter] == [HEADING, PARAGRAPH, PARAGRAPH]
    assert book.front_matter[0].text == "HARBOUR WATCH"
    assert case(book, "1").line == 14  # the heading after the contents, not the contents line


def test_harbour_watch_table_and_references():
    book = harbour_watch()
    (table,) = [block for block in case(book, "5.2").blocks if block.kind == TABLE]
    assert table.table[0].header == ("Lamp", "Clear", "Fog", "Storm")
    assert table.table[0].rows[1] == ("Harbour Light", "3", "2", "1")
    targets = {
        (str(found.number), str(reference.target), reference.resolved)
        for found, _block, reference in book.references()
    }
    assert ("1.3", "4.3", True) in targets  # "(see 4.3)"
    assert ("1.3", "4.12B", True) in targets  # an item named in running text
    assert ("2.2", "5", True) in targets  # "(see Section 5)"
    assert ("6.2", "2", True) in targets  # "rule 2"
    assert ("5.22", "8.2", False) in targets  # the optional rules are not in this text
    assert [str(citing.number) for citing in book.cited_by(CaseNumber.parse("5.21"))] == ["2.3", "6.1"]
