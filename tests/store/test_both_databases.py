"""The store behaves the same on SQLite and on PostgreSQL: migrations, rulebooks and search, reports, modules, games."""

from __future__ import annotations

import hashlib
from contextlib import closing
from pathlib import Path

import pytest

from validator import catalogue, postgresql, store
from validator.rulebook import storage
from validator.web import kept_modules, records

from tests.web.conftest import orchard_rulebook

TABLES = {"rulebook", "rule_case", "rule_search", "report", "vassal_module", "added_game"}


def tables(connection) -> set[str]:
    if connection.dialect == store.POSTGRESQL:
        return set(postgresql.user_tables(connection))
    return {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def schema_version(connection) -> int:
    if connection.dialect == store.POSTGRESQL:
        return postgresql.schema_version(connection)
    return connection.execute("PRAGMA user_version").fetchone()[0]


def test_every_migration_runs_once_and_a_second_connection_finds_the_schema_current(database_target):
    with closing(store.connect(database_target)) as connection:
        assert schema_version(connection) == len(store.MIGRATIONS)
        assert TABLES <= tables(connection)
        dialect = connection.dialect
    with closing(store.connect(database_target)) as again:
        assert again.dialect == dialect
        assert schema_version(again) == len(store.MIGRATIONS)


def test_a_rulebook_saved_loads_back_whole_and_is_searched_with_highlights(database_target):
    book = orchard_rulebook()
    with closing(store.connect(database_target)) as connection:
        storage.save(connection, book)
        loaded = storage.load(connection, "alpha")
        assert loaded is not None
        assert sorted(map(str, loaded.cases)) == sorted(map(str, book.cases))
        assert all(loaded.cases[number].blocks == case.blocks for number, case in book.cases.items())
        assert storage.statuses(connection)["alpha"].cases == len(book.cases)
        hits = storage.search(connection, "alpha", "stream")
        assert hits, "a word of the orchard text is found"
        assert all(storage.HIGHLIGHT_START in hit.snippet and storage.HIGHLIGHT_END in hit.snippet for hit in hits)
        wanted = {str(number) for number, case in book.cases.items()
                  if "stream" in (case.title + storage.searchable_text(case)).lower()}
        assert {str(hit.number) for hit in hits} <= wanted


def test_a_search_made_of_full_text_syntax_is_plain_words_and_never_an_error(database_target):
    with closing(store.connect(database_target)) as connection:
        storage.save(connection, orchard_rulebook())
        for query in ['"', "stream OR", "-stream", "stream*", "(stream", "NEAR(a b)", "a:b", "'", "%", "? ?", "!&|"]:
            storage.search(connection, "alpha", query)  # no exception is the point; results may be empty
        assert storage.search(connection, "alpha", "zeppelin") == []


def test_a_re_import_replaces_the_searchable_text(database_target):
    book = orchard_rulebook()
    with closing(store.connect(database_target)) as connection:
        storage.save(connection, book)
        before = len(storage.search(connection, "alpha", "stream"))
        storage.save(connection, orchard_rulebook())
        assert len(storage.search(connection, "alpha", "stream")) == before
        with store.write_transaction(connection):
            storage.delete(connection, "alpha")
        assert storage.search(connection, "alpha", "stream") == []
        assert storage.load(connection, "alpha") is None


def test_on_postgresql_a_case_number_is_looked_up_exactly(postgresql_schema):
    book = orchard_rulebook()
    number = sorted(book.cases)[-1]
    with closing(store.connect(postgresql_schema)) as connection:
        storage.save(connection, book)
        hits = storage.search(connection, "alpha", str(number))
        assert [hit.number for hit in hits] == [number]
        assert storage.search(connection, "alpha", "99.98") == []


def test_reports_are_stored_and_loaded(database_target, instance_dir):
    with closing(store.connect(database_target)) as connection:
        record = records.create(connection, instance_dir, game="alpha", source_name="mine.xml",
                                report={"legal": True, "violations": []}, save_data=b"<save/>")
        loaded = records.load(connection, record.id)
    assert loaded is not None
    assert (loaded.game, loaded.source_name, loaded.report) == ("alpha", "mine.xml", {"legal": True, "violations": []})
    assert (records.uploads_folder(instance_dir) / loaded.save_file).read_bytes() == b"<save/>"


def kept(connection, folder: Path, data: bytes, name: str) -> kept_modules.KeptModule:
    path = folder / f"module-{hashlib.sha256(data).hexdigest()[:12]}.vmod"
    path.write_bytes(data)
    upload = kept_modules.ModuleFile(path, hashlib.sha256(data).hexdigest(), len(data))
    facts = kept_modules.ModuleFacts(name, "1.0", ("Red", "Blue"))
    with store.write_transaction(connection):
        return kept_modules.keep(connection, facts, upload, f"{name}.vmod")


def test_kept_modules_are_numbered_and_found_by_their_bytes(database_target, tmp_path):
    with closing(store.connect(database_target)) as connection:
        first = kept(connection, tmp_path, b"first module", "Orchard")
        second = kept(connection, tmp_path, b"second module", "Orchard")
        again = kept(connection, tmp_path, b"first module", "Orchard")
        assert (first.id, second.id, again.id) == (1, 2, 1)
        assert kept_modules.find(connection, 2) == second
        assert kept_modules.find_by_hash(connection, first.sha256) == first
        assert [module.id for module in kept_modules.listing(connection)] == [1, 2]
        assert kept_modules.find(connection, 2).sides == ("Red", "Blue")


def test_added_games_are_kept_and_a_second_add_is_refused(database_target):
    with closing(store.connect(database_target)) as connection:
        catalogue.add(connection, "harbour-watch", "Harbour Watch")
        assert "harbour-watch" in [game.id for game in catalogue.known_games(connection)]
        with pytest.raises(catalogue.CatalogueError, match="already a game 'harbour-watch'"):
            catalogue.add(connection, "harbour-watch", "Again")
        catalogue.remove(connection, "harbour-watch")
        assert "harbour-watch" not in [game.id for game in catalogue.known_games(connection)]


def test_a_failed_write_transaction_leaves_nothing_behind(database_target):
    with closing(store.connect(database_target)) as connection:
        with pytest.raises(RuntimeError), store.write_transaction(connection):
            connection.execute("INSERT INTO added_game (id, title, added_at) VALUES (?, ?, ?)", ("x", "X", "now"))
            raise RuntimeError("stop")
        assert connection.execute("SELECT COUNT(*) FROM added_game").fetchone()[0] == 0


@pytest.mark.parametrize(("url", "words"), [
    ("postgresql://referee@/no_such_database_here?host={socket}", "has no such database"),
    ("postgresql://nobody_at_all:secret@/referee_test?host={socket}", "refused the user name or password"),
    ("postgresql://referee@/referee_test?host=/nonexistent-socket-folder", "cannot be reached"),
])
def test_a_postgresql_server_that_cannot_be_used_is_one_sentence(url, words):
    from tests.databases import postgresql_server

    socket = dict(part.split("=", 1) for part in postgresql_server().split("?", 1)[1].split("&")).get("host", "")
    with pytest.raises(store.UnusableDatabase) as raised:
        store.connect(url.format(socket=socket))
    message = str(raised.value)
    assert words in message and "REFEREE_DATABASE_URL" in message
    assert "secret" not in message  # the password is never shown
    assert "\n" not in message
