"""The importer on rulebooks of our own in each layout."""

from validator.cases import CaseNumber
from validator.rulebook.importer import RulebookFile, import_texts
from validator.rulebook.model import BULLET, GENERAL_RULE, HEADING, ITEM, PARAGRAPH, PROCEDURE, TABLE

from .samples import CAPITALS, DOTTED, SPI_BULLETED


def load(text, name="pond.txt"):
    return import_texts("pond", [RulebookFile(name, text)])


def case(book, number):
    return book.cases[CaseNumber.parse(number)]


def kinds(book, number):
    return [block.kind for block in case(book, number).blocks]


def test_spi_layout_sections_cases_and_items():
    book = load(SPI_BULLETED)
    assert [str(number) for number in sorted(book.cases)] == [
        "1", "2", "2.1", "2.11", "2.12", "2.12A", "2.12B", "2.2", "2.21", "2.22", "2.22A", "2.22B", "3",
    ]
    assert case(book, "2").title == "Hopping" and case(book, "2").label == "2.0"
    assert kinds(book, "2") == [GENERAL_RULE]
    assert kinds(book, "2.1") == [PROCEDURE, PARAGRAPH]  # the example falls back to 2.1
    assert kinds(book, "2.12") == [PARAGRAPH, ITEM, ITEM, PARAGRAPH]  # the note stays with 2.12
    assert case(book, "2.12A").parent == CaseNumber.parse("2.12")
    assert kinds(book, "2.22") == [ITEM, ITEM]
    assert kinds(book, "2.2") == [BULLET, TABLE]  # the bullet at the case's own depth goes back up


def test_table_of_contents_is_navigation_and_front_matter_is_kept():
    book = load(SPI_BULLETED)
    front = [(block.kind, block.text) for block in book.front_matter]
    assert front == [
        (HEADING, "Pond Wars Rulebook"),
        (HEADING, "Read Me First"),
        (PARAGRAPH, "Rules are grouped into numbered cases."),
    ]
    assert case(book, "2.1").title == "How Frogs Hop"


def test_page_number_is_reported_not_placed():
    book = load(SPI_BULLETED)
    (unplaced,) = book.unplaced
    assert unplaced.text == "17" and unplaced.line == 53
    assert "page number" in unplaced.reason


def test_tab_separated_table():
    book = load(SPI_BULLETED)
    (table,) = [block for block in case(book, "2.2").blocks if block.kind == TABLE]
    assert table.table[0].header == ("Score", "Result")
    assert table.table[0].rows == (("0–10", "Herons win"), ("11+", "Frogs win"))


def test_references_resolve_within_the_book():
    book = load(SPI_BULLETED)
    found = {(str(c.number), str(r.target), r.resolved) for c, _b, r in book.references()}
    assert ("2.11", "2.21", True) in found
    assert ("2.12B", "2.12A", True) in found
    assert ("2.21", "2.24", False) in found
    assert ("3", "2.21", True) in found
    assert [str(citing.number) for citing in book.cited_by(CaseNumber.parse("2.21"))] == ["2.11", "3"]


def test_capitals_layout_titles_items_and_flattened_table():
    book = load(CAPITALS)
    assert case(book, "5").title == "HERONS"
    assert case(book, "5.21").title == "GENERAL"
    assert case(book, "5.22A").title == "MARSH"
    assert kinds(book, "5.22A") == [PARAGRAPH, BULLET]  # the bullet belongs to the item
    assert case(book, "5.22B").title == "POND"
    (table,) = [block for block in case(book, "5.23").blocks if block.kind == TABLE]
    assert table.text == "Heron Pool Table - 5.23"
    assert table.table[0].header == ("", "North", "South")
    assert table.table[0].rows == (("Pondia", "1", "1:2"), ("Reedton", "0", "2"))
    assert not book.unplaced  # the contents at the top were skipped, not duplicated


def test_dotted_numbers_inside_running_text_become_cases():
    book = load(DOTTED)
    assert [str(number) for number in sorted(book.cases)] == [
        "7", "7.1", "7.1.1", "7.1.2", "7.2", "7.2.1", "7.2.1.1", "7.2.2",
    ]
    assert case(book, "7.2.1").title == "Effects of Rivalry"
    assert kinds(book, "7.2.2") == [PARAGRAPH, BULLET, BULLET]
    references = [(str(c.number), str(r.target), r.resolved) for c, _b, r in book.references()]
    assert references == [("7.1.2", "12", False)]


def test_several_files_make_one_book():
    book = import_texts("pond", [RulebookFile("a.txt", CAPITALS), RulebookFile("b.txt", DOTTED)])
    assert {"5.22A", "7.2.2"} <= {str(number) for number in book.cases}
    assert book.sources == ["a.txt", "b.txt"]
