"""The front page: every known game and whether its rulebook is imported."""

from __future__ import annotations

from flask import Blueprint, render_template

from validator import games
from validator.rulebook import storage
from validator.web import database, library

blueprint = Blueprint("home", __name__)


@blueprint.get("/")
def index():
    statuses = storage.statuses(database.connection())
    shelf = [
        (game, statuses.get(game.id), library.import_command(game))
        for game in sorted(games.registry().values(), key=lambda game: game.title.lower())
    ]
    return render_template("home/index.html", shelf=shelf)
