"""The ``database_target`` fixture: each test that takes it runs on SQLite and on PostgreSQL.

SQLite is the instance folder's own file.  PostgreSQL is a fresh schema on
the server ``REFEREE_TEST_POSTGRESQL_URL`` names (``.ci/run`` starts one and
sets it), made for the one test and dropped after it, so tests run in any
order and at once; the test's ``REFEREE_DATABASE_URL`` names it, so the
command line and the web app the test starts use it too.  Without the
variable a PostgreSQL test skips with the reason, and fails in CI.

The page tests (tests/web) need a database, not a new schema: they take
``emptied_postgresql_schema``, one schema per test process migrated once
and emptied before each test, which costs far less than a migration.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

import pytest

from validator import instance, store

URL_VARIABLE = "REFEREE_TEST_POSTGRESQL_URL"


def postgresql_server() -> str:
    """The test server's URL; a skip (a failure in CI) when none is given."""
    url = os.environ.get(URL_VARIABLE)
    if not url:
        reason = f"no PostgreSQL server to test against: set {URL_VARIABLE} (.ci/run starts one and sets it)"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    return url


def in_schema(url: str, schema: str) -> str:
    """``url`` with its search path set to ``schema``, so every unqualified table is that schema's."""
    return f"{url}{'&' if '?' in url else '?'}options=-csearch_path%3D{schema}"


class FreshSchema:
    """A schema of its own on the test server, created on entry and dropped with everything in it on exit."""

    def __init__(self, url: str) -> None:
        import psycopg

        self.server, self.name = url, f"test_{secrets.token_hex(6)}"
        with psycopg.connect(url, autocommit=True) as connection:
            connection.execute(f"CREATE SCHEMA {self.name}")
        self.url = in_schema(url, self.name)

    def drop(self) -> None:
        import psycopg

        with psycopg.connect(self.server, autocommit=True) as connection:
            connection.execute(f"DROP SCHEMA {self.name} CASCADE")


@pytest.fixture
def postgresql_schema():
    """The URL of a fresh, empty schema on the test server (dropped after the test)."""
    schema = FreshSchema(postgresql_server())
    try:
        yield schema.url
    finally:
        schema.drop()


@pytest.fixture(scope="session")
def migrated_postgresql_schema():
    """One schema of the test server, migrated once for the session (a fresh one costs every migration)."""
    schema = FreshSchema(postgresql_server())
    try:
        store.connect(schema.url).close()  # runs the migrations
        yield schema.url
    finally:
        schema.drop()


@pytest.fixture
def emptied_postgresql_schema(migrated_postgresql_schema):
    """The session's migrated schema with every table emptied, for tests that need a database, not a new schema.

    The page tests use it: emptying the tables costs a fraction of creating
    and migrating a schema per test.  The migration record is kept, so the
    app finds the schema current.
    """
    import psycopg

    from validator import postgresql

    with psycopg.connect(migrated_postgresql_schema, autocommit=True) as connection:
        tables = [row[0] for row in connection.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename <> %s",
            (postgresql.VERSION_TABLE,))]
        connection.execute(f"TRUNCATE {', '.join(tables)} RESTART IDENTITY CASCADE")
    return migrated_postgresql_schema


@pytest.fixture(params=["sqlite", "postgresql"])
def database_target(request, instance_dir, monkeypatch) -> Path | str:
    """The database the test uses: the instance's SQLite file, or a fresh PostgreSQL schema's URL."""
    if request.param == "sqlite":
        monkeypatch.delenv(instance.DATABASE_URL_VARIABLE, raising=False)
        instance.make_private_folders(instance_dir)
        return instance.database_path(instance_dir)
    url = request.getfixturevalue("postgresql_schema")
    monkeypatch.setenv(instance.DATABASE_URL_VARIABLE, url)
    return url
