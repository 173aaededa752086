"""A starting mapping for a module and a game: what the names make clear, and the rest marked to fill in.

Matching is exact, never fuzzy (docs/vassal-mapping.md, "Drafting a mapping"):

* **Locations.** A zone, region, draw pile or setup stack whose name,
  normalised (lower case, every run of other characters than letters and
  digits one ``-``), equals the id or the normalised name of exactly one
  location, area or display of the game's map is mapped to it.  A board with
  a hex grid, for a hex game, is mapped hex by hex through the map skeleton
  (:mod:`.map_skeleton`).  Everything else is skipped with a ``todo``.
* **Piece kinds.** The words of a piece's name (runs of letters and digits,
  lower case) and of its image name are looked up in the game's table of
  unit kinds below.  A piece whose name gives one kind, and whose image gives
  the same kind or none, is that kind; so is a piece whose name gives none and
  whose image gives one.  Anything else is left out with a ``todo``.
* **Owners.** The words of the name, then of the palette folders the piece
  slot sits in, looked up in the game's table of nations: exactly one nation
  found is the owner (a partisan's builder).

A piece the draft cannot describe completely is left out by an ``<ignore>``
marked ``todo``, and a location it cannot place is skipped with a ``todo``:
the draft checks nothing it is unsure of, and ``referee vassal mapping
check`` counts what those markers still cover.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from .grids import RegionGrid, ZonedGrid
from .map_skeleton import GAME_HEX_ATTRIBUTES, Skeleton, hex_grid_of, hex_id
from .mapping import NAMESPACE
from .module import Module

_WORD = re.compile(r"[a-z0-9]+")
_IDENTIFIER = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:/\-]{0,199}")
HEX_NAME_PATTERN = r"^(?P<hex>[A-Za-z0-9][A-Za-z0-9_.:/\-]*)$"

KIND_WORDS: Mapping[str, Mapping[str, str]] = {
    "awaw": {
        "part": "partisan", "partisan": "partisan", "partisans": "partisan",
        "inf": "infantry", "infantry": "infantry", "arm": "armor", "armor": "armor", "armour": "armor",
        "mech": "mechanized", "mechanized": "mechanized", "airborne": "airborne", "para": "airborne",
        "marine": "marine", "marines": "marine", "militia": "militia", "garrison": "garrison",
        "rep": "replacement", "repl": "replacement", "replacement": "replacement", "replacements": "replacement",
        "air": "air", "fighter": "fighter", "bomber": "bomber",
        "naval": "naval", "fleet": "fleet", "carrier": "carrier", "battleship": "battleship", "cruiser": "cruiser",
        "destroyer": "destroyer", "sub": "submarine", "submarine": "submarine", "transport": "transport",
        "airbase": "airbase", "bridgehead": "bridgehead", "bh": "bridgehead", "railhead": "railhead",
        "fortress": "fortress", "fortification": "fortification", "ic": "ic", "industrial": "ic",
    },
}
"""Words that name one unit kind of the game (its piece ``type`` values), as modules abbreviate them."""

NATION_WORDS: Mapping[str, Mapping[str, str]] = {
    "awaw": {
        "uk": "britain", "br": "britain", "brit": "britain", "britain": "britain", "british": "britain",
        "fr": "france", "france": "france", "french": "france",
        "ge": "germany", "ger": "germany", "germany": "germany", "german": "germany",
        "it": "italy", "ita": "italy", "italy": "italy", "italian": "italy",
        "ru": "russia", "rus": "russia", "russia": "russia", "russian": "russia", "ussr": "russia",
        "us": "usa", "usa": "usa", "american": "usa", "jp": "japan", "japan": "japan", "japanese": "japan",
    },
}
"""Words that name one nation of the game (an owner or builder id)."""

PARTISAN_KINDS: Mapping[str, str] = {"awaw": "partisan"}
POSITION_ATTRIBUTES = ("scenario", "turn", "phase", "phasing")
REQUIRED_POSITION: Mapping[str, tuple[str, ...]] = {"awaw": ("turn",), "tito": ("turn",), "tww": ("turn",)}
"""Position attributes a game refuses a save without, which the draft must at least mark to fill in."""
"""The kind whose pieces have a builder and a home instead of an owner."""


def normalised(text: str) -> str:
    return "-".join(_WORD.findall(text.lower()))


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


@dataclass(frozen=True)
class PieceClass:
    """What the draft found for one piece name."""

    name: str
    kind: str | None
    kind_from: str
    """``name``, ``image``, ``name and image``, or why no kind was found."""
    owner: str | None


def _kinds(text: str, table: Mapping[str, str]) -> set[str]:
    return {table[word] for word in words(text) if word in table}


def classify(name: str, image: str, folder: str, game: str) -> PieceClass:
    """A piece name's kind and owner, found only where one word says it plainly."""
    kind_words, nation_words = KIND_WORDS.get(game, {}), NATION_WORDS.get(game, {})
    by_name = _kinds(name, kind_words)
    by_image = _kinds(re.sub(r"\.[A-Za-z]+$", "", image), kind_words)
    kind, kind_from = None, "no word of its name or image names a kind"
    if len(by_name) > 1 or len(by_image) > 1:
        kind_from = "its name or image names several kinds"
    elif by_name and by_image and by_name != by_image:
        kind_from = f"its name says {next(iter(by_name))} but its image says {next(iter(by_image))}"
    elif by_name:
        kind, kind_from = next(iter(by_name)), "name and image" if by_image else "name"
    elif by_image:
        kind, kind_from = next(iter(by_image)), "image"
    owner = None
    for text in (name, folder):
        nations = _kinds(text, nation_words)
        if len(nations) == 1:
            owner = next(iter(nations))
            break
        if nations:
            break
    return PieceClass(name, kind, kind_from, owner)


@dataclass
class Draft:
    """The drafted mapping and what it decided, for the command's note and the tests."""

    xml: bytes
    pieces: list[PieceClass] = field(default_factory=list)
    matched_locations: dict[tuple[str, str], str] = field(default_factory=dict)
    to_fill_in: int = 0


def game_locations(map_path: Path | None) -> dict[str, str]:
    """Normalised id or name to the id, for every place our map file declares (ambiguous ones dropped)."""
    if map_path is None or not map_path.is_file():
        return {}
    from validator.xmlparsing import parse_xml

    root = parse_xml(map_path.read_bytes(), str(map_path))
    found: dict[str, set[str]] = {}
    for element in root.iter():
        if not isinstance(element.tag, str) or element.get("id") is None:
            continue
        if etree.QName(element).localname not in ("area", "display", "location", "hex"):
            continue
        identifier = element.get("id")
        for key in {normalised(identifier), normalised(element.get("name") or "")} - {""}:
            found.setdefault(key, set()).add(identifier)
    return {key: next(iter(ids)) for key, ids in found.items() if len(ids) == 1}


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
                  skeleton: Skeleton | None, saved_pieces: Iterable[tuple[str, str, str]] = ()) -> Draft:
    """The draft for ``module`` and ``game``; ``saved_pieces`` are (name, image, map) the saves hold."""
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
    candidates: dict[str, tuple[str, str]] = {}
    unnamed = False
    for slot in module.piece_slots:
        if slot.piece_name:
            candidates.setdefault(slot.piece_name, (slot.image, slot.folder))
        unnamed = unnamed or not slot.piece_name
    for name, image, _ in saved_pieces:
        if name:
            candidates.setdefault(name, (image, prototypes_folder.get(name, "")))
        unnamed = unnamed or not name
    classes = [classify(name, image, folder, game) for name, (image, folder) in candidates.items()]
    draft.pieces = classes
    partisan_kind = PARTISAN_KINDS.get(game)
    typed = [c for c in classes if c.kind is not None and (c.owner is not None or c.kind == partisan_kind)]
    untyped = [c for c in classes if c not in typed]
    partisans = [c for c in typed if c.kind == partisan_kind]
    units = [c for c in typed if c.kind != partisan_kind]

    types = writer.add(root, "table", name="piece-types")
    writer.comment(types, "each piece name (VASSAL's basic name) and the kind its words give")
    for item in typed:
        writer.add(types, "entry", vassal=item.name, ours=item.kind)
    owners = writer.add(root, "table", name="owners")
    for item in units:
        writer.add(owners, "entry", vassal=item.name, ours=item.owner)
    if partisan_kind:
        builders = writer.add(root, "table", name="partisan-builders")
        for item in partisans:
            if item.owner:
                writer.add(builders, "entry", vassal=item.name, ours=item.owner)
        writer.add(root, "table", name="partisan-homes",
                   todo="the module gives no partisan's home country: list each partisan by its VASSAL piece id "
                        "(referee vassal dump --format json shows the ids) with the country it was built in")
    # -- state ---------------------------------------------------------------------------------------------------
    by_name = {normalised(name): name for name in module.global_properties}
    state = None
    for attribute in POSITION_ATTRIBUTES:
        found = by_name.get(attribute)
        if found is None and attribute not in REQUIRED_POSITION.get(game, ()):
            continue
        state = state if state is not None else writer.add(root, "state")
        if found is not None:
            writer.add(state, "global", property=found, position=attribute,
                       todo=f"the module's global property '{found}' is named like the {attribute}: check that its "
                            "values are ours (add value= or translate= if not)")
        else:
            writer.add(state, "global", property=f"(the global property that holds the {attribute})",
                       position=attribute,
                       todo=f"the module has no global property named '{attribute}': name the one that holds it, "
                            f"or give default= (for a scenario's set-up) when none does")

    pieces = writer.add(root, "pieces")
    if untyped:
        for pattern in name_patterns((c.name for c in untyped), (c.name for c in typed)):
            writer.add(pieces, "ignore", name_pattern=pattern,
                       todo="piece names whose kind or owner the names do not make clear (see the comment below); "
                            "give each a kind in piece-types (and an owner), then take it out of this list")
        writer.comment(pieces, "not classified: " + "; ".join(
            f"{c.name} ({c.kind_from if c.kind is None else 'no owner'})" for c in untyped))
    if unnamed:
        writer.add(pieces, "ignore", name_pattern="^$",
                   todo="pieces without a name: nothing says what they are; describe them by a property, or keep "
                        "leaving them out")
    if partisans:
        for pattern in name_patterns((c.name for c in partisans), (c.name for c in units)):
            writer.add(pieces, "ignore", name_pattern=pattern,
                       todo="partisans need a builder and a home: fill in partisan-builders and partisan-homes, "
                            "then remove this ignore")
    writer.add(pieces, "attribute", name="type", value="{basic_name|map:piece-types}")
    writer.add(pieces, "attribute", name="owner", value="{basic_name|lookup:owners}", required="no")
    if partisan_kind:
        writer.add(pieces, "attribute", name="builder", value="{basic_name|lookup:partisan-builders}",
                   required="no")
        writer.add(pieces, "attribute", name="home", value="{id|lookup:partisan-homes}", required="no")

    # -- locations -----------------------------------------------------------------------------------------------
    locations = writer.add(root, "locations")
    known = game_locations(game_map)
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


def relative_href(target: Path, mapping_path: Path | None) -> str:
    """``target`` as the mapping's ``<map href>``: relative to the mapping's folder when it has one."""
    if mapping_path is None:
        return str(target.resolve())
    return os.path.relpath(target.resolve(), mapping_path.resolve().parent)


def is_hex_game(game: str) -> bool:
    return game in GAME_HEX_ATTRIBUTES


def has_hex_boards(module: Module) -> bool:
    return any(hex_grid_of(board) is not None for definition in module.maps.values() for board in definition.boards)


__all__ = ["Draft", "KIND_WORDS", "NATION_WORDS", "PieceClass", "classify", "draft_mapping", "game_locations",
           "has_hex_boards", "is_hex_game", "normalised", "relative_href"]
