"""What the pages know about a game: its plugin if it has one, its case index, its imported rulebook.

A game is a plugin game or a reference-only one (validator/catalogue.py);
every rules page serves both alike, from the catalogue's answer.

Loading a rulebook parses every case's JSON, so the app keeps the last book
it loaded for each game and reuses it while the game's import stamp is
unchanged.  A new import changes the stamp and the next page loads afresh.
The cache holds one book per game, so it never grows beyond the registry.
"""

from __future__ import annotations

import shlex

from flask import Flask, abort, current_app

from validator import catalogue
from validator.cases import CaseNumber, CaseNumberError
from validator.catalogue import CatalogueGame
from validator.games import Game, IndexEntry, UnknownGame
from validator.rulebook import storage
from validator.rulebook.model import Rulebook
from validator.web import database
from validator.web.markup import printable
from validator.web.reading import Index

CACHE_KEY = "referee.rulebooks"
INDEXES_KEY = "referee.case-indexes"

# Longer text is no case number; the cap also keeps absurdly long numbers
# away from the parser.
LONGEST_CASE_TEXT = 32


def game_or_404(game_id: str) -> CatalogueGame:
    try:
        return catalogue.find(database.connection(), game_id)
    except UnknownGame:
        abort(404, description=f"There is no game called “{printable(game_id)}” in Referee.")


def case_number(text: str) -> CaseNumber | None:
    """The case number a URL or query names, or None when it names none a page can show.

    Pages walk a number's ancestors (breadcrumbs, the nearest existing case),
    so a number whose ancestors cannot be written, such as ``99.99.99``, is
    refused here rather than failing halfway through a page.
    """
    if len(text) > LONGEST_CASE_TEXT:
        return None
    number = CaseNumber.try_parse(text)
    if number is None:
        return None
    try:
        number.ancestors()
    except CaseNumberError:
        return None
    return number


def rulebook(game_id: str) -> Rulebook | None:
    """The game's imported rulebook, or None before its first import."""
    connection = database.connection()
    stamp = storage.import_stamp(connection, game_id)
    if stamp is None:
        return None
    cache: dict[str, tuple[str, Rulebook]] = current_app.extensions[CACHE_KEY]
    cached = cache.get(game_id)
    if cached is not None and cached[0] == stamp:
        return cached[1]
    book = storage.load(connection, game_id)
    if book is not None:
        # Keyed by the loaded book's own stamp: an import landing between the
        # two queries above must not be cached under the older stamp.
        cache[game_id] = (book.imported_at, book)
    return book


def case_index(plugin: Game | None) -> Index:
    """The plugin's short titles by case number; empty without a plugin (a reference-only game) or a readable index.

    A page can still show the imported rulebook without the index, so a bad
    index file is logged for the maintainer rather than failing the page.
    """
    if plugin is None:
        return {}
    try:
        entries: list[IndexEntry] = plugin.case_index
    except (OSError, ValueError, LookupError, TypeError, AttributeError) as error:
        current_app.logger.warning(
            "The case index %s of game %s could not be read: %s",
            plugin.case_index_path,
            plugin.id,
            error,
        )
        return {}
    # The plugin reads its index file once; the titles by number are made once for what it read.
    indexes: dict[str, tuple[object, Index]] = current_app.extensions.setdefault(INDEXES_KEY, {})
    made = indexes.get(plugin.id)
    if made is not None and made[0] is entries:
        return made[1]
    titles = {entry.number: entry.title for entry in entries}
    indexes[plugin.id] = (entries, titles)
    return titles


def import_command(game: CatalogueGame) -> str:
    """The command that imports the game's rulebook, with the file names it expects (FILE... when it expects none)."""
    return shlex.join(["referee", "rules", "import", game.id, *(game.rulebook_files or ["FILE..."])])


def init_app(app: Flask) -> None:
    app.extensions[CACHE_KEY] = {}
