"""Force-pool checks: 11.22, 11.23, 11.341C's two Indian partisans, and the 44.3x modifiers.

Partisans count against the pool of their home country (the Iraq group as
one), wherever they stand; partisans off the map do not count.  Going over a
pool is a violation, except the one case the texts excuse: partisans already
on the board when Russian occupation policies results lowered the Russian
pool stay there (44.32B), which is reported as a warning.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

from validator.rules import Finding, Violation, case
from validator.wording import plural, verb_for

from plugin.awaw import pools
from plugin.awaw.common import area_name, faction, faction_name, home_area, ids, listing
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


# The production results that lift a faction's a:b pools (44.36A, 44.37A), and the item that counts them.
_RESULTS = MappingProxyType({
    WESTERN_ALLIES: ("44.36A", "Western Allied partisan result"),
    COMMUNIST: ("44.37A", "Russian partisan result"),
})


def _needing(count: int, result_name: str) -> str:
    """"needs a Russian partisan result" for one partisan, "need one Russian partisan result each" for more."""
    return verb_for(count, f"needs a {result_name}", f"need one {result_name} each")


def _pool_message(pieces, limit: pools.Limit) -> str:
    """The count against the pool, and how it splits: over the maximum here, above automatic under 44.36A/44.37A."""
    counted = plural(len(pieces), f"{faction_name(limit.faction)} partisan")
    where = f"{counted} in {area_name(limit.area)} ({listing(pieces)})"
    if limit.maximum == 0 and not limit.reasons:
        return f"{where}; the {pools.table_name(limit.area)} table gives the {faction_name(limit.faction)} faction no partisans there"
    allowance = f"the pool allows at most {limit.maximum}"
    if limit.raised_by_results:
        allowance += f" (the table's {limit.automatic + limit.reduction}:{limit.maximum + limit.reduction} at its maximum)"
    if limit.reasons:
        allowance += "; " + "; ".join(limit.reasons)
    over = len(pieces) - limit.maximum
    split = f", so {over} {verb_for(over, 'is', 'are')} over it"
    if limit.raised_by_results:
        item, result_name = _RESULTS[limit.faction]
        raised = limit.maximum - limit.automatic
        split += (
            f"; of the other {limit.maximum}, {limit.automatic} {verb_for(limit.automatic, 'is', 'are')} automatic and "
            f"{raised} {_needing(raised, result_name)}, counted under {item}"
        )
    return f"{where}; {allowance}{split}"


def _facts(pieces, limit: pools.Limit) -> dict:
    return {"area": limit.area, "faction": limit.faction, "count": len(pieces), "automatic": limit.automatic,
            "maximum": limit.maximum, "reduction": limit.reduction}


def _excused_by_occupation_policies(pieces, limit: pools.Limit) -> bool:
    """44.32B: no partisan is removed when the Russian pool shrinks, so an old surplus up to the reduction stands."""
    return (limit.reduction > 0 and len(pieces) <= limit.maximum + limit.reduction
            and not any(placed_this_phase(piece) for piece in pieces))


@case("11.22")
def partisans_beyond_major_power_pool(position):
    """A faction may have no more partisans in France, Britain, Russia, Siberia, Italy or China than the 11.22 table allows."""
    where = situation(position)
    for pieces, limit in _over_pool(where, pools.MAJOR_POWER_TABLE):
        if _excused_by_occupation_policies(pieces, limit):
            continue  # reported by 44.32B
        yield Violation(_pool_message(pieces, limit), pieces=ids(pieces), case=pools.table_name(limit.area),
                        facts=_facts(pieces, limit))


@case("11.23")
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


@case("44.35")
def axis_partisans_beyond_moslem_unrest_pool(position):
    """Axis partisans in Egypt, the Iraq group and Persia may not outnumber the Moslem Unrest results given to each area, two at most."""
    where = situation(position)
    for pieces, limit in _over_pool(where, MIDDLE_EAST_AREAS):
        if limit.faction == AXIS:
            yield Violation(_pool_message(pieces, limit), pieces=ids(pieces), case="44.35A", facts=_facts(pieces, limit))


@dataclass(frozen=True)
class _Extra:
    """One area's partisans above its automatic level: how many, and how the count was split."""

    area: str
    pieces: list
    limit: pools.Limit
    up_to_maximum: int  # between the automatic level and the maximum
    kept: int  # of those, already on the board when the pool was lowered (44.32B): no result needed

    @property
    def needing_results(self) -> int:
        return self.up_to_maximum - self.kept

    def explained(self) -> str:
        """"Russia: 10 against 4:8, so 4 between the automatic 4 and the maximum 8 (the other 2 ... 11.22C)"."""
        limit, count = self.limit, len(self.pieces)
        text = f"{area_name(self.area)}: {count} against {pools.describe(limit)}"
        if limit.reasons:
            text += f" ({'; '.join(limit.reasons)})"
        beyond = count - limit.maximum
        if beyond > 0:
            text += (
                f", so {self.up_to_maximum} between the automatic {limit.automatic} and the maximum {limit.maximum}; "
                f"the other {beyond} beyond the maximum {verb_for(beyond, 'is', 'are')} counted under "
                f"{pools.table_name(self.area)}"
            )
        else:
            text += f", so {self.up_to_maximum} above the automatic {limit.automatic}"
        if self.kept:
            text += (
                f"; {self.kept} of them stood before occupation policies lowered the pool and need no result "
                f"(44.32B), leaving {self.needing_results}"
            )
        return text


def _extras(where: Situation, faction_id: str) -> list[_Extra]:
    """The faction's partisans above automatic levels, per area, counted up to each area's maximum."""
    state = where.state.pool_state()
    extras = []
    for (group_faction, area), pieces in _groups(where).items():
        if group_faction != faction_id:
            continue
        limit = pools.limit(area, faction_id, state)
        if limit is None or not limit.raised_by_results:
            continue
        up_to_maximum = max(min(len(pieces), limit.maximum) - limit.automatic, 0)
        kept = 0
        if limit.reduction and not any(placed_this_phase(piece) for piece in pieces):
            kept = min(limit.reduction, up_to_maximum)  # 44.32B: partisans already on the board when the pool shrank stay
        extra = _Extra(area, pieces, limit, up_to_maximum, kept)
        if extra.needing_results > 0:
            extras.append(extra)
    return extras


def _extras_violation(where: Situation, faction_id: str):
    item, result_name = _RESULTS[faction_id]
    results = pools.faction_results(faction_id, where.state.pool_state())
    extras = _extras(where, faction_id)
    total = sum(extra.needing_results for extra in extras)
    if total <= results:
        return
    available = f"only {results}" if results else "none"
    yield Violation(
        f"{plural(total, faction_name(faction_id) + ' partisan')} above the automatic levels "
        f"{_needing(total, result_name)}, but there {verb_for(results, 'is', 'are')} "
        f"{available} ({'; '.join(extra.explained() for extra in extras)})",
        pieces=ids(piece for extra in extras for piece in extra.pieces), case=item,
        facts={"above_automatic": total, "results": results},
    )


@case("44.36")
def western_allied_partisans_beyond_results(position):
    """Western Allied partisans above the tables' automatic levels need one Western Allied partisan result each."""
    yield from _extras_violation(situation(position), WESTERN_ALLIES)


@case("44.37")
def russian_partisans_beyond_results(position):
    """Communist partisans above the tables' automatic levels need one Russian partisan result each."""
    yield from _extras_violation(situation(position), COMMUNIST)


@case("44.32", severity="warning")
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
                f"{plural(len(pieces), 'communist partisan')} in Russia ({listing(pieces)}); Russian occupation "
                f"policies results lower the pool by {limit.reduction} to {pools.describe(limit)}. Those on the board stay, "
                "but no more may be built while they are over it",
                pieces=ids(pieces), case="44.32B", severity="warning", facts=_facts(pieces, limit),
            )

