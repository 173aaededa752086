"""Construction checks: who may build partisans where, when, and how many a turn (11.3).

Most of these judge the partisans the save marks ``placed-this-phase``:
the conditions of 11.32-11.34 must hold when a partisan is built, and 11.37
keeps partisans on the board after they stop holding.  Rules that forbid a
partisan from being in a place at all (11.33C's Ukraine, 11.33E/G/H, the
Middle East limits of 11.341A, 11.38) judge every partisan on the map.
"""

from __future__ import annotations

from types import MappingProxyType

from validator.rules import Finding, Violation, case
from validator.wording import plural

from plugin.awaw import pools
from plugin.awaw.common import area_name, builder, describe, faction, faction_name, home_area, home_country, power_name
from plugin.awaw.situation import (
    Situation,
    enemies,
    faction_of,
    is_installation,
    is_unit,
    owner,
    placed_this_phase,
    side_of,
    situation,
)
from plugin.awaw.vocabulary import (
    AXIS,
    COMMUNIST,
    COUNTRY_NAMES,
    GROUND_TYPES,
    MAJOR_POWERS,
    MIDDLE_EAST_AREAS,
    WESTERN_ALLIES,
    theatre,
)

AXIS_POWERS = tuple(power for power, side in MAJOR_POWERS.items() if side == AXIS)
ALLIED_SIDE = "allies"


def _allied(where: Situation, powers) -> list[str]:
    return sorted(power for power in powers if side_of(power) == ALLIED_SIDE)


def _to_allies(to_whom: str) -> bool:
    return to_whom in ("allies", WESTERN_ALLIES, COMMUNIST) or side_of(to_whom) == ALLIED_SIDE


@case("11.351")
def partisans_placed_outside_construction_phase(position):
    """Partisans are placed in the unit construction phase and at no other time."""
    where = situation(position)
    if where.in_construction_phase():
        return
    for piece in where.new_partisans():
        yield Violation(
            f"{describe(piece)} is marked as placed this phase, but the position is in the '{position.phase}' phase, "
            "not 'unit-construction'", location=piece.location, pieces=[piece.id],
        )


@case("11.32A")
def allied_partisans_in_europe_before_russia_fights(position):
    """Western Allied and communist partisans are built in Europe only once Russia fights the Axis or RGT reach 50."""
    where = situation(position)
    state = where.state
    russia_fights = [power for power in AXIS_POWERS if state.at_war_with("russia", power)]
    if russia_fights or (state.rgt is not None and state.rgt >= 50):
        return
    for piece in where.new_partisans():
        if faction(piece) in (WESTERN_ALLIES, COMMUNIST) and theatre(home_country(where, piece)) == "europe":
            if state.rgt is None:
                yield Finding(
                    f"{describe(piece)} was built in Europe while Russia is at war with no Axis power; the save gives "
                    "no RGT level (fact 'rgt') to show they reached 50", location=piece.location, pieces=[piece.id],
                    severity="unchecked", facts={"needs": "rgt"},
                )
            else:
                yield Violation(
                    f"{describe(piece)} was built in Europe while Russia is at war with no Axis power and RGT are "
                    f"{state.rgt}, below 50", location=piece.location, pieces=[piece.id], facts={"rgt": state.rgt},
                )


@case("11.32B")
def indian_partisans_before_war_without_subversion(position):
    """Before Japan and Britain are at war, Japan builds Indian partisans only with an Indian Subversion result."""
    where = situation(position)
    state = where.state
    if state.at_war_with("japan", "britain") or state.indian_subversion:
        return
    for piece in where.new_partisans():
        if home_country(where, piece) == "india" and builder(piece) == "japan":
            yield Violation(
                f"{describe(piece)} was built in India before Japan and Britain are at war, with no Indian Subversion result",
                location=piece.location, pieces=[piece.id],
            )


@case("11.33A")
def partisans_in_unconquered_france(position):
    """Allied partisans are built in France only once Germany has conquered it."""
    where = situation(position)
    conqueror = where.state.conquered.get("france")
    if conqueror == "germany":
        return
    for piece in where.new_partisans():
        if home_country(where, piece) == "france" and faction(piece) in (WESTERN_ALLIES, COMMUNIST):
            status = f"{power_name(conqueror)} conquered, not Germany" if conqueror else "Germany has not conquered"
            yield Violation(f"{describe(piece)} was built in France, which {status}",
                            location=piece.location, pieces=[piece.id])


@case("11.33B")
def partisans_in_britain(position):
    """Western Allied partisans are built in Britain only after it surrendered to Germany; communist ones never."""
    where = situation(position)
    surrendered_to = where.state.surrendered.get("britain")
    for piece in where.new_partisans():
        if home_country(where, piece) != "britain":
            continue
        if faction(piece) == COMMUNIST:
            yield Violation(f"{describe(piece)} is a communist partisan built in Britain, where communists may build none",
                            location=piece.location, pieces=[piece.id])
        elif faction(piece) == WESTERN_ALLIES and surrendered_to != "germany":
            yield Violation(f"{describe(piece)} was built in Britain, which has not surrendered to Germany",
                            location=piece.location, pieces=[piece.id])


@case("11.33C")
def partisans_in_russia_siberia_and_the_ukraine(position):
    """Communist partisans need Russia at war with Germany (Japan for Siberia), never in a Ukraine at 6+; no Western Allied ones."""
    where = situation(position)
    state = where.state
    ukraine_result = state.diplomatic.get("ukraine")
    if ukraine_result is not None and ukraine_result >= 6:
        for piece in where.partisans:
            hex_info = where.hex_of(piece)
            if hex_info and faction(piece) == COMMUNIST and "ukraine" in hex_info.regions:
                yield Violation(
                    f"{describe(piece)} is a communist partisan in the Ukraine, where a diplomatic result of "
                    f"{ukraine_result} is in effect; such partisans are eliminated at once", location=piece.location,
                    pieces=[piece.id], facts={"ukraine_result": ukraine_result},
                )
    for piece in where.new_partisans():
        home = home_country(where, piece)
        if home not in ("russia", "siberia"):
            continue
        place = COUNTRY_NAMES[home]
        if faction(piece) == WESTERN_ALLIES:
            yield Violation(f"{describe(piece)} is a Western Allied partisan built in {place}, where they may build none",
                            location=piece.location, pieces=[piece.id])
        elif faction(piece) == COMMUNIST:
            enemy = "germany" if home == "russia" else "japan"
            if not state.at_war_with("russia", enemy):
                yield Violation(f"{describe(piece)} was built in {place} while Russia is not at war with {power_name(enemy)}",
                                location=piece.location, pieces=[piece.id])


@case("11.33D")
def partisans_in_italy_before_surrender(position):
    """Allied partisans are built in Italy only after Italy surrendered to the Allies."""
    where = situation(position)
    surrendered_to = where.state.surrendered.get("italy")
    if surrendered_to is not None and _to_allies(surrendered_to):
        return
    for piece in where.new_partisans():
        if home_country(where, piece) == "italy" and faction(piece) in (WESTERN_ALLIES, COMMUNIST):
            yield Violation(f"{describe(piece)} was built in Italy, which has not surrendered to the Allies",
                            location=piece.location, pieces=[piece.id])


NO_PARTISANS = MappingProxyType({"germany": "11.33E", "japan": "11.33G", "usa": "11.33H"})


@case("11.33")
def partisans_where_none_may_be_built(position):
    """No partisan is ever built in Germany, Japan or the U.S."""
    where = situation(position)
    for piece in where.partisans_on_map:
        country = home_country(where, piece)
        if country in NO_PARTISANS:
            yield Violation(f"{describe(piece)} is a partisan of {COUNTRY_NAMES[country]}, where none may be built",
                            location=piece.location, pieces=[piece.id], case=NO_PARTISANS[country])


SPECIAL_MINORS = set(MIDDLE_EAST_AREAS) | {"ireland"}  # 11.341A and B say when these open


@case("11.34")
def partisans_in_ineligible_minor_country(position):
    """Partisans go into a minor country only once an opposing power attacked it or it joined a power, and never after the builder's faction declared war on it."""
    where = situation(position)
    state = where.state
    for piece in where.new_partisans():
        country = home_country(where, piece)
        if home_area(where, piece) not in pools.MINOR_COUNTRY_TABLE or home_area(where, piece) in SPECIAL_MINORS:
            continue
        piece_faction = faction(piece)
        declared = sorted(power for power in state.war_declared.get(country, ()) if faction_of(power) == piece_faction)
        if declared:
            yield Violation(
                f"{describe(piece)} was built in {area_name(country)}, on which {', '.join(map(power_name, declared))} "
                f"of its own faction declared war", location=piece.location, pieces=[piece.id],
            )
            continue
        attackers = sorted(power for power in state.attacked.get(country, ()) if enemies(power, builder(piece)))
        partners = sorted(state.associated.get(country, ()))
        if not attackers and not partners:
            yield Violation(
                f"{describe(piece)} was built in {area_name(country)}, which no opposing major power has attacked and "
                "which has never associated or allied with a major power (facts minor-attacked, minor-associated)",
                location=piece.location, pieces=[piece.id],
            )


@case("11.341A")
def axis_partisans_in_the_middle_east(position):
    """Axis Middle East partisans need a Moslem Unrest result; Persia, Lebanon/Syria and Arabia open only under their conditions."""
    where = situation(position)
    state = where.state
    if not sum(state.moslem_unrest.values()):
        for piece in where.new_partisans():
            if faction(piece) == AXIS and home_area(where, piece) in MIDDLE_EAST_AREAS:
                yield Violation(f"{describe(piece)} was built in {area_name(home_country(where, piece))} before any "
                                "Moslem Unrest result", location=piece.location, pieces=[piece.id])
    persia_open = state.persian_route == "active" or _allied(where, state.war_declared.get("persia", ()))
    lebanon_controller = state.country_controller.get("lebanon-syria", "")
    arabia_attackers = _allied(where, state.attacked.get("arabia", ()))
    for piece in where.partisans:
        hex_info = where.hex_of(piece)
        if hex_info is None or faction(piece) != AXIS:
            continue
        if hex_info.country == "persia" and not persia_open:
            yield Violation(f"{describe(piece)} is an Axis partisan in Persia, but the Allies have neither declared war "
                            "on Persia nor activated the Persian BRP route", location=piece.location, pieces=[piece.id])
        elif hex_info.country == "lebanon-syria" and side_of(lebanon_controller) != ALLIED_SIDE:
            held = f"controlled by {power_name(lebanon_controller)}" if lebanon_controller else "not Allied controlled (fact country-controller)"
            yield Violation(f"{describe(piece)} is an Axis partisan in Lebanon/Syria, which is {held}",
                            location=piece.location, pieces=[piece.id])
        elif hex_info.country == "arabia" and not arabia_attackers:
            yield Violation(f"{describe(piece)} is an Axis partisan in Arabia, which the Allies have not attacked",
                            location=piece.location, pieces=[piece.id])


@case("11.341B")
def axis_partisans_in_ireland(position):
    """Germany builds Irish partisans only after an Irish diplomatic result of 7 or more or an Allied declaration of war on Ireland."""
    where = situation(position)
    state = where.state
    result = state.diplomatic.get("ireland")
    if (result is not None and result >= 7) or _allied(where, state.war_declared.get("ireland", ())):
        return
    for piece in where.new_partisans():
        if home_country(where, piece) == "ireland" and faction(piece) == AXIS:
            shown = f"the diplomatic result is {result}" if result is not None else "no Irish diplomatic result is given"
            yield Violation(f"{describe(piece)} was built in Ireland, but {shown} and no Allied power has declared war "
                            "on Ireland", location=piece.location, pieces=[piece.id])


@case("11.341C")
def partisans_in_india(position):
    """Only Japan builds partisans in India, at most two, and only with an Indian Subversion result."""
    where = situation(position)
    state = where.state
    indian = [piece for piece in where.partisans_on_map if home_country(where, piece) == "india"]
    for piece in indian:
        if builder(piece) != "japan":
            yield Violation(f"{describe(piece)} is an Indian partisan not built by Japan", location=piece.location,
                            pieces=[piece.id])
    japanese = [piece for piece in indian if builder(piece) == "japan"]
    if not state.indian_subversion:
        for piece in japanese:
            if placed_this_phase(piece):
                yield Violation(f"{describe(piece)} was built in India without an Indian Subversion result",
                                location=piece.location, pieces=[piece.id])
    elif len(japanese) > pools.INDIA_POOL:
        yield Violation(f"{plural(len(japanese), 'Japanese partisan')} in India ({', '.join(p.id for p in japanese)}); "
                        f"at most {pools.INDIA_POOL} may be built", pieces=[p.id for p in japanese],
                        facts={"count": len(japanese), "maximum": pools.INDIA_POOL})


@case("11.353A")
def partisans_where_the_tables_allow_none(position):
    """Partisans exist only where chapter 11 allows them: a country with a row in the tables, or India and the Middle East."""
    where = situation(position)
    for piece in where.partisans_on_map:
        area = home_area(where, piece)
        if pools.table_entry(area, faction(piece)) is None and area not in NO_PARTISANS:
            yield Violation(
                f"{describe(piece)} has the home country '{home_country(where, piece)}', where chapter 11 allows no "
                "partisans at all (no row in the 11.22 or 11.23 tables)", location=piece.location, pieces=[piece.id],
            )


@case("11.353B")
def partisans_built_by_a_power_not_at_war(position):
    """The builder must be at war with the power the partisan works against (Indian partisans excepted)."""
    where = situation(position)
    for piece in where.new_partisans():
        if home_country(where, piece) == "india":
            continue
        controller = where.hexes[piece.location].controller
        if controller in MAJOR_POWERS and enemies(controller, builder(piece)) and not where.state.at_war_with(
            builder(piece), controller
        ):
            yield Violation(f"{describe(piece)} was placed in a hex controlled by {power_name(controller)}, but "
                            f"{power_name(builder(piece))} is not at war with {power_name(controller)}",
                            location=piece.location, pieces=[piece.id])


@case("11.353C")
def more_than_one_partisan_per_country_per_turn(position):
    """Each faction builds at most one partisan a turn in a country (Iraq's group is one); Russia may add a second in Russia."""
    where = situation(position)
    yield from too_many_in_a_country(where, where.new_partisans())


def too_many_in_a_country(where: Situation, new: list):
    """11.353C over the partisans ``new`` (placed this phase, or appeared since the previous position)."""
    groups: dict[tuple[str, str], list] = {}
    for piece in new:
        groups.setdefault((faction(piece), home_area(where, piece)), []).append(piece)
    russian = {area: [p for p in groups.pop((COMMUNIST, area), []) if builder(p) == "russia"] for area in ("russia", "siberia")}
    for area in ("russia", "siberia"):
        others = [p for p in new if faction(p) == COMMUNIST and home_area(where, p) == area
                  and builder(p) != "russia"]
        if others:
            groups[(COMMUNIST, area)] = others
    for (faction_id, area), pieces in groups.items():
        if len(pieces) > 1:
            names = ", ".join(p.id for p in pieces)
            yield Violation(f"{plural(len(pieces), faction_name(faction_id) + ' partisan')} built in {area_name(area)} this turn "
                            f"({names}); the limit is one", pieces=[p.id for p in pieces],
                            facts={"count": len(pieces), "area": area})
    in_russia, in_siberia = russian["russia"], russian["siberia"]
    if len(in_siberia) > 1 or len(in_russia) + len(in_siberia) > 2:
        pieces = in_russia + in_siberia
        yield Violation(
            f"Russia built {plural(len(in_russia), 'partisan')} in Russia and eastern Poland and {len(in_siberia)} in Siberia "
            f"this turn ({', '.join(p.id for p in pieces)}); it may build one anywhere there and a second only in "
            "Russia or eastern Poland", pieces=[p.id for p in pieces],
            facts={"russia": len(in_russia), "siberia": len(in_siberia)},
        )


@case("11.353D")
def partisan_placed_on_ineligible_hex(position):
    """A new partisan goes on a vacant enemy-controlled hex, or one holding only partisans of its own builder."""
    where = situation(position)
    yield from placed_on_ineligible_hexes(where, where.new_partisans())


def placed_on_ineligible_hexes(where: Situation, new: list):
    """11.353D over the partisans ``new``."""
    for piece in new:
        hex_info = where.hexes[piece.location]
        if not enemies(hex_info.controller, builder(piece)):
            held = (f"controlled by {power_name(hex_info.controller)}" if hex_info.controller in MAJOR_POWERS
                    or hex_info.controller == "communist-china" else f"'{hex_info.controller}' in control")
            yield Violation(f"{describe(piece)} was placed in a hex {held}, not by an enemy",
                            location=piece.location, pieces=[piece.id])
            continue
        others = [other for other in where.units_at(piece.location) if other is not piece
                  and not (other.type == "partisan" and builder(other) == builder(piece))
                  and not enemies(owner(other), builder(piece))]
        if others:
            yield Violation(f"{describe(piece)} was placed in a hex that is not vacant: it holds "
                            f"{', '.join(describe(other) for other in others)}", location=piece.location,
                            pieces=[piece.id, *(other.id for other in others)])


@case("11.353E")
def partisan_placed_on_enemy_or_in_enemy_zoc(position):
    """A new partisan never goes where enemy units or installations stand, nor into an enemy ZoC."""
    where = situation(position)
    yield from placed_among_enemies(where, where.new_partisans())


def placed_among_enemies(where: Situation, new: list):
    """11.353E over the partisans ``new``."""
    for piece in new:
        hostile = [other for other in where.units_at(piece.location)
                   if (is_unit(other) or is_installation(other)) and enemies(owner(other), builder(piece))]
        if hostile:
            yield Violation(f"{describe(piece)} was placed in a hex holding the enemy "
                            f"{', '.join(f'{other.id} ({other.type})' for other in hostile)}",
                            location=piece.location, pieces=[piece.id, *(other.id for other in hostile)])
            continue
        exerting = [unit.id for unit in where.zoc_over(piece.location) if enemies(owner(unit), builder(piece))]
        if exerting:
            yield Violation(f"{describe(piece)} was placed in the ZoC of the enemy {', '.join(exerting)}",
                            location=piece.location, pieces=[piece.id, *exerting])
        elif not where.zoc_declared:
            adjacent = [other.id for hex_id in where.hexes[piece.location].neighbours for other in where.units_at(hex_id)
                        if other.type in GROUND_TYPES and enemies(owner(other), builder(piece))]
            if adjacent:
                yield Finding(
                    f"{describe(piece)} was placed next to the enemy {', '.join(adjacent)}; the save does not say which "
                    "units exert a ZoC (zoc, zoc-hexes), and the ZoC rules are not in the imported chapters",
                    location=piece.location, pieces=[piece.id, *adjacent], severity="unchecked",
                    facts={"needs": "zoc"},
                )


@case("11.354")
def western_allied_builder_not_at_war_with_germany(position):
    """Western Allied partisans in Europe are built by a Western Allied major power at war with Germany."""
    where = situation(position)
    for piece in where.new_partisans():
        if faction(piece) == WESTERN_ALLIES and theatre(home_country(where, piece)) == "europe" \
                and not where.state.at_war_with(builder(piece), "germany"):
            yield Violation(f"{describe(piece)} was built in Europe by {power_name(builder(piece))}, "
                            "which is not at war with Germany", location=piece.location, pieces=[piece.id])


@case("11.355")
def european_axis_partisans_not_built_by_germany(position):
    """Axis partisans in Europe (the Middle East and Ireland included) are built by Germany."""
    where = situation(position)
    for piece in where.partisans_on_map:
        if faction(piece) == AXIS and builder(piece) != "germany" and theatre(home_country(where, piece)) == "europe":
            yield Violation(f"{describe(piece)} is a European Axis partisan built by {power_name(builder(piece))}, "
                            "not Germany", location=piece.location, pieces=[piece.id])


@case("11.38")
def partisans_of_a_surrendered_power(position):
    """Partisans leave the game when their builder surrenders (for the U.S., sues for peace in their theatre)."""
    where = situation(position)
    state = where.state
    for piece in where.partisans_on_map:
        power = builder(piece)
        if power in state.surrendered:
            yield Violation(f"{describe(piece)} is still on the map, but {power_name(power)} has surrendered",
                            location=piece.location, pieces=[piece.id])
        elif (power, theatre(home_country(where, piece))) in state.sued_for_peace:
            yield Violation(f"{describe(piece)} is still on the map, but {power_name(power)} has sued for peace in "
                            f"the {theatre(home_country(where, piece))} theatre", location=piece.location, pieces=[piece.id])

