"""Which zones each nationality may be in: 6.61, 6.62, 6.64, 10.21 and 13.91D."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from fractions import Fraction

from validator.model import Piece, Position
from validator.rules import Finding, Result, Violation, case
from validator.wording import plural, verb_for

from plugin.tito import facts, stacks, units
from plugin.tito.units import describe_all, fraction_text

ESCALATION = "forty-five-points-or-brigade"


def _zone_of(zone_at: Mapping[str | None, str | None], piece: Piece, on_operation: dict[str, str]) -> str | None:
    """Where the piece is: its location's zone (``zone_at``: :func:`plugin.tito.stacks.location_zones`), or the
    operation's zone while it is set aside for one."""
    zone = zone_at[piece.location]
    if zone is None and piece.id in on_operation:
        return on_operation[piece.id]
    return zone


def _is_occupation_bulgarian(piece: Piece, turn: int | None) -> bool:
    return (
        piece.nationality == "bulgarian" and units.side(piece, turn) == "axis"
        and units.designation(piece) in facts.BULGARIAN_OCCUPATION_DIVISIONS
    )


def _escalation_words(position: Position) -> str:
    happened = units.trigger_turn(position, ESCALATION)
    if happened is None:
        return "the save records no first 45 victory points or first brigade (fact forty-five-points-or-brigade)"
    if happened == 0:
        return "the 45 victory points or first brigade came in an earlier Game-Turn"
    return f"the 45 victory points or first brigade came in Game-Turn {happened}"


@case("6.61")
def guerrilla_in_carinthia_or_baranya_early(position: Position) -> Iterator[Result]:
    """Partisans and Chetniks stay out of Carinthia and Baranya until Game-Turn 15."""
    turn = units.turn_number(position)
    if turn is not None and turn >= facts.GUERRILLAS_FREE_FROM:
        return
    found: dict[str, list[Piece]] = {}
    zone_at = stacks.location_zones(position)
    for piece in stacks.guerrillas(position):
        zone = zone_at[piece.location]
        if zone in facts.GUERRILLA_BARRED_ZONES:
            found.setdefault(zone, []).append(piece)
    for zone, group in found.items():
        name = units.zone_name(position, zone)
        ids = [piece.id for piece in group]
        if turn is None:
            yield Finding(
                f"{plural(len(group), 'guerrilla unit')} {verb_for(len(group), 'stands', 'stand')} in {name} "
                f"({describe_all(group)}), and the save gives no "
                f"Game-Turn: guerrillas may be there only from Game-Turn {facts.GUERRILLAS_FREE_FROM}",
                pieces=ids,
                severity="unchecked",
                facts={"zone": zone},
            )
        else:
            yield Violation(
                f"{plural(len(group), 'guerrilla unit')} {verb_for(len(group), 'stands', 'stand')} in {name} in "
                f"Game-Turn {turn} ({describe_all(group)}); "
                f"Partisans and Chetniks may enter {name} only from Game-Turn {facts.GUERRILLAS_FREE_FROM}",
                location=group[0].location,
                pieces=ids,
                facts={"zone": zone, "turn": turn},
            )


def _sphere_verdict(
    position: Position, piece: Piece, zone: str, turn: int | None, on_operation: dict[str, str]
) -> str | None:
    """Why the piece may not be in the zone (a sentence), or None when it may be (or another check decides)."""
    nationality = piece.nationality
    sphere = facts.SPHERES[nationality][1]
    if zone in sphere:
        return None
    listed = ", ".join(facts.ZONES[name] for name in sorted(sphere))
    if nationality == "german":
        if turn is not None and turn >= facts.GERMANS_FREE_FROM:
            return None
        if zone in facts.SPHERES["italian"][1] and units.after_turn(position, ESCALATION):
            return None
        reason = f"outside the German sphere ({listed})"
        if zone in facts.SPHERES["italian"][1]:
            reason += (
                "; the Italian sphere opens to Germans the Game-Turn after the first 45 points or first brigade, "
                f"and {_escalation_words(position)}"
            )
        return reason + f"; Germans go anywhere from Game-Turn {facts.GERMANS_FREE_FROM}"
    if nationality == "italian" and zone in facts.ITALIAN_OPERATION_ZONES and on_operation.get(piece.id) == zone:
        return None  # 6.64B: judged by italian_operation_out_of_bounds
    reason = f"outside the {nationality.capitalize()} sphere ({listed})"
    if nationality == "italian" and zone in facts.ITALIAN_OPERATION_ZONES:
        reason += "; Italians enter Serbia or Bosnia only on an Anti-Guerrilla Operation there (6.64B)"
    if nationality == "bulgarian" and zone == facts.BULGARIAN_OCCUPATION_ZONE:
        reason += "; only the 25th and 27th, recognised by designation 25 or 27, may be in Serbia (6.64C)"
    return reason


@case("6.62")
def axis_unit_outside_sphere_of_influence(position: Position) -> Iterator[Result]:
    """Each Axis nationality stays in its sphere of influence; Germans are freed step by step (6.64A, Game-Turn 15)."""
    turn = units.turn_number(position)
    on_operation = units.operation_zone_by_piece(position)
    groups: dict[tuple[str, str, str], list[Piece]] = {}
    # A verdict turns on the piece's nationality, its zone and whether it is on an operation
    # there, so each such triple is judged once, not once per piece.
    verdicts: dict[tuple[str, str, bool], str | None] = {}
    zone_at = stacks.location_zones(position)
    for piece in stacks.axis_regulars(position):
        if piece.nationality not in facts.SPHERES:
            continue
        if piece.nationality == "bulgarian" and _is_occupation_bulgarian(piece, turn):
            continue  # 13.91D: bulgarian_occupation_division_misplaced
        operation = on_operation.get(piece.id)
        zone = zone_at[piece.location]
        if zone is None:  # off the map: set aside for an operation, or not judged (as _zone_of says)
            zone = operation
            if zone is None:
                continue
        judged = (piece.nationality, zone, operation == zone)
        reason = verdicts[judged] if judged in verdicts else verdicts.setdefault(
            judged, _sphere_verdict(position, piece, zone, turn, on_operation))
        if reason is not None:
            groups.setdefault((piece.nationality, zone, reason), []).append(piece)
    for (nationality, zone, reason), group in groups.items():
        item = facts.SPHERES[nationality][0]
        name = units.zone_name(position, zone)
        message = (
            f"{plural(len(group), nationality.capitalize() + ' unit')} in {name} ({describe_all(group)}): {reason}"
        )
        ids = [piece.id for piece in group]
        if nationality == "german" and turn is None:
            yield Finding(
                message + "; the save gives no Game-Turn", pieces=ids, severity="unchecked", case=f"6.62{item}"
            )
        else:
            yield Violation(message, location=group[0].location, pieces=ids, case=f"6.62{item}", facts={"zone": zone})


@case("6.64")
def italian_operation_out_of_bounds(position: Position) -> Iterator[Violation]:
    """Italians join operations in Serbia or Bosnia only after the 45 points or first brigade, three divisions at
    most, never after the Pullback.
    """
    turn = units.turn_number(position)
    pieces = units.pieces_by_id(position)
    for event in units.operations(position):
        if event.area not in facts.ITALIAN_OPERATION_ZONES:
            continue
        italians = [pieces[piece_id] for piece_id in event.pieces if pieces[piece_id].nationality == "italian"]
        if not italians:
            continue
        name = units.zone_name(position, event.area)
        ids = [piece.id for piece in italians]
        if not units.after_turn(position, ESCALATION):
            yield Violation(
                f"the operation against {name} (line {event.line}) lists {plural(len(italians), 'Italian unit')} "
                f"({describe_all(italians)}); Italians may join operations there only from the Game-Turn after "
                f"the first 45 victory points or first brigade, and {_escalation_words(position)}",
                location=italians[0].location,
                pieces=ids,
                facts={"zone": event.area},
            )
        pullback = units.trigger_turn(position, "italian-pullback")
        if pullback is not None and (turn is None or pullback <= turn):
            when = f"Game-Turn {pullback}" if pullback else "an earlier Game-Turn"
            yield Violation(
                f"the operation against {name} (line {event.line}) lists {plural(len(italians), 'Italian unit')} "
                f"({describe_all(italians)}) after the Italian Pullback of {when}; no Italians join operations "
                "in Serbia or Bosnia once the Pullback has come (also 10.21)",
                location=italians[0].location,
                pieces=ids,
                case="6.64B",
                facts={"zone": event.area},
            )
        total = sum((units.division_equivalent(piece) for piece in italians), Fraction(0))
        if total > facts.ITALIAN_OPERATION_LIMIT:
            yield Violation(
                f"the operation against {name} (line {event.line}) takes {fraction_text(total)} Italian "
                f"division-equivalents ({units.size_breakdown(italians)}); at most "
                f"{facts.ITALIAN_OPERATION_LIMIT} Italian divisions may go",
                location=italians[0].location,
                pieces=ids,
                case="6.64B",
                facts={"zone": event.area, "italian_divisions": str(total)},
            )


@case("13.91")
def bulgarian_occupation_division_misplaced(position: Position) -> Iterator[Violation]:
    """The Bulgarian 25th and 27th arrive after the 45 points or first brigade and stay in Serbia's Bulgarian
    Occupation displays.
    """
    turn = units.turn_number(position)
    on_operation = units.operation_zone_by_piece(position)
    for piece in position.pieces:
        if piece.nationality != "bulgarian" or piece.location is None or not _is_occupation_bulgarian(piece, turn):
            continue
        location = position.map.locations[piece.location]
        if not units.after_turn(position, ESCALATION):
            yield Violation(
                f"the Bulgarian {units.designation(piece)} ({piece.id}) is on the map, but it becomes available "
                f"only after the first 45 victory points or first brigade, and {_escalation_words(position)}",
                location=piece.location,
                pieces=[piece.id],
                case="13.91D",
            )
            continue
        if location.area == facts.BULGARIAN_OCCUPATION_ZONE:
            if location.kind == facts.OBJECTIVE_BOX and units.location_side(location) == "axis":
                display = position.map.displays.get(location.attributes.get("display", ""))
                if display is not None and "bulgarian-occupation" in display.attributes.get("labels", "").split():
                    continue
            if location.kind in (facts.MOUNTAIN, facts.HIDE_AWAY) and on_operation.get(piece.id) == location.area:
                continue  # 6.64C: on an operation in Serbia
        yield Violation(
            f"the Bulgarian {units.designation(piece)} ({piece.id}) stands here; it may stand only in the Axis box "
            "of a Serbian display labelled bulgarian-occupation, or in Serbia's Axis triangle or circle while an "
            "operation against Serbia lists it",
            location=piece.location,
            pieces=[piece.id],
            case="13.91D",
        )


@case("10.21")
def italian_in_croatia_after_pullback(position: Position) -> Iterator[Result]:
    """Once the Italian Pullback comes, Italians in Croatia stand only in the Axis box of displays labelled Italian
    Pullback.
    """
    pullback = units.trigger_turn(position, "italian-pullback")
    turn = units.turn_number(position)
    if pullback is None or (turn is not None and pullback > turn):
        return
    in_grace = (
        turn is not None
        and pullback == turn
        and (units.phase_index(position.phase) or 0) <= facts.PHASES.index("axis-movement")
    )
    on_operation = units.operation_zone_by_piece(position)
    zone_at = stacks.location_zones(position)
    for piece in stacks.axis_regulars(position):  # every Italian but markers, in save order
        if piece.nationality != "italian":
            continue
        if _zone_of(zone_at, piece, on_operation) != facts.PULLBACK_ZONE:
            continue
        location = position.map.locations.get(piece.location or "")
        if location is None:
            reason = "is set aside for an operation against Croatia, whose zone display Italians may no longer enter"
        elif location.kind == facts.OBJECTIVE_BOX:
            display = position.map.displays.get(location.attributes.get("display", ""))
            if display is not None and "italian-pullback" in display.attributes.get("labels", "").split():
                continue
            reason = (
                f"stands in {display.label if display else location.label}, a display not labelled italian-pullback"
            )
        else:
            reason = f"stands in the Croatian zone display ({location.label})"
        when = f"Game-Turn {pullback}" if pullback else "an earlier Game-Turn"
        message = (
            f"the Italian {describe_all([piece])} {reason}; since the Pullback of {when} Italians in Croatia "
            "may occupy only displays labelled italian-pullback"
        )
        if in_grace:
            yield Finding(
                message
                + "; it must leave in this Game-Turn's Axis Movement Phase (Referee's reading, see the case page)",
                location=piece.location,
                pieces=[piece.id],
                severity="warning",
            )
        else:
            yield Violation(message, location=piece.location, pieces=[piece.id])
