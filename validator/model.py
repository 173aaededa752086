"""A position as the rules see it: pieces at named locations, game state, map data.

Readers produce these values (from our save XML, or from VASSAL files through
a module mapping); checks read them.  Game-specific attributes travel in
``attributes`` maps and are interpreted by the game's plugin, never here.
Every element remembers the source line it came from, for messages.
"""

from __future__ import annotations

import marshal
from collections import deque
from collections.abc import Callable, Collection, ItemsView, Iterable, Iterator, KeysView, Mapping, Sequence, ValuesView
from dataclasses import dataclass, field, fields
from itertools import islice, repeat
from operator import add, and_, floordiv, itemgetter, mod, mul
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
ATTRIBUTES = LOCATION_FIELDS.index("attributes")


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


class HexColumns:
    """A map's hexes as the map reader finds them, a column per field: each hex's location is made when asked for.

    A Europe-size map has twenty thousand hexes written with a handful of
    sets of attribute names; keeping them as columns lets a whole column be
    read, validated or stored in C, and a hex's row (and its neighbours on the
    grid) be made only for the hexes a save's checks look at.  ``names[i]``
    and ``values[i]`` are hex ``i``'s attributes as lxml gives them (the
    names tuples shared by the hexes written alike), its own ``id`` and
    ``area`` among them: those are its fields, not game attributes, so its
    location's attributes, :meth:`attribute_column` and
    :meth:`attribute_values` leave them out.  With a ``layout`` the neighbours follow from
    the hexes' whole-number column and row (:mod:`validator.hexgrid`); without
    one a hex has none.  Never changed once made: a prepared map's columns are
    shared by every save checked on it, so the columns (and :meth:`every_neighbours`)
    are tuples, copied once when made from lists; each hex's ``values`` stay
    the lists lxml gives (a tuple per hex would cost more than the read), which
    only this class and the code that stores a prepared map (:meth:`parts`)
    read, and never change.

    On the grid a hex is keyed by one whole number, ``column * span + row -
    lowest row``, with ``span`` three more than the rows' range, so a step off
    the top or bottom of a column never lands on a hex of the next, and the
    six steps to the neighbours are six numbers to add (which six depends on
    whether the column and the row are odd).
    """

    OWN = ("id", "area")  # written among the attributes, but the hex's own fields

    __slots__ = ("ids", "areas", "names", "values", "lines", "layout", "_keys", "_grid",
                 "_steps", "_shapes", "_groups", "_game", "_every_neighbours")

    def __init__(self, ids: Sequence[str], areas: Sequence[str | None], names: Sequence[tuple[str, ...]],
                 values: Sequence[Sequence[str]], lines: Sequence[int], layout: str | None,
                 keys: tuple[Sequence[int], int, int] | None = None) -> None:
        # tuple() of a tuple is the same tuple: columns loaded from a prepared map as tuples cost nothing here
        self.ids, self.areas, self.names, self.values = tuple(ids), tuple(areas), tuple(names), tuple(values)
        self.lines, self.layout = tuple(lines), layout
        if keys is not None:
            keys = tuple(keys[0]), keys[1], keys[2]
        self._keys = keys  # each hex's key, the span and the lowest row: one value, so a thread sees all or none
        self._grid: dict[int, str] | None = None  # key -> hex id
        self._steps: list[list[int]] = []  # by 2 * (column is odd) + (row is odd): what each of the six steps adds
        self._shapes: frozenset | None = None  # the distinct tuples of names
        self._groups: list | None = None  # see _by_attribute_names
        # id(names) -> the game's names, a picker of their values, and the names (kept: their id stays theirs)
        self._game: dict[int, tuple] = {}
        self._every_neighbours: tuple[tuple[str, ...], ...] | None = None

    def parts(self) -> tuple:
        """What the columns are made of (plain lists, tuples, strings and numbers): for the code that stores a
        prepared map.  ``HexColumns(*parts)`` is the same hexes."""
        self.grid()
        return self.ids, self.areas, self.names, self.values, self.lines, self.layout, self._keys

    def location(self, index: int) -> Location:
        """Hex ``index`` as a :class:`Location`, its fields' dict filled at once (as :func:`_built_location` does)."""
        names, values = self._game_attributes(index)
        location = object.__new__(Location)
        object.__setattr__(location, "__dict__", {
            "id": self.ids[index], "kind": "hex", "area": self.areas[index], "display": None, "name": "",
            "attributes": MappingProxyType(dict(zip(names, values, strict=True))) if names else EMPTY,
            "neighbours": self.neighbours(index), "line": self.lines[index],
        })
        return location

    def _game_attributes(self, index: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """Hex ``index``'s game attributes as a pair of names and values (its own fields left out)."""
        names = self.names[index]
        game = self._game.get(id(names))  # by identity: hashing the tuple would cost more than the rest
        if game is None:
            kept = [place for place, name in enumerate(names) if name not in self.OWN]
            game = self._game.setdefault(id(names), (tuple(names[place] for place in kept), _picker(kept), names))
        return game[0], game[1](self.values[index])

    def grid(self) -> dict[int, str] | None:
        """Each hex's id by its key on the grid; None without a layout or if two hexes share a column and row.

        Raises ValueError for a column or row that is not a whole number (the map reader names it).
        """
        if self._grid is not None or self.layout is None:
            return self._grid
        keys = self._keys
        if keys is None:
            columns, rows = self.attribute_column("column"), self.attribute_column("row")
            whole_rows = {text: int(text) for text in set(rows)}  # a map repeats a few hundred numbers
            whole_columns = {text: int(text) for text in set(columns)}
            lowest_row = min(whole_rows.values(), default=0)
            span = max(whole_rows.values(), default=0) - lowest_row + 3
            scaled = {text: number * span for text, number in whole_columns.items()}
            offset = {text: number - lowest_row for text, number in whole_rows.items()}
            keys = tuple(map(add, map(scaled.__getitem__, columns), map(offset.__getitem__, rows))), span, lowest_row
        grid = dict(zip(keys[0], self.ids, strict=True))
        if len(grid) < len(self.ids):
            return None
        from validator.hexgrid import neighbour_coordinates

        span = keys[1]
        self._steps = [[(to_column - column) * span + to_row - row
                        for to_column, to_row in neighbour_coordinates(self.layout, column, row)]
                       for column in (0, 1) for row in (0, 1)]
        self._keys = keys
        self._grid = grid  # last: whoever finds the grid finds the keys and steps too
        return grid

    def neighbours(self, index: int) -> tuple[str, ...]:
        """Hex ``index``'s neighbours on the map, in :func:`validator.hexgrid.neighbour_coordinates`' order."""
        if self._every_neighbours is not None:
            return self._every_neighbours[index]
        grid = self._grid if self._grid is not None else self.grid()
        if grid is None:
            return ()
        keys, span, lowest_row = self._keys
        key = keys[index]
        column, row_offset = divmod(key, span)
        found = grid.get
        around = [found(key + step) for step in self._steps[(column & 1) * 2 + ((row_offset + lowest_row) & 1)]]
        return tuple(around) if None not in around else tuple(filter(None, around))  # ids are never empty

    def every_neighbours(self) -> tuple[tuple[str, ...], ...]:
        """Every hex's neighbours, worked out at once when all are wanted: each direction one pass in C."""
        if self._every_neighbours is None:
            grid = self.grid()
            if grid is None:
                self._every_neighbours = ((),) * len(self.ids)
            else:
                keys, span, lowest_row = self._keys
                kinds = list(map(add, map(mul, map(and_, map(floordiv, keys, repeat(span)), repeat(1)), repeat(2)),
                                 map(and_, map(add, map(mod, keys, repeat(span)), repeat(lowest_row)), repeat(1))))
                found = [list(map(grid.get, map(add, keys, map([steps[direction] for steps in self._steps].__getitem__,
                                                               kinds))))
                         for direction in range(6)]
                # ids are never empty (the schema's identifier), so filter(None, ...) drops exactly the steps off
                # the map
                self._every_neighbours = tuple([around if None not in around else tuple(filter(None, around))
                                                for around in zip(*found, strict=True)])
        return self._every_neighbours

    def any_neighbours(self) -> bool:
        """Whether some hex has a neighbour (the first one nearly always does)."""
        return any(map(self.neighbours, range(len(self.ids))))


    def attribute_column(self, name: str) -> list[str | None]:
        """Every hex's attribute ``name`` in map order (None where it has none)."""
        if name in self.OWN:
            return [None] * len(self.ids)
        if self._shapes is None:
            self._shapes = frozenset(self.names)
        places = {names.index(name) if name in names else None for names in self._shapes}
        if len(places) == 1 and None not in places:  # the same place in every hex: one pass, no grouping
            return list(map(itemgetter(places.pop()), self.values))
        found: list[str | None] = [None] * len(self.ids)
        for names, where, values in self._by_attribute_names():
            if name in names:
                picked = map(itemgetter(names.index(name)), values)
                if len(where) == len(self.ids):
                    found = list(picked)
                else:
                    deque(map(found.__setitem__, where, picked), maxlen=0)
        return found

    def attribute_values(self, skip: Collection[str] = ()) -> dict[str, set[str]]:
        """The distinct values each attribute takes among the hexes (none gathered for the names in ``skip``)."""
        distinct: dict[str, set[str]] = {}
        for names, _where, values in self._by_attribute_names():
            for index, name in enumerate(names):
                if name in self.OWN:
                    continue
                found = distinct.setdefault(name, set())
                if name not in skip:
                    found.update(map(itemgetter(index), values))
        return distinct

    def _by_attribute_names(self) -> list[tuple[tuple[str, ...], Sequence[int], Sequence[Sequence[str]]]]:
        if self._groups is None:
            self._groups = list(_by_attribute_names(self.names, self.values))
        return self._groups

    def column(self, name: str) -> list:
        """Every hex's field ``name`` (one of :data:`LOCATION_FIELDS`) in map order."""
        count = len(self.ids)
        made = {
            "id": lambda: list(self.ids), "kind": lambda: ["hex"] * count, "area": lambda: list(self.areas),
            "display": lambda: [None] * count, "name": lambda: [""] * count, "line": lambda: list(self.lines),
            "attributes": lambda: list(map(self._game_attributes, range(count))),
            "neighbours": lambda: list(self.every_neighbours()),
        }
        return made[name]()


def _by_attribute_names(
    names: Sequence[tuple[str, ...]], values: Sequence[Sequence[str]]
) -> Iterator[tuple[tuple[str, ...], Sequence[int], Sequence[Sequence[str]]]]:
    """The rows grouped by the names of their attributes: (the names, where the rows are, their values).

    A map's hexes are written with a handful of sets of names, each one
    tuple shared by the hexes written alike; the rows are grouped by that
    tuple's identity (equal tuples that are not shared only make more groups),
    in the order the groups first appear.  Two passes over the column, in C,
    however many groups there are: a map whose hexes all have names of their
    own makes as many groups as hexes, and picking each group out of the
    whole column would read it once per group.
    """
    keys = list(map(id, names))
    groups = dict(zip(keys, names, strict=True))
    if len(groups) == 1:
        yield names[0], range(len(names)), values
        return
    where: dict[int, list[int]] = {key: [] for key in groups}
    deque(map(list.append, map(where.__getitem__, keys), range(len(keys))), maxlen=0)
    for key, group in groups.items():
        rows = where[key]
        yield group, rows, list(map(values.__getitem__, rows))


def _picker(places: list[int]) -> Callable[[list[str]], tuple[str, ...]]:
    """A function giving the values at ``places`` as a tuple (itemgetter gives a tuple only for two or more)."""
    if len(places) > 1:
        return itemgetter(*places)
    if places:
        only = places[0]
        return lambda values: (values[only],)
    return lambda _values: ()


def _names_and_values(attributes) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A row's attributes as a pair of names and values, whichever way the row holds them."""
    return attributes if type(attributes) is tuple else (tuple(attributes), tuple(attributes.values()))


class LocationTable(Mapping[str, Location]):
    """A map's locations by id, each :class:`Location` built the first time it is asked for.

    A Europe-size map holds tens of thousands of hexes, and building a frozen
    value for each one cost more than parsing the map; a save's checks look at
    the hexes its pieces stand in and their neighbours.  So the table keeps
    each location as a row of its fields (in :data:`LOCATION_FIELDS` order;
    the attributes a mapping, or a pair of names and values), or that row in
    ``marshal``'s bytes, or, for the hexes the map reader read a column at a
    time, as its place in their :class:`HexColumns`; it builds the value on
    first use, once.  Ids, membership and length never build anything, and
    :meth:`column`, :meth:`attribute_column` and :meth:`attribute_values`
    answer for the whole map without building anything either.  The hexes'
    columns follow the other rows in the table's order.  Read-only, like
    every mapping of the model.
    """

    __slots__ = ("_rows", "_built", "_hexes")

    def __init__(self, rows: Mapping[str, tuple] | None = None, hexes: HexColumns | None = None) -> None:
        self._rows: dict[str, tuple | bytes | int] = dict(rows or {})
        self._hexes = hexes
        if hexes is not None:
            self._rows.update(zip(hexes.ids, range(len(hexes.ids)), strict=True))  # a hex's place in the columns
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
    def rows(self) -> Mapping[str, tuple | bytes]:
        """The fields (or their bytes) by id of every location not in :attr:`hexes`, nothing built: for the code
        that stores a prepared map."""
        if self._hexes is None:
            return MappingProxyType(self._rows)
        return MappingProxyType(dict(islice(self._rows.items(), len(self._rows) - len(self._hexes.ids))))

    @property
    def hexes(self) -> HexColumns | None:
        """The hexes kept as columns, if any: for the code that stores a prepared map (read them, never change
        them: a prepared map is shared by every save checked on it)."""
        return self._hexes

    def column(self, name: str) -> list:
        """Every location's field ``name`` (one of :data:`LOCATION_FIELDS`) in map order, nothing built."""
        found = list(map(itemgetter(LOCATION_FIELDS.index(name)), self._plain_rows()))
        return found + self._hexes.column(name) if self._hexes is not None else found

    def attribute_column(self, name: str) -> list[str | None]:
        """Every location's attribute ``name`` in map order (None where it has none), nothing built."""
        found = [_names_and_values(attributes) for attributes in self.column_of_rows("attributes")]
        picked = [values[names.index(name)] if name in names else None for names, values in found]
        return picked + self._hexes.attribute_column(name) if self._hexes is not None else picked

    def attribute_values(self, kind: str, skip: Collection[str] = ()) -> dict[str, set[str]]:
        """The distinct values each attribute takes among the locations of ``kind``, nothing built.

        A map repeats a few values (a country, a controller) over thousands of
        hexes: what the values mean is read once per distinct value.  Every
        name given is listed; the values of the names in ``skip`` (a name or a
        number the caller need not read) are not gathered.
        """
        distinct: dict[str, set[str]] = {}
        for row in self._plain_rows():
            if row[1] == kind:
                for name, value in zip(*_names_and_values(row[ATTRIBUTES]), strict=True):
                    found = distinct.setdefault(name, set())
                    if name not in skip:
                        found.add(value)
        if self._hexes is not None and kind == "hex":
            for name, values in self._hexes.attribute_values(skip).items():
                distinct.setdefault(name, set()).update(values)
        return distinct

    def any_neighbours(self, kind: str) -> bool:
        """Whether some location of ``kind`` has a neighbour, nothing built."""
        if any(row[6] for row in self._plain_rows() if row[1] == kind):
            return True
        return self._hexes is not None and kind == "hex" and self._hexes.any_neighbours()

    def column_of_rows(self, name: str) -> list:
        """The field ``name`` of the locations kept as rows (not of the hexes kept as columns)."""
        return list(map(itemgetter(LOCATION_FIELDS.index(name)), self._plain_rows()))

    def _plain_rows(self) -> list[tuple]:
        """Every row not in the columns as a tuple, those kept as bytes decoded (and not kept: the table stays)."""
        rows = list(self.rows.values())
        if bytes in set(map(type, rows)):
            return [marshal.loads(row) if type(row) is bytes else row for row in rows]
        return rows

    def __getitem__(self, location_id: str) -> Location:
        built = self._built.get(location_id)
        if built is None:
            row = self._rows[location_id]
            built = self._built.setdefault(
                location_id, self._hexes.location(row) if type(row) is int else _built_location(row))
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
            if self._hexes is not None:
                self._hexes.every_neighbours()  # at once, not hex by hex
            built, hexes = self._built, self._hexes
            self._built = {
                location_id: built.get(location_id)
                or (hexes.location(row) if type(row) is int else _built_location(row))
                for location_id, row in self._rows.items()
            }
        return MappingProxyType(self._built)

    def __repr__(self) -> str:
        return f"LocationTable({len(self._rows)} locations)"


def location_table(locations: Mapping[str, Location]) -> LocationTable:
    """The locations as a :class:`LocationTable` (for its columns): the table itself, or one of a plain mapping's."""
    return locations if type(locations) is LocationTable else LocationTable.of(locations.values())


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
