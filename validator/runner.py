"""Running a game's checks against a position: three ways to ask.

``iter_results`` yields every stamped result (violations and findings);
``iter_violations`` only what the position breaks; ``check`` gathers them
into a :class:`Report`; ``is_legal`` answers yes or no.  Like jsonschema's
``iter_errors`` / ``validate`` / ``is_valid``, the runner -- not the check --
records which case produced each result.

A verdict needs checks: asked about a game with no position checks, every
way of asking raises :class:`NothingToCheck` (an input error: the CLI exits
2 and the web answers 400) instead of calling the position legal.

A move is asked about the same way: ``iter_move_results`` runs the checks
that judge a move on a :class:`~validator.moves.diff.Difference` (each gets
the position before, the position after and the difference), and
``check_move`` gathers the position checks of the position after and the
move checks into one :class:`Report`.  Every result is stamped with what its
check judges.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from validator.collection import collector_paused
from validator.errors import CheckDefectError, InputError
from validator.games import Game, get
from validator.model import Position
from validator.report import Report
from validator.rules import MOVE, POSITION, Check, Finding, Result, Violation

if TYPE_CHECKING:
    from validator.moves.diff import Difference


class NothingToCheck(InputError):
    """The game has no checks of a position, so no verdict can be given: never "legal" by default."""

    def __init__(self, game: Game, source: str = "") -> None:
        super().__init__(source, (
            f"{game.title} ({game.id}) has no checks of a position, so Referee cannot say whether this position "
            f"is legal; its rulebook can still be read (referee rules list {game.id})."
        ))
        self.game = game


def iter_results(position: Position, game: Game | None = None) -> Iterator[Result]:
    game = game or get(position.game)
    checks = game.rules.judging(POSITION)
    if not checks:
        raise NothingToCheck(game, position.source)
    for registered in checks:
        try:
            results = list(registered.function(position))
        except Exception as error:  # a defect in the plugin must not read as a verdict
            raise CheckDefectError(
                f"the check {registered.rule} ({registered.name}) failed on this position with "
                f"{type(error).__name__}: {error}. This is a bug in the {game.id} plugin; please report it "
                "with the save file."
            ) from error
        stamps: dict = {}
        for result in results:
            yield _stamp(result, registered, stamps)


def iter_move_results(difference: Difference, game: Game | None = None) -> Iterator[Result]:
    """Every stamped result of the game's move checks on ``difference``; none when the game has no move checks."""
    game = game or get(difference.after.game)
    for registered in game.rules.judging(MOVE):
        try:
            results = list(registered.function(difference.before, difference.after, difference))
        except Exception as error:  # a defect in the plugin must not read as a verdict
            raise CheckDefectError(
                f"the move check {registered.rule} ({registered.name}) failed on the move from "
                f"{difference.before.source} to {difference.after.source} with {type(error).__name__}: {error}. "
                f"This is a bug in the {game.id} plugin; please report it with the two saves."
            ) from error
        stamps: dict = {}
        for result in results:
            yield _stamp(result, registered, stamps)


def check_move(difference: Difference, game: Game | None = None) -> Report:
    """The position checks of the position after, then the move checks of the difference, as one report.

    Each infraction is said once (:func:`validator.infractions.once`): a check tagged with two cases cites both.
    """
    from validator.infractions import once

    game = game or get(difference.after.game)
    with collector_paused():  # one move's checking: bounded work (see check)
        results = once((*iter_results(difference.after, game), *iter_move_results(difference, game)))
    return Report(position=difference.after, results=results, before=difference.before)


def iter_violations(position: Position, game: Game | None = None) -> Iterator[Violation]:
    return (result for result in iter_results(position, game) if isinstance(result, Violation))


def check(position: Position, game: Game | None = None) -> Report:
    """Every result, with the cycle collector paused: the checks' tables and results are bounded work.

    A position just read is still young to the collector, so while checks
    run every collection walks its pieces again (a tenth of the checking
    of 20,000 pieces); most of what the checks make is gone before the next.
    """
    with collector_paused():
        results = tuple(iter_results(position, game))
    return Report(position=position, results=results)


def is_legal(position: Position, game: Game | None = None) -> bool:
    return next(iter_violations(position, game), None) is None


def _stamp(result: Result, registered: Check, known: dict) -> Result:
    """The result with the runner's stamps; ``known`` keeps one check's stamps for each case, kind and severity.

    A big position yields hundreds of results from a few such triples, so
    the case is vetted and the stamps are worked out once per triple.
    """
    if not isinstance(result, (Violation, Finding)):
        raise CheckDefectError(f"{registered.rule} ({registered.name}) yielded {result!r}, not a Violation or Finding")
    key = (result.case, type(result), result.severity)
    stamps = known.get(key)
    if stamps is None:
        stamps = known[key] = _stamps(result, registered)
    return result.stamped(**stamps)


def _stamps(result: Result, registered: Check) -> dict:
    """What the runner stamps on ``result``: its case (refused outside the check's own), severity, rule and game."""
    case = result.case or registered.case
    if case is not registered.case and not case.is_within(registered.case):
        raise CheckDefectError(
            f"{registered.rule} ({registered.name}) narrowed its case to {case}, outside {registered.case}"
        )
    severity = result.severity or (registered.severity if isinstance(result, Violation) else "info")
    return {"case": case, "severity": severity, "rule": f"{registered.game}:{case}", "game": registered.game,
            "judges": registered.judges, "check": registered.name}
