"""Where partisans may be once built: their own country (11.42), and stacking with regular units (11.44)."""

from __future__ import annotations

from validator.rules import Finding, Violation, case

from plugin.awaw.common import area_name, describe, faction, home_country, power_name
from plugin.awaw.map_data import lacks_data
from plugin.awaw.situation import faction_of, is_partisan, is_unit, owner, situation
from plugin.awaw.vocabulary import AXIS, COMMUNIST, IRAQ_GROUP, WESTERN_ALLIES, pool_area


@case("11.42")
def partisans_outside_their_country(position):
    """Partisans stay in the country they were built in; Irish ones may go into Ulster and the Iraq group's Axis partisans across it."""
    where = situation(position)
    for piece in where.partisans:
        hex_info = where.hex_of(piece)
        if hex_info is None or lacks_data(hex_info):  # reported as unchecked by plugin.awaw.map_data
            continue
        home = home_country(where, piece)
        if hex_info.sea:
            yield Violation(f"{describe(piece)} is in a sea hex; partisans stay in their country and never move by sea",
                            location=piece.location, pieces=[piece.id])
            continue
        if hex_info.country == home:
            continue
        if home == "ireland" and hex_info.ulster:
            continue
        if faction(piece) == AXIS and pool_area(home) == IRAQ_GROUP == pool_area(hex_info.country):
            continue
        here = area_name(hex_info.country) if hex_info.country else "a hex of no country"
        yield Violation(f"{describe(piece)} was built in {area_name(home)} but stands in {here}",
                        location=piece.location, pieces=[piece.id], facts={"home": home, "country": hex_info.country})


# Stacks whose cooperation the texts leave to other chapters: Nationalist with
# Communist China (looked at first, as the narrower), Russia with the Western Allies.
_RESTRICTED = (
    ({"china"}, {"communist-china", "russia"}, "Nationalist-Communist Chinese"),
    ({COMMUNIST}, {WESTERN_ALLIES}, "Russo-Allied"),
)


def _groups(piece) -> set[str]:
    power = owner(piece)
    return {power, faction_of(power)}


def _restriction(partisan, units) -> tuple[str, list]:
    """The first cooperation restriction the partisan's stack falls under, with the units concerned."""
    groups = _groups(partisan)
    unit_groups = None  # each unit's groups, worked out once the partisan falls under a restriction
    for first, second, name in _RESTRICTED:
        for mine, theirs in ((first, second), (second, first)):
            if not groups.isdisjoint(mine):
                if unit_groups is None:
                    unit_groups = [(unit, _groups(unit)) for unit in units]
                mixed = [unit for unit, its_groups in unit_groups if not theirs.isdisjoint(its_groups)]
                if mixed:
                    return name, mixed
    return "", []


@case("11.44", severity="unchecked")
def partisans_stacked_across_cooperation_limits(position):
    """Partisans stacked with units of the other Allied faction, or the other Chinese side, fall under cooperation rules outside these chapters."""
    where = situation(position)
    for hex_id in where.partisan_hexes:
        pieces = where.pieces_by_hex[hex_id]
        partisans = [piece for piece in pieces if is_partisan(piece)]
        units = [piece for piece in pieces if is_unit(piece)]
        for partisan in partisans:
            name, mixed = _restriction(partisan, units)
            if mixed:
                yield Finding(
                    f"{describe(partisan)} is stacked with {', '.join(describe_unit(u) for u in mixed)}; the "
                    f"{name} cooperation restrictions that 11.44 points to are not in the imported chapters",
                    location=hex_id, pieces=[partisan.id, *(u.id for u in mixed)], severity="unchecked",
                    facts={"needs": f"{name} cooperation rules"},
                )


def describe_unit(piece) -> str:
    return f"{piece.id} ({power_name(owner(piece))} {piece.type})"

