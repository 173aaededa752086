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

from plugin.tito import facts, units


def stacks(position: Position) -> Mapping[str, tuple[Piece, ...]]:
    """Pieces grouped by location, in the order the save lists them (markers included)."""
    return _sorted(position)[_STACKS]


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


class Kind:
    """What the checks ask of a piece, as :mod:`plugin.tito.units` answers it: the same for every piece alike.

    The answers turn on a piece's nationality, type, side and allegiance and
    on the position's Game-Turn alone, so they are worked out once per such
    kind of piece (a position repeats a few dozen kinds hundreds of times);
    pieces alike share one Kind.  Never changed once made.  A plain class with
    slots, not a named tuple: it is made at every start-up, and a named tuple's
    class costs a tenth of a millisecond or more to make.
    """

    __slots__ = ("nationality", "side", "marker", "guerrilla", "axis_regular", "soviet_or_yugoslav_bulgarian",
                 "neutral_chetnik", "pro_axis_chetnik")

    def __init__(self, piece: Piece, turn: int | None) -> None:
        self.nationality = piece.nationality
        self.side = units.side(piece, turn)
        self.marker = units.is_marker(piece)
        self.guerrilla = units.is_guerrilla(piece)
        self.axis_regular = units.is_axis_regular(piece, turn)
        self.soviet_or_yugoslav_bulgarian = units.is_soviet_or_yugoslav_bulgarian(piece, turn)
        self.neutral_chetnik = piece.nationality == "chetnik" and units.allegiance(piece) == "neutral"
        self.pro_axis_chetnik = units.is_pro_axis_chetnik(piece)

    def __setattr__(self, name: str, value: object) -> None:
        if hasattr(self, name):
            raise AttributeError(f"a piece's Kind is never changed ({name})")
        object.__setattr__(self, name, value)


_KINDS, _SIDES, _ZONES, _STACKS, _AXIS_REGULARS, _GUERRILLAS = range(6)  # the parts _sorted gives, in order


def _sorted(position: Position) -> tuple:
    """One pass over the pieces: each one's kind, side and zone, the stacks, and the pieces of the kinds several
    checks walk, in the order of the save."""
    def compute() -> tuple:
        turn = units.turn_number(position)
        by_key: dict[tuple, Kind] = {}
        kinds: dict[str, Kind] = {}
        sides: dict[str, str] = {}
        locations = position.map.locations
        zone_at: dict[str | None, str | None] = {}
        zones: dict[str, str | None] = {}
        grouped: dict[str, list[Piece]] = {}
        axis_regulars: list[Piece] = []
        guerrillas: list[Piece] = []
        for piece in position.pieces:
            key = (piece.nationality, piece.type, piece.side, piece.attributes.get("allegiance", ""))
            kind = by_key.get(key)
            if kind is None:
                kind = by_key[key] = Kind(piece, turn)
            piece_id, where = piece.id, piece.location
            kinds[piece_id] = kind
            sides[piece_id] = kind.side
            if where in zone_at:
                zones[piece_id] = zone_at[where]
                if where is not None:
                    grouped[where].append(piece)
            else:
                location = locations.get(where or "")
                zones[piece_id] = zone_at[where] = location.area if location is not None else None
                if where is not None:
                    grouped[where] = [piece]
            if kind.axis_regular:
                axis_regulars.append(piece)
            elif kind.guerrilla:
                guerrillas.append(piece)
        return (  # in the order of _KINDS ... _GUERRILLAS
            MappingProxyType(kinds), MappingProxyType(sides), MappingProxyType(zones),
            MappingProxyType({where: tuple(stack) for where, stack in grouped.items()}),
            tuple(axis_regulars), tuple(guerrillas),
        )

    return memoised(position, "tito.sorted", compute)


def kinds(position: Position) -> Mapping[str, Kind]:
    """Each piece's :class:`Kind` by its id (the reader refuses an id used twice)."""
    return _sorted(position)[_KINDS]


def zones(position: Position) -> Mapping[str, str | None]:
    """Each piece's zone by its id, as :func:`plugin.tito.units.zone_of` says (None off the map)."""
    return _sorted(position)[_ZONES]


def axis_regulars(position: Position) -> tuple[Piece, ...]:
    """The pieces :func:`plugin.tito.units.is_axis_regular` says are Axis units proper, in the order of the save."""
    return _sorted(position)[_AXIS_REGULARS]


def guerrillas(position: Position) -> tuple[Piece, ...]:
    """The pieces :func:`plugin.tito.units.is_guerrilla` says are guerrillas, on the map or off it, in save order."""
    return _sorted(position)[_GUERRILLAS]


def sides(position: Position) -> Mapping[str, str]:
    """Each piece's side by its id (the reader refuses an id used twice), as :func:`plugin.tito.units.side` says."""
    return _sorted(position)[_SIDES]


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
