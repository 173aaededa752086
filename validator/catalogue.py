"""Which games Referee knows: the plugin games, and the reference-only games a user added.

A plugin game (validator/games.py) comes with checks.  A reference-only game
is added to the instance database with ``referee games add ID --title ...``
and has no plugin: Referee imports, links, searches and serves its rulebook
like any other, but cannot judge its positions.  The reference features (the
``referee rules`` commands, the rules pages, search, the home page) ask this
module for a game; the check features keep asking :mod:`validator.games`,
whose games all have a plugin.

Game ids appear in addresses (``/<game>/rules/``) and commands, so an added
game's id is lowercase letters, digits and single dashes, and never a plugin's
id or the first part of another page's address.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime

from validator import games
from validator.cases import CaseNumber
from validator.errors import InputError
from validator.games import Game, IndexEntry, UnknownGame
from validator.quoting import quote
from validator.rulebook import storage
from validator.rulebook.model import Rulebook
from validator.rules import RuleSet
from validator.saves.errors import UnknownGameInSave
from validator.store import Connection, write_transaction

GAME_ID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
LONGEST_ID = 40
LONGEST_TITLE = 120
# The first part of the web app's own addresses (/check, /reports/..., /api/..., /static/...):
# a game of that id would have pages the app cannot reach.  tests/test_catalogue.py keeps
# this in step with the app's routes.
RESERVED_IDS = frozenset({"api", "case-files", "check", "house-rules", "reports", "requests", "rulings", "sign-in",
                          "sign-out", "static"})
ADD_COMMAND = 'referee games add ID --title "TITLE"'


class CatalogueError(InputError):
    """A game that cannot be added or removed as asked, and why, in one sentence."""

    def __init__(self, problem: str) -> None:
        super().__init__("", problem)


class NoChecksError(InputError):
    """A position of a reference-only game was handed over to be checked."""

    def __init__(self, game_id: str, source: str = "", line: int = 0) -> None:
        super().__init__(source, no_checks_sentence(game_id), line)
        self.game_id = game_id


@dataclass(frozen=True)
class CatalogueGame:
    """A game as the reference features see it: id, title, and its plugin when Referee can check it."""

    id: str
    title: str
    plugin: Game | None = None  # None for a reference-only game
    added_at: str = ""  # when a reference-only game was added (ISO 8601, UTC)

    @property
    def reference_only(self) -> bool:
        return self.plugin is None

    @property
    def rules(self) -> RuleSet:
        """The plugin's checks; an empty rule set for a reference-only game."""
        return self.plugin.rules if self.plugin else RuleSet(self.id)

    @property
    def case_index(self) -> list[IndexEntry]:
        """The plugin's case index; a reference-only game has none (its rulebook is all there is)."""
        return self.plugin.case_index if self.plugin else []

    @property
    def rulebook_files(self) -> tuple[str, ...]:
        """The file names the plugin expects; none for a reference-only game, whose files are the user's."""
        return self.plugin.rulebook_files if self.plugin else ()

    @property
    def fixups_path(self):
        return self.plugin.fixups_path if self.plugin else None

    def decision(self, number: CaseNumber) -> str:
        return self.plugin.decision(number) if self.plugin else ""

    def index_title(self, number: CaseNumber) -> str:
        return self.plugin.index_title(number) if self.plugin else ""


def known_games(connection: Connection) -> list[CatalogueGame]:
    """Every game, by id: the plugin games, then the added ones whose id no plugin has taken since."""
    plugins = games.registry()
    found = {game_id: CatalogueGame(game.id, game.title, game) for game_id, game in plugins.items()}
    for row in connection.execute("SELECT id, title, added_at FROM added_game"):
        found.setdefault(row["id"], CatalogueGame(row["id"], row["title"], None, row["added_at"]))
    return [found[game_id] for game_id in sorted(found)]


def find(connection: Connection, game_id: str) -> CatalogueGame:
    """The game with this id; :class:`UnknownGame` with the known ids and how to add one."""
    plugin = games.registry().get(game_id)
    if plugin is not None:
        return CatalogueGame(plugin.id, plugin.title, plugin)
    row = connection.execute("SELECT id, title, added_at FROM added_game WHERE id = ?", (game_id,)).fetchone()
    if row is not None:
        return CatalogueGame(row["id"], row["title"], None, row["added_at"])
    known = ", ".join(game.id for game in known_games(connection))
    raise UnknownGame(
        f"There is no game {_shown(game_id)}. Known games: {known}. To keep the rulebook of a game "
        f"Referee has no plugin for, add the game first: {ADD_COMMAND}."
    )


def add(connection: Connection, game_id: str, title: str) -> CatalogueGame:
    """Add a reference-only game; :class:`CatalogueError` for an id or title that cannot be used."""
    _require_usable_id(game_id)
    title = " ".join(title.split())
    _require_usable_title(game_id, title)
    added_at = datetime.now(UTC).isoformat(timespec="seconds")
    with write_transaction(connection):
        existing = connection.execute("SELECT title FROM added_game WHERE id = ?", (game_id,)).fetchone()
        if existing is not None:
            raise CatalogueError(
                f"There is already a game '{game_id}' ({existing['title']}); choose another id, "
                f"or remove that one first with: referee games remove {game_id}."
            )
        connection.execute("INSERT INTO added_game (id, title, added_at) VALUES (?, ?, ?)", (game_id, title, added_at))
    return CatalogueGame(game_id, title, None, added_at)


def remove(connection: Connection, game_id: str, with_rulebook: bool = False) -> CatalogueGame:
    """Remove a reference-only game; its imported rulebook only when ``with_rulebook`` says so.

    Without ``with_rulebook`` a game whose rulebook is imported is kept, so a
    user never loses an import by removing the wrong game.
    """
    game = find(connection, game_id)
    if game.plugin is not None:
        raise CatalogueError(
            f"The game '{game_id}' comes with Referee's plugin for {game.title}, so it cannot be removed; "
            "only games added with referee games add can."
        )
    with write_transaction(connection):
        stamp = storage.import_stamp(connection, game_id)
        if stamp is not None and not with_rulebook:
            raise CatalogueError(
                f"The {game_id} rulebook is imported (on {stamp}), so the game is kept; to remove the game "
                f"and its rulebook, run: referee games remove {game_id} --with-rulebook."
            )
        storage.delete(connection, game_id)
        connection.execute("DELETE FROM added_game WHERE id = ?", (game_id,))
    return game


def save_rulebook(connection: Connection, game: CatalogueGame, book: Rulebook) -> None:
    """Store an imported rulebook, in the same transaction that makes sure its game still exists."""
    with write_transaction(connection):
        if game.plugin is None and connection.execute(
            "SELECT 1 FROM added_game WHERE id = ?", (game.id,)
        ).fetchone() is None:
            raise CatalogueError(
                f"The game '{game.id}' was removed while its rulebook was being read; nothing was imported. "
                f"Add it again with: {ADD_COMMAND}."
            )
        storage.replace(connection, book)
        from validator.arbitration import rulings  # only an import that replaces cited cases needs it

        rulings.flag_changed_citations(connection, book.game)


def no_checks_sentence(game_id: str) -> str:
    """What Referee says when asked to check a position of a reference-only game."""
    return (
        f"Referee has no checks for '{game_id}' (a reference-only game): it can serve its rulebook "
        "but not judge positions; referee games list shows the games it can check."
    )


def require_checks(connection: Connection, game_id: str, source: str = "", line: int = 0) -> None:
    """:class:`NoChecksError` when ``game_id`` is a reference-only game; nothing for any other id.

    An id that is no game at all is left to the check path, whose own error
    names the games it can check.
    """
    if game_id not in games.registry() and connection.execute(
        "SELECT 1 FROM added_game WHERE id = ?", (game_id,)
    ).fetchone() is not None:
        raise NoChecksError(game_id, source, line)


def explained(connection: Connection, error: InputError) -> InputError:
    """The error to show for a save that names a game no plugin has: the no-checks one for a reference-only game."""
    if isinstance(error, UnknownGameInSave):
        try:
            require_checks(connection, error.game_id, error.source, error.line)
        except NoChecksError as refusal:
            return refusal
    return error


def _require_usable_id(game_id: str) -> None:
    if len(game_id) > LONGEST_ID:
        raise CatalogueError(
            f"A game id can be at most {LONGEST_ID} characters long; {_shown(game_id)} is longer, "
            "so choose a shorter one."
        )
    if not GAME_ID.fullmatch(game_id):
        raise CatalogueError(
            f"{_shown(game_id)} cannot be a game id: use lowercase letters, digits and single dashes between them, "
            "such as harbour-watch or ww2."
        )
    if game_id in RESERVED_IDS:
        raise CatalogueError(
            f"'{game_id}' cannot be a game id: the web app's own pages start with /{game_id}/; choose another id."
        )
    plugin = games.registry().get(game_id)
    if plugin is not None:
        raise CatalogueError(
            f"'{game_id}' is already the id of the plugin game {plugin.title}; "
            "its rulebook imports with referee rules import, so choose another id for a game of your own."
        )


def _require_usable_title(game_id: str, title: str) -> None:
    if not title:
        raise CatalogueError(f'The game \'{game_id}\' needs a title; give one with --title "TITLE".')
    if len(title) > LONGEST_TITLE:
        raise CatalogueError(f"A game's title can be at most {LONGEST_TITLE} characters long; "
                             f"this one has {len(title)}.")
    if not title.isprintable():
        raise CatalogueError("A game's title must be printable text, without control characters; "
                             "give the title again without them.")


def _shown(game_id: str) -> str:
    """The id as typed, quoted and cut short, with anything unprintable escaped."""
    return quote("".join(character if character.isprintable() else ascii(character)[1:-1] for character in game_id))
