"""Stacking (section 3): how many units one hex may hold."""

from __future__ import annotations

from collections.abc import Iterator

from validator.model import Position
from validator.rules import Violation, case
from validator.wording import plural

LIMIT = 2  # units in one hex (3.1)
MOVING = "movement"  # while a side moves, stacking is not judged yet (3.2)


@case("3.1")
def crowded_hex(position: Position) -> Iterator[Violation]:
    """No hex may hold more than two units, of either side, once movement has ended."""
    if position.phase == MOVING:
        return
    for hex_id, pieces in position.stacks().items():
        if len(pieces) > LIMIT:
            names = ", ".join(piece.name for piece in pieces)
            yield Violation(
                f"{plural(len(pieces), 'unit')} in {position.location_label(hex_id)} ({names}); the limit is {LIMIT}",
                location=hex_id, pieces=[piece.id for piece in pieces],
            )
