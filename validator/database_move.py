"""Moving an instance's SQLite database to an empty PostgreSQL database (``referee database move``).

The target gets the schema from the same migrations, then every table's rows
are copied (PostgreSQL's COPY) in an order where a row's references are
there before it, and each table's count is compared with the source's, all
in one transaction: a move that fails leaves the target as empty as it was.
A target that already holds tables is refused, so a move never mixes two
clubs' records.  The SQLite file is read in one read transaction and left
as it was.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from validator import postgresql, store
from validator.errors import InputError


class MoveRefused(InputError):
    """The move cannot start or did not check out: no SQLite database, a target that is not empty, a count off."""


@dataclass(frozen=True)
class Move:
    source: str
    target: str
    rows: dict[str, int]  # by table, in the order they were copied

    def as_json(self) -> dict:
        """The shape of ``referee database move --format json`` (docs/deploying.md)."""
        return {"from": self.source, "to": self.target, "tables": self.rows, "rows": sum(self.rows.values())}


def move(sqlite_file: Path, url: str) -> Move:
    """Copy every table of ``sqlite_file`` into the empty database at ``url``; what was copied."""
    if not sqlite_file.is_file():
        raise MoveRefused(sqlite_file, "does not exist, so there is no SQLite database to move; "
                                       "REFEREE_INSTANCE chooses the instance folder whose database is moved.")
    if not postgresql.is_url(url):
        raise MoveRefused("", f"The target must be a postgresql:// URL, such as postgresql://referee@dbhost/referee; "
                              f"{url!r} is not one.")
    try:
        return _moved(sqlite_file, url)
    except postgresql.UnusablePostgreSQL as error:  # its advice names the site's variable; here the URL is --to's
        raise postgresql.UnusablePostgreSQL(error.source, error.problem.replace(
            postgresql.URL_VARIABLE, "the --to URL"), error.line, error.column) from None


def _moved(sqlite_file: Path, url: str) -> Move:
    source = store.connect(sqlite_file)
    try:
        target = postgresql.connect(url, None)
    except BaseException:
        source.close()
        raise
    try:
        present = postgresql.user_tables(target)
        if present:
            raise MoveRefused(postgresql.shown(url),
                              f"already holds tables ({', '.join(present)}), and Referee moves an instance only into "
                              "an empty database; create a new one with createdb and give its URL.")
        tables = store.tables_in_reference_order(source)
        source.execute("BEGIN")  # one snapshot of the source for the copy and the counts
        try:
            with postgresql.write_transaction(target):
                postgresql.migrate(target, store.migration_statements(store.POSTGRESQL))
                rows = {table: _copy(source, target, table) for table in tables}
        finally:
            source.execute("COMMIT")
    finally:
        source.close()
        target.close()
    return Move(str(sqlite_file), postgresql.shown(url), rows)


def _copy(source, target: postgresql.Connection, table: str) -> int:
    """Copy one table's rows, the columns both sides have (not PostgreSQL's generated ones); the count checked."""
    wanted = set(store.table_columns(source, table))
    columns = [column for column in postgresql.writable_columns(target, table) if column in wanted]
    listed = ", ".join(columns)
    with target.raw.cursor().copy(f"COPY {table} ({listed}) FROM STDIN") as copy:
        for row in source.execute(f"SELECT {listed} FROM {table}"):
            copy.write_row(tuple(row))
    expected = source.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
    copied = target.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
    if copied != expected:
        raise MoveRefused(table, f"has {expected:,} rows in the SQLite database but {copied:,} arrived; "
                                 "nothing was moved, so try again.")
    return copied


def summary(result: Move) -> str:
    total = sum(result.rows.values())
    lines = [f"  {table:<22} {count:>9,}" for table, count in result.rows.items()]
    return "\n".join([
        f"Moved {result.source} to {result.target}: {len(result.rows)} tables, {total:,} rows, "
        "each table's count checked.",
        *lines,
        "Set REFEREE_DATABASE_URL to that URL on every host (the SQLite file is left as it was); "
        "docs/deploying.md says what else the hosts share.",
    ])
