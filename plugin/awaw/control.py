"""Hex control with partisans (11.61-11.65): the derived map against the save's own claims.

The save gives each hex's regular controller -- the power it reverts to when
a partisan leaves (11.61) -- in the map's ``controller`` attribute and the
``area-control`` and ``control`` facts.  A ``control`` fact may also claim
that a partisan holds a hex.  Referee derives who actually holds each hex:
a partisan standing alone holds it for nobody else (11.62); a friendly
non-partisan ground unit standing with it takes it for its own power (11.61).
"""

from __future__ import annotations

from validator.rules import Finding, Violation, case
from validator.wording import plural, verb_for

from plugin.awaw.common import describe, power_name
from plugin.awaw.map_data import lacks_data
from plugin.awaw.situation import Situation, faction_of, is_partisan, owner, side_of, situation
from plugin.awaw.vocabulary import AIR_TYPES, COUNTRY_NAMES, FACTIONS, GROUND_TYPES, NAVAL_TYPES, PARTISAN, SIDES


def _partisans_at(where: Situation, hex_id: str) -> list:
    return [piece for piece in where.units_at(hex_id) if is_partisan(piece)]


@case("11.61")
def control_claims_that_ignore_partisans(position):
    """A partisan holds only the hex it stands in; a friendly ground unit joining it takes the hex for its own power."""
    where = situation(position)
    for hex_id, line in where.claimed_partisan.items():
        partisans = _partisans_at(where, hex_id)
        if not partisans:
            yield Violation(
                f"the save (line {line}) says a partisan holds this hex, but none stands in it; control reverts to "
                f"{power_name(where.hexes[hex_id].controller)}", location=hex_id, facts={"line": line},
            )
        elif where.control.get(hex_id) != PARTISAN:
            yield Violation(
                f"the save (line {line}) says a partisan holds this hex, but a friendly ground unit stands with "
                f"{describe(partisans[0])}, so the hex is {power_name(where.control[hex_id])}'s (see 29.22C)",
                location=hex_id, pieces=[piece.id for piece in partisans], facts={"line": line},
            )
    for hex_id, controller in where.control.items():
        if controller == PARTISAN or lacks_data(where.hexes[hex_id]):  # no regular controller known: map_data says so
            continue
        regular = where.hexes[hex_id].controller
        if regular != controller:
            partisans = _partisans_at(where, hex_id)
            ground = [piece for piece in where.units_at(hex_id) if piece.type in GROUND_TYPES
                      and side_of(owner(piece)) == side_of(owner(partisans[0]))]
            yield Violation(
                f"{plural(len(ground), power_name(controller) + ' ground unit')} ({', '.join(piece.id for piece in ground)}) "
                f"{verb_for(len(ground), 'stands', 'stand')} with {describe(partisans[0])}, "
                f"so the hex passes to {power_name(controller)} (see 29.22C), but the save gives it to {power_name(regular)}",
                location=hex_id, pieces=[piece.id for piece in ground + partisans],
                facts={"derived": controller, "claimed": regular},
            )


def _air_and_naval(where: Situation, hex_id: str) -> tuple[list, list]:
    pieces = where.units_at(hex_id)
    return ([piece for piece in pieces if piece.type in AIR_TYPES], [piece for piece in pieces if piece.type in NAVAL_TYPES])


def _partisan_hexes(where: Situation):
    return (hex_id for hex_id, controller in where.control.items() if controller == PARTISAN)


@case("11.62")
def air_or_naval_units_using_partisan_bases(position):
    """A partisan-held city bases no air units and a partisan-held port no naval units, whoever owns them."""
    where = situation(position)
    for hex_id in _partisan_hexes(where):
        hex_info = where.hexes[hex_id]
        air, naval = _air_and_naval(where, hex_id)
        if not (air or naval):
            continue
        holder = describe(_partisans_at(where, hex_id)[0])
        if air and hex_info.has("city"):
            yield Violation(f"{plural(len(air), 'air unit')} ({', '.join(p.id for p in air)}) "
                            f"{verb_for(len(air), 'is', 'are')} based in a city held by {holder}",
                            location=hex_id, pieces=[p.id for p in air])
        if naval and hex_info.has("port"):
            yield Violation(f"{plural(len(naval), 'naval unit')} ({', '.join(p.id for p in naval)}) "
                            f"{verb_for(len(naval), 'is', 'are')} in a port held by {holder}",
                            location=hex_id, pieces=[p.id for p in naval])


@case("11.64")
def air_or_naval_units_in_overrun_bases(position):
    """Air and naval units cannot stay in a base hex a partisan has entered; they must change bases."""
    where = situation(position)
    for hex_id in _partisan_hexes(where):
        hex_info = where.hexes[hex_id]
        air, naval = _air_and_naval(where, hex_id)
        stranded = ([] if hex_info.has("city") else air) + ([] if hex_info.has("port") else naval)
        if stranded:
            holder = describe(_partisans_at(where, hex_id)[0])
            yield Violation(f"{', '.join(p.id for p in stranded)} {verb_for(len(stranded), 'remains', 'remain')} in a base "
                            f"hex that {holder} has entered; {verb_for(len(stranded), 'it', 'they')} must change bases", location=hex_id, pieces=[p.id for p in stranded])


def _derived_count(tally: dict[str, int], key: str) -> int:
    if key in SIDES:
        return sum(count for power, count in tally.items() if side_of(power) == key)
    if key in FACTIONS:
        return sum(count for power, count in tally.items() if faction_of(power) == key)
    return tally.get(key, 0)


def _belongs(power: str, key: str) -> bool:
    return power == key or faction_of(power) == key or side_of(power) == key


@case("11.63")
def objective_counts_including_partisan_hexes(position):
    """A partisan-held objective counts for neither side."""
    where = situation(position)
    tally, held = where.objective_tally()
    if held:
        yield Finding(
            f"{plural(len(held), 'objective')} held by partisans {verb_for(len(held), 'counts', 'count')} for nobody: "
            + ", ".join(f"{where.place(hex_id)} (otherwise {power_name(where.hexes[hex_id].controller)}'s)" for hex_id in held),
            facts={"partisan_held": held, "tally": tally, "applies": True},
        )
    for key, claimed in where.state.objective_claims.items():
        derived = _derived_count(tally, key)
        if claimed == derived:
            continue
        lost = [hex_id for hex_id in held if _belongs(where.hexes[hex_id].controller, key)]
        if 0 < claimed - derived <= len(lost):
            yield Violation(
                f"the save counts {plural(claimed, 'objective')} for {key}, but {len(lost)} of its objectives "
                f"{verb_for(len(lost), 'is', 'are')} held by partisans "
                f"({', '.join(lost)}) and {verb_for(len(lost), 'counts', 'count')} for nobody: the map gives {derived}",
                location=lost[0], facts={"claimed": claimed, "derived": derived, "partisan_held": lost},
            )
        else:
            yield Finding(
                f"the save counts {plural(claimed, 'objective')} for {key}; the map's objective hexes give {derived}. The "
                "difference does not come from partisans, so chapter 11 cannot settle it",
                severity="warning", facts={"claimed": claimed, "derived": derived},
            )


@case("11.65")
def partisan_held_capitals_and_economic_areas(position):
    """A partisan-held capital or key economic area gives its BRPs to nobody and may cost the power that held it."""
    where = situation(position)
    for hex_id in _partisan_hexes(where):
        hex_info = where.hexes[hex_id]
        holder = _partisans_at(where, hex_id)[0]
        previous = where.hexes[hex_id].controller
        country = COUNTRY_NAMES.get(hex_info.country, hex_info.country)
        if hex_info.has("capital"):
            yield Finding(
                f"the capital of {country} is held by {describe(holder)}: {power_name(owner(holder))} gains no BRPs from "
                f"it, and {power_name(previous)} loses the pro-rated BRP value of {country} if it received those BRPs at "
                "the last YSS or this year and does not retake the capital in its next player turn",
                location=hex_id, pieces=[holder.id], facts={"capital": hex_info.country, "loser": previous, "applies": True},
            )
            yield Finding(
                f"whether {power_name(previous)} received {country}'s BRPs at the last YSS or this year, and whether it "
                "retakes the capital in time, rests on 35.63, which is not in the imported chapters",
                location=hex_id, pieces=[holder.id], severity="unchecked", facts={"needs": "35.63"},
            )
        if hex_info.has("key-economic-area"):
            yield Finding(
                f"a key economic area is held by {describe(holder)}: {power_name(previous)} loses its pro-rated value "
                f"(38.2) and {power_name(owner(holder))} gains nothing", location=hex_id, pieces=[holder.id],
                facts={"key_economic_area": hex_id, "loser": previous, "applies": True},
            )
