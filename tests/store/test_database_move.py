"""``referee database move --to URL`` copies an SQLite instance into an empty PostgreSQL database, and only there."""

from __future__ import annotations

import json
from contextlib import closing

import pytest

from validator import catalogue, instance, store
from validator.rulebook import storage
from validator.web import kept_modules, records

from tests.store.test_both_databases import kept
from tests.web.conftest import orchard_rulebook


@pytest.fixture
def sqlite_instance(instance_dir, monkeypatch):
    """An instance whose SQLite database holds a rulebook, an added game, a report and a kept module."""
    monkeypatch.delenv(instance.DATABASE_URL_VARIABLE, raising=False)
    instance.make_private_folders(instance_dir)
    with closing(store.connect(instance.database_path(instance_dir))) as connection:
        storage.save(connection, orchard_rulebook())
        catalogue.add(connection, "harbour-watch", "Harbour Watch")
        record = records.create(connection, instance_dir, game="alpha", source_name="mine.xml",
                                report={"legal": False}, save_data=b"<save/>")
        module = kept(connection, instance_dir / instance.UPLOADS_NAME, b"module bytes", "Orchard")
    return record, module


def test_a_move_copies_every_table_and_the_moved_instance_works_on_postgresql(run_cli, sqlite_instance,
                                                                              postgresql_schema, instance_dir):
    record, module = sqlite_instance
    code, out, err = run_cli("database", "move", "--to", postgresql_schema, "--format", "json")
    assert code == 0, err
    moved = json.loads(out)
    with closing(store.connect(instance.database_path(instance_dir))) as source:
        for table in store.tables_in_reference_order(source):
            assert moved["tables"][table] == source.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0], table
    assert moved["tables"]["rule_case"] == len(orchard_rulebook().cases)
    with closing(store.connect(postgresql_schema)) as target:
        assert storage.load(target, "alpha").cases.keys() == orchard_rulebook().cases.keys()
        assert storage.search(target, "alpha", "stream")  # the search documents are made on the way in
        assert records.load(target, record.id).report == {"legal": False}
        assert kept_modules.find(target, module.id) == module
        assert "harbour-watch" in [game.id for game in catalogue.known_games(target)]
        new = kept(target, instance_dir / instance.UPLOADS_NAME, b"a later module", "Orchard")
        assert new.id == module.id + 1


def test_a_target_that_holds_tables_is_refused_and_left_alone(run_cli, sqlite_instance, postgresql_schema):
    assert run_cli("database", "move", "--to", postgresql_schema)[0] == 0
    code, out, err = run_cli("database", "move", "--to", postgresql_schema)
    assert code == 2 and out == ""
    assert "already holds tables" in err and "empty database" in err and "Traceback" not in err
    with closing(store.connect(postgresql_schema)) as target:
        assert target.execute("SELECT COUNT(*) FROM report").fetchone()[0] == 1


def test_a_move_without_a_sqlite_database_or_to_no_url_is_one_sentence(run_cli, instance_dir, monkeypatch):
    monkeypatch.delenv(instance.DATABASE_URL_VARIABLE, raising=False)
    code, _out, err = run_cli("database", "move", "--to", "postgresql://referee@/nowhere")
    assert code == 2 and "no SQLite database to move" in err
    with closing(store.connect(instance.database_path(instance.folder()))):
        pass
    code, _out, err = run_cli("database", "move", "--to", "mysql://somewhere/else")
    assert code == 2 and "must be a postgresql:// URL" in err
