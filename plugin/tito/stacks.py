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
from typing import NamedTuple

from validator.derived import memoised
from validator.model import Location, Piece, Position

from plugin.tito import facts, units


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
            pieces = tuple(piece for piece in stack if piece.type != facts.MARKER)  # units.is_marker
            if pieces:
                found.append((location_id, locations[location_id], pieces))
        return tuple(found)

    return memoised(position, "tito.placed", compute)


class Kind(NamedTuple):
    """What the checks ask of a piece, as :mod:`plugin.tito.units` answers it: the same for every piece alike.

    The answers turn on a piece's nationality, type, side and allegiance and
    on the position's Game-Turn alone, so they are worked out once per such
    kind of piece (a position repeats a few dozen kinds hundreds of times).
    """

    nationality: str
    side: str  # units.side
    marker: bool  # units.is_marker
    guerrilla: bool  # units.is_guerrilla
    axis_regular: bool  # units.is_axis_regular
    soviet_or_yugoslav_bulgarian: bool  # units.is_soviet_or_yugoslav_bulgarian
    neutral_chetnik: bool  # a Chetnik of neutral allegiance
    pro_axis_chetnik: bool  # units.is_pro_axis_chetnik


def _kind(piece: Piece, turn: int | None) -> Kind:
    return Kind(
        piece.nationality, units.side(piece, turn), units.is_marker(piece), units.is_guerrilla(piece),
        units.is_axis_regular(piece, turn), units.is_soviet_or_yugoslav_bulgarian(piece, turn),
        piece.nationality == "chetnik" and units.allegiance(piece) == "neutral", units.is_pro_axis_chetnik(piece),
    )


class _Sorted(NamedTuple):
    kinds: Mapping[str, Kind]  # by piece id
    zones: Mapping[str, str | None]  # by piece id: units.zone_of
    axis_regulars: tuple[Piece, ...]
    guerrillas: tuple[Piece, ...]


def _sorted(position: Position) -> _Sorted:
    """Each piece's kind, and the pieces of the kinds several checks walk, in the order of the save."""
    def compute() -> _Sorted:
        turn = units.turn_number(position)
        by_key: dict[tuple, Kind] = {}
        kinds: dict[str, Kind] = {}
        locations = position.map.locations
        zone_at: dict[str | None, str | None] = {}
        zones: dict[str, str | None] = {}
        axis_regulars: list[Piece] = []
        guerrillas: list[Piece] = []
        for piece in position.pieces:
            key = (piece.nationality, piece.type, piece.side, piece.attributes.get("allegiance", ""))
            kind = by_key.get(key)
            if kind is None:
                kind = by_key[key] = _kind(piece, turn)
            kinds[piece.id] = kind
            where = piece.location
            if where in zone_at:
                zones[piece.id] = zone_at[where]
            else:
                location = locations.get(where or "")
                zones[piece.id] = zone_at[where] = location.area if location is not None else None
            if kind.axis_regular:
                axis_regulars.append(piece)
            elif kind.guerrilla:
                guerrillas.append(piece)
        return _Sorted(MappingProxyType(kinds), MappingProxyType(zones), tuple(axis_regulars), tuple(guerrillas))

    return memoised(position, "tito.sorted", compute)


def kinds(position: Position) -> Mapping[str, Kind]:
    """Each piece's :class:`Kind` by its id (the reader refuses an id used twice)."""
    return _sorted(position).kinds


def zones(position: Position) -> Mapping[str, str | None]:
    """Each piece's zone by its id, as :func:`plugin.tito.units.zone_of` says (None off the map)."""
    return _sorted(position).zones


def axis_regulars(position: Position) -> tuple[Piece, ...]:
    """The pieces :func:`plugin.tito.units.is_axis_regular` says are Axis units proper, in the order of the save."""
    return _sorted(position).axis_regulars


def guerrillas(position: Position) -> tuple[Piece, ...]:
    """The pieces :func:`plugin.tito.units.is_guerrilla` says are guerrillas, on the map or off it, in save order."""
    return _sorted(position).guerrillas


def sides(position: Position) -> Mapping[str, str]:
    """Each piece's side by its id (the reader refuses an id used twice), as :func:`plugin.tito.units.side` says."""
    return memoised(position, "tito.sides", lambda: MappingProxyType(
        {piece_id: kind.side for piece_id, kind in kinds(position).items()}))


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
