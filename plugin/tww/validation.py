"""What a Third World War save must say, declared as tables and checked before any rule is.

``prepare_map`` runs when the map is read (a problem names the map file and
line); ``validate_position`` runs on the whole position and yields ``(line,
problem)`` for the reader to report with the save's name.  Both refuse
unknown names and badly typed values, so that a typo never reads as a legal
position.  The vocabulary is in docs/save-format.md, "The Third World War".
"""

from __future__ import annotations

from collections.abc import Iterator
from types import MappingProxyType

from validator.facts import (
    MANY,
    Attribute,
    AttributeTable,
    Boolean,
    Context,
    Count,
    Fact,
    FactTable,
    MapReference,
    MapReferences,
    Text,
    ValueProblem,
    Word,
    Words,
    read_position,
)
from validator.model import MapData, Position
from validator.saves.xml_reader import SaveInputError

from plugin.tww import partisans, state, terms
from plugin.tww.hex_columns import hex_columns
from plugin.tww.rivals import RivalrySettingError, setting_pairs

NATION, REGION = "nation", "region"
NATION_ID = Text("a nation id")


def _regions(context: Context) -> set[str]:
    return {area.id for area in context.map.areas.values() if area.attributes.get("kind") == REGION}


AREA = AttributeTable("a Third World War area", (
    Attribute("kind", Word((NATION, REGION))), Attribute("side", Word(terms.ALIGNMENTS)),
))
HEX = AttributeTable("a Third World War hex", (
    Attribute("column", Text()), Attribute("row", Text()), Attribute("terrain", Word(terms.TERRAINS), required=True),
    Attribute("city", Text()),
    Attribute("region", Words((), rest=Word((), name="a region area of the map", extra=_regions), fewest=0,
                              name='region areas of the map (<area kind="region">)')),
))
POSITION = AttributeTable("a Third World War position", (
    Attribute("turn", Count(1, name="a war turn number (1, 2, ...)")),
    Attribute("phasing", Word(terms.SIDES)), Attribute("phase", Word(terms.PHASES)),
))
FACTS = FactTable("a Third World War fact", (
    Fact("impulse", Word(terms.IMPULSES)),
    Fact("sub-impulse", Word(terms.SUB_IMPULSES)),
    Fact("kurdish-partisans", Word(terms.SIDES + ("none",), name="nato, pact or none (the side they act against)")),
    Fact("kurdish-partisans-in", MapReference("area", "a nation area of the map"), repeat=MANY),
    Fact("rivals", Words((NATION_ID, NATION_ID), different=True, name="two different nation ids"), repeat=MANY),
    Fact("records", Word(state.EVENT_KINDS), repeat=MANY),
    Fact("war-entry", Count(1, name="the war turn number the nation entered the war on"), subject=NATION_ID),
    Fact("side", Word(terms.ALIGNMENTS), subject=NATION_ID),
    Fact("supply-source", MapReferences("hex"), repeat=MANY, subject=Word(terms.SIDES, name="a side (nato or pact)")),
))
PIECE = AttributeTable("a Third World War piece", (
    Attribute("side", Word(terms.ALIGNMENTS), required=True),
    *(Attribute(name, Boolean(terms.YES, terms.NO)) for name in state.FLAG_ATTRIBUTES),
    Attribute(state.PREVIOUS_LOCATION, MapReference("location")),
))
EVENT_PLACES = MappingProxyType({state.ATTACK: ("hex",), state.MOVE: ("from", "to"), state.REGROUP: ("from", "to")})


def _event_table(kind: str) -> AttributeTable:
    places = EVENT_PLACES.get(kind, ())
    return AttributeTable(f"a{'n' if kind[0] in 'aeiou' else ''} {kind} event", (
        Attribute("kind", Word(state.EVENT_KINDS)),
        *(Attribute(place, MapReference("hex"), required=kind == state.ATTACK) for place in places),
    ))


EVENTS = MappingProxyType({kind: _event_table(kind) for kind in state.EVENT_KINDS})
ANY_EVENT = AttributeTable("a Third World War event", (Attribute("kind", Word(state.EVENT_KINDS)),))


def prepare_map(map_data: MapData) -> MapData:
    """The map, unchanged, once its areas and hexes use the game's vocabulary; else its first problem.

    The partisan hexes of 15.2 and the hexes' network its searches run on
    are worked out here too, so that a prepared map keeps them.
    """
    context = Context(map_data)
    for area in map_data.areas.values():
        for problem in AREA.read(area.attributes, context)[1]:
            raise SaveInputError(map_data.source, f"the area '{area.id}' {problem}", area.line)
    columns = hex_columns(map_data, ("terrain", "region"))
    if not _hexes_read_well(map_data, columns, context):  # then, and only then, read hex by hex to say where
        _refuse_first_bad_hex(map_data, context)
    partisans.prepare(map_data, columns)
    return map_data


def _hexes_read_well(map_data: MapData, columns, context: Context) -> bool:
    """Whether every hex's attributes and area are good, each distinct value read once.

    A hex's problems are those of its values one by one, an attribute the
    table does not take and a missing terrain; so the map's hexes have none
    exactly when no distinct value has one and every hex has a terrain.  The
    values of the attributes that take any text (column, row, city) are not
    gathered: a pass over every hex that could find nothing wrong.
    """
    if None in columns.attributes["terrain"]:
        return False
    for area_id in set(columns.areas) - {None}:
        area = map_data.areas.get(area_id)
        if area is None or area.attributes.get("kind", NATION) != NATION:
            return False
    known = {attribute.name: attribute.value for attribute in HEX.attributes}
    locations = map_data.locations
    if hasattr(locations, "attribute_values"):
        any_text = {name for name, value in known.items() if type(value) is Text}  # every value is good
        distinct = locations.attribute_values("hex", skip=any_text)
    else:
        distinct = {}
        for location in locations.values():
            if location.kind == "hex":
                for name, value in location.attributes.items():
                    distinct.setdefault(name, set()).add(value)
    for name, values in distinct.items():
        value_type = known.get(name)
        if value_type is None:
            return False
        for text in values:
            try:
                value_type.read(text, context)
            except ValueProblem:
                return False
    return True


def _refuse_first_bad_hex(map_data: MapData, context: Context) -> None:
    read = HEX.reader(context)
    for location in map_data.locations.values():
        if location.kind != "hex":
            continue
        for problem in read(location.attributes)[1]:
            raise SaveInputError(map_data.source, f"the hex '{location.id}' {problem}", location.line)
        area = map_data.areas.get(location.area) if location.area is not None else None
        if location.area is not None and (area is None or area.attributes.get("kind", NATION) != NATION):
            raise SaveInputError(map_data.source, f"the hex '{location.id}' belongs to '{location.area}', which is "
                                 "not a nation area of the map (<area id=... kind=\"nation\">)", location.line)


def validate_position(position: Position) -> Iterator[tuple[int, str]]:
    """Every part of the save this game cannot use, with its line."""
    try:
        setting_pairs()
    except RivalrySettingError as error:
        yield 0, str(error)
    yield from read_position(POSITION, position)[1]
    yield from FACTS.read(position).problems
    yield from _piece_problems(position)
    yield from _event_problems(position)


def _piece_problems(position: Position) -> Iterator[tuple[int, str]]:
    read = PIECE.reader(Context(position.map))
    hexes = partisans.hex_network(position.map, None)  # worked out with the map: which ids are hexes
    for piece in position.pieces:
        side = (("side", piece.side),) if piece.side else ()
        problems = read(piece.attributes, *side)[1] or _piece_rules(piece, hexes)
        yield from ((piece.line, f"the piece '{piece.id}' {problem}") for problem in problems)


def _piece_rules(piece, hexes) -> list[str]:
    """What a piece whose every value is known gets wrong by combining them."""
    attributes = piece.attributes
    problems = []
    if attributes.get("territorial") == terms.YES and piece.nationality not in terms.TERRITORIAL_NATIONS:
        problems.append(f"is marked territorial, but '{piece.nationality}' has no territorial reserves (those "
                        f"that do: {', '.join(sorted(terms.TERRITORIAL_NATIONS))})")
    if attributes.get("limited") == terms.NO and piece.nationality in terms.LIMITED_FORCES:
        problems.append(f"is marked limited=\"no\", but every '{piece.nationality}' unit has limited abilities "
                        "(15.3.3)")
    if attributes.get("communication") == terms.YES and piece.location not in hexes:
        problems.append("is marked in communication but stands on no hex of the map")
    return problems


def _event_problems(position: Position) -> Iterator[tuple[int, str]]:
    pieces = {piece.id: piece for piece in position.pieces}
    context = Context(position.map)
    for event in position.events:
        problems = EVENTS.get(event.kind, ANY_EVENT).read(event.attributes, context, ("kind", event.kind))[1]
        yield from ((event.line, f"the event {problem}") for problem in problems)
        missing = [piece_id for piece_id in event.pieces if piece_id not in pieces]
        if event.kind in EVENTS and (missing or not event.pieces):
            named = ", ".join(missing) or "none given"
            yield event.line, f"the {event.kind} event names pieces the save does not have: {named}"
        if event.kind == state.ARRIVE:
            for piece_id in event.pieces:
                if piece_id in pieces and pieces[piece_id].location is None:
                    yield event.line, f"the arrive event names '{piece_id}', which stands nowhere on the map"
