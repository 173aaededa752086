"""Searching a game's rulebook, or jumping straight to a case by its number."""

from __future__ import annotations

from flask import Blueprint, abort, redirect, render_template, request, url_for

from validator.rulebook import storage
from validator.web import database, library, reading

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
