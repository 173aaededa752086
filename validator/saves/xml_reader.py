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
from collections.abc import Callable
from operator import itemgetter
from pathlib import Path
from types import MappingProxyType
from typing import NamedTuple

from lxml import etree

from validator import prepared_maps
from validator.collection import collector_paused
from validator.games import Game, UnknownGame, get
from validator.limits import DEFAULT_LIMITS, Limits
from validator.model import EMPTY, Event, MapData, Piece, Position
from validator.recently_used import RecentlyUsed
from validator.saves.errors import NAMESPACE, SaveInputError, UnknownGameInSave, tag
from validator.saves.map_reader import game_attributes, map_from, refuse_too_many_places
from validator.saves.map_references import map_beside_or_shipped
from validator.saves.source_lines import SourceLines
from validator.saves.unchanged_files import read_unless_unchanged
from validator.xmlparsing import XmlInputError, parse_xml, validate

SCHEMA = "save.xsd"
MAX_SAVE_BYTES = 32 * 1024 * 1024

# (href, the save's game) -> (the map file's bytes, its name for messages); see map_references.
MapResolver = Callable[[str, Game], tuple[bytes, str]]


def read_capped(path: Path, limit: int = MAX_SAVE_BYTES, limit_name: str = "") -> bytes:
    """The file's bytes, refusing more than ``limit`` without reading them all.

    ``limit_name`` names the :class:`~validator.limits.Limits` field the
    figure comes from, so the refusal says which limit to raise.
    """
    try:
        with path.open("rb") as handle:
            data = handle.read(_read_size(handle, limit))
            size = os.fstat(handle.fileno()).st_size
    except FileNotFoundError:
        raise SaveInputError(str(path), "no such file; check the path") from None
    except IsADirectoryError:
        raise SaveInputError(str(path), "is a folder, not a save file") from None
    except OSError as error:
        raise SaveInputError(str(path), f"cannot be read ({error.strerror})") from None
    if len(data) > limit and limit_name:
        held = f"{size:,} bytes" if size > limit else f"more than {limit:,} bytes"
        raise SaveInputError(str(path), f"the file holds {held}, more than the {limit_name} limit of {limit:,}")
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
    """Resolve a map ``href`` from the save's folder, or to the game's shipped map of its name."""

    def resolve(href: str, game: Game) -> tuple[bytes, str]:
        path = map_beside_or_shipped(folder, href, game)
        return read_unless_unchanged(path, read_capped), str(path)

    return resolve


def read_position_file(path: Path, game_id: str | None = None, limits: Limits = DEFAULT_LIMITS) -> Position:
    return read_position(read_capped(path), str(path), folder_resolver(path.resolve().parent), game_id, limits)


def read_position(
    data: bytes, source: str, resolve_map: MapResolver, game_id: str | None = None, limits: Limits = DEFAULT_LIMITS
) -> Position:
    """Parse, validate and interpret a save; ``game_id`` must agree with the file when given."""
    with collector_paused():  # thousands of pieces, none garbage (see validator.collection)
        return _read_position(data, source, resolve_map, game_id, limits)


def _read_position(data: bytes, source: str, resolve_map: MapResolver, game_id: str | None, limits: Limits) -> Position:
    lines = SourceLines(data)
    root = _parse(data, source, lines, limits)
    if root.tag == tag("map"):
        raise SaveInputError(source, "this is a map file; give a position file that refers to it", lines.of(root))
    if root.tag != tag("position"):
        raise SaveInputError(
            source, f"the root element is <{etree.QName(root).localname}>, not a Referee <position> "
            f"in the namespace {NAMESPACE}", lines.of(root),
        )
    game = _game(root, source, game_id, lines)
    map_data = _prepared_map(game, root.find(tag("map")), source, resolve_map, lines, limits)
    facts, fact_lines = _facts(root, lines)
    position = Position(
        game=game.id,
        map=map_data,
        pieces=_pieces(root, source, map_data, lines),
        scenario=root.get("scenario", ""),
        turn=root.get("turn", ""),
        phase=root.get("phase", ""),
        phasing=root.get("phasing", ""),
        facts=facts,
        fact_lines=fact_lines,
        events=tuple(_event(element, lines) for element in root.iterchildren(tag("event"))),
        source=source,
        line=lines.of(root),
    )
    refuse_what_the_game_cannot_use(game, position)
    return position


def refuse_what_the_game_cannot_use(game: Game, position: Position) -> None:
    """The game's own read-time validation: its first problem as the save's input error, with its line."""
    if game.validate_position is None:
        return
    problems = list(game.validate_position(position))
    if problems:
        line, problem = problems[0]
        more = f" ({len(problems) - 1} more problems)" if len(problems) > 1 else ""
        raise SaveInputError(position.source, problem + more, line)


def _parse(data: bytes, source: str, lines: SourceLines, limits: Limits) -> etree._Element:
    try:
        root = parse_xml(data, source)
    except XmlInputError as error:  # a syntax error's own line and column are exact
        raise SaveInputError(error.source, error.problem, error.line, error.column) from None
    refuse_past_limits(root, source, lines, limits)
    try:
        validate(root, SCHEMA, source)
    except XmlInputError as error:  # a schema error is numbered like its element
        raise SaveInputError(error.source, error.problem, lines.fix(error.line), error.column) from None
    return root


def refuse_past_limits(root: etree._Element, source: str, lines: SourceLines, limits: Limits) -> None:
    """Pieces, facts, events, areas and hexes past their limits, refused before the schema or the model reads them.

    Counts come from element lengths (C calls); only past a limit are the
    elements walked, to name the first one too many and its line.
    """
    if root.tag == tag("map"):
        refuse_too_many_places(root, source, lines, limits)
        return
    if root.tag != tag("position"):
        return  # the reader names what the file is instead
    inline_map = root.find(tag("map"))
    if inline_map is not None:
        refuse_too_many_places(inline_map, source, lines, limits)
    piece_lists = list(root.iterchildren(tag("pieces")))
    if sum(len(pieces) for pieces in piece_lists) > limits.pieces:
        _refuse_the_one_too_many(
            (piece for pieces in piece_lists for piece in pieces.iterchildren(tag("piece"))), "pieces",
            "the save holds {count:,} pieces", source, lines, limits,
        )
    if len(root) > min(limits.facts, limits.events):
        for count, element in enumerate(root.iterchildren(tag("fact")), start=1):
            if count > limits.facts:
                refuse_too_many_facts(count, source, lines.of(element), limits)
        _refuse_the_one_too_many(root.iterchildren(tag("event")), "events", "the save gives {count:,} events",
                                 source, lines, limits)


def _refuse_the_one_too_many(
    elements, limit: str, said: str, source: str, lines: SourceLines, limits: Limits
) -> None:
    """Refuse at the first element past the ``limit`` named, at its line (the count said stops there)."""
    allowed = getattr(limits, limit)
    for count, element in enumerate(elements, start=1):
        if count > allowed:
            raise SaveInputError(source, f"{said.format(count=count)}, {limits.beyond(limit)}", lines.of(element))


def _game(root: etree._Element, source: str, requested: str | None, lines: SourceLines) -> Game:
    declared = root.get("game")
    if requested and requested != declared:
        raise SaveInputError(source, f"the save is for the game '{declared}', not '{requested}'; name no game, "
                                     f"or the save's own ('{declared}')", lines.of(root))
    try:
        return get(declared)
    except UnknownGame as error:
        raise UnknownGameInSave(source, declared, str(error), lines.of(root)) from None


# Maps shared by many saves are read once: (game id, the game's prepare_map, map file) ->
# (the file's bytes, the prepared MapData).  An entry is used only while the file still
# holds exactly those bytes; comparing them is a memcmp, cheaper than hashing the file
# for every save, and as strict.
MAP_CACHE_SIZE = 8
_MAP_CACHE: RecentlyUsed[tuple, tuple[bytes, MapData]] = RecentlyUsed(MAP_CACHE_SIZE)


def _prepared_map(
    game: Game, element: etree._Element, source: str, resolve_map: MapResolver, lines: SourceLines, limits: Limits
) -> MapData:
    """The position's map with the game's own locations added; a referenced map is cached."""
    href, line = element.get("href"), lines.of(element)
    if href is None:
        _refuse_another_games_map(element, game, source, line, "the map")
        return _prepare(game, map_from(element, source, lines))
    if len(element):
        raise SaveInputError(source, "a <map> with href must be empty; give the map inline or by reference", line)
    if not href.strip():
        raise SaveInputError(
            source,
            "the map reference is empty; give href the map file's name, or put the map inside the <map> element",
            line,
        )
    return referenced_map(game, href, source, line, resolve_map, limits)


def referenced_map(
    game: Game, href: str, source: str, line: int, resolve_map: MapResolver, limits: Limits = DEFAULT_LIMITS
) -> MapData:
    """The map file ``href`` names (from the save ``source``, at ``line``), prepared by the game; cached.

    Two caches: this process's (the same bytes, given back at once), and the
    instance's (:mod:`validator.prepared_maps`: a map another process
    prepared, loaded in one step).  A map is counted against the limits
    however it is found.
    """
    try:
        data, map_source = resolve_map(href, game)
    except SaveInputError as error:
        raise SaveInputError(source, f"the map '{href}' cannot be used: {error}", line) from None
    key = (game.id, game.prepare_map, map_source)
    cached = _MAP_CACHE.get(key)
    if cached is not None and cached[0] == data:
        map_data = cached[1]
    else:
        map_data = prepared_maps.prepared(
            game, data, map_source, lambda: read_map_file(game, href, source, line, data, map_source, limits)
        )
        _MAP_CACHE.put(key, (data, map_data))
    _refuse_a_kept_map_past_limits(map_data, limits)
    return map_data


def _refuse_a_kept_map_past_limits(map_data: MapData, limits: Limits) -> None:
    """A map kept by a reader with larger limits (the command line's) is held to this reader's limits too."""
    if len(map_data.areas) + len(map_data.locations) <= limits.hexes:
        return
    places = len(map_data.areas) + sum(1 for location in map_data.locations.values() if location.kind == "hex")
    if places > limits.hexes:
        raise SaveInputError(
            map_data.source, f"the map has {places:,} areas and hexes, {limits.beyond('hexes')}", map_data.line
        )


def read_map_file(
    game: Game, href: str, source: str, line: int, data: bytes, map_source: str, limits: Limits
) -> MapData:
    """Parse, validate and prepare a map file: the work the caches save."""
    map_lines = SourceLines(data)
    root = _parse(data, map_source, map_lines, limits)
    if root.tag == tag("position"):
        raise SaveInputError(
            source,
            f"the map '{href}' is a position file, not a map; point href at a file whose root is <map>",
            line,
        )
    if root.tag != tag("map") or root.get("href"):
        raise SaveInputError(map_source, "a map file holds one <map> element without href", map_lines.of(root))
    _refuse_another_games_map(root, game, source, line, f"the map '{href}'")
    return _prepare(game, map_from(root, map_source, map_lines))


def _refuse_another_games_map(map_element: etree._Element, game: Game, source: str, line: int, named: str) -> None:
    """A map that declares another game: said before its hexes make every piece look misplaced."""
    declared = map_element.get("game")
    if declared is not None and declared != game.id:
        raise SaveInputError(
            source, f"{named} is for the game '{declared}', not '{game.id}'; use a map for {game.title}", line
        )


def _prepare(game: Game, map_data: MapData) -> MapData:
    return game.prepare_map(map_data) if game.prepare_map is not None else map_data


# Piece is a named tuple: building it from a tuple of all its fields skips the Python-level
# __new__ that only fills in defaults.  The envelope's attributes are Piece's fields before
# ``attributes``; one left out reads as the field's default ("" or None).
_new_piece = tuple.__new__
ENVELOPE = Piece._fields[:Piece._fields.index("attributes")]
_STRENGTH = ENVELOPE.index("strength")  # the one envelope field read as a number
_ID, _LOCATION = Piece._fields.index("id"), Piece._fields.index("location")


class _Shape(NamedTuple):
    """How to read a piece whose attributes have one set of names, in one order: worked out once per save.

    A piece's values (lxml's, in file order) get four more at their end: ""
    and None (the defaults of a field the piece leaves out), its mapping of
    the game's own attributes and its line; ``fields`` picks Piece's fields
    from them in one C call.
    """

    fields: Callable  # values + ("", None, attributes, line) -> every field of the Piece, in order
    own_key: Callable | None  # values -> the game's own values (one: the value itself); None when there are none
    shared: dict  # own_key's answer -> the read-only mapping of the game's own attributes (one per save and names)
    names: tuple  # the game's own attributes, in file order
    has_strength: bool


def _shape(names: tuple[str, ...], shared_by_names: dict[tuple, dict]) -> _Shape:
    """The shape of ``names``; its mappings are shared with every shape of the same own names, in the same order."""
    position = {name: index for index, name in enumerate(names)}
    blank, missing, attributes, line = range(len(names), len(names) + 4)  # the indexes of what values get added
    envelope = [position.get(name, missing if Piece._field_defaults.get(name) is None else blank)
                for name in ENVELOPE]
    own = [index for index, name in enumerate(names) if name not in ENVELOPE]
    own_names = tuple(names[index] for index in own)
    return _Shape(
        itemgetter(*envelope, attributes, line), itemgetter(*own) if own else None,
        shared_by_names.setdefault(own_names, {}), own_names, "strength" in position,
    )


def _own_attributes(shape: _Shape, key) -> MappingProxyType:
    """The mapping of the game's own attributes whose values ``key`` gives, made once per save, names and values."""
    values = key if len(shape.names) > 1 else (key,)
    attributes = shape.shared[key] = MappingProxyType(dict(zip(shape.names, values, strict=True)))
    return attributes


def _pieces(root: etree._Element, source: str, map_data: MapData, lines: SourceLines) -> tuple[Piece, ...]:
    """Every piece, refusing an unknown location and an id used twice.

    A save may hold thousands of pieces with a few sets of attribute names
    and a few distinct sets of the game's own values (owners, flags): so
    each set of names is worked out once (:class:`_Shape`), a piece is two
    calls into lxml (names, values) and a few C calls, and pieces whose own
    attributes are the same share one read-only mapping of them.  Locations
    and ids are then tested all at once (see refuse_bad_pieces).
    """
    shapes: dict[tuple, _Shape] = {}
    shared_by_names: dict[tuple, dict] = {}
    pieces = []
    append = pieces.append
    for element in root.iter(tag("piece")):
        names = tuple(element.keys())
        shape = shapes.get(names) or shapes.setdefault(names, _shape(names, shared_by_names))
        values = element.values()
        attributes = EMPTY
        if shape.own_key is not None:
            key = shape.own_key(values)
            attributes = shape.shared.get(key) or _own_attributes(shape, key)
        values += ("", None, attributes, element.sourceline)
        append(_new_piece(Piece, shape.fields(values)))
    if any(shape.has_strength for shape in shapes.values()):  # the one number, read apart from the loop above
        pieces = [_with_strength(piece) for piece in pieces]
    if lines.spans_lines:  # rare, and kept off the loop above
        pieces = [piece._replace(line=lines.fix(piece.line)) for piece in pieces]
    refuse_bad_pieces(pieces, map_data, source)
    return tuple(pieces)


def _with_strength(piece: Piece) -> Piece:
    """The piece with its strength as a number (the schema let through only whole numbers), or as it is without one."""
    strength = piece[_STRENGTH]
    if strength is None:
        return piece
    return _new_piece(Piece, (*piece[:_STRENGTH], int(strength), *piece[_STRENGTH + 1:]))


def refuse_bad_pieces(pieces: list[Piece], map_data: MapData, source: str) -> None:
    """The first piece, in file order, at a location the map lacks or with an id used before it.

    Two set tests answer for the whole save (the schema's own id check costs
    more); only when one fails are the pieces walked to name the culprit.
    """
    used = set(map(itemgetter(_LOCATION), pieces))
    used.discard(None)
    if len(set(map(itemgetter(_ID), pieces))) == len(pieces) and map_data.locations.keys() >= used:
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


def _facts(root: etree._Element, lines: SourceLines) -> tuple[MappingProxyType, MappingProxyType]:
    """Each fact's values in file order, and the line of each value.

    Values are gathered in lists and frozen once at the end: adding to a
    tuple copies it, which made a fact repeated n times cost n squared.
    Their number was held to the facts limit before the schema ran.
    """
    facts: dict[str, list[str]] = {}
    value_lines: dict[str, list[int]] = {}
    for element in root.iterchildren(tag("fact")):
        name = element.get("name")
        facts.setdefault(name, []).append(element.get("value"))
        value_lines.setdefault(name, []).append(lines.of(element))
    return (
        MappingProxyType({name: tuple(values) for name, values in facts.items()}),
        MappingProxyType({name: tuple(numbers) for name, numbers in value_lines.items()}),
    )


def refuse_too_many_facts(count: int, source: str, line: int, limits: Limits = DEFAULT_LIMITS) -> None:
    raise SaveInputError(source, f"the save gives {count:,} fact values, {limits.beyond('facts')}", line)


def _event(element: etree._Element, lines: SourceLines) -> Event:
    return Event(
        kind=element.get("kind"),
        area=element.get("area"),
        pieces=tuple(element.get("pieces", "").split()),
        attributes=game_attributes(element, "kind", "area", "pieces"),
        line=lines.of(element),
    )
