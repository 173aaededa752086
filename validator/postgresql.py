"""The instance database on a PostgreSQL server, for a club served by several hosts.

``validator.store`` opens this when ``REFEREE_DATABASE_URL`` (or a caller)
names a ``postgresql://`` URL.  The connection looks like the SQLite one to
every caller: ``execute(sql, params)`` with ``?`` placeholders, rows readable
by column name and by index, and ``store.write_transaction`` around each
read-then-write.

A write transaction takes one transaction-level advisory lock before its
first statement, so writers across every host and worker run one after the
other, as ``BEGIN IMMEDIATE`` makes them on SQLite.  Under READ COMMITTED each
statement then sees every write committed before the lock was granted, so a
caller's read-then-write (a number computed as ``MAX(n) + 1``, a row looked up
before it is inserted) stays correct without a retry loop, which a ``with``
block could not offer.  Readers never wait for it.  A club's writes are small
and rare next to its reads, so one lock costs nothing they would notice.

A server that cannot be reached, a refused password or a database that does
not exist is :class:`store.UnusableDatabase`: one sentence, never a traceback.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from urllib.parse import urlsplit, urlunsplit

import psycopg

from validator.store import UnusableDatabase

URL_SCHEMES = ("postgresql://", "postgres://")
URL_VARIABLE = "REFEREE_DATABASE_URL"
CONNECT_TIMEOUT_SECONDS = 10
# The advisory lock every write transaction holds: one number for the whole database, chosen once.
WRITE_LOCK = 0x5EFE_4EE1
VERSION_TABLE = "schema_version"


class UnusablePostgreSQL(UnusableDatabase):
    """The PostgreSQL server cannot be reached or used: down, the password refused, the database missing."""


def is_url(target: object) -> bool:
    return isinstance(target, str) and target.startswith(URL_SCHEMES)


def shown(url: str) -> str:
    """The URL without its password, fit for a message or a log."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rsplit("@", 1)[1]
    user = parts.username or ""
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))


class Row(Sequence):
    """One result row, read by column name (``row["game"]``) or by index, like ``sqlite3.Row``."""

    __slots__ = ("_values", "_index")

    def __init__(self, values: Sequence, index: dict[str, int]) -> None:
        self._values, self._index = tuple(values), index

    def __getitem__(self, key):
        return self._values[self._index[key]] if isinstance(key, str) else self._values[key]

    def __len__(self) -> int:
        return len(self._values)

    def keys(self) -> list[str]:
        return list(self._index)

    def __eq__(self, other: object) -> bool:
        return tuple(self) == tuple(other) if isinstance(other, Sequence) else NotImplemented

    def __hash__(self) -> int:
        return hash(self._values)

    def __repr__(self) -> str:
        return f"Row({dict(zip(self._index, self._values, strict=True))!r})"


def _row_factory(cursor: psycopg.Cursor):
    index = {column.name: position for position, column in enumerate(cursor.description or ())}
    return lambda values: Row(values, index)


@functools.lru_cache(maxsize=512)
def placeholders(sql: str) -> str:
    """``sql`` with each ``?`` outside quotes and comments as psycopg's ``%s``, and each ``%`` doubled."""
    out: list[str] = []
    quote = ""
    position = 0
    while position < len(sql):
        character = sql[position]
        if quote:
            if character == quote:
                quote = ""
        elif character in "'\"":
            quote = character
        elif sql.startswith("--", position):
            end = sql.find("\n", position)
            end = len(sql) if end < 0 else end
            out.append(sql[position:end])
            position = end
            continue
        elif character == "?":
            out.append("%s")
            position += 1
            continue
        out.append("%%" if character == "%" else character)
        position += 1
    return "".join(out)


def _storable(value: object) -> object:
    """A text parameter with each NUL as U+FFFD, which pages show for it: PostgreSQL text cannot hold a NUL.

    SQLite stores and compares a NUL like any character; here a NUL someone
    typed (a game id, a decision) would be an error instead of a lookup that
    finds nothing or a text that is kept.
    """
    return value.replace("\x00", "\ufffd") if isinstance(value, str) and "\x00" in value else value


class Connection:
    """A psycopg connection in autocommit mode (each statement its own transaction, as on SQLite)."""

    dialect = "postgresql"

    def __init__(self, raw: psycopg.Connection, url: str) -> None:
        self.raw, self.url = raw, url

    def execute(self, sql: str, params: Sequence = ()) -> psycopg.Cursor:
        with translated(self.url):
            return self.raw.execute(placeholders(sql), tuple(_storable(value) for value in params))

    def close(self) -> None:
        self.raw.close()

    def __enter__(self) -> Connection:
        return self

    def __exit__(self, *_exception) -> None:
        self.close()


def connect(url: str, migrations: Sequence[Sequence[str]] | None) -> Connection:
    """Open the database at ``url``; with ``migrations`` (statements per step), bring its schema up to date."""
    with translated(url):
        raw = psycopg.connect(url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_SECONDS,
                              row_factory=_row_factory)
    connection = Connection(raw, url)
    if migrations is not None:
        try:
            migrate(connection, migrations)
        except BaseException:
            connection.close()
            raise
    return connection


@contextmanager
def write_transaction(connection: Connection) -> Iterator[Connection]:
    """A transaction holding the database's write lock; rolled back on any error, committed at the end."""
    with translated(connection.url), connection.raw.transaction():
        connection.raw.execute("SELECT pg_advisory_xact_lock(%s)", (WRITE_LOCK,))
        yield connection


def schema_version(connection: Connection) -> int:
    """The number of migrations the database has run; 0 for an empty database."""
    if connection.execute(f"SELECT to_regclass('{VERSION_TABLE}')").fetchone()[0] is None:
        return 0
    row = connection.execute(f"SELECT version FROM {VERSION_TABLE}").fetchone()
    return row[0] if row else 0


def migrate(connection: Connection, migrations: Sequence[Sequence[str]]) -> None:
    """Run the steps the database has not run yet; the common case (already current) takes no lock.

    The write lock makes hosts that start at once run each step once: the
    second finds the version the first committed.
    """
    if schema_version(connection) == len(migrations):
        return
    with write_transaction(connection):
        connection.execute(f"CREATE TABLE IF NOT EXISTS {VERSION_TABLE} (version INTEGER NOT NULL)")
        version = schema_version(connection)
        if version == 0:
            connection.execute(f"DELETE FROM {VERSION_TABLE}")
            connection.execute(f"INSERT INTO {VERSION_TABLE} (version) VALUES (0)")
        for step, statements in enumerate(migrations[version:], start=version + 1):
            for statement in statements:
                connection.execute(statement)
            connection.execute(f"UPDATE {VERSION_TABLE} SET version = ?", (step,))


def user_tables(connection: Connection) -> list[str]:
    """The tables in the connection's schema (the first of its search path), by name."""
    rows = connection.execute(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1"
    )
    return [row[0] for row in rows]


def writable_columns(connection: Connection, table: str) -> list[str]:
    """A table's columns in the connection's schema, in order, but the generated ones (the search documents)."""
    rows = connection.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema()"
        " AND table_name = ? AND is_generated = 'NEVER' ORDER BY ordinal_position", (table,)
    )
    return [row[0] for row in rows]


@contextmanager
def translated(url: str) -> Iterator[None]:
    """A server that cannot be used becomes :class:`UnusablePostgreSQL`; our own SQL's mistakes stay themselves."""
    try:
        yield
    except (psycopg.OperationalError, psycopg.errors.ReadOnlySqlTransaction) as error:
        raise UnusablePostgreSQL(shown(url), _why(error)) from None


def _why(error: psycopg.Error) -> str:
    state = getattr(error, "sqlstate", None) or ""
    detail = " ".join(str(error).split())[:300]
    refused = ("password authentication failed", "no password supplied", "role \"")
    if state.startswith("28") or any(words in detail for words in refused):
        return (f"the PostgreSQL server refused the user name or password (PostgreSQL: {detail}); correct them in "
                f"{URL_VARIABLE}, or the server's pg_hba.conf.")
    if state == "3D000" or ("database" in detail and "does not exist" in detail):
        return (f"the PostgreSQL server has no such database (PostgreSQL: {detail}); create it with createdb, "
                f"or correct its name in {URL_VARIABLE}.")
    if state == "25006":
        return (f"the PostgreSQL server takes no writes (PostgreSQL: {detail}): it is a read-only standby or "
                "default_transaction_read_only is on; point the site at the primary server, then try again.")
    return (f"the PostgreSQL server cannot be reached or used (PostgreSQL: {detail}); check that it is running "
            f"and that {URL_VARIABLE} names it, then try again.")
