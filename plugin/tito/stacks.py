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
from operator import itemgetter
from types import MappingProxyType

from validator.derived import memoised
from validator.model import Location, Piece, Position

from plugin.tito import units


def stacks(position: Position) -> Mapping[str, tuple[Piece, ...]]:
    """Pieces grouped by location, in the order the save lists them (markers included)."""
    return _sorted(position).stacks


class Stack(tuple):
    """An occupied location and what stands there, markers left out: the pieces, each one's :class:`Kind` (in
    the same order), and the kinds present, each once, in the order their first pieces stand.

    A check asks first whether a kind it looks for is ``present`` (a few
    kinds, where a stack holds several pieces) and walks the pieces only
    then.  A tuple, so never changed once made; its fields are named by hand,
    as a named tuple's would be, without the cost of making a named tuple's
    class at every start-up (see :class:`Kind`).
    """

    __slots__ = ()

    id = property(itemgetter(0), doc="The location's id.")
    location = property(itemgetter(1), doc="The location.")
    pieces = property(itemgetter(2), doc="The pieces standing there, markers left out, in save order.")
    kinds = property(itemgetter(3), doc="Each piece's Kind, in the order of ``pieces``.")
    present = property(itemgetter(4), doc="The kinds of ``kinds``, each once, in the order they first appear.")


def placed(position: Position) -> tuple[Stack, ...]:
    """Each occupied location with its pieces, markers left out, in the order of :func:`stacks`."""
    return _sorted(position).placed


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
        answers = (
            piece.nationality, units.side(piece, turn), units.is_marker(piece), units.is_guerrilla(piece),
            units.is_axis_regular(piece, turn), units.is_soviet_or_yugoslav_bulgarian(piece, turn),
            piece.nationality == "chetnik" and units.allegiance(piece) == "neutral", units.is_pro_axis_chetnik(piece),
        )
        for name, answer in zip(self.__slots__, answers, strict=True):
            object.__setattr__(self, name, answer)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a piece's Kind is never changed ({name})")


class _Sorting:
    """What one pass over a position's pieces gives (see :func:`_sorted`)."""

    __slots__ = ("stacks", "placed", "axis_regulars", "guerrillas", "zone_at")

    def __init__(self, stacks: Mapping[str, tuple[Piece, ...]], placed: tuple[Stack, ...],
                 axis_regulars: tuple[Piece, ...], guerrillas: tuple[Piece, ...],
                 zone_at: Mapping[str | None, str | None]) -> None:
        self.stacks, self.placed = stacks, placed
        self.axis_regulars, self.guerrillas, self.zone_at = axis_regulars, guerrillas, zone_at


def _sorted(position: Position) -> _Sorting:
    """One pass over the pieces: each one's kind, the stacks (with and without markers), and the pieces of the kinds
    several checks walk, in the order of the save."""
    def compute() -> _Sorting:
        turn = units.turn_number(position)
        by_key: dict[tuple, Kind] = {}
        grouped: dict[str, tuple[list[Piece], list[Kind]]] = {}
        axis_regulars: list[Piece] = []
        guerrillas: list[Piece] = []
        marked: set[str | None] = set()
        for piece in position.pieces:
            nationality = piece.nationality
            # A Kind's answers turn on the allegiance of Chetniks alone (and validation refuses it on others).
            key = (nationality, piece.type, piece.side,
                   piece.attributes.get("allegiance", "") if nationality == "chetnik" else "")
            kind = by_key.get(key)
            if kind is None:
                kind = by_key[key] = Kind(piece, turn)
            where = piece.location
            if where is not None:
                stack = grouped.get(where)
                if stack is None:
                    grouped[where] = ([piece], [kind])
                else:
                    stack[0].append(piece)
                    stack[1].append(kind)
            if kind.axis_regular:
                axis_regulars.append(piece)
            elif kind.guerrilla:
                guerrillas.append(piece)
            elif kind.marker:
                marked.add(where)
        locations = position.map.locations
        zone_at: dict[str | None, str | None] = {None: None}
        for where in grouped:
            location = locations.get(where)
            zone_at[where] = location.area if location is not None else None
        standing = {where: tuple(pieces) for where, (pieces, _) in grouped.items()}
        return _Sorting(
            MappingProxyType(standing), _without_markers(grouped, standing, marked, locations), tuple(axis_regulars),
            tuple(guerrillas), MappingProxyType(zone_at),
        )

    return memoised(position, "tito.sorted", compute)


def _without_markers(grouped: Mapping[str, tuple[list[Piece], list[Kind]]], standing: Mapping[str, tuple[Piece, ...]],
                     marked: set[str | None], locations: Mapping[str, Location]) -> tuple[Stack, ...]:
    """The stacks with their markers left out (``marked``: the locations where markers stand; ``standing``: each
    location's pieces as :func:`stacks` gives them, shared where no marker stands)."""
    found = []
    for where, (pieces, kinds) in grouped.items():
        if where in marked:
            kept = [(piece, kind) for piece, kind in zip(pieces, kinds, strict=True) if not kind.marker]
            if not kept:
                continue
            pieces, kinds = tuple(piece for piece, _ in kept), [kind for _, kind in kept]
        else:
            pieces = standing[where]
        found.append(Stack((where, locations[where], pieces, tuple(kinds), tuple(dict.fromkeys(kinds)))))
    return tuple(found)


def placed_at(position: Position) -> Mapping[str, Stack]:
    """The stacks of :func:`placed` by their location's id."""
    return memoised(position, "tito.placed-at", lambda: MappingProxyType(
        {stack.id: stack for stack in placed(position)}))


def location_zones(position: Position) -> Mapping[str | None, str | None]:
    """The zone of each location a piece stands at, as :func:`plugin.tito.units.zone_of` says (None for None, off
    the map): a piece's zone is ``location_zones(position)[piece.location]``."""
    return _sorted(position).zone_at


def axis_regulars(position: Position) -> tuple[Piece, ...]:
    """The pieces :func:`plugin.tito.units.is_axis_regular` says are Axis units proper, in the order of the save."""
    return _sorted(position).axis_regulars


def guerrillas(position: Position) -> tuple[Piece, ...]:
    """The pieces :func:`plugin.tito.units.is_guerrilla` says are guerrillas, on the map or off it, in save order."""
    return _sorted(position).guerrillas


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
