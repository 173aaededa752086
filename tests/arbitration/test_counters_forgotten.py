"""The counters that slow people down do not pile up, on SQLite and PostgreSQL.

A right password clears its own failure count; failures a day old are
forgotten at the next sign-in attempt; a per-client counter whose window
has passed goes at the next count of its action; and ``referee maintenance
clean`` removes both kinds once a day old, counting them with ``--dry-run``.
Old rows are written as the app writes them, with a stamp of two days ago.
"""

from __future__ import annotations

import json
from contextlib import closing
from datetime import UTC, datetime, timedelta

import pytest

from validator import store
from validator.arbitration import arbiters, counters

PASSWORD = "orchard-keeper"


def stamp(seconds_ago: int) -> str:
    return (datetime.now(UTC) - timedelta(seconds=seconds_ago)).isoformat(timespec="seconds")


TWO_DAYS = 2 * 24 * 3600


def failed_sign_in(connection, name: str, client: str, failures: int, seconds_ago: int) -> None:
    with store.write_transaction(connection):
        connection.execute("INSERT INTO sign_in_failure (name, client, failures, last_failed_at) VALUES (?, ?, ?, ?)",
                           (name, client, failures, stamp(seconds_ago)))


def counted(connection, action: str, client: str, seconds_ago: int) -> None:
    with store.write_transaction(connection):
        connection.execute("INSERT INTO client_counter (action, client, window_started_at, count) VALUES (?, ?, ?, 3)",
                           (action, client, stamp(seconds_ago)))


def failure_rows(connection) -> set[tuple[str, str]]:
    return {(row[0], row[1]) for row in connection.execute("SELECT name, client FROM sign_in_failure")}


def counter_rows(connection) -> set[tuple[str, str]]:
    return {(row[0], row[1]) for row in connection.execute("SELECT action, client FROM client_counter")}


def test_a_right_password_clears_its_own_failures_and_no_one_elses(database_target):
    with closing(store.connect(database_target)) as connection:
        arbiters.add(connection, "alice", PASSWORD)
        arbiters.verify(connection, "alice", "guess", "10.0.0.1")
        arbiters.verify(connection, "alice", "guess", "10.0.0.2")
        assert failure_rows(connection) == {("alice", "10.0.0.1"), ("alice", "10.0.0.2")}
        assert arbiters.verify(connection, "alice", PASSWORD, "10.0.0.1").arbiter.name == "alice"
        assert failure_rows(connection) == {("alice", "10.0.0.2")}


def test_failures_a_day_old_are_forgotten_at_the_next_attempt(database_target):
    with closing(store.connect(database_target)) as connection:
        arbiters.add(connection, "alice", PASSWORD)
        failed_sign_in(connection, "alice", "10.0.0.1", 40, TWO_DAYS)  # slowed for 15 minutes when it was written
        failed_sign_in(connection, "mallory", "10.0.0.9", 3, TWO_DAYS)
        failed_sign_in(connection, "bob", "10.0.0.3", 2, 60)  # recent: kept
        assert arbiters.verify(connection, "alice", PASSWORD, "10.0.0.1").arbiter.name == "alice"
        assert failure_rows(connection) == {("bob", "10.0.0.3")}


def test_a_count_removes_the_passed_windows_of_its_action(database_target):
    with closing(store.connect(database_target)) as connection:
        counted(connection, "comment", "10.0.0.1", 7200)  # an hour's window that ended an hour ago
        counted(connection, "comment", "10.0.0.2", 60)  # still open
        counted(connection, "case-file", "10.0.0.3", 7200)  # another action: left for its own count or the clean
        with store.write_transaction(connection):
            counters.take(connection, "comment", "10.0.0.4", counters.Limit(count=5, seconds=3600))
        assert counter_rows(connection) == {("comment", "10.0.0.2"), ("comment", "10.0.0.4"),
                                            ("case-file", "10.0.0.3")}


def test_a_window_longer_than_counters_are_kept_is_refused():
    with pytest.raises(ValueError, match="1 to 86400 seconds"):
        counters.Limit(count=5, seconds=counters.KEPT_SECONDS + 1)


def test_maintenance_clean_removes_the_counters_a_day_old(database_target, run_cli):
    with closing(store.connect(database_target)) as connection:
        failed_sign_in(connection, "alice", "10.0.0.1", 9, TWO_DAYS)
        failed_sign_in(connection, "bob", "10.0.0.2", 1, 60)
        counted(connection, "comment", "10.0.0.1", TWO_DAYS)
        counted(connection, "case-file", "10.0.0.2", 60)

    code, out, err = run_cli("maintenance", "clean", "--dry-run", "--format", "json")
    assert code == 0, err
    answer = json.loads(out)
    assert (answer["sign_in_failures"], answer["client_counters"], answer["dry_run"]) == (1, 1, True)
    with closing(store.connect(database_target)) as connection:
        assert len(failure_rows(connection)) == 2 and len(counter_rows(connection)) == 2

    code, out, err = run_cli("maintenance", "clean")
    assert code == 0, err
    assert "Removed 1 sign-in failure count and 1 client counter older than a day." in out
    with closing(store.connect(database_target)) as connection:
        assert failure_rows(connection) == {("bob", "10.0.0.2")}
        assert counter_rows(connection) == {("case-file", "10.0.0.2")}
