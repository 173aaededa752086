"""Partisan force pools: the tables of 11.22 and 11.23 as data, and the limits a position allows.

An entry ``(automatic, maximum)`` reads as the tables' ``a:b``: ``a``
partisans are always available, up to ``b`` with the production results
that raise the pool; a plain ``n`` is ``(n, n)``.  A faction and area the
tables leave blank (``-`` or no row) has no pool at all.

What raises an ``a:b`` pool depends on the faction:

* Western Allied and communist pools: each Western Allied partisan result
  (44.36) or Russian partisan result (44.37) adds one partisan to the
  faction's pool, to be built in any eligible area without passing that
  area's maximum.  So the faction's partisans above the automatic levels,
  summed over its areas, may not exceed its results.
* The Axis Middle East pools (Egypt, the Iraq group, Persia): each Moslem
  Unrest result (44.35) adds one to the area the Axis chose, to at most two.

Other modifiers: 44.32B lowers the communist pool of Russia (with eastern
Poland) by one per Russian occupation policies result, at most three; the
Communist China footnote adds one partisan a year from 1942; Ireland's Axis
pool carries the footnote that it depends on the diplomatic result, and
11.341B says when Germany may use it; India's pool is 11.341C's two,
available once Japan has an Indian Subversion result (44.34).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from validator.wording import plural, verb_for

from plugin.awaw.vocabulary import AXIS, COMMUNIST, IRAQ_GROUP, WESTERN_ALLIES

Entry = tuple[int, int]


def _read_only(table: dict[str, dict[str, Entry]]) -> Mapping[str, Mapping[str, Entry]]:
    """A table whose rows cannot be changed either: every check of every position reads the same one."""
    return MappingProxyType({key: MappingProxyType(row) for key, row in table.items()})


# 11.22, by faction: Axis, Western Allies, communist.  Germany, Japan and the
# U.S. have no row: 11.33E, G and H rule partisans out there.
MAJOR_POWER_TABLE: Mapping[str, Mapping[str, Entry]] = _read_only({
    "france": {WESTERN_ALLIES: (1, 2), COMMUNIST: (1, 2)},
    "britain": {WESTERN_ALLIES: (2, 4)},
    "russia": {COMMUNIST: (4, 8)},
    "siberia": {COMMUNIST: (2, 4)},
    "italy": {WESTERN_ALLIES: (1, 2), COMMUNIST: (1, 2)},
    "china": {WESTERN_ALLIES: (2, 2), COMMUNIST: (1, 6)},
})
# The lettered item of 11.22 for each row, for messages.
MAJOR_POWER_ITEMS = MappingProxyType({
    "france": "A", "britain": "B", "russia": "C", "siberia": "D", "italy": "E", "china": "F",
})

# 11.23, the partisan columns (Ax, WA, Ru) of both theatres.  Rows whose
# partisan columns are all blank are listed too, with no entries, so that a
# message can say the table gives that country no partisans.
MINOR_COUNTRY_TABLE: Mapping[str, Mapping[str, Entry]] = _read_only({
    "belgium": {}, "bulgaria": {}, "denmark": {}, "finland": {}, "hungary": {}, "netherlands": {},
    "norway": {}, "rumania": {}, "ukraine": {},
    "egypt": {AXIS: (0, 2)},
    "greece": {WESTERN_ALLIES: (1, 2), COMMUNIST: (1, 2)},
    IRAQ_GROUP: {AXIS: (0, 2)},  # the row's footnote adds Kuwait, Arabia, Transjordan, Palestine, Lebanon/Syria
    "ireland": {AXIS: (2, 2)},  # footnote: depends on the current diplomatic result
    "persia": {AXIS: (0, 2)},
    "western-poland": {WESTERN_ALLIES: (2, 4)},
    "spain": {AXIS: (3, 3), WESTERN_ALLIES: (2, 4), COMMUNIST: (2, 4)},
    "sweden": {WESTERN_ALLIES: (1, 2), COMMUNIST: (1, 2)},
    "turkey": {AXIS: (3, 3), WESTERN_ALLIES: (2, 4), COMMUNIST: (2, 4)},
    "yugoslavia": {WESTERN_ALLIES: (2, 4), COMMUNIST: (2, 4)},
    "communist-china": {COMMUNIST: (1, 1)},  # footnote: one more each year from 1942
    "dutch-east-indies": {}, "philippines": {}, "thailand": {},
})
MIDDLE_EAST_POOL_AREAS = ("egypt", IRAQ_GROUP, "persia")
MOSLEM_UNREST_MAXIMUM = 2  # 44.35A: at most two per Middle East area
INDIA_POOL = 2  # 11.341C
OCCUPATION_POLICY_MAXIMUM_REDUCTION = 3  # 44.32B
COMMUNIST_CHINA_FIRST_INCREASE_YEAR = 1942

FOOTNOTES = MappingProxyType({
    "ireland": "the 11.23 table marks Ireland's Axis pool of 2 as depending on the current diplomatic result; "
    "the texts give no scale beyond 11.341B, so 2 is used once 11.341B allows construction",
    "communist-china": "the 11.23 footnote adds one Chinese Communist partisan each year from 1942",
    IRAQ_GROUP: "the 11.23 footnote puts Kuwait, Arabia, Transjordan, Palestine and Lebanon/Syria in Iraq's row",
})


def table_entry(area: str, faction: str) -> Entry | None:
    """The table's (automatic, maximum) for a faction in an area; None when the area has no row."""
    if area in MAJOR_POWER_TABLE:
        return MAJOR_POWER_TABLE[area].get(faction, (0, 0))
    if area in MINOR_COUNTRY_TABLE:
        return MINOR_COUNTRY_TABLE[area].get(faction, (0, 0))
    if area == "india":
        return (INDIA_POOL, INDIA_POOL) if faction == AXIS else (0, 0)
    return None


def table_name(area: str) -> str:
    if area in MAJOR_POWER_TABLE:
        return f"11.22{MAJOR_POWER_ITEMS[area]}"
    if area == "india":
        return "11.341C"
    return "11.23"


@dataclass(frozen=True)
class PoolState:
    """The production results and turn that move the pools."""

    year: int | None
    western_allied_results: int = 0
    russian_results: int = 0
    occupation_policy_results: int = 0
    indian_subversion_results: int = 0
    moslem_unrest: dict = field(default_factory=dict)  # Middle East area -> results assigned to it


@dataclass(frozen=True)
class Limit:
    """What a faction may have in one area: the automatic level, the maximum, and how they were found."""

    area: str
    faction: str
    automatic: int
    maximum: int
    reasons: tuple[str, ...] = ()
    reduction: int = 0  # 44.32B, already taken off both numbers

    @property
    def raised_by_results(self) -> bool:
        """Whether the faction-wide production results (44.36, 44.37) may lift this area above automatic."""
        return self.maximum > self.automatic and self.faction in (WESTERN_ALLIES, COMMUNIST)


def limit(area: str, faction: str, state: PoolState) -> Limit | None:
    """The pool of ``faction`` in ``area`` under ``state``; None when the tables have no such area."""
    entry = table_entry(area, faction)
    if entry is None:
        return None
    automatic, maximum = entry
    reasons: list[str] = []
    reduction = 0
    if area in FOOTNOTES and (automatic or maximum):
        reasons.append(FOOTNOTES[area])
    if area == "russia" and faction == COMMUNIST and state.occupation_policy_results:
        reduction = min(state.occupation_policy_results, OCCUPATION_POLICY_MAXIMUM_REDUCTION)
        automatic, maximum = max(automatic - reduction, 0), max(maximum - reduction, 0)
        reasons.append(
            f"{plural(state.occupation_policy_results, 'Russian occupation policies result')} "
            f"{verb_for(state.occupation_policy_results, 'lowers', 'lower')} it by {reduction} (44.32B)"
        )
    if area == "communist-china" and faction == COMMUNIST and state.year is not None:
        extra = max(0, state.year - COMMUNIST_CHINA_FIRST_INCREASE_YEAR + 1)
        automatic, maximum = automatic + extra, maximum + extra
        if extra:
            first = COMMUNIST_CHINA_FIRST_INCREASE_YEAR
            years = f"{state.year}" if extra == 1 else f"each year from {first} to {state.year}"
            reasons.append(f"{extra} added, one for {years}")
    if area in MIDDLE_EAST_POOL_AREAS and faction == AXIS:
        results = state.moslem_unrest.get(area, 0)
        automatic = maximum = min(results, MOSLEM_UNREST_MAXIMUM)
        reasons.append(
            f"{plural(results, 'Moslem Unrest result')} assigned here, at most {MOSLEM_UNREST_MAXIMUM} count (44.35A)"
        )
    if area == "india" and faction == AXIS:
        if not state.indian_subversion_results:
            automatic = maximum = 0
        reasons.append(f"{plural(state.indian_subversion_results, 'Indian Subversion result')} (11.341C, 44.34)")
    return Limit(area, faction, automatic, maximum, tuple(reasons), reduction)


def faction_results(faction: str, state: PoolState) -> int:
    """The production results that add partisans to a faction's pool anywhere eligible (44.36, 44.37)."""
    if faction == WESTERN_ALLIES:
        return state.western_allied_results
    if faction == COMMUNIST:
        return state.russian_results
    return 0


def describe(entry: Limit) -> str:
    """"1:2" or "3", as the tables write it (after the modifiers)."""
    if entry.automatic == entry.maximum or not entry.raised_by_results:
        return str(entry.maximum)
    return f"{entry.automatic}:{entry.maximum}"
