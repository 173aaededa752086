"""Reading a module's buildFile: maps, boards, grids, draw piles, setup stacks, prototypes and piece slots.

What location names need is kept, and what a mapping is written from (the
prototypes and piece slots, with the properties and layers their traits
carry).  A module extension's buildFile (root ``ModuleExtension``) reads the
same way; :func:`validator.saves.vassal.extensions.with_extensions` adds it
to the module it extends.  The buildFile comes from a .vmod zip
(``buildFile.xml``, else the pre-3.5 ``buildFile``) or bare on disk, and is
parsed from capped bytes with the one hardened parser.  Components may sit
inside folders, so everything is found by searching the tree.
"""

from __future__ import annotations

import math
import os
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from validator.limits import DEFAULT_LIMITS, Limits

from .archive import Archive, read_file_capped
from .commands import add_fields
from .errors import VassalFormatError
from .grids import HexGrid, Numbering, RegionGrid, SquareGrid, UnknownGrid, Zone, ZonedGrid, parse_path
from .images import image_size
from .metadata import parse_metadata
from .model import Metadata
from .piece_types import facts_of, parse_piece_type
from .pieces import PieceChainError, chain_elements
from .sequence import TooManyItems, java_int
from .xmlparser import parse_xml

_PACKAGE = "VASSAL.build.module."
_BOARD_PACKAGE = _PACKAGE + "map.boardPicker.board."
MAP_CLASSES = {_PACKAGE + "Map", _PACKAGE + "PrivateMap", _PACKAGE + "PlayerHand", "VASSAL.build.widget.WidgetMap"}
BOARD_CLASS = _PACKAGE + "map.boardPicker.Board"
HEX_GRID = _BOARD_PACKAGE + "HexGrid"
SQUARE_GRID = _BOARD_PACKAGE + "SquareGrid"
REGION_GRID = _BOARD_PACKAGE + "RegionGrid"
ZONED_GRID = _BOARD_PACKAGE + "ZonedGrid"
ZONE = _BOARD_PACKAGE + "mapgrid.Zone"
HEX_NUMBERING = _BOARD_PACKAGE + "mapgrid.HexGridNumbering"
OBLIQUE_NUMBERING = _BOARD_PACKAGE + "mapgrid.ObliqueHexGridNumbering"
SQUARE_NUMBERING = _BOARD_PACKAGE + "mapgrid.SquareGridNumbering"
GRID_CLASSES = {HEX_GRID, SQUARE_GRID, REGION_GRID, ZONED_GRID}
MODULE_ROOTS = ("VASSAL.build.GameModule", "VASSAL.launch.BasicModule")
EXTENSION_ROOT = _PACKAGE + "ModuleExtension"
PROTOTYPE = _PACKAGE + "PrototypeDefinition"
PIECE_SLOT = "VASSAL.build.widget.PieceSlot"
GLOBAL_PROPERTY = _PACKAGE + "properties.GlobalProperty"
_FOLDERS = {"VASSAL.build.widget.TabWidget", "VASSAL.build.widget.PanelWidget", "VASSAL.build.widget.ListWidget",
            "VASSAL.build.widget.BoxWidget", _PACKAGE + "PieceWindow", _PACKAGE + "PrototypeFolder"}
IGNORED_BOARD_CHILDREN = {_BOARD_PACKAGE + "mapgrid.ZonedGridHighlighter"}


@dataclass(frozen=True, slots=True)
class Board:
    name: str
    image: str | None
    width: int | None
    """Pixels; ``None`` when the board has an image the module does not hold."""
    height: int | None
    reversible: bool
    grid: object | None


@dataclass(frozen=True, slots=True)
class MapPoint:
    """A DrawPile or SetupStack: a named point, relative to its owning board when it has one."""

    name: str
    owning_board: str | None
    x: int
    y: int
    location: str | None = None
    use_grid_location: bool = False


@dataclass(frozen=True, slots=True)
class MapDefinition:
    id: str
    """What saves call the map: ``mapName``, or ``Map<n>`` when that is empty."""
    kind: str
    edge_width: int
    edge_height: int
    boards: tuple[Board, ...]
    draw_piles: tuple[MapPoint, ...] = ()
    setup_stacks: tuple[MapPoint, ...] = ()

    def board(self, name: str) -> Board | None:
        for board in self.boards:
            if board.name == name:
                return board
        return None


@dataclass(frozen=True, slots=True)
class PieceTemplate:
    """A prototype or a piece slot: the piece its definition builds, as a mapping sees it.

    ``properties`` are the names (with their default values) that Markers,
    Dynamic Properties, Text Labels and Layers give; ``prototypes`` the
    prototypes it uses, whose own properties it carries too in a save.
    """

    kind: str
    """``prototype`` or ``piece``."""
    name: str
    """The prototype's name, or the slot's entry name."""
    piece_name: str
    image: str
    folder: str
    """The palette folders (tabs, panels, lists) it sits in, joined by `` / ``."""
    prototypes: tuple[str, ...]
    properties: tuple[tuple[str, str], ...]
    layers: tuple[tuple[str, tuple[str, ...]], ...]
    """(layer name, level names) of each Layer trait."""
    traits: tuple[str, ...]
    """Every trait id, outermost first (unknown ids are a module's own traits)."""
    line: int
    problem: str = ""
    """Why the traits could not be read, when they could not (the definition is kept by name)."""


@dataclass(frozen=True, slots=True)
class Module:
    source: str
    name: str | None
    version: str | None
    vassal_version: str | None
    maps: Mapping[str, MapDefinition]
    metadata: Metadata | None = None
    build_file: str = field(default="buildFile.xml")
    prototypes: tuple[PieceTemplate, ...] = ()
    piece_slots: tuple[PieceTemplate, ...] = ()
    extends: str | None = None
    """For a module extension: the module it is for (``module=``), and ``version``/``name`` are the extension's."""
    extensions: tuple[str, ...] = ()
    """The extensions read together with this module (their sources), in the order given."""
    global_properties: tuple[str, ...] = ()
    """The names of the module's Global Properties (module, map and zone level), in file order."""


def _bool(element, name: str, default: bool = False) -> bool:
    value = element.get(name)
    return default if value is None else value == "true"


SMALLEST_SPACING = 0.001
"""Pixels between a grid's rows or columns below which no real grid goes (and division stops being safe)."""

# A Java int, which is what VASSAL reads every whole-number attribute into.
_INT_MIN, _INT_MAX = -(2**31), 2**31 - 1


class _UnreadableNumber(ValueError):
    """An attribute holding a number VASSAL could not use; :func:`parse_build_file` names the file for it."""

    def __init__(self, element, name: str, problem: str) -> None:
        super().__init__(problem)
        self.line = element.sourceline
        self.component = str(element.tag).rsplit(".", 1)[-1]
        self.name, self.value, self.problem = name, element.get(name), problem


def _number(element, name: str) -> float | None:
    """The attribute as a number; None when missing or no number at all (VASSAL then uses its default).

    A number that is not finite (``1e999``, ``inf``, ``nan``) is refused:
    no default stands in for it, and ``int`` cannot take it.
    """
    value = (element.get(name) or "").strip()
    if not value or not value.isascii():
        return None
    try:
        number = float(value)
    except ValueError:
        return None
    if not math.isfinite(number):
        raise _UnreadableNumber(element, name, "is not a finite number")
    return number


def _float(element, name: str, default: float) -> float:
    number = _number(element, name)
    return default if number is None else number


def _int(element, name: str, default: int) -> int:
    number = _number(element, name)
    if number is None:
        return default
    if not _INT_MIN <= number <= _INT_MAX:
        raise _UnreadableNumber(element, name,
                                f"is outside the whole numbers VASSAL reads ({_INT_MIN:,} to {_INT_MAX:,})")
    return int(number)


def _bounded(element, name: str, default: int, most: int, limit: str, limits: Limits) -> int:
    """A numbering's whole-number attribute, refused past the grid limit that keeps its labels short."""
    number = _int(element, name, default)
    if abs(number) > most:
        raise _UnreadableNumber(element, name, f"is {limits.beyond(limit)}")
    return number


def _spacing(element, name: str, default: float) -> float:
    """A grid's distance between rows or columns: every location name divides by it."""
    number = _float(element, name, default)
    if number < SMALLEST_SPACING:
        raise _UnreadableNumber(element, name, f"is not a distance of at least {SMALLEST_SPACING} pixel between "
                                               "rows or columns, so no point could be named")
    return number


def _numbering(grid_element, limits: Limits) -> Numbering | None:
    """The grid's numbering: VASSAL's own, or a module's class (kept by name, computed only when known).

    A module's numbering class is a subclass of VASSAL's, configured with the
    same attributes, so they are read the same way.
    """
    for child in grid_element:
        if child.tag in (HEX_NUMBERING, OBLIQUE_NUMBERING, SQUARE_NUMBERING):
            return _read_numbering(child, limits)
    for child in grid_element:
        if isinstance(child.tag, str) and not child.tag.startswith("VASSAL.") and child.tag.endswith("Numbering"):
            return _read_numbering(child, limits, custom=child.tag)
    return None


def _read_numbering(child, limits: Limits, custom: str | None = None) -> Numbering:
    def offset(name: str) -> int:
        return _bounded(child, name, 1, limits.grid_offset, "grid_offset", limits)

    def leading(name: str) -> int:
        return _bounded(child, name, 1, limits.grid_leading, "grid_leading", limits)

    return Numbering(
        first=child.get("first", "H"), sep=child.get("sep", ""),
        h_type=child.get("hType", "N"), v_type=child.get("vType", "N"),
        h_leading=leading("hLeading"), v_leading=leading("vLeading"),
        h_off=offset("hOff"), v_off=offset("vOff"),
        h_descend=_bool(child, "hDescend"), v_descend=_bool(child, "vDescend"),
        stagger=_bool(child, "stagger", True),
        location_format=child.get("locationFormat", "$gridLocation$"),
        oblique=child.tag == OBLIQUE_NUMBERING,
        custom=custom,
        most_characters=limits.label_characters,
    )


def _grid(element, limits: Limits):
    tag = element.tag
    if tag == HEX_GRID:
        default_dx = math.sqrt(3) / 2 * 64
        dy = _spacing(element, "dy", 64.0)
        dx = _float(element, "dx", default_dx)
        if element.get("dx") in (None, "") or dx == default_dx:
            dx = math.sqrt(3) / 2 * dy
        else:
            dx = _spacing(element, "dx", default_dx)
        return HexGrid(_int(element, "x0", 0), _int(element, "y0", 32), dx, dy, _bool(element, "sideways"),
                       _numbering(element, limits))
    if tag == SQUARE_GRID:
        return SquareGrid(_int(element, "x0", 24), _int(element, "y0", 24), _spacing(element, "dx", 48.0),
                          _spacing(element, "dy", 48.0), _numbering(element, limits))
    if tag == REGION_GRID:
        by_point: dict[tuple[int, int], str] = {}
        for region in element:
            if region.tag.endswith(".Region"):
                by_point[(_int(region, "originx", 0), _int(region, "originy", 0))] = region.get("name", "")
        return RegionGrid(tuple((name, x, y) for (x, y), name in by_point.items()))
    if tag == ZONED_GRID:
        zones, background = [], None
        for child in element:
            if child.tag == ZONE:
                zone_grid = next((_grid(g, limits) for g in child
                                  if isinstance(g.tag, str) and g.tag not in IGNORED_BOARD_CHILDREN), None)
                zones.append(Zone(child.get("name", ""), parse_path(child.get("path", "")),
                                  child.get("locationFormat", "$name$"), _bool(child, "useParentGrid"), zone_grid))
            elif child.tag in GRID_CLASSES:
                background = _grid(child, limits)
            elif child.tag not in IGNORED_BOARD_CHILDREN:
                background = background or UnknownGrid(child.tag)
        return ZonedGrid(tuple(zones), background)
    return UnknownGrid(str(tag))


class _Images:
    """Board image sizes read from the module zip's ``images/`` folder, header only."""

    def __init__(self, archive: Archive | None, limits: Limits) -> None:
        self.archive, self.limits = archive, limits

    def size(self, image: str) -> tuple[int, int] | None:
        if self.archive is None:
            return None
        name = "images/" + image
        if not self.archive.has(name):
            return None
        return image_size(self.archive.read_head(name, self.limits.image_header_bytes))


def _board(element, images: _Images, limits: Limits) -> Board:
    image = element.get("image") or None
    if image:
        size = images.size(image)
        width, height = size if size else (None, None)
    else:
        width, height = _int(element, "width", 500), _int(element, "height", 500)
    grid = None
    for child in element:
        if isinstance(child.tag, str) and child.tag not in IGNORED_BOARD_CHILDREN:
            grid = _grid(child, limits)
            break
    return Board(element.get("name", ""), image, width, height, _bool(element, "reversible"), grid)


def _map_points(map_element, tag: str) -> tuple[MapPoint, ...]:
    points = []
    for element in _own_descendants(map_element, tag):
        points.append(MapPoint(element.get("name", ""), element.get("owningBoard") or None,
                               _int(element, "x", 0), _int(element, "y", 0), element.get("location"),
                               _bool(element, "useGridLocation")))
    return tuple(points)


def _own_descendants(map_element, tag: str):
    """Descendants with ``tag`` that belong to this map, not to a map nested inside it."""
    for element in map_element.iter(tag):
        owner = next((a for a in element.iterancestors() if a.tag in MAP_CLASSES), None)
        if owner is map_element:
            yield element


def parse_build_file(data: bytes, *, source: str, entry: str | None = None, archive: Archive | None = None,
                     limits: Limits = DEFAULT_LIMITS, metadata: Metadata | None = None) -> Module:
    """A :class:`Module` from buildFile bytes (board sizes need the archive for images)."""
    try:
        return _module(data, source=source, entry=entry, archive=archive, limits=limits, metadata=metadata)
    except _UnreadableNumber as error:
        raise VassalFormatError(
            source,
            f"line {error.line}: the {error.component}'s {error.name}=\"{error.value}\" {error.problem}; the module "
            "must be corrected (in VASSAL's module editor) before its saves can be checked",
            entry=entry,
        ) from None


def _folder(element) -> str:
    names = [a.get("entryName") or a.get("name") or "" for a in element.iterancestors() if a.tag in _FOLDERS]
    return " / ".join(name for name in reversed(names) if name)


def _template(element, kind: str, name: str, limits: Limits, source: str, entry: str | None) -> PieceTemplate:
    """A prototype's or piece slot's text (``+/null/type/state``) read through the save reader's trait parser.

    A list past the ``list_items`` limit refuses the whole file, as it does in a save.
    """
    try:
        return _read_template(element, kind, name, limits)
    except TooManyItems as error:
        raise VassalFormatError(source, f"the {kind} {name!r} (line {element.sourceline or 0}) {error}",
                                entry=entry) from None


def _read_template(element, kind: str, name: str, limits: Limits) -> PieceTemplate:
    """A prototype's or piece slot's text, once the caller is ready to refuse an over-long list."""
    text = (element.text or "").strip()
    line = element.sourceline or 0
    if not text.startswith("+/"):
        return PieceTemplate(kind, name, "", "", _folder(element), (), (), (), (), line,
                             "its definition is not a piece VASSAL can build")
    _, type_string, state_string = add_fields(text)
    try:
        piece_type = parse_piece_type(type_string, limits.traits, limits.list_items)
    except PieceChainError as error:
        return PieceTemplate(kind, name, "", "", _folder(element), (), (), (), (), line, str(error))
    facts = facts_of(piece_type, chain_elements(state_string, len(piece_type.ids)), limits.list_items)
    prototypes = tuple(own.split(";", 1)[1] for tid, own in zip(piece_type.ids, piece_type.own_types, strict=True)
                       if tid == "prototype;")
    return PieceTemplate(kind, name or facts.name, facts.name, facts.image, _folder(element), prototypes,
                         tuple(facts.properties.items()),
                         tuple((layer.name, layer.level_names) for layer in facts.layers), piece_type.ids, line)


def _extends(root) -> str:
    """The module an extension is for; empty when it is for any module (``anyModule``)."""
    return "" if root.get("anyModule") == "true" else root.get("module") or ""


def _module(data: bytes, *, source: str, entry: str | None, archive: Archive | None, limits: Limits,
            metadata: Metadata | None) -> Module:
    root = parse_xml(data, source=source, entry=entry)
    if root.tag not in (*MODULE_ROOTS, EXTENSION_ROOT):
        raise VassalFormatError(source, f"is not a VASSAL buildFile (its root element is {root.tag})", entry=entry)
    images = _Images(archive, limits)
    maps: dict[str, MapDefinition] = {}
    for index, element in enumerate(e for e in root.iter() if e.tag in MAP_CLASSES):
        map_id = element.get("mapName") or f"Map{index}"
        edge_width, edge_height = _int(element, "edgeWidth", 0), _int(element, "edgeHeight", 0)
        if element.get("edge") and element.get("edgeWidth") is None:
            parts = element.get("edge").split(",")
            edge_width, edge_height = java_int(parts[0], 0), java_int(parts[-1], 0)
        boards = tuple(_board(b, images, limits) for b in _own_descendants(element, BOARD_CLASS))
        maps.setdefault(map_id, MapDefinition(
            map_id, element.tag.rsplit(".", 1)[-1], edge_width, edge_height, boards,
            _map_points(element, _PACKAGE + "map.DrawPile"), _map_points(element, _PACKAGE + "map.SetupStack"),
        ))
    prototypes = tuple(_template(e, "prototype", e.get("name", ""), limits, source, entry)
                       for e in root.iter(PROTOTYPE))
    slots = tuple(_template(e, "piece", e.get("entryName", ""), limits, source, entry)
                  for e in root.iter(PIECE_SLOT))
    extension = root.tag == EXTENSION_ROOT
    return Module(source, root.get("description") if extension else root.get("name"), root.get("version"),
                  root.get("vassalVersion") if extension else root.get("VassalVersion"),
                  MappingProxyType(maps), metadata, entry or Path(source).name, prototypes, slots,
                  _extends(root) if extension else None, (),
                  tuple(dict.fromkeys(e.get("name") for e in root.iter(GLOBAL_PROPERTY) if e.get("name"))))


def read_module(source: str | os.PathLike[str], *, limits: Limits = DEFAULT_LIMITS) -> Module:
    """A .vmod/.vext zip, or a bare ``buildFile.xml`` / ``buildFile`` on disk."""
    path = str(source)
    if os.path.isfile(source) and not zipfile.is_zipfile(source):
        data = read_file_capped(source, limits)
        return parse_build_file(data, source=path, limits=limits)
    with Archive(source, limits=limits) as archive:
        entry = "buildFile.xml" if archive.has("buildFile.xml") else "buildFile" if archive.has("buildFile") else None
        if entry is None:
            raise VassalFormatError(path, "has no buildFile.xml or buildFile entry, so it is not a VASSAL module")
        metadata = None
        for metadata_entry in ("moduledata", "extensiondata"):
            if metadata is None and archive.has(metadata_entry):
                metadata = parse_metadata(archive.read(metadata_entry, cap=1024 * 1024), source=path,
                                          entry=metadata_entry)
        return parse_build_file(archive.read(entry), source=path, entry=entry, archive=archive, limits=limits,
                                metadata=metadata)
