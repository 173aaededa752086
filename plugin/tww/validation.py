"""What a Third World War save must say, checked before any rule is.

``prepare_map`` runs when the map is read (a problem names the map file and
line); ``validate_position`` runs on the whole position and yields ``(line,
problem)`` for the reader to report with the save's name.  Both refuse
unknown names and badly typed values, so that a typo never reads as a legal
position.  The vocabulary is in docs/save-format.md, "The Third World War".
"""

from __future__ import annotations

from typing import Iterator

from validator.model import MapData, Position
from validator.saves.xml_reader import SaveInputError
from validator.wording import verb_for

from plugin.tww import state, terms
from plugin.tww.rivals import RivalrySettingError, setting_pairs

AREA_KINDS = ("nation", "region")
AREA_ATTRIBUTES = {"kind", "side"}
HEX_ATTRIBUTES = {"column", "row", "terrain", "city", "region"}
PIECE_ATTRIBUTES = set(state.FLAG_ATTRIBUTES) | {state.PREVIOUS_LOCATION}
EVENT_ATTRIBUTES = {state.ATTACK: {"hex"}, state.MOVE: {"from", "to"}, state.REGROUP: {"from", "to"}}
FACTS = (
    state.IMPULSE, state.SUB_IMPULSE, state.KURDISH_PARTISANS, state.KURDISH_PARTISANS_IN, state.RIVALS, state.RECORDS,
)
FACT_PREFIXES = (state.WAR_ENTRY, state.NATION_SIDE, state.SUPPLY_SOURCE)


def _one_of(value: str, allowed: tuple[str, ...] | list[str]) -> str:
    return f"'{value}' is not one of {', '.join(allowed)}"


def prepare_map(map_data: MapData) -> MapData:
    """The map, unchanged, once its areas and hexes use the game's vocabulary."""
    source = map_data.source
    for area in map_data.areas.values():
        unknown = sorted(set(area.attributes) - AREA_ATTRIBUTES)
        if unknown:
            raise SaveInputError(source, f"the area '{area.id}' has attributes this game does not know: {', '.join(unknown)} "
                                 f"(known: {', '.join(sorted(AREA_ATTRIBUTES))})", area.line)
        if area.attributes.get("kind", "nation") not in AREA_KINDS:
            raise SaveInputError(source, f"the area '{area.id}' has kind {_one_of(area.attributes['kind'], AREA_KINDS)}", area.line)
        if area.attributes.get("side", "neutral") not in terms.ALIGNMENTS:
            raise SaveInputError(source, f"the area '{area.id}' has side {_one_of(area.attributes['side'], terms.ALIGNMENTS)}", area.line)
    regions = {area.id for area in map_data.areas.values() if area.attributes.get("kind") == "region"}
    for location in map_data.locations.values():
        if location.kind != "hex":
            continue
        attributes = location.attributes
        if not HEX_ATTRIBUTES.issuperset(attributes):
            unknown = sorted(set(attributes) - HEX_ATTRIBUTES)
            raise SaveInputError(source, f"the hex '{location.id}' has attributes this game does not know: {', '.join(unknown)} "
                                 f"(known: {', '.join(sorted(HEX_ATTRIBUTES))})", location.line)
        terrain = attributes.get("terrain")
        if terrain not in terms.TERRAINS:
            problem = "needs a terrain" if terrain is None else f"has terrain {_one_of(terrain, terms.TERRAINS)}"
            raise SaveInputError(source, f"the hex '{location.id}' {problem}", location.line)
        if location.area is not None:
            area = map_data.areas.get(location.area)
            if area is None or area.attributes.get("kind", "nation") != "nation":
                raise SaveInputError(source, f"the hex '{location.id}' belongs to '{location.area}', which is not a nation "
                                     "area of the map (<area id=... kind=\"nation\">)", location.line)
        for region in attributes.get("region", "").split():
            if region not in regions:
                raise SaveInputError(source, f"the hex '{location.id}' names the region '{region}', which is not a region "
                                     "area of the map (<area id=... kind=\"region\">)", location.line)
    return map_data


def validate_position(position: Position) -> Iterator[tuple[int, str]]:
    """Every part of the save this game cannot use, with its line."""
    try:
        setting_pairs()
    except RivalrySettingError as error:
        yield 0, str(error)
    yield from _position_problems(position)
    yield from _fact_problems(position)
    yield from _piece_problems(position)
    yield from _event_problems(position)


def _position_problems(position: Position) -> Iterator[tuple[int, str]]:
    if position.turn and state.turn_number(position) in (None, 0):
        yield position.line, f"the turn '{position.turn}' is not a war turn number (1, 2, ...)"
    if position.phasing and position.phasing not in terms.SIDES:
        yield position.line, f"the phasing side {_one_of(position.phasing, terms.SIDES)}"
    if position.phase and position.phase not in terms.PHASES:
        yield position.line, f"the phase {_one_of(position.phase, terms.PHASES)}"


def _fact_problems(position: Position) -> Iterator[tuple[int, str]]:
    locations, areas = position.map.locations, position.map.areas
    for name in position.facts:
        line = position.fact_line(name)
        prefix = next((prefix for prefix in FACT_PREFIXES if name.startswith(prefix)), None)
        if name not in FACTS and prefix is None:
            yield line, (f"the fact '{name}' is unknown to this game (known: {', '.join(FACTS)}, and "
                         f"{', '.join(prefix + 'NAME' for prefix in FACT_PREFIXES)})")
            continue
        subject = name[len(prefix):] if prefix else ""
        if prefix and not subject:
            yield line, f"the fact '{name}' needs a nation or side after the colon"
            continue
        for value, value_line in position.fact_entries(name):
            problem = _fact_value_problem(name, prefix, subject, value, locations, areas)
            if problem:
                yield value_line, f"the fact '{name}' has the value '{value}': {problem}"


def _fact_value_problem(name, prefix, subject, value, locations, areas) -> str:
    words = value.split()
    if name == state.IMPULSE and value not in terms.IMPULSES:
        return f"use one of {', '.join(terms.IMPULSES)}"
    if name == state.SUB_IMPULSE and value not in terms.SUB_IMPULSES:
        return f"use one of {', '.join(terms.SUB_IMPULSES)}"
    if name == state.KURDISH_PARTISANS and value not in terms.SIDES + ("none",):
        return "use nato, pact or none (the side they act against)"
    if name == state.KURDISH_PARTISANS_IN and (len(words) != 1 or value not in areas):
        return "name one nation area of the map whose part of Kurdistan has partisans"
    if name == state.RIVALS and (len(words) != 2 or words[0] == words[1]):
        return "give two different nation ids separated by a space"
    if name == state.RECORDS and value not in state.EVENT_KINDS:
        return f"use one of {', '.join(state.EVENT_KINDS)}"
    if prefix == state.WAR_ENTRY and not (state.is_whole_number(value) and int(value) >= 1):
        return "give the war turn number the nation entered the war on"
    if prefix == state.NATION_SIDE and value not in terms.ALIGNMENTS:
        return f"use one of {', '.join(terms.ALIGNMENTS)}"
    if prefix == state.SUPPLY_SOURCE:
        if subject not in terms.SIDES:
            return f"supply sources belong to a side: {', '.join(state.SUPPLY_SOURCE + side for side in terms.SIDES)}"
        missing = [word for word in words if locations.get(word) is None or locations[word].kind != "hex"]
        if not words:
            return "name hexes of the map (none given)"
        if missing:
            return f"name hexes of the map ({', '.join(missing)} {verb_for(len(missing), 'is not one', 'are not hexes of it')})"
    return ""


def _piece_problems(position: Position) -> Iterator[tuple[int, str]]:
    for piece in position.pieces:
        unknown = sorted(set(piece.attributes) - PIECE_ATTRIBUTES)
        if unknown:
            yield piece.line, (f"the piece '{piece.id}' has attributes this game does not know: {', '.join(unknown)} "
                               f"(known: {', '.join(sorted(PIECE_ATTRIBUTES))})")
        if piece.side not in terms.ALIGNMENTS:
            yield piece.line, f"the piece '{piece.id}' needs a side: {', '.join(terms.ALIGNMENTS)}"
        for name in state.FLAG_ATTRIBUTES:
            value = piece.attributes.get(name)
            if value is not None and value not in (terms.YES, terms.NO):
                yield piece.line, f"the piece '{piece.id}' has {name}=\"{value}\"; use yes or no"
        if state.is_territorial(piece) and piece.nationality not in terms.TERRITORIAL_NATIONS:
            yield piece.line, (f"the piece '{piece.id}' is marked territorial, but '{piece.nationality}' has no territorial "
                               f"reserves (those that do: {', '.join(sorted(terms.TERRITORIAL_NATIONS))})")
        if piece.attributes.get("limited") == terms.NO and piece.nationality in terms.LIMITED_FORCES:
            yield piece.line, f"the piece '{piece.id}' is marked limited=\"no\", but every '{piece.nationality}' unit has limited abilities (15.3.3)"
        previous = state.previous_location(piece)
        if previous is not None and previous not in position.map.locations:
            yield piece.line, f"the piece '{piece.id}' has previous-location '{previous}', which the map does not have"
        if state.flag(piece, "communication") and state.hex_at(position, piece.location) is None:
            yield piece.line, f"the piece '{piece.id}' is marked in communication but stands on no hex of the map"


def _event_problems(position: Position) -> Iterator[tuple[int, str]]:
    pieces = {piece.id: piece for piece in position.pieces}
    for event in position.events:
        if event.kind not in state.EVENT_KINDS:
            yield event.line, f"the event kind {_one_of(event.kind, state.EVENT_KINDS)}"
            continue
        allowed = EVENT_ATTRIBUTES.get(event.kind, set())
        unknown = sorted(set(event.attributes) - allowed)
        if unknown:
            yield event.line, (f"the {event.kind} event has attributes this game does not know: {', '.join(unknown)}"
                               + (f" (known: {', '.join(sorted(allowed))})" if allowed else ""))
        missing = [piece_id for piece_id in event.pieces if piece_id not in pieces]
        if missing or not event.pieces:
            yield event.line, f"the {event.kind} event names pieces the save does not have: {', '.join(missing) or 'none given'}"
        for attribute in sorted(allowed & set(event.attributes)):
            if state.hex_at(position, event.attributes[attribute]) is None:
                yield event.line, f"the {event.kind} event's {attribute} '{event.attributes[attribute]}' is not a hex of the map"
        if event.kind == state.ATTACK and "hex" not in event.attributes:
            yield event.line, "the attack event needs hex=\"...\", the hex attacked"
        if event.kind == state.ARRIVE:
            for piece_id in event.pieces:
                if piece_id in pieces and pieces[piece_id].location is None:
                    yield event.line, f"the arrive event names '{piece_id}', which stands nowhere on the map"
