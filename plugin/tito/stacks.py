"""What stands where in a Tito position, and for which side, worked out once per position and shared by every check.

Several checks walk the same stacks; each used to group the pieces again.
The grouping is kept in the position's ``derived`` memo
(:mod:`validator.derived`), as tuples, so no check can change what another
reads.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from fractions import Fraction
from types import MappingProxyType

from validator.derived import memoised
from validator.model import Location, Piece, Position

from plugin.tito import units


def stacks(position: Position) -> Mapping[str, tuple[Piece, ...]]:
    """Pieces grouped by location, in the order the save lists them (markers included)."""
    return memoised(position, "tito.stacks", lambda: MappingProxyType(
        {location_id: tuple(stack) for location_id, stack in position.stacks().items()}))


def placed(position: Position) -> tuple[tuple[str, Location, tuple[Piece, ...]], ...]:
    """Each occupied location with its pieces, markers left out, in the order of :func:`stacks`."""
    def compute() -> tuple[tuple[str, Location, tuple[Piece, ...]], ...]:
        locations = position.map.locations
        found = []
        for location_id, stack in stacks(position).items():
            pieces = tuple(piece for piece in stack if not units.is_marker(piece))
            if pieces:
                found.append((location_id, locations[location_id], pieces))
        return tuple(found)

    return memoised(position, "tito.placed", compute)


def sides(position: Position) -> Mapping[str, str]:
    """Each piece's side by its id (the reader refuses an id used twice), as :func:`plugin.tito.units.side` says."""
    def compute() -> Mapping[str, str]:
        turn = units.turn_number(position)
        return MappingProxyType({piece.id: units.side(piece, turn) for piece in position.pieces})

    return memoised(position, "tito.sides", compute)


def division_total(pieces: Iterable[Piece]) -> Fraction:
    """The pieces' division-equivalents added up (6.22).

    What a piece counts depends on its type and size alone
    (:func:`plugin.tito.units.division_equivalent`), so the pieces are
    counted by the two, and the kinds' values are added as whole numbers
    over a common denominator: a fraction added per piece cost more than
    the rest of the stacking check.
    """
    kinds: dict[tuple[str, str], list] = {}
    for piece in pieces:
        kind = kinds.get((piece.type, piece.size))
        if kind is None:
            kinds[piece.type, piece.size] = [piece, 1]
        else:
            kind[1] += 1
    values = [(units.division_equivalent(first), count) for first, count in kinds.values()]
    denominator = math.lcm(*(value.denominator for value, _ in values))
    return Fraction(sum(value.numerator * (denominator // value.denominator) * count for value, count in values),
                    denominator)
