"""Force-pool checks: 11.22, 11.23, 11.341C's two Indian partisans, and the 44.3x modifiers.

Partisans count against the pool of their home country (the Iraq group as
one), wherever they stand; partisans off the map do not count.  Going over a
pool is a violation, except the one case the texts excuse: partisans already
on the board when Russian occupation policies results lowered the Russian
pool stay there (44.32B), which is reported as a warning.
"""

from __future__ import annotations

from validator.rules import Finding, Violation

from plugin.awaw import pools
from plugin.awaw.common import area_name, faction, faction_name, home_area, ids, listing
from plugin.awaw.ruleset import rules
from plugin.awaw.situation import Situation, placed_this_phase, situation
from plugin.awaw.vocabulary import AXIS, COMMUNIST, MIDDLE_EAST_AREAS, WESTERN_ALLIES


def _groups(where: Situation) -> dict[tuple[str, str], list]:
    """Partisans on the map by (faction, pool area); worked out once per position, as six checks ask. Read only."""
    return where.shared("pool groups", _group_partisans)


def _group_partisans(where: Situation) -> dict[tuple[str, str], list]:
    groups: dict[tuple[str, str], list] = {}
    for piece in where.partisans:
        if piece.location:
            groups.setdefault((faction(piece), home_area(where, piece)), []).append(piece)
    return groups


def _over_pool(where: Situation, areas) -> list[tuple]:
    """(pieces, limit) for every faction and area among ``areas`` holding more partisans than its maximum."""
    state = where.state.pool_state()
    over = []
    for (faction_id, area), pieces in _groups(where).items():
        if area not in areas:
            continue
        limit = pools.limit(area, faction_id, state)
        if limit is not None and len(pieces) > limit.maximum:
            over.append((pieces, limit))
    return over


def _pool_message(pieces, limit: pools.Limit) -> str:
    if limit.maximum == 0 and not limit.reasons:
        allowance = f"the {pools.table_name(limit.area)} table gives the {faction_name(limit.faction)} faction no partisans there"
    else:
        allowance = f"the pool allows {limit.maximum}"
        if limit.raised_by_results:
            allowance += f" (the table's {limit.automatic + limit.reduction}:{limit.maximum + limit.reduction}, its maximum)"
        if limit.reasons:
            allowance += "; " + "; ".join(limit.reasons)
    counted = _count(len(pieces), f"{faction_name(limit.faction)} partisan")
    return f"{counted} in {area_name(limit.area)} ({listing(pieces)}); {allowance}"


def _facts(pieces, limit: pools.Limit) -> dict:
    return {"area": limit.area, "faction": limit.faction, "count": len(pieces), "automatic": limit.automatic,
            "maximum": limit.maximum, "reduction": limit.reduction}


def _excused_by_occupation_policies(pieces, limit: pools.Limit) -> bool:
    """44.32B: no partisan is removed when the Russian pool shrinks, so an old surplus up to the reduction stands."""
    return (limit.reduction > 0 and len(pieces) <= limit.maximum + limit.reduction
            and not any(placed_this_phase(piece) for piece in pieces))


@rules.case("11.22")
def partisans_beyond_major_power_pool(position):
    """A faction may have no more partisans in France, Britain, Russia, Siberia, Italy or China than the 11.22 table allows."""
    where = situation(position)
    for pieces, limit in _over_pool(where, pools.MAJOR_POWER_TABLE):
        if _excused_by_occupation_policies(pieces, limit):
            continue  # reported by 44.32B
        yield Violation(_pool_message(pieces, limit), pieces=ids(pieces), case=pools.table_name(limit.area),
                        facts=_facts(pieces, limit))


@rules.case("11.23")
def partisans_beyond_minor_country_pool(position):
    """A faction may have no more partisans in a minor country than the 11.23 table allows, with its footnotes."""
    where = situation(position)
    areas = set(pools.MINOR_COUNTRY_TABLE) - set(MIDDLE_EAST_AREAS)
    for pieces, limit in _over_pool(where, areas):
        yield Violation(_pool_message(pieces, limit), pieces=ids(pieces), facts=_facts(pieces, limit))
    for (faction_id, area), pieces in _groups(where).items():
        if area in MIDDLE_EAST_AREAS and faction_id != AXIS:
            limit = pools.limit(area, faction_id, where.state.pool_state())
            yield Violation(_pool_message(pieces, limit), pieces=ids(pieces), facts=_facts(pieces, limit))


@rules.case("44.35")
def axis_partisans_beyond_moslem_unrest_pool(position):
    """Axis partisans in Egypt, the Iraq group and Persia may not outnumber the Moslem Unrest results given to each area, two at most."""
    where = situation(position)
    for pieces, limit in _over_pool(where, MIDDLE_EAST_AREAS):
        if limit.faction == AXIS:
            yield Violation(_pool_message(pieces, limit), pieces=ids(pieces), case="44.35A", facts=_facts(pieces, limit))


def _extras(where: Situation, faction_id: str):
    """The faction's partisans above automatic levels, per area, counted up to each area's maximum."""
    state = where.state.pool_state()
    extras = []
    for (group_faction, area), pieces in _groups(where).items():
        if group_faction != faction_id:
            continue
        limit = pools.limit(area, faction_id, state)
        if limit is None or not limit.raised_by_results:
            continue
        above = min(len(pieces), limit.maximum) - limit.automatic
        if limit.reduction and not any(placed_this_phase(piece) for piece in pieces):
            above -= limit.reduction  # 44.32B: partisans already on the board when the pool shrank stay
        if above > 0:
            extras.append((area, above, limit, pieces))
    return extras


def _extras_violation(where: Situation, faction_id: str, case: str, result_name: str):
    results = pools.faction_results(faction_id, where.state.pool_state())
    extras = _extras(where, faction_id)
    total = sum(above for _area, above, _limit, _pieces in extras)
    if total <= results:
        return
    detail = "; ".join(
        f"{area_name(area)} {len(pieces)} against an automatic {limit.automatic}"
        + (f" ({'; '.join(limit.reasons)})" if limit.reasons else "")
        for area, _above, limit, pieces in extras
    )
    pieces = [piece for *_rest, group in extras for piece in group]
    yield Violation(
        f"{_count(total, faction_name(faction_id) + ' partisan')} above the automatic levels ({detail}); "
        f"{results} {result_name} result(s) add only {results} to the pool",
        pieces=ids(pieces), case=case, facts={"above_automatic": total, "results": results},
    )


@rules.case("44.36")
def western_allied_partisans_beyond_results(position):
    """Western Allied partisans above the tables' automatic levels need one Western Allied partisan result each."""
    yield from _extras_violation(situation(position), WESTERN_ALLIES, "44.36A", "Western Allied partisan")


@rules.case("44.37")
def russian_partisans_beyond_results(position):
    """Communist partisans above the tables' automatic levels need one Russian partisan result each."""
    yield from _extras_violation(situation(position), COMMUNIST, "44.37A", "Russian partisan")


@rules.case("44.32", severity="warning")
def russian_pool_lowered_by_occupation_policies(position):
    """Russian occupation policies results shrink the Russian pool without removing partisans already on the board."""
    where = situation(position)
    state = where.state.pool_state()
    for (faction_id, area), pieces in _groups(where).items():
        if (faction_id, area) != (COMMUNIST, "russia"):
            continue
        limit = pools.limit(area, faction_id, state)
        if limit.reduction and len(pieces) > limit.automatic and _excused_by_occupation_policies(pieces, limit):
            yield Finding(
                f"{_count(len(pieces), 'communist partisan')} in Russia ({listing(pieces)}); {limit.reduction} Russian "
                f"occupation policies result(s) lower the pool to {pools.describe(limit)}. Those on the board stay, "
                "but no more may be built while they are over it",
                pieces=ids(pieces), case="44.32B", severity="warning", facts=_facts(pieces, limit),
            )


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" + ("" if number == 1 else "s")
