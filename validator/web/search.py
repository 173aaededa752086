"""Searching a game's rulebook, or jumping straight to a case by its number.

A search's results change only when the game's rulebook is imported again,
so each results page is kept as rendered, keyed by the game, the book's
import stamp and the query (validator.web.page_cache), and served again to
the next visitor who asks the same.
"""

from __future__ import annotations

from flask import Blueprint, abort, redirect, render_template, request, url_for

from validator.cases import CaseNumber
from validator.catalogue import CatalogueGame
from validator.rulebook import storage
from validator.rulebook.model import Rulebook
from validator.web import database, library, page_cache, reading

blueprint = Blueprint("search", __name__)

LONGEST_QUERY = 200


@blueprint.get("/<game>/search")
def results(game: str):
    chosen = library.game_or_404(game)
    query = _cleaned(request.args.get("q", ""))
    if len(query) > LONGEST_QUERY:
        abort(400, description=f"A search can be at most {LONGEST_QUERY} characters long.")
    index = library.case_index(chosen.plugin)
    book = library.rulebook(chosen.id)
    known = book.cases if book is not None else index
    number = library.case_number(query) if query else None
    if number is not None and number in known:
        return redirect(url_for("rules.case", game=chosen.id, case=str(number)))
    if book is None:
        return _results_page(chosen, book, query, number, index)
    return page_cache.searched(chosen.id, book.imported_at, query,
                               lambda: _results_page(chosen, book, query, number, index))


def _results_page(chosen: CatalogueGame, book: Rulebook | None, query: str, number: CaseNumber | None,
                  index: reading.Index) -> str:
    """The search's results: the cases matching the query, or the nearest case to a number not in the book."""
    nearest = reading.nearest_entry(number, book, index) if number is not None else None
    hits = []
    if book is not None and query:
        hits = [
            (reading.Entry(hit.number, reading.title_of(hit.number, hit.title, index)), hit.snippet)
            for hit in storage.search(database.connection(), chosen.id, query)
        ]
    return render_template(
        "search/results.html",
        game=chosen,
        book=book,
        query=query,
        number=number,
        nearest=nearest,
        hits=hits,
        command=library.import_command(chosen),
    )


def _cleaned(query: str) -> str:
    """The query with control characters turned into spaces and runs of space collapsed."""
    return " ".join("".join(c if c.isprintable() else " " for c in query).split())
