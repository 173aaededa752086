"""Reading a <map> element into MapData: areas, displays, locations and hexes.

Hex neighbours are listed hex by hex or follow from a declared grid (see
:mod:`validator.hexgrid`).  Adjacency goes both ways, so a map whose lists
disagree (a hex listing one that does not list it back, or itself, or the
same neighbour twice) is refused: the rules would otherwise get different
answers depending on which side they look from.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from operator import attrgetter, call, itemgetter
from types import MappingProxyType
from typing import NamedTuple

from lxml import etree

from validator import hexgrid
from validator.limits import Limits
from validator.model import Area, Display, HexColumns, Location, LocationTable, MapData
from validator.saves.errors import SaveInputError, tag
from validator.saves.source_lines import SourceLines


def game_attributes(element: etree._Element, *known: str) -> MappingProxyType:
    """The element's game-specific attributes: all but the ones the envelope defines."""
    attributes = dict(element.items())
    for key in known:
        attributes.pop(key, None)
    return MappingProxyType(attributes)


def map_from(element: etree._Element, source: str, lines: SourceLines) -> MapData:
    """The map ``element`` describes, or :class:`SaveInputError` naming the line of what is wrong.

    Its areas and hexes were held to the limit before (:func:`refuse_too_many_places`).
    """
    areas: dict[str, Area] = {}
    displays: dict[str, Display] = {}
    locations: dict[str, tuple] = {}  # id -> the location's fields (see LocationTable)

    def claim(identifier: str, table: dict, child: etree._Element) -> None:
        if identifier in table:
            raise SaveInputError(
                source, f"the id '{identifier}' is used twice (first at line {table[identifier].line})", lines.of(child)
            )

    for area_element in element.iter(tag("area")):
        area = Area(
            id=area_element.get("id"),
            name=area_element.get("name", ""),
            neighbours=tuple(area_element.get("neighbours", "").split()),
            attributes=game_attributes(area_element, "id", "name", "neighbours"),
            line=lines.of(area_element),
        )
        claim(area.id, areas, area_element)
        areas[area.id] = area
        for display_element in area_element.iter(tag("display")):
            display = Display(
                id=display_element.get("id"),
                area=area.id,
                name=display_element.get("name", ""),
                attributes=game_attributes(display_element, "id", "name"),
                line=lines.of(display_element),
            )
            claim(display.id, displays, display_element)
            displays[display.id] = display
        for location_element in area_element.iter(tag("location")):
            location = Location(
                id=location_element.get("id"),
                kind=location_element.get("kind", ""),
                area=area.id,
                name=location_element.get("name", ""),
                attributes=game_attributes(location_element, "id", "name", "kind"),
                line=lines.of(location_element),
            )
            claim(location.id, locations, location_element)
            locations[location.id] = location
    locations = {location_id: _row(location) for location_id, location in locations.items()}
    _refuse_one_sided_neighbours(areas.values(), areas, "area", source)
    hexes = _hexes(element, source, lines)
    if isinstance(hexes, HexColumns):  # ids of its own are never used twice
        if not locations.keys().isdisjoint(hexes.ids):
            for hex_id, line in zip(hexes.ids, hexes.lines, strict=True):
                if hex_id in locations:
                    raise SaveInputError(source, f"the id '{hex_id}' is used twice", line)
        table = LocationTable(locations, hexes)
    else:
        for hex_row in hexes:
            if hex_row.id in locations:
                raise SaveInputError(source, f"the id '{hex_row.id}' is used twice", hex_row.line)
            locations[hex_row.id] = hex_row
        table = LocationTable(locations)
    return MapData(
        id=element.get("id", ""),
        source=source,
        attributes=game_attributes(element, "id", "href"),
        areas=MappingProxyType(areas),
        displays=MappingProxyType(displays),
        locations=table,
        line=lines.of(element),
    )


def refuse_too_many_places(element: etree._Element, source: str, lines: SourceLines, limits: Limits) -> None:
    """Areas and hexes past the limit, refused before any is read.

    The schema puts both directly under <map>, so the count of its children
    (one C call) bounds them; only past the limit are they counted exactly.
    """
    if len(element) <= limits.hexes:
        return
    places = sum(1 for _ in element.iterchildren(tag("area"), tag("hex")))
    if places > limits.hexes:
        raise SaveInputError(source, f"the map has {places:,} areas and hexes, {limits.beyond('hexes')}",
                             lines.of(element))


class _HexRow(NamedTuple):
    """A hex's fields in Location's order (see LocationTable): what the map reader keeps per hex."""

    id: str
    kind: str
    area: str | None
    display: None
    name: str
    attributes: dict[str, str]  # everything but the envelope's own, column and row included (plugins read them)
    neighbours: tuple[str, ...]
    line: int


def _row(location: Location) -> tuple:
    return (location.id, location.kind, location.area, location.display, location.name, location.attributes,
            location.neighbours, location.line)


def _refuse_one_sided_neighbours(places: Iterable[Area | _HexRow], table: dict, kind: str, source: str) -> None:
    """Each listed neighbour exists, is not the place itself nor listed twice, and lists the place back.

    Each kind of fault is looked for in every place before the next kind: a
    missing or self-listed neighbour is the root of one-sided lists elsewhere,
    and the user should hear of the root.
    """
    places = list(places)
    for place in places:
        missing = next((neighbour for neighbour in place.neighbours if neighbour not in table), None)
        if missing is not None:
            raise SaveInputError(
                source, f"the {kind} '{place.id}' names a neighbour '{missing}' that the map does not have", place.line
            )
    for place in places:
        if place.id in place.neighbours:
            raise SaveInputError(source, f"the {kind} '{place.id}' lists itself as a neighbour", place.line)
        if len(set(place.neighbours)) < len(place.neighbours):
            twice = next(neighbour for neighbour in place.neighbours if place.neighbours.count(neighbour) > 1)
            raise SaveInputError(source, f"the {kind} '{place.id}' lists the neighbour '{twice}' twice", place.line)
    for place in places:
        for neighbour in place.neighbours:
            if place.id not in table[neighbour].neighbours:
                raise SaveInputError(
                    source,
                    f"the {kind} '{place.id}' lists '{neighbour}' as a neighbour, but '{neighbour}' does not have "
                    f"'{place.id}' among its neighbours; adjacency goes both ways, so make the two agree",
                    place.line,
                )


def _hexes(element: etree._Element, source: str, lines: SourceLines) -> HexColumns | list[_HexRow]:
    """The map's hexes, with neighbours listed or following from the declared grid."""
    grid, layout = element.get("grid"), element.get("layout")
    if grid not in (None, "hex"):
        raise SaveInputError(source, f"the grid '{grid}' is unknown; the known grid is 'hex'", lines.of(element))
    if grid is None and layout is not None:
        raise SaveInputError(
            source,
            f"the map gives the layout '{layout}' but no grid; add grid=\"hex\" (with a column and row on "
            "each hex) or remove the layout",
            lines.of(element),
        )
    if grid == "hex" and (layout or "odd-q") not in hexgrid.LAYOUTS:
        raise SaveInputError(
            source, f"the hex layout '{layout}' is unknown; use one of {', '.join(hexgrid.LAYOUTS)}", lines.of(element)
        )
    by_columns = _hexes_by_columns(element, (layout or "odd-q") if grid == "hex" else None, lines)
    return by_columns if by_columns is not None else _hexes_one_by_one(element, source, lines)


class _Shape(NamedTuple):
    """Where a hex's own fields are among its values as lxml gives them: one per set of attribute names a map writes."""

    id: Callable[[list[str]], str]
    area: Callable[[list[str]], str | None]
    has_coordinates: bool  # a column and a row
    lists_neighbours: bool
    id_at: int  # where the id and the area are among the values
    area_at: int | None

    @classmethod
    def of(cls, written: tuple[str, ...]) -> _Shape:
        place = {name: index for index, name in enumerate(written)}
        return cls(itemgetter(place["id"]), itemgetter(place["area"]) if "area" in place else _nothing,
                   "column" in place and "row" in place, "neighbours" in place, place["id"], place.get("area"))


def _nothing(_values: list[str]) -> None:
    return None


def _hexes_by_columns(element: etree._Element, layout: str | None, lines: SourceLines) -> HexColumns | None:
    """The hexes as columns, or None for a map that :func:`_hexes_one_by_one` must read.

    Each hex costs two calls into lxml (its attributes' names and values);
    everything else runs over whole columns in C (``map``, ``zip``,
    ``itemgetter``), and a hex's neighbours are worked out when asked for
    (see :class:`~validator.model.HexColumns`).  A map with anything to name
    (an id used twice, a column or row that is not a whole number, two hexes
    on one place) or with neighbours listed hex by hex is left to the reading
    hex by hex, whose messages and results are the reference.
    """
    # A pass per column, each element's proxy freed before the next is made (lxml reuses its memory; twenty
    # thousand proxies kept to the end cost more to free than to walk the tree three times), and each column's
    # objects made together, close in memory for the checks that scan them.
    values = [hex_element.values() for hex_element in element.iter(tag("hex"))]
    written = [tuple(hex_element.keys()) for hex_element in element.iter(tag("hex"))]
    line_numbers = [hex_element.sourceline for hex_element in element.iter(tag("hex"))]
    if lines.spans_lines:
        line_numbers = list(map(lines.fix, line_numbers))
    shared: dict[tuple[str, ...], tuple[str, ...]] = {}
    names = list(map(shared.setdefault, written, written))  # each hex's names, one tuple per set written alike
    shapes = {names_written: _Shape.of(names_written) for names_written in shared}
    if any(shape.lists_neighbours or (layout and not shape.has_coordinates) for shape in shapes.values()):
        return None

    def column(field: str, place_of: Callable[[_Shape], int | None]) -> list:
        places = {place_of(shape) for shape in shapes.values()}
        if len(places) == 1:  # the field in the same place in every hex (nearly always): one getter for all
            place = places.pop()
            return [None] * len(values) if place is None else list(map(itemgetter(place), values))
        return list(map(call, map(attrgetter(field), map(shapes.__getitem__, names)), values))
    ids = column("id", lambda shape: shape.id_at)
    if len(set(ids)) < len(ids) or "" in ids:
        return None
    areas = column("area", lambda shape: shape.area_at)
    hexes = HexColumns(ids, areas, names, values, line_numbers, layout)
    try:
        if layout is not None and hexes.grid() is None:  # two hexes on one place
            return None
    except ValueError:  # a column or row that is not a whole number
        return None
    return hexes


def _hexes_one_by_one(element: etree._Element, source: str, lines: SourceLines) -> list[_HexRow]:
    """The map's hexes read hex by hex: for the maps :func:`_hexes_by_columns` leaves to it, naming their faults.

    One loop calling no function of ours per hex: one dict of every attribute
    (a single call into lxml), from which the envelope's own are popped.
    """
    grid, layout = element.get("grid"), element.get("layout")
    read: list[tuple[str, str | None, dict[str, str], int]] = []  # (id, area, attributes, line) per hex
    listed: dict[str, str] = {}  # hex id -> its neighbours attribute as written
    for hex_element in element.iter(tag("hex")):
        attributes = dict(hex_element.items())
        take = attributes.pop
        hex_id, written = take("id"), take("neighbours", None)
        if written is not None:
            listed[hex_id] = written
        read.append((hex_id, take("area", None), attributes, hex_element.sourceline))
    if lines.spans_lines:  # rare, and kept off the loop above
        read = [(hex_id, area, attributes, lines.fix(line)) for hex_id, area, attributes, line in read]
    derived: dict[str, tuple[str, ...]] = {}
    if grid == "hex":
        layout = layout or "odd-q"
        if layout not in hexgrid.LAYOUTS:
            raise SaveInputError(
                source,
                f"the hex layout '{layout}' is unknown; use one of {', '.join(hexgrid.LAYOUTS)}",
                lines.of(element),
            )
        derived = hexgrid.neighbours(layout, _coordinates(read, source))
    for hex_id, written in listed.items():
        derived[hex_id] = tuple(written.split())
    new_row, empty = tuple.__new__, ()
    hexes = [
        new_row(_HexRow, (hex_id, "hex", area, None, "", attributes, derived.get(hex_id, empty), line))
        for hex_id, area, attributes, line in read
    ]
    if listed:  # a grid alone is mutual by construction
        _refuse_one_sided_neighbours(hexes, {row.id: row for row in hexes}, "hex", source)
    return hexes


def _coordinates(read: list[tuple[str, str | None, dict[str, str], int]], source: str) -> dict[tuple[int, int], str]:
    coordinates: dict[tuple[int, int], str] = {}
    for hex_id, _area, attributes, line in read:
        try:
            key = (int(attributes.get("column", "")), int(attributes.get("row", "")))
        except ValueError:
            raise SaveInputError(
                source,
                f"the hex '{hex_id}' needs whole-number column and row attributes on a hex grid",
                line,
            ) from None
        if key in coordinates:
            raise SaveInputError(
                source,
                f"the hexes '{coordinates[key]}' and '{hex_id}' share column {key[0]}, row {key[1]}",
                line,
            )
        coordinates[key] = hex_id
    return coordinates
