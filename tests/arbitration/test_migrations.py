"""The migrations that keep each revision's case texts and each ruling's choice, run on a database made before them."""

from __future__ import annotations

import sqlite3
from contextlib import closing

from validator import store
from validator.arbitration import requests, rulings


def _before(text: str) -> int:
    """How many migrations ran before the one whose script holds ``text``."""
    return next(step for step, entry in enumerate(store.MIGRATIONS) if text in store.script_for(entry, store.SQLITE))


def test_an_older_database_keeps_its_rulings_texts_and_choice(tmp_path):
    path, version = tmp_path / "old.sqlite3", _before("ruling_revision_citation")
    connection = sqlite3.connect(path, isolation_level=None)
    try:
        for entry in store.MIGRATIONS[:version]:
            for statement in store._statements(store.script_for(entry, store.SQLITE)):
                connection.execute(statement)
        connection.execute(f"PRAGMA user_version = {version}")
        connection.execute("INSERT INTO ruling_request (id, game, number, question, options, choice, origin,"
                           " opened_by, opened_at) VALUES ('q', 'alpha', 1, 'Which?', ?, 'B', 'question', 'alice',"
                           " '2026-01-01T00:00:00+00:00')", ('[["A", "a"], ["B", "b"]]',))
        for ruling_id, created in (("older", "2026-01-02T00:00:00+00:00"), ("newer", "2026-01-03T00:00:00+00:00")):
            connection.execute("INSERT INTO ruling (id, game, request_id, arbiter, status, decision, created_at,"
                               " updated_at) VALUES (?, 'alpha', 'q', 'alice', 'ruled', 'x', ?, ?)",
                               (ruling_id, created, created))
            for revision in (1, 2):
                connection.execute("INSERT INTO ruling_revision (ruling, revision, arbiter, status, decision, cases,"
                                   " written_at) VALUES (?, ?, 'alice', 'ruled', 'x', '[\"2.2\"]', ?)",
                                   (ruling_id, revision, created))
            connection.execute("INSERT INTO ruling_citation (ruling, game, number, case_text)"
                               " VALUES (?, 'alpha', '2.2', 'kept text')", (ruling_id,))
    finally:
        connection.close()
    with closing(store.connect(path)) as migrated:
        newer = rulings.load(migrated, "newer")
        assert [[citation.case_text for citation in revision.citations] for revision in newer.revisions] == [
            [], ["kept text"]]
        assert (newer.choice, rulings.load(migrated, "older").choice) == ("B", None)
        assert requests.load(migrated, "q").choice == "B"
