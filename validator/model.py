"""A position as the rules see it: pieces at named locations, game state, map data.

Readers produce these values (from our save XML, or from VASSAL files through
a module mapping); checks read them.  Game-specific attributes travel in
``attributes`` maps and are interpreted by the game's plugin, never here.
Every element remembers the source line it came from, for messages.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
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
