"""The rules reference: table of contents, case pages, unresolved references.

Before a game's rulebook is imported these pages fall back on the plugin's
case index, so a user sees what the game covers and how to import the text.
"""

from __future__ import annotations

from flask import Blueprint, abort, redirect, render_template, url_for

from validator.cases import CaseNumber
from validator.games import Game
from validator.rulebook.model import Rulebook
from validator.web import library, reading

blueprint = Blueprint("rules", __name__)

# Longer text is no case number; capping it also keeps the parser away from
# numbers too long to convert.
LONGEST_CASE_TEXT = 32


@blueprint.get("/<game>/")
def game_home(game: str):
    return redirect(url_for("rules.contents", game=library.game_or_404(game).id))


@blueprint.get("/<game>/rules/")
def contents(game: str):
    chosen = library.game_or_404(game)
    index = library.case_index(chosen)
    book = library.rulebook(chosen.id)
    if book is None:
        return render_template(
            "rules/index_contents.html",
            game=chosen,
            entries=reading.index_contents(index),
            command=library.import_command(chosen),
        )
    return render_template(
        "rules/contents.html",
        game=chosen,
        book=book,
        entries=reading.book_contents(book, index),
        counts=book.counts(),
        front_matter=reading.front_matter_parts(book),
    )


@blueprint.get("/<game>/rules/unresolved")
def unresolved(game: str):
    chosen = library.game_or_404(game)
    book = library.rulebook(chosen.id)
    if book is None:
        return render_template(
            "rules/not_imported.html", game=chosen, command=library.import_command(chosen)
        )
    return render_template(
        "rules/unresolved.html", game=chosen, book=book, unresolved=reading.unresolved(book)
    )


@blueprint.get("/<game>/rules/<case>")
def case(game: str, case: str):
    chosen = library.game_or_404(game)
    number = CaseNumber.try_parse(case) if len(case) <= LONGEST_CASE_TEXT else None
    if number is None:
        abort(404, description="This address does not name a case; case numbers look like 6, 6.21 or 11.353E.")
    if str(number) != case:
        return redirect(url_for("rules.case", game=chosen.id, case=str(number)), code=301)
    index = library.case_index(chosen)
    book = library.rulebook(chosen.id)
    if book is None:
        return _indexed_case(chosen, number, index)
    if number not in book.cases:
        return _missing_case(chosen, number, book.nearest_existing(number), in_book=True)
    view = reading.case_view(book, number, index, chosen.rules)
    previous, following = book.neighbours(number)
    return render_template(
        "rules/case.html",
        game=chosen,
        book=book,
        view=view,
        breadcrumb=[(case.number, reading.title_of(case.number, case.title, index)) for case in book.breadcrumb(number)],
        previous=previous,
        following=following,
        links_out=reading.links_out(book, view, index),
        cited_by=book.cited_by(number),
        checked=[shown for shown in reading.walk(view) if shown.checks],
    )


def _indexed_case(game: Game, number: CaseNumber, index: dict[CaseNumber, str]):
    """A case page before import: the index's title, the checks, how to import."""
    if number not in index:
        nearest = reading.index_nearest(number, index)
        return _missing_case(game, number, nearest and reading.Target(nearest, None, reading.Title(index[nearest], ours=True)), in_book=False)
    numbers = sorted(index)
    position = numbers.index(number)
    ...
