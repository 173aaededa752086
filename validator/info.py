"""What ``referee info`` tells: where the data lives, what is imported, which games are registered.

It only looks.  The instance folder and the database are not created when
they do not exist yet, and an existing database is opened read-only, so
asking where the data would go never puts anything there.  A PostgreSQL
database (``REFEREE_DATABASE_URL``) is named by its URL without the password
and read without running migrations.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing, contextmanager
from pathlib import Path

from validator import instance, store
from validator.errors import InputError
from validator.games import registry
from validator.rulebook import storage
from validator.rulebook.summary import parts_sentence
from validator.wording import plural


class UnreadableDatabase(InputError):
    """The database file exists but cannot be read as a Referee database."""


def gather() -> dict:
    """The facts as JSON-ready data; the shape is the contract of ``referee info --format json``."""
    folder = instance.resolved_folder()
    database = instance.database_target(folder)
    books = _imported_rulebooks(database)
    imported = {book["game"] for book in books}
    return {
        "instance": {"folder": str(folder), "exists": folder.is_dir(),
                     "chosen_by": instance.ENVIRONMENT_VARIABLE if instance.is_chosen() else "default",
                     "file_in_the_way": str(blocking) if (blocking := instance.file_in_the_way(folder)) else None},
        "database": _database_facts(database),
        "rulebooks": books,
        "games": sorted([
            *({"id": game.id, "title": game.title, "reference_only": False, "checks": len(game.rules.checks()),
               "rulebook_files": list(game.rulebook_files), "imported": game.id in imported}
              for game in registry().values()),
            *({"id": game_id, "title": title, "reference_only": True, "checks": 0, "rulebook_files": [],
               "imported": game_id in imported}
              for game_id, title in _added_games(database) if game_id not in registry()),
        ], key=lambda game: game["id"]),
    }


def _database_facts(database: Path | str) -> dict:
    if isinstance(database, str):
        from validator import postgresql

        with _looking(database) as connection:
            return {"path": postgresql.shown(database), "exists": connection is not None}
    return {"path": str(database), "exists": database.is_file()}


@contextmanager
def _looking(url: str):
    """A PostgreSQL connection that runs no migration; None while the database has no schema yet."""
    from validator import postgresql

    with closing(postgresql.connect(url, None)) as connection:
        yield connection if postgresql.schema_version(connection) else None


def _imported_rulebooks(database: Path | str) -> list[dict]:
    """Each imported rulebook, by game id; none when the database does not exist yet."""
    if isinstance(database, str):
        with _looking(database) as connection:
            return _rulebooks_in(connection) if connection is not None else []
    if not database.is_file():
        return []
    try:
        with closing(_read_only(database)) as connection:
            if connection.execute("PRAGMA user_version").fetchone()[0] == 0:  # an empty file: no tables yet
                return []
            return _rulebooks_in(connection)
    except sqlite3.DatabaseError as error:
        raise UnreadableDatabase(
            database, f"cannot be read as a Referee database ({error}); move it aside and import again."
        ) from None


def _rulebooks_in(connection) -> list[dict]:
    books = []
    for game, status in sorted(storage.statuses(connection).items()):
        book = storage.load(connection, game)
        books.append({"game": game, "imported_at": status.imported_at, "sources": status.sources,
                      "counts": book.counts()})
    return books


def _added_games(database: Path | str) -> list[tuple[str, str]]:
    """The reference-only games added with ``referee games add``, as (id, title); none before the first one."""
    if isinstance(database, str):
        with _looking(database) as connection:
            rows = connection.execute("SELECT id, title FROM added_game") if connection is not None else []
            return [(row["id"], row["title"]) for row in rows]
    if not database.is_file():
        return []
    try:
        with closing(_read_only(database)) as connection:
            return [(row["id"], row["title"]) for row in connection.execute("SELECT id, title FROM added_game")]
    except sqlite3.OperationalError:  # a database made before reference-only games existed has no such table
        return []


def _read_only(database: Path) -> sqlite3.Connection:
    connection = sqlite3.connect(f"{database.as_uri()}?mode=ro", uri=True, timeout=store.BUSY_TIMEOUT_SECONDS)
    connection.row_factory = sqlite3.Row
    return connection


def as_text(facts: dict) -> str:
    """The facts as a short listing, in a fixed order: folder, database, rulebooks, games."""
    folder, database = facts["instance"], facts["database"]
    how = (f"chosen by {instance.ENVIRONMENT_VARIABLE}" if folder["chosen_by"] != "default"
           else f"the default; set {instance.ENVIRONMENT_VARIABLE} to choose another")
    if folder["file_in_the_way"]:
        state = f"; {folder['file_in_the_way']} is a file, not a folder, so Referee cannot keep its data there"
    else:
        state = "" if folder["exists"] else "; not created yet"
    lines = [
        f"Instance folder: {folder['folder']} ({how}{state})",
        f"Database:        {database['path']}{'' if database['exists'] else ' (not created yet)'}",
        "Imported rulebooks:",
    ]
    for book in facts["rulebooks"]:
        lines.append(f"  {book['game']:<6} imported {book['imported_at']} from {', '.join(book['sources'])}: "
                     f"{parts_sentence(book['counts'])}")
    if not facts["rulebooks"]:
        lines.append("  none yet; import your copy with: referee rules import GAME FILE...")
    lines.append("Registered games:")
    for game in facts["games"]:
        state = "imported" if game["imported"] else "not imported"
        checks = "reference only" if game["reference_only"] else plural(game["checks"], "check")
        lines.append(f"  {game['id']:<6} {game['title']}: {checks}, rulebook {state}")
    if not facts["games"]:
        lines.append("  none; no game plugin is installed")
    return "\n".join(lines)
