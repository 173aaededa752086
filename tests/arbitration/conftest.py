"""Fixtures for the arbitration tests: the page tests' invented orchard game, an arbiter, a stored report."""

from __future__ import annotations

import json
import secrets
from contextlib import closing

import pytest

from validator import store
from validator.arbitration import arbiters
from validator.rulebook import storage

from tests.web import conftest as pages

# The page tests' orchard game and its app, as fixtures of these tests.
test_games, checking_games, book, check_app, check_client = (
    pages.test_games, pages.checking_games, pages.book, pages.check_app, pages.check_client)
orchard_rulebook = pages.orchard_rulebook

PASSWORD = "orchard-keeper"

# Two violations of a stored report, shaped as the report JSON stores them.
VIOLATIONS = [
    {"rule": "overstacked-space", "case": "2.2", "severity": "error", "message": "3 tokens; the limit is 2",
     "location": "north/gate", "location_name": "Gate", "pieces": ["t1", "t2", "t3"]},
    {"rule": "token-past-stream", "case": "2.13A", "severity": "warning", "message": "t9 moved on",
     "location": "south/stream", "location_name": "Stream", "pieces": ["t9"]},
]


def stored_report(connection, game: str = "alpha", violations=VIOLATIONS, findings=()) -> str:
    """A report row as a web check writes it, with the given results; its id."""
    report_id = secrets.token_urlsafe(16)
    report = {"game": game, "legal": not violations, "violations": list(violations), "findings": list(findings)}
    with store.write_transaction(connection):
        connection.execute(
            "INSERT INTO report (id, game, created_at, source_name, report, save_file) VALUES (?, ?, ?, ?, ?, ?)",
            (report_id, game, "2026-12-01T00:00:00+00:00", "dispute.xml", json.dumps(report), "none.xml"),
        )
    return report_id


@pytest.fixture
def arbiter(database_path, book):
    """The arbiter "alice", added to the database under test."""
    with closing(store.connect(database_path)) as connection:
        arbiters.add(connection, "alice", PASSWORD)
    return "alice"


@pytest.fixture
def database_path(database_target):
    """The database the page tests' app uses (their fixture's name), here SQLite and then PostgreSQL."""
    return database_target


@pytest.fixture
def orchard_database(database_target):
    """The database under test (SQLite, then PostgreSQL) holding the orchard rulebook as game "alpha"."""
    with closing(store.connect(database_target)) as connection:
        storage.save(connection, orchard_rulebook())
    return database_target
