"""A starting mapping for a module and a game: what the names make clear, and the rest marked to fill in.

Matching is exact, never fuzzy (docs/vassal-mapping.md, "Drafting a mapping"):

* **Locations.** A zone, region, draw pile or setup stack whose name,
  normalised (lower case, every run of other characters than letters and
  digits one ``-``), equals the id or the normalised name of exactly one
  location, area or display of the game's map is mapped to it.  A board with
  a hex grid, for a hex game, is mapped hex by hex through the map skeleton
  (:mod:`.map_skeleton`).  Everything else is skipped with a ``todo``.
* **Pieces.** The game's vocabulary (``Game.vocabulary``,
  :mod:`validator.vocabulary`) says which words name a unit kind, a nation,
  a side or a size.  The words of a piece's name, image and palette folders
  (runs of letters and digits, lower case; phrases of several words joined
  by ``-``) are looked up in each table, in the sources the table reads: the
  sources that name any value must name the same one, and none may name two.
  A piece needs its kind and every required attribute.
* **State.** Global properties are matched to the game's position
  attributes and facts by name (:mod:`.draft_state`).

A piece the draft cannot describe completely is left out by an ``<ignore>``
marked ``todo``, and a location it cannot place is skipped with a ``todo``:
the draft checks nothing it is unsure of, and ``referee vassal mapping
check`` counts what those markers still cover.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from validator.vocabulary import Vocabulary

from .draft_pieces import PieceClass, classify, normalised, one_class
from .draft_state import StateMatch, write_state
from .grids import RegionGrid, ZonedGrid
from .map_skeleton import Skeleton, hex_grid_of, hex_id
from .mapping import NAMESPACE
from .module import Module

_IDENTIFIER = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:/\-]{0,199}")
HEX_NAME_PATTERN = r"^(?P<hex>[A-Za-z0-9][A-Za-z0-9_.:/\-]*)$"


@dataclass
class Draft:
    """The drafted mapping and what it decided, for the command's note and the tests."""

    xml: bytes
    pieces: list[PieceClass] = field(default_factory=list)
    matched_locations: dict[tuple[str, str], str] = field(default_factory=dict)
    matched_state: list[StateMatch] = field(default_factory=list)
    unmatched_properties: list[str] = field(default_factory=list)
    to_fill_in: int = 0


def game_locations(map_path: Path | None, game: str | None = None) -> dict[str, str]:
    """Normalised id, name or label to the id, for every place of our map (ambiguous ones dropped).

    The map is read as the game reads it, so the places its rules add (Tito's
    zone displays and Objective Display boxes) are matched too, by their
    label with their area's name (``Serbia Axis Mountain``).  A map the game
    refuses (a skeleton not filled in yet) is read for the places it declares.
    """
    if map_path is None or not map_path.is_file():
        return {}
    found: dict[str, set[str]] = {}

    def add(identifier: str, *names: str) -> None:
        for key in {normalised(identifier), *(normalised(name) for name in names)} - {""}:
            found.setdefault(key, set()).add(identifier)

    prepared = _prepared_map(map_path, game) if game is not None else None
    if prepared is not None:
        for place in (*prepared.areas.values(), *prepared.displays.values()):
            add(place.id, place.name)
        for location in prepared.locations.values():
            add(location.id, location.name, prepared.location_label(location.id))
    else:
        from validator.xmlparsing import parse_xml

        for element in parse_xml(map_path.read_bytes(), str(map_path)).iter():
            if isinstance(element.tag, str) and element.get("id") is not None and etree.QName(
                    element).localname in ("area", "display", "location", "hex"):
                add(element.get("id"), element.get("name") or "")
    return {key: next(iter(ids)) for key, ids in found.items() if len(ids) == 1}


def _prepared_map(map_path: Path, game: str):
    """The map as the game reads it, with the places its rules add; None when the game refuses it."""
    from validator.errors import InputError
    from validator.games import get
    from validator.limits import DEFAULT_LIMITS
    from validator.saves.xml_reader import read_map_file

    try:
        return read_map_file(get(game), str(map_path), str(map_path), 0, map_path.read_bytes(), str(map_path),
                             DEFAULT_LIMITS)
    except InputError:
        return None


def _names_on(module: Module) -> list[tuple[str, str]]:
    """(map, location name) of every zone, region, draw pile and setup stack, in module order."""
    names: list[tuple[str, str]] = []

    def grid_names(map_name: str, grid) -> None:
        if isinstance(grid, ZonedGrid):
            for zone in grid.zones:
                names.append((map_name, zone.name))
                grid_names(map_name, zone.grid)
            grid_names(map_name, grid.background)
        elif isinstance(grid, RegionGrid):
            names.extend((map_name, name) for name, _, _ in grid.regions)

    for definition in module.maps.values():
        for board in definition.boards:
            grid_names(definition.id, board.grid)
        names.extend((definition.id, point.name) for point in (*definition.draw_piles, *definition.setup_stacks))
    seen: set[tuple[str, str]] = set()
    return [item for item in names if item[1] and not (item in seen or seen.add(item))]


MOST_PATTERN_CHARACTERS = 900
"""An ``<ignore name-pattern>`` the draft writes stays under the schema's 1,000 characters; more get more ignores."""
_SPECIAL = re.compile(r"([\\.^$|?*+()\[\]{}])")


def _escaped(name: str) -> str:
    """A name as a pattern that matches it literally (only the characters patterns give a meaning)."""
    return _SPECIAL.sub(r"\\\1", name)


def name_patterns(names: Iterable[str], others: Iterable[str] = ()) -> list[str]:
    """``^(?:a|b|...)`` patterns for names, longest first, each short enough for the schema.

    A name is matched at the start of the piece's name, since layers and
    labels add to the end of it; a name that begins one of ``others`` (the
    names not to match) must be the whole name instead.
    """
    others = [other for other in others]
    patterns, current = [], []
    for name in sorted(set(names), key=lambda n: (-len(n), n)):
        whole = any(other != name and other.startswith(name) for other in others)
        current.append(_escaped(name) + ("$" if whole else ""))
        if len("|".join(current)) > MOST_PATTERN_CHARACTERS:
            patterns.append(current[:-1])
            current = current[-1:]
    if current:
        patterns.append(current)
    return [f"^(?:{'|'.join(part)})" for part in patterns if part]


class _Writer:
    def __init__(self) -> None:
        self.root = etree.Element(f"{{{NAMESPACE}}}mapping", nsmap={None: NAMESPACE})
        self.todos = 0

    def add(self, parent, tag: str, todo: str | None = None, **attributes: str):
        element = etree.SubElement(parent, f"{{{NAMESPACE}}}{tag}")
        for key, value in attributes.items():
            element.set(key.rstrip("_").replace("_", "-"), value)
        if todo:
            element.set("todo", todo)
            self.todos += 1
        return element

    def comment(self, parent, text: str) -> None:
        """A comment XML can hold: no ``--`` inside (module names may have them)."""
        parent.append(etree.Comment(" " + re.sub(r"-(?=-)", "- ", text) + " "))


def draft_mapping(module: Module, game: str, *, map_href: str, game_map: Path | None,
                  skeleton: Skeleton | None, saved_pieces: Iterable[tuple[str, str, str]] = (),
                  saved_properties: Iterable[str] = ()) -> Draft:
    """The draft for ``module`` and ``game``.

    ``saved_pieces`` are (name, image, map) the saves hold, and
    ``saved_properties`` the names of their global properties (a module may
    declare none and still have its saves keep some).
    """
    writer = _Writer()
    root = writer.root
    root.set("version", "1")
    root.set("game", game)
    draft = Draft(b"")
    writer.comment(root, "Drafted by referee vassal mapping draft (docs/vassal-mapping.md). Every element marked todo "
                         "stands in for what the module does not say: it checks nothing until you fill it in and "
                         "remove the todo; 'referee vassal mapping check' shows what the markers still cover.")
    version = module.version or (module.metadata.version if module.metadata else None)
    module_attributes = {"name": module.name or (module.metadata.name if module.metadata else "") or "(no name)"}
    if version and re.fullmatch(r"[0-9A-Za-z][0-9A-Za-z.\-_]{0,39}", version):
        module_attributes.update(min_version=version, max_version=version)
    writer.add(root, "module", **module_attributes)
    writer.add(root, "map", href=map_href)

    # -- pieces --------------------------------------------------------------------------------------------------
    prototypes_folder = {slot.name: slot.folder for slot in module.piece_slots}
    candidates: dict[str, list[tuple[str, str, str]]] = {}
    unnamed = False
    for slot in module.piece_slots:
        if slot.piece_name:
            candidates.setdefault(slot.piece_name, []).append((slot.image, slot.folder, " / ".join(slot.prototypes)))
        unnamed = unnamed or not slot.piece_name
    for name, image, _ in saved_pieces:
        if name and name not in candidates:
            candidates[name] = [(image, prototypes_folder.get(name, ""), "")]
        unnamed = unnamed or not name
    vocabulary = _vocabulary_of(game)
    classes = [one_class(name, [classify(name, image, folder, vocabulary, prototypes)
                                 for image, folder, prototypes in places])
               for name, places in candidates.items()]
    draft.pieces = classes
    described = [c for c in classes if c.kind is not None and not c.missing]
    undescribed = [c for c in classes if c.kind is None or c.missing]
    if vocabulary is not None:
        _write_piece_tables(writer, root, vocabulary, described)
    properties = dict.fromkeys((*module.global_properties, *saved_properties))
    draft.matched_state, draft.unmatched_properties = write_state(writer, root, properties, vocabulary)
    pieces = writer.add(root, "pieces")
    if undescribed:
        for pattern in name_patterns((c.name for c in undescribed), (c.name for c in described)):
            writer.add(pieces, "ignore", name_pattern=pattern,
                       todo="piece names whose kind or other attributes the names do not make clear (see the "
                            "comment below); give each its entries in the tables, then take it out of this list")
        writer.comment(pieces, "not classified: " + "; ".join(
            f"{c.name} ({c.kind_from if c.kind is None else ', '.join(c.missing)})" for c in undescribed))
    if unnamed:
        writer.add(pieces, "ignore", name_pattern="^$",
                   todo="pieces without a name: nothing says what they are; describe them by a property, or keep "
                        "leaving them out")
    if vocabulary is not None:
        _write_piece_rules(writer, pieces, vocabulary, described)

    # -- locations -----------------------------------------------------------------------------------------------
    locations = writer.add(root, "locations")
    known = game_locations(game_map, game)
    hex_maps = {h.map for h in skeleton.hexes} if skeleton is not None else set()
    located_maps: set[str] = set(hex_maps)
    exact: list[tuple[str, str, str | None]] = []
    for map_name, name in _names_on(module):
        identifier = known.get(normalised(name))
        if identifier is not None:
            draft.matched_locations[(map_name, name)] = identifier
            located_maps.add(map_name)
        exact.append((map_name, name, identifier))
    for definition in module.maps.values():
        if definition.id not in located_maps:
            writer.add(locations, "ignore-map", name=definition.id,
                       todo="no place on this map has a name of the game's map; map its locations or keep ignoring it")
    for map_name, name, identifier in exact:
        if map_name not in located_maps:
            continue
        if identifier is not None:
            writer.add(locations, "location", vassal=name, map=map_name, id=identifier)
        else:
            writer.add(locations, "location", vassal=name, map=map_name, skip="yes",
                       todo="no location of the game's map has this name; give its id, or keep skipping it")
    if skeleton is not None:
        for item in skeleton.hexes:
            if not _IDENTIFIER.fullmatch(item.vassal):
                writer.add(locations, "location", vassal=item.vassal, map=item.map, id=hex_id(item.vassal))
        for map_name in sorted(hex_maps):
            writer.add(locations, "pattern", map=map_name, match=HEX_NAME_PATTERN, id="{hex}")
    draft.to_fill_in = writer.todos
    draft.xml = etree.tostring(root, xml_declaration=True, encoding="UTF-8", pretty_print=True)
    return draft


def _vocabulary_of(game: str) -> Vocabulary | None:
    from validator.games import get

    return get(game).vocabulary


def _write_piece_tables(writer: _Writer, root, vocabulary: Vocabulary, described: list[PieceClass]) -> None:
    """One table per attribute, each piece name with its value; a kind's own tables; and what no name gives."""
    kinds = writer.add(root, "table", name=vocabulary.kind.table)
    writer.comment(kinds, "each piece name (VASSAL's basic name) and the kind its words give")
    for item in described:
        writer.add(kinds, "entry", vassal=item.name, ours=item.kind)
    for piece_words in vocabulary.attributes:
        tables = {piece_words.table: writer.add(root, "table", name=piece_words.table)}
        for _, table in dict.fromkeys(piece_words.attribute_for_kind.values()):
            tables[table] = writer.add(root, "table", name=table)
        for item in described:
            value = item.value(piece_words.attribute)
            if value is not None:
                _, table = piece_words.attribute_for_kind.get(item.kind, (None, piece_words.table))
                writer.add(tables[table], "entry", vassal=item.name, ours=value)
    for needs in vocabulary.kind_needs:
        writer.add(root, "table", name=needs.table, todo=needs.todo)


def _write_piece_rules(writer: _Writer, pieces, vocabulary: Vocabulary, described: list[PieceClass]) -> None:
    """The ignores that keep out what still needs filling in, and one attribute per table."""
    for needs in vocabulary.kind_needs:
        needing = [c.name for c in described if c.kind == needs.kind]
        others = [c.name for c in described if c.kind != needs.kind]
        for pattern in name_patterns(needing, others):
            writer.add(pieces, "ignore", name_pattern=pattern,
                       todo=f"{needs.kind} pieces need their {needs.attribute}, which no name gives: "
                            f"fill in {needs.table} (and the other tables for them), then remove this ignore")
    writer.add(pieces, "attribute", name=vocabulary.kind.attribute,
               value=f"{{basic_name|map:{vocabulary.kind.table}}}")
    for piece_words in vocabulary.attributes:
        sure = piece_words.required and not piece_words.attribute_for_kind
        writer.add(pieces, "attribute", name=piece_words.attribute,
                   value=f"{{basic_name|{'map' if sure else 'lookup'}:{piece_words.table}}}",
                   **({} if sure else {"required": "no"}))
        for attribute, table in dict.fromkeys(piece_words.attribute_for_kind.values()):
            writer.add(pieces, "attribute", name=attribute, value=f"{{basic_name|lookup:{table}}}", required="no")
    for needs in vocabulary.kind_needs:
        writer.add(pieces, "attribute", name=needs.attribute, value=f"{{id|lookup:{needs.table}}}", required="no")


def relative_href(target: Path, mapping_path: Path | None) -> str:
    """``target`` as the mapping's ``<map href>``: relative to the mapping's folder when it has one."""
    if mapping_path is None:
        return str(target.resolve())
    return os.path.relpath(target.resolve(), mapping_path.resolve().parent)


def is_hex_game(game: str) -> bool:
    """A game whose map is hexes the module does not describe: its vocabulary names the columns of a skeleton."""
    vocabulary = _vocabulary_of(game)
    return vocabulary is not None and bool(vocabulary.hex_columns)


def has_hex_boards(module: Module) -> bool:
    return any(hex_grid_of(board) is not None for definition in module.maps.values() for board in definition.boards)


__all__ = ["Draft", "PieceClass", "classify", "draft_mapping", "game_locations",
           "has_hex_boards", "is_hex_game", "normalised", "relative_href"]
