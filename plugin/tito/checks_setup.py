"""The opening position: 15.1 (Axis) and 15.2 (Yugoslav), judged only in the "setup" phase."""

from __future__ import annotations

from collections.abc import Iterator
from types import MappingProxyType

from validator.model import Position
from validator.rules import Violation, case
from validator.wording import plural, verb_for

from plugin.tito import facts, locations, units
from plugin.tito.units import describe_all

_SETUP_ZONE = MappingProxyType({
    (counter.nationality, counter.designation): (zone, counter)
    for zone, counters in facts.AXIS_SETUP.items()
    for counter in counters
})


@case("15.1")
def axis_unit_set_up_out_of_place(position: Position) -> Iterator[Violation]:
    """At set-up every Axis unit of the list stands in an Axis box of its zone, at its listed strength, and no other
    Axis unit is on the map.
    """
    if position.phase != "setup":
        return
    turn = units.turn_number(position)
    seen = set()
    for piece in position.pieces:
        if piece.location is None or not units.is_axis_regular(piece, turn):
            continue
        key = (piece.nationality, units.designation(piece))
        entry = _SETUP_ZONE.get(key)
        if entry is None:
            yield Violation(
                f"the {piece.nationality} unit {describe_all([piece])} (designation "
                f"'{units.designation(piece) or 'none'}') is not in the Axis set-up list",
                location=piece.location,
                pieces=[piece.id],
            )
            continue
        seen.add(key)
        zone, counter = entry
        location = position.map.locations[piece.location]
        if location.area != zone or location.kind != facts.OBJECTIVE_BOX or units.location_side(location) != "axis":
            yield Violation(
                f"the {piece.nationality} {counter.designation} ({piece.id}) starts in an Axis box of an "
                f"Objective Display in {facts.ZONES[zone]}, not here",
                location=piece.location,
                pieces=[piece.id],
                facts={"zone": zone},
            )
        if piece.strength is not None and piece.strength != counter.strength:
            yield Violation(
                f"the {piece.nationality} {counter.designation} ({piece.id}) has strength {piece.strength}; "
                f"it starts at {counter.strength}",
                location=piece.location,
                pieces=[piece.id],
            )
    missing = [
        f"{nationality} {designation}"
        for nationality, designation in _SETUP_ZONE
        if (nationality, designation) not in seen
    ]
    if missing:
        shown = ", ".join(missing[:8]) + (f" and {len(missing) - 8} more" if len(missing) > 8 else "")
        yield Violation(
            f"{len(missing)} of the {len(_SETUP_ZONE)} Axis set-up units {verb_for(len(missing), 'is', 'are')} not on "
            f"the map: {shown}",
            facts={"missing": len(missing)},
        )


@case("15.2")
def yugoslav_set_up_out_of_place(position: Position) -> Iterator[Violation]:
    """At set-up the Yugoslav player has pro-Yugoslav Chetnik groups only: five in Serbia's and two in Montenegro's
    Chetnik Hide-away.
    """
    if position.phase != "setup":
        return
    turn = units.turn_number(position)
    counts = {zone: 0 for zone in facts.YUGOSLAV_SETUP}
    for piece in position.pieces:
        if piece.location is None or units.is_marker(piece) or units.is_axis_regular(piece, turn):
            continue
        location = position.map.locations[piece.location]
        is_set_up_group = (
            piece.nationality == "chetnik"
            and piece.size == "group"
            and units.allegiance(piece) == "pro-yugoslav"
            and location.kind == facts.HIDE_AWAY
            and units.location_side(location) == "chetnik"
            and location.area in counts
        )
        if is_set_up_group:
            counts[location.area] += 1
        else:
            yield Violation(
                f"{describe_all([piece])} is on the map at set-up; the Yugoslav player starts with pro-Yugoslav "
                "Chetnik groups in the Chetnik Hide-away of Serbia and Montenegro only",
                location=piece.location,
                pieces=[piece.id],
            )
    for zone, expected in facts.YUGOSLAV_SETUP.items():
        if counts[zone] != expected:
            yield Violation(
                f"{plural(counts[zone], 'Chetnik group')} in the Chetnik Hide-away of {facts.ZONES[zone]}; the set-up "
                f"puts {expected} there",
                location=locations.hide_away(zone, "chetnik"),
                facts={"groups": counts[zone], "expected": expected},
            )
