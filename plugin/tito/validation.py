"""What makes a Tito save unusable: unknown values, missing allegiances, facts and events that cannot be read.

``validate_position`` yields ``(line, problem)`` pairs; the reader turns the
first into an error that names the file and line (exit code 2).  Problems in
the map file name the map file and its line inside the sentence, because the
line the reader reports belongs to the save.  Everything accepted here is
documented in docs/save-format.md, section "Tito".
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Iterator

from validator.model import MapData, Position

from plugin.tito import facts, locations, units

AREA_ATTRIBUTES = ("garrison", "alignment", "uprising-modifier")
DISPLAY_ATTRIBUTES = ("terrain", "recruitment", "victory-points", "intrinsic-defence", "labels")
MAP_ATTRIBUTES = ("game", "version")
PIECE_ATTRIBUTES = ("allegiance", "designation")
RESERVED_DISPLAY_IDS = ("mountain", "hide-away", "neutral-chetnik")
_INTEGER = re.compile(r"-?[0-9]{1,6}")
_NUMBER = re.compile(r"[0-9]{1,4}(\.[0-9]{1,3}|/[1-9][0-9]{0,2})?")

Problem = tuple[int, str]


def validate_position(position: Position) -> Iterator[Problem]:
    """Every game-specific problem of a Tito save, in file order within each part."""
    yield from _map_problems(position.map, position.source)
    yield from _position_problems(position)
    yield from _fact_problems(position)
    yield from _piece_problems(position)
    yield from _event_problems(position)


def number_value(text: str) -> Fraction:
    """A display's recruitment value: "2", "1.5" or "1/2"."""
    return Fraction(text)


# -- the map -------------------------------------------------------------------


def _map_problems(map_data: MapData, save_source: str) -> Iterator[Problem]:
    def at(line: int, problem: str) -> Problem:
        if map_data.source == save_source:  # an inline map: the reader's line is the right one
            return line, (f"in the map, {problem}" if line else problem)
        where = f", line {line}" if line else ""
        return 0, f"the map {map_data.source}{where}: {problem}"

    for name, value in map_data.attributes.items():
        if name not in MAP_ATTRIBUTES:
            yield at(0, f"a Tito map takes no attribute '{name}' (it accepts {', '.join(MAP_ATTRIBUTES)})")
        elif name == "game" and value != "tito":
            yield at(0, f"the map is for the game '{value}', not 'tito'")
    missing = [facts.ZONES[zone] for zone in facts.ZONES if zone not in map_data.areas]
    if missing:
        yield at(0, f"the map lacks the Tito zones {', '.join(missing)} (5.1 names twelve)")
    for area in map_data.areas.values():
        if area.id not in facts.ZONES:
            yield at(area.line, f"'{area.id}' is not a Tito zone; the zones are {', '.join(facts.ZONES)}")
            continue
        yield from (at(area.line, problem) for problem in _area_attribute_problems(area.id, area.attributes))
        yield from (at(area.line, problem) for problem in _neighbour_problems(map_data, area.id))
    for display in map_data.displays.values():
        if display.id in RESERVED_DISPLAY_IDS or "/" in display.id:
            yield at(display.line, f"the display id '{display.id}' would clash with a zone-display location id")
        yield from (at(display.line, problem) for problem in _display_attribute_problems(display))
    expected = _generated_ids(map_data)
    for location in map_data.locations.values():
        if location.kind == "hex":
            yield at(location.line, f"a Tito map has zones, not hexes ('{location.id}')")
        elif expected.get(location.id) != location.kind:
            yield at(
                location.line,
                f"the map lists the location '{location.id}'; a Tito map gives zones and displays, and Referee "
                "generates their triangles, circles and boxes",
            )


def _generated_ids(map_data: MapData) -> dict[str, str]:
    ids = {location.id: location.kind for zone in map_data.areas for location in locations.zone_locations(zone)}
    for display in map_data.displays.values():
        for location in locations.display_locations(display.area, display.id, display.label, display.line):
            ids[location.id] = location.kind
    return ids


def _area_attribute_problems(zone: str, attributes) -> Iterator[str]:
    name = facts.ZONES[zone]
    for key in attributes:
        if key not in AREA_ATTRIBUTES:
            yield f"the zone {name} has an unknown attribute '{key}' (a zone takes {', '.join(AREA_ATTRIBUTES)})"
    garrison = attributes.get("garrison")
    if not units.is_whole_number(garrison):
        yield f"the zone {name} needs a garrison value, a whole number of divisions (7.51), not {garrison!r}"
    alignment = attributes.get("alignment")
    if alignment not in facts.ALIGNMENTS:
        yield f"the zone {name} needs an alignment of P, C or N (7.53C), not {alignment!r}"
    modifier = attributes.get("uprising-modifier")
    if modifier is None or not _INTEGER.fullmatch(modifier):
        yield f"the zone {name} needs an uprising-modifier, a whole number (7.52), not {modifier!r}"


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


def _display_attribute_problems(display) -> Iterator[str]:
    name = display.label
    attributes = display.attributes
    for key in attributes:
        if key not in DISPLAY_ATTRIBUTES:
            yield f"the display {name} has an unknown attribute '{key}' (a display takes {', '.join(DISPLAY_ATTRIBUTES)})"
    terrain = attributes.get("terrain")
    if terrain not in facts.TERRAINS:
        yield f"the display {name} needs a terrain, one of {', '.join(facts.TERRAINS)} (5.3), not {terrain!r}"
    recruitment = attributes.get("recruitment")
    if recruitment is None or not _NUMBER.fullmatch(recruitment):
        yield f"the display {name} needs a recruitment value such as 2, 1.5 or 1/2 (7.44), not {recruitment!r}"
    points = attributes.get("victory-points")
    if not units.is_whole_number(points):
        yield f"the display {name} needs victory-points, a whole number (14.2A), not {points!r}"
    defence = attributes.get("intrinsic-defence")
    if defence is not None and not (units.is_whole_number(defence) and int(defence) > 0):
        yield f"the display {name} has an intrinsic-defence of {defence!r}; give a positive whole number (8.5)"
    for label in attributes.get("labels", "").split():
        zone = facts.DISPLAY_LABELS.get(label)
        if zone is None:
            yield f"the display {name} has an unknown label '{label}' (labels: {', '.join(facts.DISPLAY_LABELS)})"
        elif display.area != zone:
            yield f"the label '{label}' belongs on displays in {facts.ZONES[zone]}, not on {name}"


# -- the position's own attributes ------------------------------------------------


def _position_problems(position: Position) -> Iterator[Problem]:
    if position.turn and not (units.is_whole_number(position.turn) and 1 <= int(position.turn) <= facts.LAST_TURN):
        yield position.line, f"the position's turn '{position.turn}' is not a Tito Game-Turn (1 to {facts.LAST_TURN})"
    if position.phase and position.phase not in facts.PHASES:
        yield position.line, f"the position's phase '{position.phase}' is not a Tito phase; the phases are {', '.join(facts.PHASES)}"
    if position.phase == "setup" and position.turn not in ("", "1"):
        yield position.line, f"the position's phase 'setup' comes before Game-Turn 1, not in Game-Turn {position.turn}"
    if position.phasing and position.phasing not in facts.PHASING_SIDES:
        yield position.line, f"the position's phasing side '{position.phasing}' is not axis or yugoslav"


def _fact_problems(position: Position) -> Iterator[Problem]:
    turn = units.turn_number(position)
    for name, values in position.facts.items():
        if name not in facts.KNOWN_FACTS:
            yield position.fact_line(name), f"the fact '{name}' is not a Tito fact; the facts are {', '.join(facts.KNOWN_FACTS)}"
            continue
        if len(values) > 1 and name not in facts.REPEATABLE_FACTS:
            yield position.fact_line(name, 1), f"the fact '{name}' is given {len(values)} times; give it once"
        for value, line in position.fact_entries(name):
            problem = _fact_value_problem(position, name, value, turn)
            if problem:
                yield line, problem


def _fact_value_problem(position: Position, name: str, value: str, turn: int | None) -> str:
    if name in facts.TRIGGER_FACTS:
        if value in ("true", "false"):
            return ""
        if not (units.is_whole_number(value) and 1 <= int(value) <= facts.LAST_TURN):
            return f"the fact '{name}' takes a Game-Turn number (1 to {facts.LAST_TURN}), true or false, not '{value}'"
        if turn is not None and int(value) > turn:
            return f"the fact '{name}' says Game-Turn {value}, later than the position's Game-Turn {turn}"
        return ""
    if name == "tito-state" and value not in facts.TITO_STATES:
        return f"the fact 'tito-state' takes one of {', '.join(facts.TITO_STATES)}, not '{value}'"
    if name == "victory-points" and not _INTEGER.fullmatch(value):
        return f"the fact 'victory-points' takes a whole number, not '{value}'"
    if name == "intrinsic-defence-eliminated":
        display = position.map.displays.get(value)
        if display is None:
            return f"the fact 'intrinsic-defence-eliminated' names '{value}', which is not a display of the map"
        if "intrinsic-defence" not in display.attributes:
            return f"the fact 'intrinsic-defence-eliminated' names {display.label}, which has no intrinsic defence (8.5)"
    return ""


# -- pieces ----------------------------------------------------------------------


def _piece_problems(position: Position) -> Iterator[Problem]:
    turn = units.turn_number(position)
    for piece in position.pieces:
        for problem in _one_piece_problems(piece, turn):
            yield piece.line, f"the piece '{piece.id}' {problem}"


def _one_piece_problems(piece, turn: int | None) -> Iterator[str]:
    for key in piece.attributes:
        if key not in PIECE_ATTRIBUTES:
            yield f"has an unknown attribute '{key}' (a Tito piece adds {', '.join(PIECE_ATTRIBUTES)})"
    if piece.type and piece.type not in facts.UNIT_TYPES:
        yield f"has the type '{piece.type}', which is not a Tito type ({', '.join(facts.UNIT_TYPES)})"
    if piece.type == facts.MARKER:
        return
    nationality = piece.nationality
    if not nationality:
        yield f"needs a nationality ({', '.join(facts.NATIONALITIES)})"
        return
    if nationality not in facts.NATIONALITIES:
        yield f"has the nationality '{nationality}', which is not a Tito nationality ({', '.join(facts.NATIONALITIES)})"
        return
    allegiance = piece.attribute("allegiance")
    if nationality == "chetnik":
        if not allegiance:
            yield f"is a Chetnik without an allegiance; give allegiance= one of {', '.join(facts.ALLEGIANCES)} (7.2)"
        elif allegiance not in facts.ALLEGIANCES:
            yield f"has the allegiance '{allegiance}'; a Chetnik is {', '.join(facts.ALLEGIANCES)} (7.2)"
    elif allegiance:
        yield "has an allegiance, which only Chetniks have"
    if piece.side:
        expected = _expected_side(piece, turn)
        if piece.side not in facts.SIDES:
            yield f"has the side '{piece.side}', which is not axis, yugoslav or neutral"
        elif expected and piece.side != expected:
            yield f"is {nationality}{_allegiance_words(piece)} but its side says '{piece.side}', not '{expected}'"
    elif nationality == "bulgarian" and turn is None:
        yield "is Bulgarian; give its side, or the position's turn (Axis before Game-Turn 15, Yugoslav after)"
    if piece.type == facts.TITO:
        if nationality != "partisan":
            yield "is Tito and must be Partisan"
        if piece.size:
            yield "is Tito, who has no unit size"
        return
    if not piece.size:
        yield f"needs a size ({', '.join(facts.SIZES_BY_NATIONALITY[nationality])})"
    elif piece.size not in facts.SIZE_EQUIVALENTS:
        yield f"has the size '{piece.size}', which is not a Tito size ({', '.join(facts.SIZE_EQUIVALENTS)})"
    elif piece.size not in facts.SIZES_BY_NATIONALITY[nationality]:
        allowed = ", ".join(facts.SIZES_BY_NATIONALITY[nationality])
        yield f"is a {nationality} {piece.size}; {nationality} units come as {allowed}"


def _expected_side(piece, turn: int | None) -> str:
    if piece.nationality == "bulgarian":
        return ""  # 3.0: Bulgarians change sides; the save says which
    if piece.nationality == "chetnik":
        return facts.ALLEGIANCES.get(piece.attribute("allegiance"), "")
    if piece.nationality in facts.AXIS_NATIONALITIES:
        return "axis"
    return "yugoslav"  # Partisans and Soviets


def _allegiance_words(piece) -> str:
    allegiance = piece.attribute("allegiance")
    return f" ({allegiance})" if allegiance else ""


# -- events ----------------------------------------------------------------------


def _event_problems(position: Position) -> Iterator[Problem]:
    turn = units.turn_number(position)
    pieces = units.pieces_by_id(position)
    on_operation: dict[str, int] = {}
    for event in position.events:
        if event.kind not in facts.EVENT_KINDS:
            yield event.line, f"the event kind '{event.kind}' is not a Tito event; the kinds are {', '.join(facts.EVENT_KINDS)}"
            continue
        for key in event.attributes:
            yield event.line, f"the event '{event.kind}' takes no attribute '{key}'"
        if not event.pieces:
            yield event.line, f"the event '{event.kind}' lists no pieces"
        for piece_id in event.pieces:
            if piece_id not in pieces:
                yield event.line, f"the event '{event.kind}' names the piece '{piece_id}', which the save does not have"
        if event.kind == facts.ANTI_GUERRILLA_OPERATION:
            if not event.area:
                yield event.line, "an anti-guerrilla-operation needs area= its target zone (8.41)"
            elif event.area not in position.map.areas:
                yield event.line, f"the anti-guerrilla-operation targets '{event.area}', a zone the map does not have"
            for piece_id in event.pieces:
                piece = pieces.get(piece_id)
                if piece is not None and units.side(piece, turn) != "axis":
                    yield event.line, f"the anti-guerrilla-operation lists '{piece_id}', which is not an Axis unit (8.42)"
                if piece_id in on_operation:
                    yield event.line, f"the piece '{piece_id}' is on two operations (lines {on_operation[piece_id]} and {event.line})"
                on_operation[piece_id] = event.line
        else:
            if event.area:
                yield event.line, "a guerrilla-unit-formed event takes no area; the pieces' locations say where"
            for piece_id in event.pieces:
                piece = pieces.get(piece_id)
                if piece is not None and not (units.is_guerrilla(piece) and piece.size in ("brigade", "division")):
                    yield event.line, f"the guerrilla-unit-formed event lists '{piece_id}', which is not a guerrilla brigade or division"
