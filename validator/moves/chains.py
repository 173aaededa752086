"""Whether one save follows from the previous one of the same game: the links of a chain of saves.

A save follows from the one before it when both are of the same game and
scenario, its Game-Turn and phase do not go back (a *rewind*), and no piece
changed in a way no move explains.  A move changes where a piece stands,
and may change its strength, side or markers (a combat, a collaboration
roll); it never turns one unit into another, so a piece whose name,
nationality, type or size differs under the same id is an *unexplained
change*.  The moves between two saves that do follow are then judged by the
game's move checks (see :func:`validator.runner.check_move`).

Turns are compared with the game's ``turn_order`` (whole numbers when it
gives none) and phases within a turn with its ``phases``; a turn or phase
that cannot be placed in that order is not called a rewind.
"""

from __future__ import annotations

from dataclasses import dataclass

from validator.games import Game
from validator.model import Position
from validator.moves.diff import Changed, Difference
from validator.numbers import is_whole_number
from validator.rules import Finding

IDENTITY = ("name", "nationality", "type", "size")
GAME, SCENARIO, REWIND, UNEXPLAINED = "game", "scenario", "rewind", "unexplained-change"


@dataclass(frozen=True)
class Break:
    """Why a save does not follow from the previous one: what kind of break, in a sentence, and the pieces."""

    kind: str
    message: str
    pieces: tuple[str, ...] = ()

    def to_json(self, names: dict[str, str]) -> dict:
        return {"kind": self.kind, "message": self.message, "pieces": list(self.pieces),
                "piece_names": [names.get(piece, piece) for piece in self.pieces]}


def unrelated(before: Position, after: Position) -> list[Break]:
    """Breaks that make comparing the two saves meaningless: another game, another scenario."""
    if before.game != after.game:
        return [Break(GAME, f"{after.source} is a save of {after.game}, but {before.source} is a save of "
                            f"{before.game}; a chain holds the saves of one game")]
    if before.scenario != after.scenario:
        return [Break(SCENARIO, f"{after.source} is of the scenario '{after.scenario or '(none)'}', but "
                                f"{before.source} is of '{before.scenario or '(none)'}'; a chain holds the saves "
                                "of one game")]
    return []


def rewind(game: Game, before: Position, after: Position) -> Break | None:
    """A break when the save after is earlier in the game than the save before."""
    first, last = _turn_key(game, before.turn), _turn_key(game, after.turn)
    if first is None or last is None or last > first:
        return None
    if last < first:
        return Break(REWIND, f"{after.source} is of Game-Turn {after.turn}, before Game-Turn {before.turn} of "
                             f"{before.source}: the game went back; put the saves in playing order")
    earlier, later = _phase_index(game, before.phase), _phase_index(game, after.phase)
    if earlier is not None and later is not None and later < earlier:
        return Break(REWIND, f"{after.source} is in the {after.phase} phase of Game-Turn {after.turn}, which comes "
                             f"before the {before.phase} phase of {before.source}: the game went back; put the "
                             "saves in playing order")
    return None


def allowed(difference: Difference, game: Game) -> list[Finding]:
    """A finding for each piece that became another unit in a way the game allows (its ``allowed_change``).

    The finding has the severity the hook gives: ``info`` when the saves
    show the change allowed, ``unchecked`` when the rules allow it only on
    what the saves do not show (a schedule, a count of groups), so the
    arbiter must confirm it and the report says so.
    """
    found = []
    for change in _identity_changes(difference):
        allowance = _allowance(difference, game, change)
        if allowance is not None:
            case, why, severity = allowance
            found.append(Finding(f"{change.before.name or change.id} became {change.after.name or change.id} "
                                 f"under the same id: {why}", location=change.after.location, pieces=[change.id],
                                 case=case, severity=severity, rule=f"{game.id}:{case}", game=game.id,
                                 judges="move"))
    return found


def _identity_changes(difference: Difference) -> list[Changed]:
    return [change for change in difference.changed if any(name in IDENTITY for name in change.values)]


def _allowance(difference: Difference, game: Game, change: Changed) -> tuple[str, str, str] | None:
    if game.allowed_change is None:
        return None
    return game.allowed_change(difference.before, difference.after, change.before, change.after)


def unexplained(difference: Difference, game: Game | None = None) -> list[Break]:
    """A break for each piece that became another unit under the same id, unless the game allows the change."""
    found = []
    for change in difference.changed:
        identity = [name for name in change.values if name in IDENTITY]
        if identity and (game is None or _allowance(difference, game, change) is None):
            what = "; ".join(f"{name} {getattr(change.before, name) or '(none)'} -> "
                             f"{getattr(change.after, name) or '(none)'}" for name in identity)
            found.append(Break(UNEXPLAINED, f"the piece {change.id} of {difference.before.source} is another unit "
                                            f"in {difference.after.source} ({what}); no move turns one unit into "
                                            "another", (change.id,)))
    return found


def _turn_key(game: Game, turn: str) -> object | None:
    if not turn:
        return None
    if game.turn_order is not None:
        return game.turn_order(turn)
    return int(turn) if is_whole_number(turn) else None


def _phase_index(game: Game, phase: str) -> int | None:
    return game.phases.index(phase) if phase in game.phases else None
