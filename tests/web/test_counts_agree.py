"""The import summary, the front page and the table of contents count a rulebook alike.

Each view is read as a user reads it (the command's output, the pages'
text), and its figures for sections, cases and lettered items must be the
same numbers under the same words, and those of the stored book.
"""

from __future__ import annotations

import re

import pytest

from validator import instance, store
from validator.rulebook import storage
from validator.web import create_app

from .conftest import html, text_of

# "17 sections", "1 case", "73 lettered items": a number and the part it counts.
COUNTED = re.compile(r"(\d+) (sections?|cases?|lettered items?)\b")
SUMMARY_ROW = re.compile(r"^  (sections|cases|lettered items):\s+(\d+)$", re.MULTILINE)


def figures(text: str) -> dict[str, int]:
    """The parts a sentence counts, by their plural words."""
    found = {}
    for number, words in COUNTED.findall(text):
        found[words if words.endswith("s") else words + "s"] = int(number)
    return found


def stored_counts(game: str) -> dict[str, int]:
    connection = store.connect(instance.database_target(instance.folder()))  # SQLite, or REFEREE_DATABASE_URL
    try:
        counts = storage.load(connection, game).counts()
    finally:
        connection.close()
    return {"sections": counts["sections"], "cases": counts["cases"], "lettered items": counts["items"]}


@pytest.mark.rulebooks
@pytest.mark.parametrize("game", ["tito", "awaw", "tww"])
def test_import_summary_front_page_and_contents_give_the_same_figures(import_real, game):
    summary = import_real(game)
    client = create_app({"TESTING": True}).test_client()
    home = text_of(html(client.get("/")).get_element_by_id(f"game-{game}").xpath(".//p[contains(@class, 'status')]")[0])
    contents = text_of(html(client.get(f"/{game}/rules/")).xpath("//p[@class='meta']")[0])

    from_summary = {words: int(number) for words, number in SUMMARY_ROW.findall(summary)}
    expected = stored_counts(game)
    assert from_summary == expected
    assert figures(home) == expected
    assert figures(contents) == expected


def test_the_front_page_counts_cases_apart_from_sections_and_items(client, book):
    """The invented rulebook's nine entries are 3 sections, 4 cases and 2 lettered items."""
    assert len(book.cases) == 9
    home = text_of(html(client.get("/")).get_element_by_id("game-alpha"))
    contents = text_of(html(client.get("/alpha/rules/")).xpath("//p[@class='meta']")[0])
    assert "3 sections, 4 cases and 2 lettered items." in home
    assert "3 sections, 4 cases and 2 lettered items," in contents
