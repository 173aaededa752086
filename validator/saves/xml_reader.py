"""Reading our save XML into a Position.

The file is parsed with the project's hardened parser and validated against
``schemas/save.xsd``; the map comes inline or from the file its ``href``
names (through a resolver the caller chooses); then the game plugin adds
the locations its rules define and checks the game-specific parts.  Every
problem is a :class:`SaveInputError` naming the file, the line and what is
wrong.
"""

from __future__ import annotations

import os
import stat
from collections import OrderedDict
from pathlib import Path
from types import MappingProxyType
from typing import Callable, NamedTuple

from lxml import etree

from validator import hexgrid
from validator.games import Game, UnknownGame, get
from validator.model import EMPTY, Area, Display, Event, Location, MapData, Piece, Position
from validator.saves.unchanged_files import read_unless_unchanged
from validator.xmlparsing import XmlInputError, parse_xml, validate

NAMESPACE = "urn:referee:save:1"
SCHEMA = "save.xsd"
MAX_SAVE_BYTES = 32 * 1024 * 1024

MapResolver = Callable[[str], tuple[bytes, str]]


class SaveInputError(XmlInputError):
    """A save or map file that cannot be used, and why."""


def _tag(name: str) -> str:
    return f"{{{NAMESPACE}}}{name}"


def read_capped(path: Path, limit: int = MAX_SAVE_BYTES) -> bytes:
    """The file's bytes, refusing more than ``limit`` without reading them all."""
    try:
        with path.open("rb") as handle:
            data = handle.read(_read_size(handle, limit))
    except FileNotFoundError:
        raise SaveInputError(str(path), "no such file") from None
    except IsADirectoryError:
        raise SaveInputError(str(path), "is a folder, not a save file") from None
    except OSError as error:
        raise SaveInputError(str(path), f"cannot be read ({error.strerror})") from None
    if len(data) > limit:
        raise SaveInputError(str(path), f"is larger than {limit:,} bytes, the limit for a save file")
    return data


def _read_size(handle, limit: int) -> int:
    """How much to ask for: one byte past the file's size (to see it grow) up to one past the limit.

    Asking for the whole limit at once would make Python allocate that many
    bytes for every file, however small.  A pipe or device has no size, so
    it gets the limit.
    """
    status = os.fstat(handle.fileno())
    size = status.st_size if stat.S_ISREG(status.st_mode) else limit
    return min(size, limit) + 1


def folder_resolver(folder: Path) -> MapResolver:
    """Resolve a map ``href`` as a file path relative to the save's folder."""

    def resolve(href: str) -> tuple[bytes, str]:
        path = (folder / href).resolve()
        return read_unless_unchanged(path, read_capped), str(path)

    return resolve


def read_position_file(path: Path, game_id: str | None = None) -> Position:
    return read_position(read_capped(path), str(path), folder_resolver(path.resolve().parent), game_id)


def read_position(data: bytes, source: str, resolve_map: MapResolver, game_id: str | None = None) -> Position:
    """Parse, validate and interpret a save; ``game_id`` must agree with the file when given."""
    root = _parse(data, source)
    if root.tag == _tag("map"):
        raise SaveInputError(source, "this is a map file; give a position file that refers to it", root.sourceline)
    if root.tag != _tag("position"):
        raise SaveInputError(
            source, f"the root element is <{etree.QName(root).localname}>, not a Referee <position> "
            f"in the namespace {NAMESPACE}", root.sourceline,
        )
    game = _game(root, source, game_id)
    map_data = _prepared_map(game, root.find(_tag("map")), source, resolve_map)
    facts, fact_lines = _facts(root)
    position = Position(
        game=game.id,
        map=map_data,
        pieces=_pieces(root, source, map_data),
        scenario=root.get("scenario", ""),
        turn=root.get("turn", ""),
        phase=root.get("phase", ""),
        phasing=root.get("phasing", ""),
        facts=facts,
        fact_lines=fact_lines,
        events=tuple(_event(element) for element in root.iterchildren(_tag("event"))),
        source=source,
        line=root.sourceline or 0,
    )
    if game.validate_position is not None:
        problems = list(game.validate_position(position))
        if problems:
            line, problem = problems[0]
            more = f" ({len(problems) - 1} more problems)" if len(problems) > 1 else ""
            raise SaveInputError(source, problem + more, line)
    return position


def _parse(data: bytes, source: str) -> etree._Element:
    try:
        root = parse_xml(data, source)
        validate(root, SCHEMA, source)
    except SaveInputError:
        raise
    except XmlInputError as error:
        raise SaveInputError(error.source, error.problem, error.line, error.column) from None
    return root


def _game(root: etree._Element, source: str, requested: str | None) -> Game:
    declared = root.get("game")
    if requested and requested != declared:
        raise SaveInputError(source, f"the save is for the game '{declared}', not '{requested}'", root.sourceline)
    try:
        return get(declared)
    except UnknownGame as error:
        raise SaveInputError(source, str(error), root.sourceline) from None


# Maps shared by many saves are read once: (game id, the game's prepare_map, map file) ->
# (the file's bytes, the prepared MapData).  An entry is used only while the file still
# holds exactly those bytes; comparing them is a memcmp, cheaper than hashing the file
# for every save, and as strict.
_MAP_CACHE: OrderedDict[tuple, tuple[bytes, MapData]] = OrderedDict()
MAP_CACHE_SIZE = 8


def _prepared_map(game: Game, element: etree._Element, source: str, resolve_map: MapResolver) -> MapData:
    """The position's map with the game's own locations added; a referenced map is cached."""
    href = element.get("href")
    if href is None:
        return _prepare(game, _map_from(element, source))
    if len(element):
        raise SaveInputError(source, "a <map> with href must be empty; give the map inline or by reference", element.sourceline)
    try:
        data, map_source = resolve_map(href)
    except SaveInputError as error:
        raise SaveInputError(source, f"the map '{href}' cannot be used: {error}", element.sourceline) from None
    key = (game.id, game.prepare_map, map_source)
    cached = _MAP_CACHE.get(key)
    if cached is not None and cached[0] == data:
        _MAP_CACHE.move_to_end(key)
        return cached[1]
    root = _parse(data, map_source)
    if root.tag != _tag("map") or root.get("href"):
        raise SaveInputError(map_source, "a map file holds one <map> element without href", root.sourceline)
    map_data = _prepare(game, _map_from(root, map_source))
    _MAP_CACHE[key] = (data, map_data)
    _MAP_CACHE.move_to_end(key)
    if len(_MAP_CACHE) > MAP_CACHE_SIZE:
        _MAP_CACHE.popitem(last=False)
    return map_data


def _prepare(game: Game, map_data: MapData) -> MapData:
    return game.prepare_map(map_data) if game.prepare_map is not None else map_data


def _attributes(element: etree._Element, *known: str) -> MappingProxyType:
    """The element's game-specific attributes: all but the ones the envelope defines."""
    attributes = dict(element.items())
    for key in known:
        attributes.pop(key, None)
    return MappingProxyType(attributes)


def _map_from(element: etree._Element, source: str) -> MapData:
    areas: dict[str, Area] = {}
    displays: dict[str, Display] = {}
    locations: dict[str, Location] = {}

    def claim(identifier: str, table: dict, child: etree._Element) -> None:
        if identifier in table:
            raise SaveInputError(source, f"the id '{identifier}' is used twice (first at line {table[identifier].line})", child.sourceline)

    for area_element in element.iter(_tag("area")):
        area = Area(
            id=area_element.get("id"), name=area_element.get("name", ""),
            neighbours=tuple(area_element.get("neighbours", "").split()),
            attributes=_attributes(area_element, "id", "name", "neighbours"), line=area_element.sourceline,
        )
        claim(area.id, areas, area_element)
        areas[area.id] = area
        for display_element in area_element.iter(_tag("display")):
            display = Display(
                id=display_element.get("id"), area=area.id, name=display_element.get("name", ""),
                attributes=_attributes(display_element, "id", "name"), line=display_element.sourceline,
            )
            claim(display.id, displays, display_element)
            displays[display.id] = display
        for location_element in area_element.iter(_tag("location")):
            location = Location(
                id=location_element.get("id"), kind=location_element.get("kind", ""), area=area.id,
                name=location_element.get("name", ""),
                attributes=_attributes(location_element, "id", "name", "kind"), line=location_element.sourceline,
            )
            claim(location.id, locations, location_element)
            locations[location.id] = location
    for hex_location in _hexes(element, source):
        if hex_location.id in locations:
            raise SaveInputError(source, f"the id '{hex_location.id}' is used twice", hex_location.line)
        locations[hex_location.id] = hex_location
    for area in areas.values():
        for neighbour in area.neighbours:
            if neighbour not in areas:
                raise SaveInputError(source, f"the area '{area.id}' names a neighbour '{neighbour}' that the map does not have", area.line)
    return MapData(
        id=element.get("id", ""), source=source,
        attributes=_attributes(element, "id", "href"),
        areas=MappingProxyType(areas), displays=MappingProxyType(displays), locations=MappingProxyType(locations),
    )


class _HexRecord(NamedTuple):
    """One <hex> element read once: what the envelope defines, the rest, and its line."""

    id: str
    area: str | None
    listed: str | None  # the neighbours attribute as written, or None when the grid derives them
    attributes: dict[str, str]  # everything else, column and row included (plugins read them)
    line: int


def _hex_record(hex_element: etree._Element) -> _HexRecord:
    # Read like a piece (see _pieces): one dict of every attribute, the envelope's popped out.
    attributes = dict(hex_element.items())
    take = attributes.pop
    return _HexRecord(take("id"), take("area", None), take("neighbours", None), attributes, hex_element.sourceline)


def _hexes(element: etree._Element, source: str) -> list[Location]:
    """The map's hexes, with neighbours listed or derived from the declared grid."""
    grid = element.get("grid")
    if grid not in (None, "hex"):
        raise SaveInputError(source, f"the grid '{grid}' is unknown; the known grid is 'hex'", element.sourceline)
    records = [_hex_record(hex_element) for hex_element in element.iter(_tag("hex"))]
    derived: dict[str, tuple[str, ...]] = {}
    if grid == "hex":
        layout = element.get("layout", "odd-q")
        if layout not in hexgrid.LAYOUTS:
            raise SaveInputError(source, f"the hex layout '{layout}' is unknown; use one of {', '.join(hexgrid.LAYOUTS)}", element.sourceline)
        derived = hexgrid.neighbours(layout, _coordinates(records, source))
    ids = {record.id for record in records}
    return [
        Location(
            id=record.id, kind="hex", area=record.area, neighbours=_hex_neighbours(record, derived, ids, source),
            attributes=MappingProxyType(record.attributes), line=record.line,
        )
        for record in records
    ]


def _hex_neighbours(record: _HexRecord, derived: dict[str, tuple[str, ...]], ids: set[str], source: str) -> tuple[str, ...]:
    """The neighbours a hex lists (each must exist), or else those the grid gives it."""
    if record.listed is None:
        return derived.get(record.id, ())
    neighbours = tuple(record.listed.split())
    unknown = next((neighbour for neighbour in neighbours if neighbour not in ids), None)
    if unknown is not None:
        raise SaveInputError(
            source, f"the hex '{record.id}' names a neighbour '{unknown}' that the map does not have", record.line,
        )
    return neighbours


def _coordinates(records: list[_HexRecord], source: str) -> dict[tuple[int, int], str]:
    coordinates: dict[tuple[int, int], str] = {}
    for record in records:
        try:
            key = (int(record.attributes.get("column", "")), int(record.attributes.get("row", "")))
        except ValueError:
            raise SaveInputError(
                source, f"the hex '{record.id}' needs whole-number column and row attributes on a hex grid",
                record.line,
            ) from None
        if key in coordinates:
            raise SaveInputError(source, f"the hexes '{coordinates[key]}' and '{record.id}' share column {key[0]}, row {key[1]}", record.line)
        coordinates[key] = record.id
    return coordinates


# Piece is a named tuple: building it from a tuple of all its fields skips the Python-level
# __new__ that only fills in defaults (a tenth of the cost of reading a piece).  A test
# keeps the order below in step with Piece's fields.
_new_piece = tuple.__new__


def _pieces(root: etree._Element, source: str, map_data: MapData) -> tuple[Piece, ...]:
    """Every piece, refusing an unknown location and an id used twice.

    A save may hold thousands of pieces, so this is one loop with no call per
    piece: one dict of every attribute (a single call into lxml), from which
    the envelope's own attributes are popped; what is left is the game's.
    Locations and ids are then tested all at once (see _refuse_bad_pieces).
    """
    pieces = []
    for element in root.iter(_tag("piece")):
        attributes = dict(element.items())
        take = attributes.pop
        strength = take("strength", None)
        pieces.append(_new_piece(Piece, (  # every field, in Piece's order
            take("id"), take("name"), take("side", ""), take("nationality", ""), take("type", ""), take("size", ""),
            int(strength) if strength is not None else None, take("location", None),
            MappingProxyType(attributes) if attributes else EMPTY, element.sourceline,
        )))
    _refuse_bad_pieces(pieces, map_data, source)
    return tuple(pieces)


def _refuse_bad_pieces(pieces: list[Piece], map_data: MapData, source: str) -> None:
    """The first piece, in file order, at a location the map lacks or with an id used before it.

    Two set tests answer for the whole save (the schema's own id check costs
    more); only when one fails are the pieces walked to name the culprit.
    """
    ids = {piece.id for piece in pieces}
    used = {piece.location for piece in pieces}
    used.discard(None)
    if len(ids) == len(pieces) and map_data.locations.keys() >= used:
        return
    first_lines: dict[str, int] = {}
    for piece in pieces:
        if piece.location is not None and piece.location not in map_data.locations:
            raise SaveInputError(
                source, f"the piece '{piece.id}' stands at '{piece.location}', which the map does not have", piece.line
            )
        if piece.id in first_lines:
            raise SaveInputError(
                source, f"the piece id '{piece.id}' is used twice (first at line {first_lines[piece.id]})", piece.line
            )
        first_lines[piece.id] = piece.line


def _facts(root: etree._Element) -> tuple[MappingProxyType, MappingProxyType]:
    """Each fact's values in file order, and the line of each value."""
    facts: dict[str, tuple[str, ...]] = {}
    lines: dict[str, tuple[int, ...]] = {}
    for element in root.iterchildren(_tag("fact")):
        name = element.get("name")
        facts[name] = facts.get(name, ()) + (element.get("value"),)
        lines[name] = lines.get(name, ()) + (element.sourceline,)
    return MappingProxyType(facts), MappingProxyType(lines)


def _event(element: etree._Element) -> Event:
    return Event(
        kind=element.get("kind"), area=element.get("area"), pieces=tuple(element.get("pieces", "").split()),
        attributes=_attributes(element, "kind", "area", "pieces"), line=element.sourceline,
    )
