"""The Third World War's move checks: territorials leaving home (15.1.3), units entering rival nations (15.4.1.2).

A difference between two positions shows where a unit went, not why: a
move and a retreat after combat look the same.  15.1.3 needs no more,
since it forbids both; 15.4.1.2 allows a retreat that had no other way, so
a unit the position after records as forced to retreat (a forced-retreat
event or the piece's flag) is left alone, as the position check does.
"""

from __future__ import annotations

from collections.abc import Iterator

from validator.model import Position
from validator.moves.diff import Difference
from validator.rules import Finding, Result, Violation, case

from plugin.tww import state, terms
from plugin.tww.rivals import table_for


def _nation_of(position: Position, location_id: str | None) -> str | None:
    location = state.hex_at(position, location_id)
    return location.area if location is not None else None


@case("15.1.3", judges="move")
def territorial_left_home(before: Position, after: Position, difference: Difference) -> Iterator[Violation]:
    """A territorial that stood in its home country never goes out of it, by moving or by retreating."""
    for move in difference.moved:
        piece = move.after
        if not state.is_territorial(piece):
            continue
        start, end = _nation_of(before, move.start), _nation_of(after, move.end)
        if start == piece.nationality and end is not None and end != piece.nationality:
            home = state.nation_name(after, piece.nationality)
            yield Violation(
                f"{difference.describe_move(move)}: a {home} territorial left its home country for "
                f"{state.nation_name(after, end)}; territorials never leave it, not even in a retreat",
                move.end, (piece.id,), facts={"home": piece.nationality, "entered": end},
            )


@case("15.4.1.2", judges="move")
def unit_entered_rival_nation(before: Position, after: Position, difference: Difference) -> Iterator[Result]:
    """A unit goes into a rival nation on its side only when a retreat leaves it no other way."""
    table = table_for(after)
    forced = state.pieces_in_events(after, state.FORCED_RETREAT)
    for move in difference.moved:
        piece = move.after
        if state.is_air(piece) or piece.side not in terms.SIDES or piece.id in forced:
            continue
        if state.flag(piece, "forced-retreat"):
            continue
        end = _nation_of(after, move.end)
        if end is None or end == _nation_of(before, move.start) or not table.are_rivals(piece.nationality, end):
            continue
        names = state.nation_name(after, piece.nationality), state.nation_name(after, end)
        side = state.nation_side(after, end)
        if side is None:
            yield Finding(
                f"{difference.describe_move(move)}: a unit of {names[0]} entered {names[1]}, its rival, but the side "
                f"{names[1]} is committed to is unknown (fact {state.NATION_SIDE}{end} or the area's side)",
                move.end, (piece.id,), severity="unchecked",
            )
        elif side == piece.side:
            yield Violation(
                f"{difference.describe_move(move)}: a unit of {names[0]} entered {names[1]}, a rival nation on its "
                "side, and the position after records no forced retreat that sent it there",
                move.end, (piece.id,), facts={"nations": sorted((piece.nationality, end))},
            )
