"""What makes a Tito save unusable: its vocabulary as tables, then the rules that tie two values together.

``validate_position`` yields ``(line, problem)`` pairs; the reader turns the
first into an error that names the file and line (exit code 2).  Problems in
the map file name the map file and its line inside the sentence, because the
line the reader reports belongs to the save.  Everything accepted here is
documented in docs/save-format.md, section "Tito".
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from validator.derived import memoised
from validator.facts import (
    MANY,
    Attribute,
    AttributeTable,
    Boolean,
    Context,
    Count,
    Either,
    Fact,
    FactTable,
    MapReference,
    Number,
    Text,
    Turn,
    Word,
    Words,
    read_position,
)
from validator.model import MapData, Position

from plugin.tito import borders, facts, locations, units

Problem = tuple[int, str]
RESERVED_DISPLAY_IDS = ("mountain", "hide-away", "neutral-chetnik")
GAME_TURN = Turn(1, facts.LAST_TURN, f"a Game-Turn number (1 to {facts.LAST_TURN})")


def _listed(name: str, words) -> str:
    return f"{name} ({', '.join(words)})"


MAP = AttributeTable("a Tito map", (Attribute("game", Word(("tito",))), Attribute("version", Text())))
ZONE = AttributeTable("a zone", (
    Attribute("garrison", Count(name="a whole number of divisions (7.51)"), required=True),
    Attribute("alignment", Word(facts.ALIGNMENTS, name="P, C or N (7.53C)"), required=True),
    Attribute("uprising-modifier", Count(-999_999, name="a whole number (7.52)"), required=True),
    Attribute("placeholder-neighbours", Words((), rest=Word(facts.ZONES, name="a Tito zone id"), fewest=0,
                                              different=True, name="Tito zone ids")),
))
DISPLAY = AttributeTable("a display", (
    Attribute("terrain", Word(facts.TERRAINS, name=_listed("a terrain of 5.3", facts.TERRAINS)), required=True),
    Attribute("recruitment", Number("a recruitment value such as 2, 1.5 or 1/2 (7.44)"), required=True),
    Attribute("victory-points", Count(name="a whole number (14.2A)"), required=True),
    Attribute("intrinsic-defence", Count(1, name="a positive whole number (8.5)")),
    Attribute("labels", Words((), rest=Word(facts.DISPLAY_LABELS, name="a label"), fewest=0,
                              name=_listed("labels", facts.DISPLAY_LABELS))),
))
POSITION = AttributeTable("a Tito position", (
    Attribute("turn", GAME_TURN), Attribute("phase", Word(facts.PHASES)),
    Attribute("phasing", Word(facts.PHASING_SIDES)),
))
FACTS = FactTable("a Tito fact", (
    *(Fact(name, Either((GAME_TURN, Boolean()), name=f"{GAME_TURN.name}, true or false"), description=description)
      for name, description in facts.TRIGGER_FACTS.items()),
    Fact("tito-state", Word(facts.TITO_STATES), description=facts.OTHER_FACTS["tito-state"]),
    Fact("victory-points", Count(-999_999, name="a whole number"), description=facts.OTHER_FACTS["victory-points"]),
    Fact("intrinsic-defence-eliminated", MapReference("display"), repeat=MANY,
         description=facts.OTHER_FACTS["intrinsic-defence-eliminated"]),
))
# The pieces' own fields (nationality, type, side, size) are read with the attributes Tito adds.
PIECE_FIELDS = ("nationality", "type", "side", "size")
DESIGNATION = "designation"  # any text: the one piece attribute that is never wrong
PIECE = AttributeTable("a Tito piece", (
    Attribute("nationality", Word(facts.NATIONALITIES, name=_listed("a Tito nationality", facts.NATIONALITIES))),
    Attribute("type", Word(facts.UNIT_TYPES, name=_listed("a Tito type", facts.UNIT_TYPES))),
    Attribute("side", Word(facts.SIDES)),
    Attribute("size", Word(facts.SIZE_EQUIVALENTS, name=_listed("a Tito size", facts.SIZE_EQUIVALENTS))),
    Attribute("allegiance", Word(facts.ALLEGIANCES, name=_listed("a Chetnik allegiance (7.2)", facts.ALLEGIANCES))),
    Attribute(DESIGNATION, Text()),
))
EVENT = AttributeTable("a Tito event", (
    Attribute("kind", Word(facts.EVENT_KINDS), required=True),
    Attribute("area", MapReference("area", "a zone of the map")),
))


def validate_position(position: Position) -> Iterator[Problem]:
    """Every game-specific problem of a Tito save, in file order within each part."""
    context = Context(position.map)
    yield from _map_problems(position.map, position.source, context)
    yield from read_position(POSITION, position)[1]
    if position.phase == "setup" and position.turn not in ("", "1"):
        yield position.line, f"the position's phase 'setup' comes before Game-Turn 1, not in Game-Turn {position.turn}"
    yield from _fact_problems(position)
    yield from _piece_problems(position, context)
    yield from _event_problems(position, context)


# -- the map -------------------------------------------------------------------


def _map_problems(map_data: MapData, save_source: str, context: Context) -> Iterator[Problem]:
    def at(line: int, problem: str) -> Problem:
        if map_data.source == save_source:  # an inline map: the reader's line is the right one
            return line, (f"in the map, {problem}" if line else problem)
        where = f", line {line}" if line else ""
        return 0, f"the map {map_data.source}{where}: {problem}"

    yield from (at(line, problem) for line, problem in map_problems(map_data, context))


def map_problems(map_data: MapData, context: Context | None = None) -> tuple[Problem, ...]:
    """The map's own problems, found once and kept on it: the same map comes with save after save.

    :func:`plugin.tito.locations.prepare_map` asks first, so they are kept
    in the prepared map (:mod:`validator.prepared_maps`) and a process that
    loads it does not look for them again.
    """
    return memoised(map_data, "tito:map-problems",
                    lambda: tuple(_problems_of_map(map_data, context or Context(map_data))))


def _problems_of_map(map_data: MapData, context: Context) -> Iterator[Problem]:
    """The map's own problems, each at the line of the map file it names (0: the map as a whole)."""
    yield from ((0, f"the map {problem}") for problem in MAP.read(map_data.attributes, context)[1])
    read_zone, read_display = ZONE.reader(context), DISPLAY.reader(context)
    missing = [facts.ZONES[zone] for zone in facts.ZONES if zone not in map_data.areas]
    if missing:
        yield 0, f"the map lacks the Tito zones {', '.join(missing)} (5.1 names twelve)"
    for area in map_data.areas.values():
        if area.id not in facts.ZONES:
            yield area.line, f"'{area.id}' is not a Tito zone; the zones are {', '.join(facts.ZONES)}"
            continue
        name = facts.ZONES[area.id]
        yield from ((area.line, f"the zone {name} {problem}") for problem in read_zone(area.attributes)[1])
        yield from ((area.line, problem) for problem in _neighbour_problems(map_data, area.id))
    for display in map_data.displays.values():
        if display.id in RESERVED_DISPLAY_IDS or "/" in display.id:
            yield display.line, f"the display id '{display.id}' would clash with a zone-display location id"
        values, problems = read_display(display.attributes)
        yield from ((display.line, f"the display {display.label} {problem}") for problem in problems)
        for label in values.get("labels", ()):
            if display.area != facts.DISPLAY_LABELS[label]:
                yield display.line, (f"the label '{label}' belongs on displays in "
                                     f"{facts.ZONES[facts.DISPLAY_LABELS[label]]}, not on {display.label}")
    expected = locations.generated_kinds(map_data)
    for location in map_data.locations.values():
        if location.kind == "hex":
            yield location.line, f"a Tito map has zones, not hexes ('{location.id}')"
        elif expected.get(location.id) != location.kind:
            yield location.line, (f"the map lists the location '{location.id}'; a Tito map gives zones and "
                                  "displays, and Referee generates their triangles, circles and boxes")


def _neighbour_problems(map_data: MapData, zone: str) -> Iterator[str]:
    area = map_data.areas[zone]
    if not area.neighbours:
        return
    listed = set(area.neighbours)
    for pair in facts.RULEBOOK_ADJACENCY:
        if zone in pair:
            (other,) = pair - {zone}
            if other not in listed:
                yield f"{facts.ZONES[zone]} must border {facts.ZONES[other]} (a border the rulebook states)"
    if zone == facts.ISLANDS:
        for other in sorted(listed - facts.ISLANDS_ENTRY_ZONES):
            yield f"the Islands border only Istria, Slovenia, Croatia and Dalmatia (6.5), not '{other}'"
    for other in sorted(listed):
        neighbour = map_data.areas.get(other)
        if neighbour is not None and neighbour.neighbours and zone not in neighbour.neighbours:
            yield f"{area.label} lists {neighbour.label} as a neighbour but {neighbour.label} does not list it back"
    yield from _placeholder_problems(map_data, zone)


def _placeholder_problems(map_data: MapData, zone: str) -> Iterator[str]:
    """Placeholder borders are borders the zone lists, not stated by the rulebook, and marked on both sides."""
    area = map_data.areas[zone]
    here = facts.ZONES[zone]
    for other in area.attributes.get(borders.PLACEHOLDER_ATTRIBUTE, "").split():
        name = facts.ZONES.get(other, other)
        if other not in area.neighbours:
            yield f"{here} marks the border with {name} as a placeholder but does not list {name} as a neighbour"
        elif frozenset((zone, other)) in facts.RULEBOOK_ADJACENCY:
            yield f"{here} marks the border with {name} as a placeholder, but the rulebook states it"
        elif other in map_data.areas and zone not in map_data.areas[other].attributes.get(
                borders.PLACEHOLDER_ATTRIBUTE, "").split():
            yield (f"{here} marks the border with {name} as a placeholder but {name} does not mark it back; "
                   "a border is a placeholder on both sides or on neither")


# -- facts -------------------------------------------------------------------------


def _fact_problems(position: Position) -> Iterator[Problem]:
    reading = FACTS.read(position)
    yield from reading.problems
    turn = units.turn_number(position)
    for name in facts.TRIGGER_FACTS:
        for entry in reading.values.get(name, ()):
            if turn is not None and type(entry.value) is int and entry.value > turn:
                yield entry.line, (f"the fact '{name}' says Game-Turn {entry.value}, later than the position's "
                                   f"Game-Turn {turn}")
    for entry in reading.values.get("intrinsic-defence-eliminated", ()):
        display = position.map.displays[entry.value]
        if "intrinsic-defence" not in display.attributes:
            yield entry.line, (f"the fact 'intrinsic-defence-eliminated' names {display.label}, which has no "
                               "intrinsic defence (8.5)")


# -- pieces ----------------------------------------------------------------------


def _piece_problems(position: Position, context: Context) -> Iterator[Problem]:
    """Each piece's problems, worked out once per kind of piece.

    What is wrong with a piece turns on its nationality, type, side and size
    and on its attributes but its designation (any text, never a problem), so
    pieces alike in these share one answer: a position repeats a few dozen
    kinds hundreds of times.  Pieces that share a mapping of attributes (the
    reader shares them between pieces written alike) are known at once by
    their four fields and the mapping's identity (the position's pieces hold
    the mappings while this runs, so an identity is never reused); the
    answer for a new pair is looked up by the attributes' values.
    """
    turn = units.turn_number(position)
    read = PIECE.reader(context)
    by_kind: dict[tuple, tuple[str, ...]] = {}
    by_mapping: dict[tuple, tuple[str, ...]] = {}
    for piece in position.pieces:
        attributes = piece.attributes
        seen = (piece.nationality, piece.type, piece.side, piece.size, id(attributes))
        problems = by_mapping.get(seen)
        if problems is None:
            kind = (*seen[:4], tuple(item for item in attributes.items() if item[0] != DESIGNATION))
            problems = by_kind.get(kind)
            if problems is None:
                fields = [(name, getattr(piece, name)) for name in PIECE_FIELDS if getattr(piece, name)]
                problems = by_kind[kind] = tuple(read(attributes, *fields)[1] or _piece_rules(piece, turn))
            by_mapping[seen] = problems
        if problems:
            yield from ((piece.line, f"the piece '{piece.id}' {problem}") for problem in problems)


def _piece_rules(piece, turn: int | None) -> Iterator[str]:
    """What a piece whose every value is known gets wrong by combining them."""
    if piece.type == facts.MARKER:
        return
    nationality, allegiance = piece.nationality, piece.attribute("allegiance")
    if not nationality:
        yield f"needs a nationality ({', '.join(facts.NATIONALITIES)})"
        return
    if nationality == "chetnik" and not allegiance:
        yield f"is a Chetnik without an allegiance; give allegiance= one of {', '.join(facts.ALLEGIANCES)} (7.2)"
    elif allegiance and nationality != "chetnik":
        yield "has an allegiance, which only Chetniks have"
    expected = _expected_side(piece)
    if piece.side and expected and piece.side != expected:
        words = f" ({allegiance})" if allegiance else ""
        yield f"is {nationality}{words} but its side says '{piece.side}', not '{expected}'"
    elif not piece.side and nationality == "bulgarian" and turn is None:
        yield "is Bulgarian; give its side, or the position's turn (Axis before Game-Turn 15, Yugoslav after)"
    if piece.type == facts.TITO:
        if nationality != "partisan":
            yield "is Tito and must be Partisan"
        if piece.size:
            yield "is Tito, who has no unit size"
        return
    sizes = facts.SIZES_BY_NATIONALITY[nationality]
    if not piece.size:
        yield f"needs a size ({', '.join(sizes)})"
    elif piece.size not in sizes:
        yield f"is a {nationality} {piece.size}; {nationality} units come as {', '.join(sizes)}"


def _expected_side(piece) -> str:
    if piece.nationality == "bulgarian":
        return ""  # 3.0: Bulgarians change sides; the save says which
    if piece.nationality == "chetnik":
        return facts.ALLEGIANCES.get(piece.attribute("allegiance"), "")
    return "axis" if piece.nationality in facts.AXIS_NATIONALITIES else "yugoslav"  # Partisans and Soviets


# -- events ----------------------------------------------------------------------


def _event_problems(position: Position, context: Context) -> Iterator[Problem]:
    if not position.events:
        return
    turn = units.turn_number(position)
    pieces = units.pieces_by_id(position)
    on_operation: dict[str, int] = {}
    read = EVENT.reader(context)
    for event in position.events:
        area = (("area", event.area),) if event.area else ()
        problems = read(event.attributes, ("kind", event.kind), *area)[1]
        yield from ((event.line, f"the event {problem}") for problem in problems)
        if not problems:
            yield from ((event.line, problem) for problem in _event_rules(event, pieces, turn, on_operation))


def _event_rules(event, pieces: Mapping, turn: int | None, on_operation: dict[str, int]) -> Iterator[str]:
    """What an event gets wrong about its pieces and its target."""
    if not event.pieces:
        yield f"the event '{event.kind}' lists no pieces"
    for piece_id in event.pieces:
        if piece_id not in pieces:
            yield f"the event '{event.kind}' names the piece '{piece_id}', which the save does not have"
    listed = [(piece_id, pieces[piece_id]) for piece_id in event.pieces if piece_id in pieces]
    if event.kind == facts.GUERRILLA_UNIT_FORMED:
        if event.area:
            yield "a guerrilla-unit-formed event takes no area; the pieces' locations say where"
        for piece_id, piece in listed:
            if not (units.is_guerrilla(piece) and piece.size in ("brigade", "division")):
                yield (f"the guerrilla-unit-formed event lists '{piece_id}', which is not a guerrilla brigade or "
                       "division")
        return
    if not event.area:
        yield "an anti-guerrilla-operation needs area= its target zone (8.41)"
    for piece_id, piece in listed:
        if units.side(piece, turn) != "axis":
            yield f"the anti-guerrilla-operation lists '{piece_id}', which is not an Axis unit (8.42)"
    for piece_id in event.pieces:
        if piece_id in on_operation:
            yield f"the piece '{piece_id}' is on two operations (lines {on_operation[piece_id]} and {event.line})"
        on_operation[piece_id] = event.line
