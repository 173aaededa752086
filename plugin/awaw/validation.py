"""What makes an A World at War save unusable: the map, the turn, the facts and the pieces, as (line, problem).

The reader reports the first with the file and line (exit code 2).  A map's
problems are found once per map and name the map file and its line, since
the map may be another file than the save.  A save holds thousands of units
with a few distinct owners and flags: the tables' readers read each distinct
value once, so an ordinary unit costs a few look-ups.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import compress, repeat
from operator import attrgetter, eq, is_

from validator.derived import memoised
from validator.facts import (
    Attribute,
    AttributeTable,
    Boolean,
    Context,
    MapReference,
    MapReferences,
    Text,
    Word,
    Words,
    read_position,
)
from validator.model import MapData, Position, location_table
from validator.quoting import name_a_few, quote

from plugin.awaw.facts import POSITION, fact_reading
from plugin.awaw.hexes import map_reading, not_hexes, part_of_chain
from plugin.awaw.vocabulary import (
    BUILDERS,
    CONTROLLER_WORDS,
    COUNTRY_NAMES,
    FACTIONS,
    FEATURES,
    IRAQ_GROUP,
    NEUTRAL,
    PARTISAN_TYPE,
    PIECE_TYPES,
)

Problem = tuple[int, str]


def _areas(context: Context):
    return context.map.areas


MAP = AttributeTable("an A World at War map", (
    Attribute("game", Word(("awaw",))), *(Attribute(name, Text()) for name in ("version", "grid", "layout")),
))
AREA = AttributeTable("an area", (
    Attribute("part-of", Word(COUNTRY_NAMES, name="an area of the map or a known country", extra=_areas)),
    Attribute("kind", Text()),
))
HEX = AttributeTable("a hex", (
    Attribute("area", MapReference("area", "an area the map declares with <area>")),
    *(Attribute(name, Text()) for name in ("column", "row", "name", "terrain")),
    Attribute("controller", Word((*BUILDERS, *CONTROLLER_WORDS), name="a power, 'neutral' or 'none'")),
    Attribute("island", Boolean()), Attribute("sea", Boolean()),
    Attribute("features", Words((), rest=Word(FEATURES, name="a hex feature"), fewest=0,
                                name=f"hex features ({', '.join(FEATURES)})")),
))
PLACED = Attribute("placed-this-phase", Boolean())
PARTISAN = AttributeTable("a partisan", (
    Attribute("type", Word((PARTISAN_TYPE,))),
    Attribute("builder", Word(BUILDERS, name=f"a power that builds partisans ({', '.join(BUILDERS)})"), required=True),
    Attribute("faction", Word(FACTIONS)),
    Attribute("home", Word((*COUNTRY_NAMES, IRAQ_GROUP), name="the country it was built in: a known country or an area "
                                                               "of the map", extra=_areas), required=True),
    PLACED,
))
UNIT = AttributeTable("a unit or counter", (
    Attribute("type", Word(PIECE_TYPES, name=f"an A World at War piece type ({', '.join(sorted(PIECE_TYPES))})")),
    Attribute("owner", Word((*BUILDERS, *COUNTRY_NAMES, NEUTRAL), name="a power, a country of the map or 'neutral'",
                            extra=_areas)),
    Attribute("zoc", Boolean()), Attribute("zoc-hexes", MapReferences("hex")), PLACED,
))


def prepare_map(map_data: MapData) -> MapData:
    """The map with what the rules read from it alone worked out once: its problems, its hexes, its other places.

    A prepared map is kept between processes (validator.prepared_maps), so
    this pass over every hex runs once per map, not once per save.  A map's
    problems are kept rather than raised: the save that uses the map reports
    them (see validate_position), naming the map file and its line.
    """
    problems = memoised(map_data, "awaw problems", lambda: list(_map_problems(map_data)))
    if not problems:
        map_reading(map_data)
    memoised(map_data, "awaw places that are not hexes", lambda: _places_that_are_not_hexes(map_data))
    return map_data


def _places_that_are_not_hexes(map_data: MapData) -> frozenset:
    if "awaw" in map_data.derived:
        return map_data.derived["awaw"].hexes.not_hexes
    return not_hexes(map_data)


def validate_position(position: Position) -> list[Problem]:
    """Every problem of the save, the map's first."""
    prepare_map(position.map)  # an inline map, or one a caller built, is prepared here
    map_problems = position.map.derived["awaw problems"]
    return [*map_problems, *read_position(POSITION, position)[1], *fact_reading(position).problems,
            *_piece_problems(position)]


def _map_problems(map_data: MapData) -> Iterator[Problem]:
    def on_map(line: int, problem: str) -> Problem:
        return 0, f"the map {map_data.source}{f', line {line}' if line else ''}: {problem}"

    context = Context(map_data)
    yield from (on_map(map_data.line, f"the map {problem}") for problem in MAP.read(map_data.attributes, context)[1])
    circled: set[str] = set()
    for area in map_data.areas.values():
        yield from (on_map(area.line, f"the area {quote(area.id)} {problem}")
                    for problem in AREA.read(area.attributes, context)[1])
        circle = part_of_chain(map_data, area.id)[1]
        if circle and area.id == circle[0] and area.id not in circled:  # once per circle, at its first area
            circled.update(circle)
            yield on_map(area.line, _circle_problem(circle))
    locations = location_table(map_data.locations)
    kinds = locations.column("kind")
    read = HEX.reader(context)
    if _some_hex_value_refused(locations, kinds, read):  # then, and only then, read hex by hex to say where
        for location in locations.values():
            if location.kind == "hex":
                area = (("area", location.area),) if location.area else ()
                for problem in read(location.attributes, *area)[1]:
                    yield on_map(location.line, f"the hex {quote(location.id)} {problem}")
    hexes = kinds.count("hex")
    if not hexes:
        yield on_map(map_data.line, "the map has no hexes; an A World at War map is a hex map, so give it <hex> "
                                    "elements")
    elif hexes > 1 and not locations.any_neighbours("hex"):
        yield on_map(map_data.line, "no hex of the map has a neighbour, so no rule can tell which hexes touch "
                                    "(ZoCs, surrounded partisans); declare grid=\"hex\" with a layout and give each "
                                    "hex column and row, or list each hex's neighbours")


def _some_hex_value_refused(locations, kinds: list[str], read) -> bool:
    """Whether the table refuses any hex's area or attribute: each distinct value is read once.

    A hex's problems are those of its values one by one (while the table
    requires none), so the map's hexes have a problem exactly when some
    distinct value, read alone, has one.
    """
    if any(attribute.required for attribute in HEX.attributes):  # a hex could lack one: ask every hex
        return True
    areas = set(compress(locations.column("area"), map(eq, kinds, repeat("hex")))) - {None, ""}
    if any(read({}, ("area", area))[1] for area in areas):
        return True
    free = {attribute.name for attribute in HEX.attributes if type(attribute.value) is Text}  # nothing to refuse
    return any(read({name: value})[1] for name, values in locations.attribute_values("hex", skip=free).items()
               for value in values)


def _circle_problem(circle: list[str]) -> str:
    first = quote(circle[0])
    if len(circle) == 1:
        return f"the area {first} is part of itself; part-of must lead to a country, so remove it or name the country"
    return (f"the area {first} is part of {quote(circle[1])}, and part-of leads from there back to {first} "
            f"(the circle holds {name_a_few(circle)}), so it never reaches a country; remove part-of from the area "
            "that is the country")


def _piece_problems(position: Position) -> Iterator[Problem]:
    """Each piece's problems; pieces of one type sharing one mapping of attributes (as the reader gives
    them) are read once, the mapping named by its identity while every piece, so every mapping, is alive."""
    context = Context(position.map)
    readers = {True: PARTISAN.reader(context), False: UNIT.reader(context)}
    elsewhere = position.map.derived["awaw places that are not hexes"]
    if _every_piece_sound(position.pieces, readers, elsewhere):
        return
    read: dict[tuple[str, int], list[str]] = {}
    for piece in position.pieces:
        partisan = piece.type == PARTISAN_TYPE
        key = (piece.type, id(piece.attributes))
        problems = read.get(key)
        if problems is None:
            problems = read[key] = readers[partisan](piece.attributes, ("type", piece.type))[1]
        for problem in problems or _rules(piece, partisan, elsewhere):
            yield piece.line, f"the piece {quote(piece.id)} {problem}"


_TYPE, _ATTRIBUTES, _LOCATION = attrgetter("type"), attrgetter("attributes"), attrgetter("location")


def _every_piece_sound(pieces, readers: dict, elsewhere: frozenset) -> bool:
    """Whether no piece has a problem, asked of one piece per kind: the usual answer, without a loop over pieces.

    A piece's problems depend only on its type, its mapping of attributes,
    whether it has a location and whether that is a place that is not a hex;
    the pieces are sorted into those kinds with C calls, and one piece of
    each kind is read.
    """
    locations = list(map(_LOCATION, pieces))
    if not elsewhere.isdisjoint(locations):
        return False
    kinds = zip(map(_TYPE, pieces), map(id, map(_ATTRIBUTES, pieces)), map(is_, locations, repeat(None)), strict=True)
    for piece in dict(zip(kinds, pieces, strict=True)).values():
        partisan = piece.type == PARTISAN_TYPE
        if readers[partisan](piece.attributes, ("type", piece.type))[1] or _rules(piece, partisan, elsewhere):
            return False
    return True


def _rules(piece, partisan: bool, elsewhere: frozenset) -> tuple[str, ...]:
    """What a piece whose every value is known gets wrong by combining them (nearly always nothing)."""
    attributes, location = piece.attributes, piece.location
    if location in elsewhere:
        return (f"stands at {quote(location)}, which is not a hex of the map",)
    if partisan:
        faction, builder = attributes.get("faction"), attributes["builder"]
        if faction and faction != BUILDERS[builder]:
            return (f"is marked faction {quote(faction)}, but its builder {builder} belongs to the {BUILDERS[builder]} "
                    "faction",)
    elif location is None:
        if "zoc-hexes" in attributes:
            return ("is off the map (it has no location) but lists zoc-hexes; a unit that is not on the map exerts no "
                    "ZoC, so give it the hex it stands in or remove zoc-hexes",)
    elif "owner" not in attributes:
        return ("has no owner; give owner='...' (the major power, or the minor country, it belongs to)",)
    return ()
