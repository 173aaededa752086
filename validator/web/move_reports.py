"""What a web check of moves stores: a log judged step by step, or a chain of saves, with pictures of its faults.

The stored report is the command line's JSON (``referee check LOG.vlog`` and
``referee check S1 S2 ...``, docs/cli.md "Checking moves") with a ``kind``
(``"log"`` or ``"chain"``), each judged move's ``in_words`` (the moves in
words, or what changed when nothing moved), and ``pictures``: for each
illegal step or failing link, up to :data:`PICTURED_MOVES` of them, the
cleaned SVG of the position before and after it, drawn once at check time
(as a single report's picture is) so that a page view never draws again.
``pictures`` is left out of the public JSON (:func:`public_json`): it is
page material, not a verdict.  Every step and link is rated under the club's
house rules in force (:func:`club_rules`), as a single report is.
"""

from __future__ import annotations

from validator import kept_house_rules, stored_results
from validator.games import Game
from validator.house_rules import HouseRules
from validator.moves.verdicts import ChainVerdict, LogVerdict, MoveVerdict
from validator.provenance import Provenance
from validator.runner import check
from validator.web import database, house_rules, pictures

LOG, CHAIN = stored_results.MOVES_KINDS
PICTURED_MOVES = 10  # pictures (before and after) are drawn for the first ten faulty moves; the rest are listed
PAGE_MATERIAL = "pictures"


def club_rules(game_id: str) -> HouseRules | None:
    """The club's house rules for the game, to rate every step or link as a single report is rated; None if none."""
    rules = kept_house_rules.in_force(database.connection(), game_id)
    return rules if rules.of_game(game_id) else None


def stored_log(verdict: LogVerdict, provenance: Provenance) -> dict:
    """The JSON a log's record keeps: the command line's shape, moves in words, pictures of the illegal steps."""
    stored = {"kind": LOG, **verdict.to_json(), "checked_with": provenance.to_json()}
    return _with_words_and_pictures(stored, "steps", verdict.verdicts, verdict.moves.game)


def stored_chain(verdict: ChainVerdict, game: Game, provenance: Provenance) -> dict:
    """The JSON a chain's record keeps: the command line's shape, moves in words, pictures of the failing links."""
    stored = {"kind": CHAIN, **verdict.to_json(), "checked_with": provenance.to_json()}
    return _with_words_and_pictures(stored, "links", verdict.verdicts, game)


is_moves = stored_results.is_moves


def public_json(report: dict, root: str) -> dict:
    """A stored moves report as the JSON route serves it: absolute case URLs, no page material."""
    shown = {key: value for key, value in report.items() if key != PAGE_MATERIAL}
    for key in ("steps", "links"):
        if isinstance(shown.get(key), list):
            shown[key] = [_absolute(item, root) for item in shown[key] if isinstance(item, dict)]
    if isinstance(shown.get("start"), dict):
        shown["start"] = _absolute(shown["start"], root)
    return shown


def _absolute(item: dict, root: str) -> dict:
    fixed = dict(item)
    for key in ("violations", "findings"):
        if isinstance(item.get(key), list):
            fixed[key] = [absolute_result(result, root) if isinstance(result, dict) else result
                          for result in item[key]]
    return fixed


def absolute_result(result: dict, root: str) -> dict:
    """A stored result with its case's, its other cases' and its house rule's addresses made absolute."""
    fixed = _absolute_url(result, root)
    if isinstance(result.get("also_cases"), list):
        fixed["also_cases"] = [_absolute_url(also, root) if isinstance(also, dict) else also
                               for also in result["also_cases"]]
    if isinstance(result.get("house_rule"), dict):
        fixed["house_rule"] = _absolute_url(result["house_rule"], root)
    return fixed


def _absolute_url(item: dict, root: str) -> dict:
    return {**item, "url": root + item["url"]} if str(item.get("url") or "").startswith("/") else dict(item)


def _with_words_and_pictures(stored: dict, key: str, verdicts: tuple[MoveVerdict, ...], game: Game) -> dict:
    noun = "step" if key == "steps" else "save"
    by_index = {verdict.index: verdict for verdict in verdicts}
    drawn: dict[str, dict] = {}
    for item in stored[key]:
        verdict = by_index[item["index"]]
        item["in_words"] = in_words(verdict)
        if not verdict.legal and len(drawn) < PICTURED_MOVES:
            drawn[str(verdict.index)] = _pictures_of(verdict, game, f"{noun} {verdict.index}")
    stored[PAGE_MATERIAL] = drawn
    return stored


def in_words(verdict: MoveVerdict) -> str:
    """The move as a sentence's part: each piece from where to where, or a count of what changed."""
    change = verdict.difference
    if not verdict.comparable:
        return "the two positions are not of one game and scenario, so no move is read between them"
    moved = "; ".join(change.describe_move(move) for move in change.moved)
    return moved or change.summary()


def _pictures_of(verdict: MoveVerdict, game: Game, move: str) -> dict:
    """The cleaned pictures of the position before the move and after it, each with its own violations marked.

    The position before is checked on its own (its position checks, rated under the club's house rules), so
    that its picture's legend says truly whether a place of it breaks a rule; ``before_violations`` counts them.
    """
    before_report = house_rules.rated(check(verdict.difference.before, game))
    before = pictures.draw(game, verdict.difference.before, before_report, titled=f"Before {move}")
    after = pictures.draw(game, verdict.report.position, verdict.report, titled=f"After {move}")
    return {"before": before.svg, "after": after.svg, "note": before.note or after.note,
            "before_violations": len(before_report.violations)}
