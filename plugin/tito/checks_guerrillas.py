"""Guerrilla unit sizes: 7.61, 7.62 (a tally) and 7.63."""

from __future__ import annotations

from collections.abc import Iterator
from types import MappingProxyType

from validator.model import Piece, Position
from validator.rules import Finding, Result, Violation, case
from validator.wording import plural, verb_for

from plugin.tito import facts, stacks, units
from plugin.tito.units import describe_all

_STRENGTH_FACT = MappingProxyType({"partisan": "partisan-brigade-strength", "chetnik": "chetnik-brigade-strength"})
_NAMES = MappingProxyType({"partisan": "Partisan", "chetnik": "Chetnik"})


def _large_guerrillas(position: Position) -> dict[str, list[Piece]]:
    found: dict[str, list[Piece]] = {"partisan": [], "chetnik": []}
    for piece in stacks.guerrillas(position):
        if piece.location is not None and piece.size in ("brigade", "division"):
            found[piece.nationality].append(piece)
    return found


@case("7.61")
def guerrilla_brigade_before_brigade_strength(position: Position) -> Iterator[Result]:
    """Until their side reaches brigade-strength, Partisans and Chetniks have groups only: no brigades, no divisions."""
    for kind, group in _large_guerrillas(position).items():
        if not group:
            continue
        fact = _STRENGTH_FACT[kind]
        reached = units.trigger_turn(position, fact)
        if units.since_phase(position, fact, "guerrilla-status"):
            continue
        ids = [piece.id for piece in group]
        sizes = units.size_breakdown(group) or plural(len(group), "unit")
        turn = units.turn_number(position)
        if reached is not None and (turn is None or (reached == turn and not position.phase)):
            yield Finding(
                f"{_NAMES[kind]} brigades or divisions stand on the map ({describe_all(group)}); the save says "
                f"brigade-strength came in Game-Turn {reached} but not the position's Game-Turn and phase, so "
                "Referee cannot tell whether they may exist yet",
                pieces=ids, severity="unchecked",
            )
            continue
        state = (
            f"the save records {_NAMES[kind]} brigade-strength only from Game-Turn {reached}'s Guerrilla Status Phase"
            if reached is not None else f"the save records no {_NAMES[kind]} brigade-strength (fact {fact})"
        )
        divisions = " (Referee treats Partisan divisions like brigades, see the case page)" if any(
            piece.size == "division" for piece in group
        ) else ""
        yield Violation(
            f"{plural(len(group), _NAMES[kind] + ' unit')} larger than a group "
            f"{verb_for(len(group), 'stands', 'stand')} on the map ({sizes}: "
            f"{describe_all(group)}), but {state}{divisions}",
            location=group[0].location,
            pieces=ids,
            facts={"count": len(group)},
        )


@case("7.62", severity="info")
def brigade_strength_tally(position: Position) -> Iterator[Finding]:
    """Every Partisan and Chetnik group on the map counts toward brigade-strength: 30 Partisan, 25 Chetnik."""
    counts = {"partisan": 0, "chetnik": 0}
    for piece in stacks.guerrillas(position):
        if piece.location is not None and piece.size == "group":
            counts[piece.nationality] += 1
    for kind, count in counts.items():
        fact = _STRENGTH_FACT[kind]
        if count == 0 or units.trigger_turn(position, fact) is not None:
            continue
        needed = facts.BRIGADE_STRENGTH_GROUPS[kind]
        item = "7.62A" if kind == "partisan" else "7.62B"
        allegiance = " of any allegiance" if kind == "chetnik" else ""
        message = f"{count} of {needed} {_NAMES[kind]} groups{allegiance} on the map toward brigade-strength"
        severity = "info"
        if count > needed:
            message += f"; the counter mix holds only {needed}"
            severity = "warning"
        elif count == needed:
            message += (
                "; brigade-strength is reached if they are all still on the map at the end of the Guerrilla "
                f"Status Phase: then record the fact {fact}"
            )
            severity = (
                "warning"
                if position.phase in ("guerrilla-status", "anti-guerrilla-redeployment", "game-turn-indication")
                else "info"
            )
        else:
            message += f"; {needed - count} more needed"
        yield Finding(message, case=item, severity=severity, facts={"groups": count, "needed": needed})


@case("7.63")
def guerrilla_unit_formed_in_hide_away(position: Position) -> Iterator[Violation]:
    """Brigades and divisions are never formed in a Hide-away."""
    pieces = units.pieces_by_id(position)
    for event in position.events:
        if event.kind != facts.GUERRILLA_UNIT_FORMED:
            continue
        for piece_id in event.pieces:
            piece = pieces[piece_id]
            location = position.map.locations.get(piece.location or "")
            if location is not None and location.kind == facts.HIDE_AWAY:
                yield Violation(
                    f"the {piece.size} {describe_all([piece])} was formed this Game-Turn (event at line "
                    f"{event.line}) and stands in a Hide-away; larger guerrilla units are never formed in one",
                    location=piece.location,
                    pieces=[piece.id],
                    case="7.63A",
                )
