"""Territorial reservists (15.1): where units marked "T" may stand."""

from __future__ import annotations

from validator.model import Position
from validator.rules import Finding, Violation, case

from plugin.tww import state


@case("15.1.2")
def territorial_arriving_outside_home_city(position: Position):
    """A territorial placed on the map this phase must stand in a city of its own country."""
    arrived = state.pieces_in_events(position, state.ARRIVE)
    for piece in state.marked(position, "territorial"):
        if piece.id not in arrived:
            continue
        location = state.hex_at(position, piece.location)
        home = state.nation_name(position, piece.nationality)
        if location is None:
            yield Finding(
                f"{state.described(piece)} arrived this phase but stands on no hex of the map",
                piece.location, (piece.id,), severity="unchecked",
            )
            continue
        problems = []
        if location.area != piece.nationality:
            problems.append(f"in {state.nation_name(position, location.area or '')}, not {home}")
        if not state.is_city(location):
            problems.append("not in a city")
        if problems:
            yield Violation(
                f"the {home} territorial {state.described(piece)} arrived in {location.id}, "
                f"which is {' and '.join(problems)}; arriving territorials appear in cities of their own country",
                location.id,
                (piece.id,),
                facts={"home": piece.nationality, "hex_nation": location.area, "city": state.is_city(location)},
            )


@case("15.1.3")
def territorial_outside_home_country(position: Position):
    """A territorial never leaves its home country, not even when retreating."""
    for piece in state.marked(position, "territorial"):
        location = state.hex_at(position, piece.location)
        if location is None:
            continue
        if location.area is None:
            yield Finding(
                f"the map gives no nation for {location.id}, so whether the territorial {state.described(piece)} "
                "is at home cannot be told",
                location.id,
                (piece.id,),
                severity="unchecked",
            )
        elif location.area != piece.nationality:
            home = state.nation_name(position, piece.nationality)
            yield Violation(
                f"the {home} territorial {state.described(piece)} is in {state.nation_name(position, location.area)}; "
                f"territorials stay in their home country ({home})",
                location.id,
                (piece.id,),
                facts={"home": piece.nationality, "hex_nation": location.area},
            )
