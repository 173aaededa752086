"""Garrisons against Garrison Values: 7.51, with the shortfall of 7.53A and operation units per 7.54."""

from __future__ import annotations

import math
from collections.abc import Iterator
from fractions import Fraction

from validator.model import Piece, Position
from validator.rules import Finding, case
from validator.wording import noun_for, plural, verb_for

from plugin.tito import facts, stacks, units
from plugin.tito.units import fraction_text


def garrisons(position: Position) -> dict[str, tuple[Fraction, list[Piece], list[Piece]]]:
    """Per zone: the garrison in division-equivalents, the units counted, and which of them are on an operation."""
    on_operation = units.operation_zone_by_piece(position)
    counted: dict[str, tuple[list[Piece], list[Piece]]] = {zone: ([], []) for zone in position.map.areas}
    zone_at = stacks.location_zones(position)
    for piece in stacks.axis_regulars(position):
        zone = on_operation.get(piece.id) or zone_at[piece.location]
        if zone not in counted:
            continue
        garrison, operating = counted[zone]
        garrison.append(piece)
        if piece.id in on_operation:
            operating.append(piece)
    return {zone: (stacks.division_total(garrison), garrison, operating)
            for zone, (garrison, operating) in counted.items()}


@case("7.51", severity="info")
def garrison_below_garrison_value(position: Position) -> Iterator[Finding]:
    """From Game-Turn 3, a zone whose Axis garrison is below its Garrison Value rises at the Uprising Segment."""
    turn = units.turn_number(position)
    if turn is not None and turn < facts.UPRISINGS_FROM:
        return
    guerrillas_on_map = any(piece.location is not None for piece in stacks.guerrillas(position))
    short = []
    for zone, (total, counted, operating) in garrisons(position).items():
        area = position.map.areas[zone]
        value = int(area.attributes["garrison"])
        if total < value:
            short.append((area, value, total, counted, operating))
    if short and not guerrillas_on_map:
        listed = ", ".join(f"{area.label} {fraction_text(total)} of {value}" for area, value, total, _, _ in short)
        yield Finding(
            f"{plural(len(short), 'zone')} {verb_for(len(short), 'holds', 'hold')} less than "
            f"{verb_for(len(short), 'its', 'their')} Garrison Value ({listed}), but no uprising can happen "
            "while no guerrilla units are on the map (7.55)",
            facts={"zones_short": len(short)},
        )
        return
    for area, value, total, counted, operating in short:
        shortfall = value - math.floor(total)
        breakdown = units.size_breakdown(counted) or "no Axis units"
        operations = (
            f"; {plural(len(operating), 'unit')} on an operation in {area.label} counted (7.54)" if operating else ""
        )
        yield Finding(
            f"{area.label}: garrison {fraction_text(total)} {noun_for(total, 'division-equivalent')} "
            f"({breakdown}){operations} "
            f"against a Garrison Value of {value}: an uprising is due at the Uprising Segment; shortfall {shortfall} "
            f"({value} less {math.floor(total)}, the garrison's fraction dropped, 7.53A), uprising modifier "
            f"{area.attributes['uprising-modifier']}, alignment {area.attributes['alignment']}",
            pieces=[piece.id for piece in counted],
            facts={"zone": area.id, "garrison": str(total), "garrison_value": value, "shortfall": shortfall},
        )
