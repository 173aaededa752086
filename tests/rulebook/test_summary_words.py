"""The words an import summary and the pages count a rulebook's parts with."""

from __future__ import annotations

from validator.rulebook import summary
from validator.rulebook.importer import RulebookFile, import_texts

from tests.rulebook.samples import SPI_BULLETED


def test_one_of_a_part_is_named_in_the_singular():
    counts = {"sections": 1, "cases": 1, "items": 1}
    assert summary.parts_sentence(counts) == "1 section, 1 case and 1 lettered item"


def test_the_summary_rows_and_the_sentence_give_the_same_figures():
    book = import_texts("tito", [RulebookFile("pond.txt", SPI_BULLETED)])
    counts = book.counts()
    text = summary.as_text(book)
    sentence = summary.parts_sentence(counts)
    for phrase in summary.counted_parts(counts):
        assert phrase in sentence
    for key, noun in summary.COUNTED_PARTS:
        row = f"  {noun}s:"
        assert row in text and text.split(row)[1].split("\n")[0].strip() == str(counts[key])
