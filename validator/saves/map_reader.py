"""Reading a <map> element into MapData: areas, displays, locations and hexes.

Hex neighbours are listed hex by hex or follow from a declared grid (see
:mod:`validator.hexgrid`).  Adjacency goes both ways, so a map whose lists
disagree (a hex listing one that does not list it back, or itself, or the
same neighbour twice) is refused: the rules would otherwise get different
answers depending on which side they look from.
"""

from __future__ import annotations

from collections.abc import Iterable
from types import MappingProxyType
from typing import NamedTuple

from lxml import etree

from validator import hexgrid
from validator.model import Area, Display, Location, MapData
from validator.saves.errors import SaveInputError, tag
from validator.saves.source_lines import SourceLines


def game_attributes(element: etree._Element, *known: str) -> MappingProxyType:
    """The element's game-specific attributes: all but the ones the envelope defines."""
    attributes = dict(element.items())
    for key in known:
        attributes.pop(key, None)
    return MappingProxyType(attributes)


def map_from(element: etree._Element, source: str, lines: SourceLines) -> MapData:
    """The map ``element`` describes, or :class:`SaveInputError` naming the line of what is wrong."""
    areas: dict[str, Area] = {}
    displays: dict[str, Display] = {}
    locations: dict[str, Location] = {}

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
    _refuse_one_sided_neighbours(areas.values(), areas, "area", source)
    for hex_location in _hexes(element, source, lines):
        if hex_location.id in locations:
            raise SaveInputError(source, f"the id '{hex_location.id}' is used twice", hex_location.line)
        locations[hex_location.id] = hex_location
    return MapData(
        id=element.get("id", ""),
        source=source,
        attributes=game_attributes(element, "id", "href"),
        areas=MappingProxyType(areas),
        displays=MappingProxyType(displays),
        locations=MappingProxyType(locations),
        line=lines.of(element),
    )


def _refuse_one_sided_neighbours(places: Iterable[Area | Location], table: dict, kind: str, source: str) -> None:
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


class _HexRecord(NamedTuple):
    """One <hex> element read once: what the envelope defines, the rest, and its line."""

    id: str
    area: str | None
    listed: str | None  # the neighbours attribute as written, or None when the grid derives them
    attributes: dict[str, str]  # everything else, column and row included (plugins read them)
    line: int


def _hex_record(hex_element: etree._Element, lines: SourceLines) -> _HexRecord:
    # One dict of every attribute (a single call into lxml), the envelope's popped out.
    attributes = dict(hex_element.items())
    take = attributes.pop
    return _HexRecord(take("id"), take("area", None), take("neighbours", None), attributes, lines.of(hex_element))


def _hexes(element: etree._Element, source: str, lines: SourceLines) -> list[Location]:
    """The map's hexes, with neighbours listed or derived from the declared grid."""
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
    records = [_hex_record(hex_element, lines) for hex_element in element.iter(tag("hex"))]
    derived: dict[str, tuple[str, ...]] = {}
    if grid == "hex":
        layout = layout or "odd-q"
        if layout not in hexgrid.LAYOUTS:
            raise SaveInputError(
                source,
                f"the hex layout '{layout}' is unknown; use one of {', '.join(hexgrid.LAYOUTS)}",
                lines.of(element),
            )
        derived = hexgrid.neighbours(layout, _coordinates(records, source))
    hexes = [
        Location(
            id=record.id,
            kind="hex",
            area=record.area,
            neighbours=derived.get(record.id, ()) if record.listed is None else tuple(record.listed.split()),
            attributes=MappingProxyType(record.attributes),
            line=record.line,
        )
        for record in records
    ]
    if any(record.listed is not None for record in records):  # a grid alone is mutual by construction
        _refuse_one_sided_neighbours(hexes, {hex_location.id: hex_location for hex_location in hexes}, "hex", source)
    return hexes


def _coordinates(records: list[_HexRecord], source: str) -> dict[tuple[int, int], str]:
    coordinates: dict[tuple[int, int], str] = {}
    for record in records:
        try:
            key = (int(record.attributes.get("column", "")), int(record.attributes.get("row", "")))
        except ValueError:
            raise SaveInputError(
                source,
                f"the hex '{record.id}' needs whole-number column and row attributes on a hex grid",
                record.line,
            ) from None
        if key in coordinates:
            raise SaveInputError(
                source,
                f"the hexes '{coordinates[key]}' and '{record.id}' share column {key[0]}, row {key[1]}",
                record.line,
            )
        coordinates[key] = record.id
    return coordinates
