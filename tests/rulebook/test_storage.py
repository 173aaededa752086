"""Saving is all or nothing; loading gives back what was saved; search is safe."""

import sqlite3

import pytest

from validator import store
from validator.cases import CaseNumber
from validator.rulebook import storage
from validator.rulebook.importer import RulebookFile, import_texts

from .samples import CAPITALS, SPI_BULLETED


@pytest.fixture
def connection(tmp_path):
    connection = store.connect(tmp_path / "referee.sqlite3")
    yield connection
    connection.close()


def test_round_trip(connection):
    book = import_texts("pond", [RulebookFile("pond.txt", SPI_BULLETED)])
    storage.save(connection, book)
    loaded = storage.load(connection, "pond")
    assert sorted(loaded.cases) == sorted(book.cases)
    for number, case in book.cases.items():
        assert loaded.cases[number] == case
    assert loaded.front_matter == book.front_matter
    assert loaded.unplaced == book.unplaced


def test_a_failed_save_leaves_the_previous_rulebook(connection):
    first = import_texts("pond", [RulebookFile("pond.txt", SPI_BULLETED)])
    storage.save(connection, first)
    broken = import_texts("pond", [RulebookFile("heron.txt", CAPITALS)])
    broken.cases[CaseNumber.parse("5.21")].title = object()  # cannot be stored
    with pytest.raises(sqlite3.Error):
        storage.save(connection, broken)
    kept = storage.load(connection, "pond")
    assert kept.sources == ["pond.txt"] and sorted(kept.cases) == sorted(first.cases)
    assert storage.search(connection, "pond", "herons hunt") == []


def test_search_highlights_and_tolerates_any_query(connection):
    storage.save(connection, import_texts("pond", [RulebookFile("pond.txt", SPI_BULLETED)]))
    hits = storage.search(connection, "pond", "hop")
    assert hits and f"{storage.HIGHLIGHT_START}hop" in hits[0].snippet.lower()
    for query in ['"', "AND OR NOT", "frog*)(", "NEAR(", "", "   "]:
        storage.search(connection, "pond", query)  # no FTS syntax error escapes


def test_schema_version_is_recorded(connection):
    assert connection.execute("PRAGMA user_version").fetchone()[0] == len(store.MIGRATIONS)
