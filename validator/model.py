"""A position as the rules see it: pieces at named locations, game state, map data.

Readers produce these values (from our save XML, or from VASSAL files through
a module mapping); checks read them.  Game-specific attributes travel in
``attributes`` maps and are interpreted by the game's plugin, never here.
Every element remembers the source line it came from, for messages.
"""

from __future__ import annotations

import marshal
from collections.abc import ItemsView, Iterable, Iterator, KeysView, Mapping, ValuesView
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import NamedTuple

EMPTY: Mapping[str, str] = MappingProxyType({})


def _no_attributes() -> Mapping[str, str]:
    return EMPTY


class _Labelled:
    """A map element named by its name, or by its id where it has none."""

    id: str
    name: str

    @property
    def label(self) -> str:
        return self.name or self.id


@dataclass(frozen=True)
class Area(_Labelled):
    """A region of the map: a Tito zone, a country, a sea area."""

    id: str
    name: str = ""
    neighbours: tuple[str, ...] = ()
    attributes: Mapping[str, str] = field(default_factory=_no_attributes)
    line: int = 0


@dataclass(frozen=True)
class Display(_Labelled):
    """A named group of locations inside an area (a Tito Objective Display)."""

    id: str
    area: str
    name: str = ""
    attributes: Mapping[str, str] = field(default_factory=_no_attributes)
    line: int = 0


@dataclass(frozen=True)
class Location(_Labelled):
    """Where a piece can stand: a box, triangle, circle or hex."""

    id: str
    kind: str
    area: str | None = None
    display: str | None = None
    name: str = ""
    attributes: Mapping[str, str] = field(default_factory=_no_attributes)
    neighbours: tuple[str, ...] = ()
    line: int = 0


LOCATION_FIELDS = tuple(location_field.name for location_field in fields(Location))


def _built_location(row: tuple) -> Location:
    """A Location from its fields in order, without the frozen dataclass's field-by-field ``__init__``.

    The frozen ``__init__`` sets each field through ``object.__setattr__``, a quarter of
    the cost of reading a hex; filling the instance's ``__dict__`` at once gives the same
    value.  The attributes are made read-only here, so a row may hold a plain dict.
    """
    if type(row) is bytes:  # as a prepared map keeps a row: decoded only when the location is asked for
        row = marshal.loads(row)
    location = object.__new__(Location)
    values = dict(zip(LOCATION_FIELDS, row, strict=True))
    attributes = values["attributes"]
    if type(attributes) is tuple:  # (names, values), as a prepared map keeps them
        attributes = dict(zip(*attributes, strict=True))
    if type(attributes) is not MappingProxyType:
        values["attributes"] = MappingProxyType(attributes) if attributes else EMPTY
    object.__setattr__(location, "__dict__", values)
    return location


class LocationTable(Mapping[str, Location]):
    """A map's locations by id, each :class:`Location` built the first time it is asked for.

    A Europe-size map holds tens of thousands of hexes, and building a frozen
    value for each one cost more than parsing the map; a save's checks look at
    the hexes its pieces stand in and their neighbours.  So the table keeps each
    location as a row of its fields (in :data:`LOCATION_FIELDS` order; the
    attributes a mapping, or a pair of names and values), or that row in
    ``marshal``'s bytes (a prepared map loads one bytes object per location,
    not a dozen), and builds the value on first use, once.  Ids, membership and length never build anything.
    Read-only, like every mapping of the model.
    """

    __slots__ = ("_rows", "_built")

    def __init__(self, rows: Mapping[str, tuple] | None = None) -> None:
        self._rows: dict[str, tuple] = dict(rows or {})
        self._built: dict[str, Location] = {}

    @classmethod
    def of(cls, locations: Iterable[Location]) -> LocationTable:
        """A table of values already built (small maps, tests): each is kept as it is."""
        table = cls()
        for location in locations:
            table._rows[location.id] = tuple(getattr(location, name) for name in LOCATION_FIELDS)
            table._built[location.id] = location
        return table

    @property
    def rows(self) -> Mapping[str, tuple]:
        """Every location's fields (or their bytes) by id, nothing built: for the code that stores a prepared map."""
        return MappingProxyType(self._rows)

    def __getitem__(self, location_id: str) -> Location:
        built = self._built.get(location_id)
        if built is None:
            built = self._built.setdefault(location_id, _built_location(self._rows[location_id]))
        return built

    def get(self, location_id: str, default=None):
        return self[location_id] if location_id in self._rows else default

    def __contains__(self, location_id: object) -> bool:
        return location_id in self._rows

    def __iter__(self) -> Iterator[str]:
        return iter(self._rows)

    def __len__(self) -> int:
        return len(self._rows)

    def keys(self) -> KeysView[str]:
        return self._rows.keys()  # a dict's own view: set tests over every id run in C

    def values(self) -> ValuesView[Location]:
        """Every location in map order, all built now: a pass over the whole map runs at a dict's speed."""
        return self._every_location().values()

    def items(self) -> ItemsView[str, Location]:
        return self._every_location().items()

    def _every_location(self) -> Mapping[str, Location]:
        if len(self._built) < len(self._rows):
            built = self._built
            self._built = {
                location_id: built.get(location_id) or _built_location(row) for location_id, row in self._rows.items()
            }
        return MappingProxyType(self._built)

    def __repr__(self) -> str:
        return f"LocationTable({len(self._rows)} locations)"


@dataclass(frozen=True)
class MapData:
    """Everything the rules need about the map, given once and shared by many saves."""

    id: str = ""
    source: str = ""
    attributes: Mapping[str, str] = field(default_factory=_no_attributes)
    areas: Mapping[str, Area] = field(default_factory=_no_attributes)
    displays: Mapping[str, Display] = field(default_factory=_no_attributes)
    locations: Mapping[str, Location] = field(default_factory=_no_attributes)
    line: int = 0  # the line of the <map> element in ``source``, for problems with the map as a whole
    derived: dict = field(default_factory=dict, init=False, compare=False, repr=False)  # see Position.derived

    def location_label(self, location_id: str | None) -> str:
        """A location's name for messages: "Serbia / Axis Mountain"."""
        if location_id is None:
            return "off the map"
        location = self.locations.get(location_id)
        if location is None:
            return location_id
        area = self.areas.get(location.area or "")
        display = self.displays.get(location.display or "")
        parts = [part.label for part in (area, display) if part is not None] + [location.label]
        return " / ".join(parts)


class Piece(NamedTuple):
    """A unit or marker on the map (or off it, with no location).

    A named tuple, not a frozen dataclass like its neighbours: a save may hold
    thousands of pieces, and a named tuple is built four times faster.
    """

    id: str
    name: str
    side: str = ""
    nationality: str = ""
    type: str = ""
    size: str = ""
    strength: int | None = None
    location: str | None = None
    attributes: Mapping[str, str] = EMPTY
    line: int = 0

    def attribute(self, name: str, default: str = "") -> str:
        return self.attributes.get(name, default)


@dataclass(frozen=True)
class Event:
    """Something declared in the position's turn: an operation, an attack, a retreat."""

    kind: str
    area: str | None = None
    pieces: tuple[str, ...] = ()
    attributes: Mapping[str, str] = field(default_factory=_no_attributes)
    line: int = 0


@dataclass(frozen=True)
class Position:
    """One saved position of one game."""

    game: str
    map: MapData
    pieces: tuple[Piece, ...] = ()
    scenario: str = ""
    turn: str = ""
    phase: str = ""
    phasing: str = ""
    facts: Mapping[str, tuple[str, ...]] = field(default_factory=_no_attributes)
    events: tuple[Event, ...] = ()
    source: str = ""
    line: int = 0  # the line of the <position> element, for problems with its attributes
    # The line of each value of each fact, in the order of ``facts``: a fact may be given
    # several times, and a problem with one value must point at that value's line.
    fact_lines: Mapping[str, tuple[int, ...]] = field(default_factory=_no_attributes, compare=False)
    # What a plugin works out from this position once and every check reads (keyed by the
    # plugin's own name).  It lives and dies with the position, so no global cache keeps
    # a checked position alive; it is not part of the position's value.
    derived: dict = field(default_factory=dict, init=False, compare=False, repr=False)

    def fact(self, name: str, default: str | None = None) -> str | None:
        """The single value of a fact, or ``default`` when the save does not give it."""
        values = self.facts.get(name)
        return values[-1] if values else default

    def fact_line(self, name: str, index: int = 0) -> int:
        """The line of a fact's ``index``-th value (its first by default), or 0 when the reader gave none."""
        lines = self.fact_lines.get(name, ())
        return lines[index] if -len(lines) <= index < len(lines) else 0

    def fact_entries(self, name: str) -> list[tuple[str, int]]:
        """Each value of a fact with the line it came from."""
        return [(value, self.fact_line(name, index)) for index, value in enumerate(self.facts.get(name, ()))]

    def pieces_at(self, location: str) -> list[Piece]:
        return [piece for piece in self.pieces if piece.location == location]

    def stacks(self) -> dict[str, list[Piece]]:
        """Pieces grouped by location, in the order the save lists them."""
        grouped: dict[str, list[Piece]] = {}
        for piece in self.pieces:
            if piece.location is not None:
                grouped.setdefault(piece.location, []).append(piece)
        return grouped

    def piece(self, piece_id: str) -> Piece | None:
        return next((piece for piece in self.pieces if piece.id == piece_id), None)

    def location_label(self, location_id: str | None) -> str:
        """A location's name for messages: "Serbia / Axis Mountain"."""
        return self.map.location_label(location_id)
