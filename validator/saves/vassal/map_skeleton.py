"""A map skeleton: every hex a module's grid numbers on its boards, with adjacency, and nothing invented.

Some games' checks need map data a module does not carry (A World at War
needs each hex's country, features and controller).  The draft therefore
lists each hex whose centre lies on a board, named as VASSAL names it (the
module's own numbering included), with its six neighbours from the grid's
geometry, and leaves the game's data for the club to fill in: a hex table
(``hexes.csv``, one row per hex, one empty column per attribute the game
reads) and an area table (``areas.csv``).  :func:`read_skeleton` reads the
filled-in tables back into our map format (docs/save-format.md); a hex left
empty keeps no data, and the checks say so rather than guess.

A hex is on a board when its centre is: ``0 <= x < width``,
``0 <= y < height`` in board pixels, and not inside a zone of the board
(a zone names its points itself).  A board whose image the module does not
hold has no known size: the caller gives it (``--board-size``), or the
skeleton covers the smallest rectangle holding everything the module and the
saves place on that board, and says so.
"""

from __future__ import annotations

import csv
import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from validator.errors import InputError
from validator.facts import AttributeTable, Boolean, Context, Text, ValueProblem, Word, Words
from validator.limits import DEFAULT_LIMITS
from validator.model import Area, MapData
from validator.vocabulary import Vocabulary

from .grids import HexGrid, LabelTooLong, SizeNeeded, ZonedGrid, polygon_contains
from .module import Board, MapDefinition, Module

SAVE_NAMESPACE = "urn:referee:save:1"
HEX_COLUMNS = ("id", "vassal", "map", "board", "x", "y", "neighbours")
"""What the draft computes for each hex; the game's own columns follow, empty."""
AREA_COLUMNS = ("id", "name")
_IDENTIFIER = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:/\-]{0,199}")
_NOT_IDENTIFIER = re.compile(r"[^A-Za-z0-9_.:/\-]")


class SkeletonError(InputError):
    """A skeleton table that cannot become a map: its file, its line and what is wrong."""


@dataclass(frozen=True, slots=True)
class SkeletonHex:
    id: str
    """Our hex id: VASSAL's name when it is an identifier, else ``h`` and the name made one."""
    vassal: str
    map: str
    board: str
    x: int
    y: int
    """The hex centre in board pixels."""
    neighbours: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class BoardExtent:
    width: int
    height: int
    source: str
    """``image``, ``given`` or ``estimated``: where the size comes from."""


@dataclass(frozen=True, slots=True)
class Skeleton:
    hexes: tuple[SkeletonHex, ...]
    extents: Mapping[tuple[str, str], BoardExtent]
    """(map, board) to the size the hexes were listed over."""
    notes: tuple[str, ...]


def hex_id(vassal_name: str) -> str:
    """Our id for a VASSAL hex name: the name itself when it is an identifier (``M25``)."""
    if _IDENTIFIER.fullmatch(vassal_name):
        return vassal_name
    return ("h" + _NOT_IDENTIFIER.sub("_", vassal_name))[:200]


def hex_grid_of(board: Board) -> HexGrid | None:
    """The board's hex grid: the grid itself, or the background of its zones."""
    grid = board.grid
    if isinstance(grid, ZonedGrid):
        grid = grid.background
    return grid if isinstance(grid, HexGrid) and grid.numbering is not None else None


def _module_points(definition: MapDefinition, board: Board) -> list[tuple[int, int]]:
    points: list[tuple[int, int]] = []
    if isinstance(board.grid, ZonedGrid):
        for zone in board.grid.zones:
            points.extend(zone.points)
    single = len(definition.boards) == 1
    for point in (*definition.draw_piles, *definition.setup_stacks):
        if point.owning_board == board.name or (single and point.owning_board is None):
            points.append((point.x, point.y))
    return points


def board_extent(definition: MapDefinition, board: Board, given: Mapping[str, tuple[int, int]],
                 placed: Iterable[tuple[int, int]] = ()) -> BoardExtent | None:
    """The board's size from its image, else as given, else the smallest rectangle holding what is placed on it.

    ``placed`` are board-local points the saves put pieces at; the estimate
    can only be too small (everything counted lies on the board), never name
    a hex that is not there.
    """
    if board.width is not None and board.height is not None:
        return BoardExtent(board.width, board.height, "image")
    if board.name in given:
        width, height = given[board.name]
        return BoardExtent(width, height, "given")
    points = [*_module_points(definition, board), *placed]
    if not points:
        return None
    return BoardExtent(max(x for x, _ in points) + 1, max(y for _, y in points) + 1, "estimated")


def _centres(grid: HexGrid, width: int, height: int):
    """((raw column, raw row), (x, y)) of every hex centre on a width x height board, column by column."""
    across, down = (height, width) if grid.sideways else (width, height)
    first_column = math.ceil(-grid.x0 / grid.dx)
    last_column = math.floor((across - grid.x0) / grid.dx)
    for column in range(first_column, last_column + 1):
        offset = grid.dy / 2 if column % 2 else 0.0
        first_row = math.ceil((-grid.y0 - offset) / grid.dy)
        last_row = math.floor((down - grid.y0 - offset) / grid.dy)
        for row in range(first_row, last_row + 1):
            a, b = grid.x0 + column * grid.dx, grid.y0 + offset + row * grid.dy
            x, y = (b, a) if grid.sideways else (a, b)
            x, y = math.floor(x + 0.5), math.floor(y + 0.5)
            if 0 <= x < width and 0 <= y < height:
                yield (column, row), (x, y)


def centre_count(grid: HexGrid, width: int, height: int) -> int:
    """How many hex centres a width x height board's grid has (before zones), counted column by column, not listed."""
    across, down = (height, width) if grid.sideways else (width, height)
    total = 0
    for column in range(math.ceil(-grid.x0 / grid.dx), math.floor((across - grid.x0) / grid.dx) + 1):
        offset = grid.dy / 2 if column % 2 else 0.0
        total += max(0, math.floor((down - grid.y0 - offset) / grid.dy) - math.ceil((-grid.y0 - offset) / grid.dy) + 1)
    return total


def _neighbour_keys(column: int, row: int) -> tuple[tuple[int, int], ...]:
    """The six raw neighbours when odd raw columns sit half a hex further along (VASSAL's layout)."""
    shift = (row, row + 1) if column % 2 else (row - 1, row)
    return ((column, row - 1), (column, row + 1), (column - 1, shift[0]), (column - 1, shift[1]),
            (column + 1, shift[0]), (column + 1, shift[1]))


def board_hexes(map_name: str, board: Board, extent: BoardExtent) -> tuple[list[SkeletonHex], list[str]]:
    """Every hex the board's grid numbers, with neighbours; and notes on names that repeat."""
    grid = hex_grid_of(board)
    if grid is None or not grid.numbering.known:
        return [], []
    zones = board.grid.zones if isinstance(board.grid, ZonedGrid) else ()
    found: dict[tuple[int, int], tuple[str, int, int]] = {}
    names: dict[str, tuple[int, int]] = {}
    notes: list[str] = []
    for key, (x, y) in _centres(grid, extent.width, extent.height):
        if any(polygon_contains(zone.points, x, y) for zone in zones):
            continue
        try:
            name = grid.location_name(x, y, extent.width, extent.height)
        except (SizeNeeded, LabelTooLong):
            continue
        if name is None or name in names:
            if name is not None:
                notes.append(f"the hex name {name} repeats on the board {board.name}; only its first hex is listed")
            continue
        found[key] = (name, x, y)
        names[name] = key
    hexes = []
    for key, (name, x, y) in found.items():
        neighbours = tuple(hex_id(found[other][0]) for other in _neighbour_keys(*key) if other in found)
        hexes.append(SkeletonHex(hex_id(name), name, map_name, board.name, x, y, neighbours))
    return hexes, notes


def build_skeleton(module: Module, *, board_sizes: Mapping[str, tuple[int, int]] | None = None,
                   placed: Mapping[tuple[str, str], list[tuple[int, int]]] | None = None,
                   most_hexes: int = DEFAULT_LIMITS.hexes) -> Skeleton:
    """Every numbered hex of every board with a hex grid (``placed``: board-local piece points per (map, board)).

    The grids' sizes are counted first: a skeleton past the ``hexes`` limit
    (``most_hexes``) is refused before any hex is listed.
    """
    hexes: list[SkeletonHex] = []
    counted = 0
    extents: dict[tuple[str, str], BoardExtent] = {}
    notes: list[str] = []
    for definition in module.maps.values():
        for board in definition.boards:
            grid = hex_grid_of(board)
            if grid is None:
                continue
            if not grid.numbering.known:
                notes.append(f"the board {board.name} of the map {definition.id} is numbered by the class "
                             f"{grid.numbering.custom}, which Referee does not compute, so its hexes are not listed")
                continue
            extent = board_extent(definition, board, board_sizes or {}, (placed or {}).get((definition.id, board.name),
                                                                                            ()))
            if extent is None:
                notes.append(f"the board {board.name} of the map {definition.id} has no image in the module and "
                             "nothing placed on it, so its size is unknown; give it with --board-size")
                continue
            if extent.source == "estimated":
                notes.append(f"the board {board.name} has no image in the module: its hexes are listed up to "
                             f"{extent.width} x {extent.height} pixels, the farthest point the module and the saves "
                             "place on it; give its real size with --board-size to list every hex")
            extents[(definition.id, board.name)] = extent
            counted += centre_count(grid, extent.width, extent.height)
            if counted > most_hexes:
                raise SkeletonError(module.source, f"the hex grids up to the board {board.name} hold {counted:,} "
                                                   f"hexes, more than the hexes limit of {most_hexes:,}; give the "
                                                   "board's real size with --board-size, or raise the limit with "
                                                   "--limit hexes=N")
    for definition in module.maps.values():
        for board in definition.boards:
            extent = extents.get((definition.id, board.name))
            if extent is None:
                continue
            board_list, board_notes = board_hexes(definition.id, board, extent)
            hexes.extend(board_list)
            notes.extend(board_notes)
    return Skeleton(tuple(hexes), extents, tuple(notes))


def write_tables(skeleton: Skeleton, game: str, hexes_path: Path, areas_path: Path) -> None:
    """``hexes.csv`` (computed columns, then the game's, empty) and ``areas.csv`` (header only)."""
    vocabulary = game_vocabulary(game)
    attributes = vocabulary.hex_columns if vocabulary is not None else ("area",)
    with open(hexes_path, "w", newline="", encoding="utf-8") as stream:
        writer = csv.writer(stream)
        writer.writerow((*HEX_COLUMNS, *attributes))
        for item in skeleton.hexes:
            writer.writerow((item.id, item.vassal, item.map, item.board, item.x, item.y, " ".join(item.neighbours),
                             *("" for _ in attributes)))
    with open(areas_path, "w", newline="", encoding="utf-8") as stream:
        csv.writer(stream).writerow((*AREA_COLUMNS, *(vocabulary.area_columns if vocabulary is not None else ())))


def _rows(path: Path, required: tuple[str, ...], most_rows: int) -> tuple[list[str], list[tuple[int, dict[str, str]]]]:
    """The table's header and rows, counted as they are read: past ``most_rows`` (the ``hexes`` limit) it is refused."""
    try:
        with open(path, encoding="utf-8-sig", newline="") as stream:
            return _read_rows(path, csv.reader(stream), required, most_rows)
    except OSError as error:
        raise SkeletonError(path, f"cannot be read ({error.strerror or error})") from None
    except UnicodeDecodeError:
        raise SkeletonError(path, "is not UTF-8 text; save the table as CSV in UTF-8") from None
    except csv.Error as error:
        raise SkeletonError(path, f"is not a CSV table ({error})") from None


def _read_rows(path: Path, reader, required: tuple[str, ...], most_rows: int
               ) -> tuple[list[str], list[tuple[int, dict[str, str]]]]:
    header = next(reader, None)
    if header is None:
        raise SkeletonError(path, "is empty; it needs its header line, as the draft wrote it", 1)
    header = [column.strip() for column in header]
    missing = [column for column in required if column not in header]
    if missing:
        raise SkeletonError(path, f"has no column {', '.join(missing)}; keep the columns the draft wrote", 1)
    rows = []
    for line, values in enumerate(reader, start=2):
        if not any(value.strip() for value in values):
            continue
        if len(values) > len(header):
            raise SkeletonError(path, f"has {len(values)} values where the header names {len(header)} columns", line)
        if len(rows) == most_rows:
            raise SkeletonError(path, f"has more than {most_rows:,} rows, the hexes limit; raise it with --limit "
                                      "hexes=N if the map is real", line)
        rows.append((line, {column: (values[index].strip() if index < len(values) else "")
                            for index, column in enumerate(header)}))
    return header, rows


def game_vocabulary(game: str) -> Vocabulary | None:
    """The game's vocabulary (``Game.vocabulary``): the values its hex and area columns take."""
    from validator.games import get

    return get(game).vocabulary


def known_words(value_type: object, context: Context) -> list[str]:
    """The words a column of a fixed set takes, for the refusal; empty when it takes free text or numbers."""
    if isinstance(value_type, Boolean):
        return [value_type.true, value_type.false]
    if isinstance(value_type, Word):
        extra = sorted(set(value_type.extra(context)) - value_type.members) if value_type.extra is not None else []
        return [*value_type.choices, *extra]
    if isinstance(value_type, Words):
        return [word for part in (*value_type.parts, value_type.rest) if part is not None
                for word in known_words(part, context)]
    return []


def _require_known(table: AttributeTable | None, column: str, value: str, context: Context, where: tuple[Path, int],
                   header: list[str], what: str) -> None:
    """Refuse a value the game's table does not take, with the file, line, column and the words it knows."""
    attribute = next((item for item in (table.attributes if table is not None else ()) if item.name == column), None)
    if attribute is None or isinstance(attribute.value, Text):
        return
    try:
        attribute.value.read(value, context)
    except ValueProblem as problem:
        path, line = where
        known = known_words(attribute.value, context)
        listed = f" (the words it takes: {', '.join(known)})" if not all(word in problem.expected for word in known) \
            else ""
        number = header.index(column) + 1 if column in header else 0
        raise SkeletonError(path, f"{what} has '{value}' in the column {column} (column {number}), which takes "
                                  f"{problem.expected}{listed}; write one of those words or leave it empty",
                            line) from None


def _apply_implied(vocabulary: Vocabulary | None, row: dict[str, str], what: str, where: tuple[Path, int]) -> None:
    """Fill in what a value says of another column (terrain sea: a sea hex); refuse a row where they disagree."""
    for implied in (vocabulary.implied if vocabulary is not None else ()):
        if row.get(implied.column) != implied.value:
            continue
        given = row.get(implied.implies, "")
        if not given:
            row[implied.implies] = implied.implied
        elif given != implied.implied:
            raise SkeletonError(where[0], f"{what} has the {implied.column} '{implied.value}' but the "
                                          f"{implied.implies} '{given}'; a {implied.column} of {implied.value} means "
                                          f"{implied.implies} {implied.implied}, so make them agree", where[1])


def unknown_areas(vocabulary: Vocabulary | None, areas: Mapping[str, Area]) -> list[str]:
    """Areas that are no area the game's rules name and part of none: legal (a colony), but maybe a misspelling."""
    if vocabulary is None or not vocabulary.known_areas:
        return []
    known = set(vocabulary.known_areas)
    unknown = []
    for identifier in areas:
        seen, current = set(), identifier
        while current not in known and current in areas and current not in seen:
            seen.add(current)
            current = areas[current].attributes.get(vocabulary.area_parent, "")
        if current not in known:
            unknown.append(identifier)
    return unknown


def read_skeleton(hexes_path: Path, areas_path: Path, game: str, map_id: str, *,
                  most_hexes: int = DEFAULT_LIMITS.hexes, notes: list[str] | None = None) -> bytes:
    """Our map XML from the filled-in tables; every value the club gave, and nothing else.

    Each value is read as the game's vocabulary (``Game.vocabulary``) reads
    that column, so a word the game does not know (a terrain, a feature, a
    country an area is part of) is refused with its file, line and column
    and the words the column takes, rather than written into a map the
    check would refuse later, or read as something else.  ``notes`` gets a
    sentence naming the areas that are no area the game's rules know.
    """
    vocabulary = game_vocabulary(game)
    hex_attributes = vocabulary.hex_columns if vocabulary is not None else ("area",)
    area_attributes = vocabulary.area_columns if vocabulary is not None else ()
    hex_header, hex_rows = _rows(hexes_path, ("id", "neighbours"), most_hexes)
    area_header, area_rows = _rows(areas_path, AREA_COLUMNS, most_hexes)
    root = etree.Element(f"{{{SAVE_NAMESPACE}}}map", nsmap={None: SAVE_NAMESPACE})
    root.set("id", map_id)
    root.set("game", game)
    areas: dict[str, Area] = {}
    for line, row in area_rows:
        identifier = row["id"]
        if not _IDENTIFIER.fullmatch(identifier):
            raise SkeletonError(areas_path, f"the area id '{identifier}' is not an id (letters, digits and _.:/- "
                                            "only, starting with a letter or digit)", line)
        if identifier in areas:
            raise SkeletonError(areas_path, f"the area '{identifier}' is listed twice", line)
        areas[identifier] = Area(identifier, row.get("name", ""),
                                 attributes={column: row[column] for column in area_attributes if row.get(column)},
                                 line=line)
    context = Context(MapData(id=map_id, source=str(areas_path), areas=areas))
    for identifier, area in areas.items():
        element = etree.SubElement(root, f"{{{SAVE_NAMESPACE}}}area", id=identifier)
        if area.name:
            element.set("name", area.name)
        for column, value in area.attributes.items():
            _require_known(vocabulary.areas if vocabulary else None, column, value, context, (areas_path, area.line),
                           area_header, f"the area '{identifier}'")
            element.set(column, value)
    ids = {row["id"]: line for line, row in hex_rows}
    seen: set[str] = set()
    for line, row in hex_rows:
        identifier = row["id"]
        if not _IDENTIFIER.fullmatch(identifier):
            raise SkeletonError(hexes_path, f"the hex id '{identifier}' is not an id", line)
        if identifier in seen:
            raise SkeletonError(hexes_path, f"the hex '{identifier}' is listed twice", line)
        seen.add(identifier)
        neighbours = row["neighbours"].split()
        unknown = next((n for n in neighbours if n not in ids), None)
        if unknown is not None:
            raise SkeletonError(hexes_path, f"the hex '{identifier}' names the neighbour '{unknown}', which the "
                                            "table does not list", line)
        element = etree.SubElement(root, f"{{{SAVE_NAMESPACE}}}hex", id=identifier)
        if neighbours:
            element.set("neighbours", " ".join(neighbours))
        what = f"the hex '{identifier}'"
        for column in hex_attributes:
            value = row.get(column, "")
            if column == "area" and value and value not in areas:
                raise SkeletonError(hexes_path, f"{what} is in the area '{value}', which {areas_path.name} does not "
                                                "list", line)
            if value:
                _require_known(vocabulary.hexes if vocabulary else None, column, value, context, (hexes_path, line),
                               hex_header, what)
        _apply_implied(vocabulary, row, what, (hexes_path, line))
        for column in hex_attributes:
            if row.get(column):
                element.set(column, row[column])
    outside = unknown_areas(vocabulary, areas)
    if outside and notes is not None:
        notes.append(f"{areas_path}: the area{'s' if len(outside) > 1 else ''} "
                     f"{', '.join(repr(area) for area in outside[:10])}{' and more' if len(outside) > 10 else ''} "
                     f"{'are' if len(outside) > 1 else 'is'} no country of {game} and part of none, so the rules "
                     "read it as no country; if it is one, write the game's id (docs/save-format.md) or its "
                     f"{vocabulary.area_parent or 'parent'}")
    unused = [column for column in hex_header if column not in (*HEX_COLUMNS, *hex_attributes)]
    if unused:
        raise SkeletonError(hexes_path, f"has the column {', '.join(unused)}, which a {game} map does not read "
                                        f"(its columns: {', '.join(hex_attributes)})", 1)
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", pretty_print=True)


__all__ = ["BoardExtent", "Skeleton", "SkeletonError", "SkeletonHex", "board_extent",
           "board_hexes", "build_skeleton", "hex_grid_of", "hex_id", "read_skeleton", "write_tables"]
