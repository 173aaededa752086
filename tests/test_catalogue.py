"""The catalogue of games: plugin games from the registry, reference-only games from the instance database."""

from __future__ import annotations

import dataclasses
import re
import sqlite3
from pathlib import Path

import pytest

from validator import catalogue, games, store
from validator.cases import CaseNumber
from validator.catalogue import CatalogueError, NoChecksError
from validator.games import UnknownGame
from validator.rulebook import storage
from validator.rulebook.importer import import_texts, read_file
from validator.web import create_app

from .reference_game import TEXT


@pytest.fixture
def connection(tmp_path) -> sqlite3.Connection:
    opened = store.connect(tmp_path / "catalogue.sqlite3")
    yield opened
    opened.close()


def harbour_watch_book():
    return import_texts("harbour-watch", [read_file(TEXT)])


def test_an_added_game_is_listed_beside_the_plugin_games_by_id(connection):
    added = catalogue.add(connection, "harbour-watch", "  Harbour   Watch ")
    assert (added.id, added.title, added.reference_only) == ("harbour-watch", "Harbour Watch", True)
    known = catalogue.known_games(connection)
    assert [game.id for game in known] == sorted(["harbour-watch", *games.registry()])
    plugin_games = [game for game in known if not game.reference_only]
    assert all(game.plugin is games.registry()[game.id] for game in plugin_games)
    assert len(plugin_games) == len(games.registry())


def test_a_reference_only_game_has_no_checks_no_index_and_no_expected_files(connection):
    catalogue.add(connection, "harbour-watch", "Harbour Watch")
    game = catalogue.find(connection, "harbour-watch")
    assert game.plugin is None and game.rules.checks() == [] and game.case_index == []
    assert game.rulebook_files == () and game.fixups_path is None
    assert game.decision(CaseNumber.parse("4.1")) == "" and game.index_title(CaseNumber.parse("4.1")) == ""
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", game.added_at)


def test_a_plugin_game_is_found_with_its_plugin(connection):
    tito = catalogue.find(connection, "tito")
    assert tito.plugin is games.get("tito") and not tito.reference_only
    assert tito.rules.checks() == games.get("tito").rules.checks()


def test_an_unknown_game_names_the_known_ones_and_how_to_add_one(connection):
    catalogue.add(connection, "harbour-watch", "Harbour Watch")
    with pytest.raises(UnknownGame) as raised:
        catalogue.find(connection, "chess")
    known = ", ".join(sorted(["harbour-watch", *games.registry()]))
    assert str(raised.value) == (
        f"There is no game 'chess'. Known games: {known}. To keep the rulebook of a game Referee has no plugin "
        'for, add the game first: referee games add ID --title "TITLE".'
    )


@pytest.mark.parametrize(
    "game_id, problem",
    [
        ("Harbour", "'Harbour' cannot be a game id: use lowercase letters, digits and single dashes"),
        ("harbour--watch", "cannot be a game id"),
        ("-harbour", "cannot be a game id"),
        ("harbour watch", "cannot be a game id"),
        ("", "'' cannot be a game id"),
        ("caf\u00e9", "'caf\u00e9' cannot be a game id"),
        ("a\x1bb", "'a\\x1bb' cannot be a game id"),  # shown escaped, never sent to the terminal as it is
        ("x" * 41, "A game id can be at most 40 characters long"),
        ("static", "the web app's own pages start with /static/"),
        ("tito", "'tito' is already the id of the plugin game Tito and His Partisan Army (SPI)"),
    ],
)
def test_an_id_that_cannot_be_used_is_refused_with_a_sentence(connection, game_id, problem):
    with pytest.raises(CatalogueError) as raised:
        catalogue.add(connection, game_id, "A Title")
    assert problem in str(raised.value) and str(raised.value).endswith(".")
    assert connection.execute("SELECT COUNT(*) FROM added_game").fetchone()[0] == 0


@pytest.mark.parametrize(
    "title, problem",
    [("   ", "needs a title"), ("x" * 121, "at most 120 characters"), ("Bad\u0007Bell", "printable text")],
)
def test_a_title_that_cannot_be_used_is_refused(connection, title, problem):
    with pytest.raises(CatalogueError, match=problem):
        catalogue.add(connection, "harbour-watch", title)


def test_an_id_is_added_once(connection):
    catalogue.add(connection, "harbour-watch", "Harbour Watch")
    with pytest.raises(CatalogueError) as raised:
        catalogue.add(connection, "harbour-watch", "Another")
    assert str(raised.value) == (
        "There is already a game 'harbour-watch' (Harbour Watch); choose another id, "
        "or remove that one first with: referee games remove harbour-watch."
    )
    assert catalogue.find(connection, "harbour-watch").title == "Harbour Watch"


def test_the_reserved_ids_are_the_first_parts_of_the_apps_own_addresses(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "app.sqlite3")})
    first_parts = {rule.rule.split("/")[1] for rule in app.url_map.iter_rules()}
    assert {part for part in first_parts if part and not part.startswith("<")} == catalogue.RESERVED_IDS


def test_removing_a_game_without_a_rulebook(connection):
    catalogue.add(connection, "harbour-watch", "Harbour Watch")
    removed = catalogue.remove(connection, "harbour-watch")
    assert removed.id == "harbour-watch"
    with pytest.raises(UnknownGame):
        catalogue.find(connection, "harbour-watch")


def test_a_game_whose_rulebook_is_imported_is_kept_unless_the_rulebook_goes_too(connection):
    game = catalogue.add(connection, "harbour-watch", "Harbour Watch")
    catalogue.save_rulebook(connection, game, harbour_watch_book())
    with pytest.raises(CatalogueError, match="rulebook is imported .* games remove harbour-watch --with-rulebook"):
        catalogue.remove(connection, "harbour-watch")
    assert storage.load(connection, "harbour-watch") is not None
    catalogue.remove(connection, "harbour-watch", with_rulebook=True)
    assert storage.load(connection, "harbour-watch") is None
    assert storage.search(connection, "harbour-watch", "lamp") == []
    assert connection.execute("SELECT COUNT(*) FROM rule_case WHERE game = 'harbour-watch'").fetchone()[0] == 0


def test_a_plugin_game_cannot_be_removed(connection):
    with pytest.raises(CatalogueError, match="comes with Referee's plugin"):
        catalogue.remove(connection, "tito", with_rulebook=True)


def test_a_rulebook_is_not_stored_for_a_game_removed_meanwhile(tmp_path):
    path = tmp_path / "two.sqlite3"
    first, second = store.connect(path), store.connect(path)
    try:
        game = catalogue.add(first, "harbour-watch", "Harbour Watch")
        book = harbour_watch_book()  # read while the game exists ...
        catalogue.remove(second, "harbour-watch")  # ... removed by another process before the book is stored
        with pytest.raises(CatalogueError, match="was removed while its rulebook was being read; nothing was imported"):
            catalogue.save_rulebook(first, game, book)
        assert storage.load(first, "harbour-watch") is None
    finally:
        first.close()
        second.close()


def test_checks_are_refused_for_a_reference_only_game_only(connection):
    catalogue.add(connection, "harbour-watch", "Harbour Watch")
    with pytest.raises(NoChecksError) as raised:
        catalogue.require_checks(connection, "harbour-watch", "save.xml", 8)
    assert str(raised.value) == (
        "save.xml, line 8: Referee has no checks for 'harbour-watch' (a reference-only game): it can serve "
        "its rulebook but not judge positions; referee games list shows the games it can check."
    )
    assert raised.value.game_id == "harbour-watch"
    catalogue.require_checks(connection, "tito")  # a plugin game: nothing to refuse
    catalogue.require_checks(connection, "chess")  # no game at all: the check path's own error says so


def test_a_plugin_installed_later_takes_over_an_added_id(connection, monkeypatch):
    catalogue.add(connection, "harbour-watch", "Harbour Watch")
    pack = dataclasses.replace(games.get("tito"), id="harbour-watch", title="Harbour Watch, the pack")
    plugins = {**games.registry(), "harbour-watch": pack}
    monkeypatch.setattr(games, "registry", lambda: plugins)
    (listed,) = [game for game in catalogue.known_games(connection) if game.id == "harbour-watch"]
    assert listed.plugin is pack and listed.title == "Harbour Watch, the pack"
    assert catalogue.find(connection, "harbour-watch").plugin is pack


def test_the_schema_holds_the_added_games_table(tmp_path):
    path: Path = tmp_path / "fresh.sqlite3"
    connection = store.connect(path)
    try:
        columns = [row["name"] for row in connection.execute("PRAGMA table_info(added_game)")]
        assert columns == ["id", "title", "added_at"]
        assert connection.execute("PRAGMA user_version").fetchone()[0] == len(store.MIGRATIONS)
    finally:
        connection.close()
