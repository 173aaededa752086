"""Running a game's checks against a position: three ways to ask.

``iter_results`` yields every stamped result (violations and findings);
``iter_violations`` only what the position breaks; ``check`` gathers them
into a :class:`Report`; ``is_legal`` answers yes or no.  Like jsonschema's
``iter_errors`` / ``validate`` / ``is_valid``, the runner -- not the check --
records which case produced each result.
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache
from typing import Iterator

from validator.cases import CaseNumber
from validator.games import Game, get
from validator.model import Position
from validator.report import Report
from validator.rules import Check, Finding, Result, Violation


class CheckDefectError(RuntimeError):
    """A check yielded something malformed: a bug in the plugin, not in the position."""


def iter_results(position: Position, game: Game | None = None) -> Iterator[Result]:
    game = game or get(position.game)
    for registered in game.rules.checks():
        try:
            results = list(registered.function(position))
        except Exception as error:  # a defect in the plugin must not read as a verdict
            raise CheckDefectError(
                f"the check {registered.rule} ({registered.name}) failed on this position with "
                f"{type(error).__name__}: {error}. This is a bug in the {game.id} plugin; please report it "
                "with the save file."
            ) from error
        for result in results:
            yield _stamp(result, registered)


def iter_violations(position: Position, game: Game | None = None) -> Iterator[Violation]:
    return (result for result in iter_results(position, game) if isinstance(result, Violation))


def check(position: Position, game: Game | None = None) -> Report:
    return Report(position=position, results=tuple(iter_results(position, game)))


def is_legal(position: Position, game: Game | None = None) -> bool:
    return next(iter_violations(position, game), None) is None


def _stamp(result: Result, registered: Check) -> Result:
    if not isinstance(result, (Violation, Finding)):
        raise CheckDefectError(f"{registered.rule} ({registered.name}) yielded {result!r}, not a Violation or Finding")
    case = result.case or registered.case
    if case is not registered.case and not case.is_within(registered.case):
        raise CheckDefectError(f"{registered.rule} ({registered.name}) narrowed its case to {case}, outside {registered.case}")
    severity = result.severity or (registered.severity if isinstance(result, Violation) else "info")
    return dataclasses.replace(result, case=case, severity=severity, rule=_rule_name(registered.game, case), game=registered.game)


@lru_cache(maxsize=1024)
def _rule_name(game: str, case: CaseNumber) -> str:
    """"tito:6.21": asked once per result, and a big position yields hundreds from a few cases."""
    return f"{game}:{case}"
