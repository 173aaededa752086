"""The club's house rules on the web: anyone reads them, only a signed-in arbiter sets or removes one.

``GET /house-rules`` lists the games; ``GET /house-rules/<game>`` shows the
game's rules (each with an anchor a report links to) and, to an arbiter, a
form choosing one of the game's checks, a severity and a reason.  ``POST
/house-rules/<game>`` sets a rule and ``POST /house-rules/<game>/remove``
drops one; both need an arbiter's sign-in and the form's CSRF token
(``arbiter_required``) and answer 303 to the page.  A rule that cannot be
used (unknown case or check, no reason) is the page again with the sentence
and status 400.

Every check made on the web is rated under the rules in force at that
moment (:func:`rated`), and the report keeps them as they were.  The page
has an anchor for every check of the game, ruled or not, so a report's link
to a rule changed since lands on the rule as it is now, and one to a rule
removed since lands on the check, said to be rated as Referee rates it.
"""

from __future__ import annotations

from flask import Blueprint, abort, redirect, render_template, request, url_for

from validator import games, house_rules, kept_house_rules
from validator.errors import InputError
from validator.games import UnknownGame
from validator.report import Report
from validator.web import database, library
from validator.web.arbiters import arbiter_required, current_arbiter
from validator.web.errors import storing

blueprint = Blueprint("house_rules", __name__)

LONGEST_FIELD = 200


def rated(report: Report) -> Report:
    """The report rated under the club's house rules for its game (unchanged when there are none)."""
    return house_rules.apply(report, kept_house_rules.in_force(database.connection(), report.position.game))


@blueprint.get("/house-rules")
def index():
    shelf = sorted(games.registry().values(), key=lambda game: game.title.lower())
    counts = {game.id: len(kept_house_rules.in_force(database.connection(), game.id).rules) for game in shelf}
    return render_template("house_rules/index.html", shelf=shelf, counts=counts)


@blueprint.get("/house-rules/<game_id>")
def page(game_id: str):
    return _page(_game_or_404(game_id))


@blueprint.post("/house-rules/<game_id>")
@arbiter_required
def set_rule(game_id: str):
    game = _game_or_404(game_id)
    case, _, check = request.form.get("check", "").partition(" ")
    try:
        with storing("the house rule"):
            kept_house_rules.save(database.connection(), game.id, case[:LONGEST_FIELD], check[:LONGEST_FIELD],
                                  request.form.get("severity", "")[:LONGEST_FIELD],
                                  request.form.get("reason", "")[:house_rules.MAX_REASON_CHARACTERS * 2],
                                  current_arbiter().name)
    except InputError as error:
        return _page(game, problem=str(error), status=400)
    return redirect(url_for("house_rules.page", game_id=game.id), code=303)


@blueprint.post("/house-rules/<game_id>/remove")
@arbiter_required
def remove_rule(game_id: str):
    game = _game_or_404(game_id)
    case, _, check = request.form.get("check", "").partition(" ")
    with storing("the house rule's removal (the rule is still in force)"):
        kept_house_rules.remove(database.connection(), game.id, case[:LONGEST_FIELD], check[:LONGEST_FIELD])
    return redirect(url_for("house_rules.page", game_id=game.id), code=303)


@blueprint.app_template_global()
def house_rules_address(game=None) -> str:
    """Where a page's header links: the game's house rules when Referee checks it, else every game's."""
    if game is not None and getattr(game, "id", None) in games.registry():
        return url_for("house_rules.page", game_id=game.id)
    return url_for("house_rules.index")


def _game_or_404(game_id: str):
    try:
        return games.get(game_id)
    except UnknownGame as error:
        abort(404, description=str(error))


def _page(game, problem: str | None = None, status: int = 200):
    checks = [(str(check.case), check.name, check.summary) for check in game.rules.checks()]
    rules = kept_house_rules.in_force(database.connection(), game.id).rules
    ruled = {(str(rule.case), rule.check) for rule in rules}
    unruled = [(case, name, summary) for case, name, summary in checks if (case, name) not in ruled]
    page = render_template("house_rules/game.html", game=game, rules=rules, checks=checks, unruled=unruled,
                           severities=house_rules.SEVERITIES, problem=problem,
                           anchor=kept_house_rules.anchor, arbiter=current_arbiter(),
                           imported=library.rulebook(game.id) is not None)  # case pages exist only once imported
    return page, status
