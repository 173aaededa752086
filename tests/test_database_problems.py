"""A database file Referee cannot use is said so in one sentence: exit 2 on the command line, 503 on the web.

The file is real in every test: a file that is not SQLite, a folder where
the file should be, a connection that may not write (``query_only``, which
SQLite refuses as it refuses a read-only file) and one that finds the file
held by another writer.
"""

from __future__ import annotations

import sqlite3

import pytest

from validator import instance, store
from validator.web import create_app


@pytest.fixture
def not_a_database(instance_dir):
    instance_dir.mkdir()
    (instance_dir / instance.DATABASE_NAME).write_bytes(b"these are notes, not a database\n" * 200)
    return instance_dir / instance.DATABASE_NAME


@pytest.mark.parametrize("arguments", [("rules", "list", "tito"), ("rules", "show", "tito", "6.21"),
                                       ("rules", "import", "tww", "absent-rulebook.txt")])
def test_a_file_that_is_not_a_database_is_one_sentence(run_cli, not_a_database, arguments):
    code, out, err = run_cli(*arguments)
    assert code == 2 and out == ""
    assert err == (f"referee: {not_a_database}: is not a Referee database; move it aside and import your "
                   "rulebooks again (SQLite: file is not a database)\n")


def test_a_folder_where_the_database_file_should_be(run_cli, instance_dir):
    (instance_dir / instance.DATABASE_NAME).mkdir(parents=True)
    code, _out, err = run_cli("rules", "list", "tito")
    assert code == 2
    assert err.startswith(f"referee: {instance_dir / instance.DATABASE_NAME}: cannot be opened; make it a file "
                          "Referee may read and write, or set REFEREE_INSTANCE to a folder Referee may write in")


def test_a_database_that_may_not_be_written_says_so_and_keeps_what_it_held(tmp_path):
    path = tmp_path / instance.DATABASE_NAME
    connection = store.connect(path)
    connection.execute("PRAGMA query_only = ON")
    with pytest.raises(store.UnusableDatabase, match="cannot be written, as the file or its folder is read-only"):
        with store.write_transaction(connection):
            connection.execute("CREATE TABLE scratch (note TEXT)")
    assert not connection.in_transaction
    connection.close()


def test_a_database_held_by_another_writer_says_so(tmp_path):
    path = tmp_path / instance.DATABASE_NAME
    holder, waiting = store.connect(path), store.connect(path)
    waiting.execute("PRAGMA busy_timeout = 0")  # the test does not wait out the real timeout
    holder.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(store.UnusableDatabase, match="is held by another program"):
            with store.write_transaction(waiting):
                pass
    finally:
        holder.execute("ROLLBACK")
        holder.close()
        waiting.close()


def test_a_mistake_in_our_own_statement_is_not_blamed_on_the_file(tmp_path):
    connection = store.connect(tmp_path / instance.DATABASE_NAME)
    with pytest.raises(sqlite3.OperationalError, match="no such table"):
        with store.write_transaction(connection):
            connection.execute("DELETE FROM no_such_table")
    connection.close()


@pytest.mark.parametrize("path", ["/", "/tito/rules/", "/tito/coverage", "/api/modules"])
def test_the_web_answers_503_with_a_sentence_and_no_server_path(not_a_database, instance_dir, path):
    app = create_app({"INSTANCE": str(instance_dir), "SECRET_KEY": "test"})
    response = app.test_client().get(path)
    assert response.status_code == 503
    body = response.get_data(as_text=True)
    assert "Referee cannot use its database just now" in body
    assert str(instance_dir) not in body and "Traceback" not in body
