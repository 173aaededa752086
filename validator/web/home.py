"""The front page: every known game, whether Referee can also check it, and whether its rulebook is imported.

The page counts an imported rulebook's parts with the same counts and words
as the import summary; the ``rulebook_parts`` filter it registers serves the
table of contents too, so the views never disagree.
"""

from __future__ import annotations

from flask import Blueprint, render_template

from validator import catalogue
from validator.rulebook import summary
from validator.web import database, library

blueprint = Blueprint("home", __name__)


@blueprint.app_template_filter("rulebook_parts")
def rulebook_parts(counts: dict[str, int]) -> str:
    """A rulebook's counts as "2 sections, 66 cases and 42 lettered items"."""
    return summary.parts_sentence(counts)


@blueprint.get("/")
def index():
    shelf = [
        (game, library.rulebook(game.id), library.import_command(game))
        for game in sorted(catalogue.known_games(database.connection()), key=lambda game: game.title.lower())
    ]
    return render_template("home/index.html", shelf=shelf)
