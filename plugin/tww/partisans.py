"""Partisans (15.2): the hexes through which each side may not trace communications.

Four countries or regions have partisans.  Each entry below says, in our own
words, where they are, against whom, from when, and which terrain they
close:

* 15.2.1 Afghanistan: always, against the Pact, every non-clear hex;
* 15.2.2 Finland: from the turn after Finland entered the war, against the
  Pact, wilderness hexes;
* 15.2.3 Kurdistan (a region spanning several nations): against the side the
  save names (rule 20.3.7 decides it and is outside the text), in all of
  Kurdistan or the nations' parts the save lists, every non-clear hex;
* 15.2.4 Yugoslavia: from the turn after Yugoslavia entered the war, against
  the Pact, mountain and mountain-pass hexes.

A hex is open again for a side while one of its units stands in it or
exerts a zone of control into it.  Activity never ends once begun, so the
entry turn alone decides it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from validator.derived import memoised
from validator.model import MapData, Position

from plugin.tww import network, state, terms
from plugin.tww.hex_columns import HexColumns, hex_columns, hex_neighbours
from plugin.tww.network import HexNetwork

NONCLEAR = frozenset(terms.TERRAINS) - {terms.CLEAR}


@dataclass(frozen=True)
class PartisanCountry:
    """Where one group of partisans acts and which terrain it closes."""

    case: str
    name: str
    area: str  # a nation id (a hex's area) or, when ``region`` is set, a region id
    terrains: frozenset[str]
    region: bool = False
    terrain_words: str = ""


COUNTRIES = (
    PartisanCountry("15.2.1", "Afghanistan", terms.AFGHANISTAN, NONCLEAR, terrain_words="non-clear"),
    PartisanCountry("15.2.2", "Finland", terms.FINLAND, frozenset({terms.WILDERNESS}), terrain_words="wilderness"),
    PartisanCountry("15.2.3", "Kurdistan", terms.KURDISTAN, NONCLEAR, region=True, terrain_words="non-clear"),
    PartisanCountry(
        "15.2.4", "Yugoslavia", terms.YUGOSLAVIA, frozenset({terms.MOUNTAIN, terms.MOUNTAIN_PASS}),
        terrain_words="mountain and mountain-pass",
    ),
)


@dataclass(frozen=True)
class Activity:
    """Whether one country's partisans act in this position, and against whom."""

    country: PartisanCountry
    against: tuple[str, ...]  # the sides they act against; empty when inactive
    reason: str  # why, in the position's own terms
    unknown: str = ""  # what the save lacks when it cannot be decided
    maybe_against: tuple[str, ...] = ()  # the sides they might act against when undecided


@dataclass(frozen=True)
class SideMap:
    """One side's closed hexes: certain, and those that depend on a missing fact."""

    side: str
    blocked: frozenset[str]
    uncertain: frozenset[str]
    lifted: frozenset[str]
    by_case: dict[str, frozenset[str]] = field(default_factory=dict)  # closed hexes per partisan case


@dataclass(frozen=True)
class PartisanMap:
    """The derived map of 15.2 for both sides."""

    activities: tuple[Activity, ...]
    candidates: Mapping[str, frozenset[str]]  # per case: the hexes of the right country and terrain
    sides: dict[str, SideMap]
    network: HexNetwork  # the map's hexes as the searches of 15.2 see them for this setting

    def case_of(self, hex_id: str) -> str | None:
        return next((case for case, hexes in self.candidates.items() if hex_id in hexes), None)


def activity(position: Position, country: PartisanCountry) -> Activity:
    """Decide from the save whether ``country``'s partisans are active, and against whom."""
    if country.area == terms.AFGHANISTAN:
        return Activity(country, ("pact",), "active from the start of the game")
    if country.area == terms.KURDISTAN:
        alignment = position.fact(state.KURDISH_PARTISANS)
        if alignment is None:
            return Activity(
                country,
                (),
                "alignment not given",
                unknown=(
                    f"the Kurdish partisans' alignment (fact {state.KURDISH_PARTISANS}: "
                    "nato, pact or none; rule 20.3.7)"
                ),
                maybe_against=terms.SIDES,
            )
        if alignment == "none":
            return Activity(country, (), "inactive (the save says so)")
        return Activity(country, (alignment,), f"active against {terms.side_name(alignment)} (the save says so)")
    entry = state.war_entry(position, country.area)
    if entry is None:
        return Activity(
            country, (), f"inactive: {country.name} has not entered the war (no fact {state.WAR_ENTRY}{country.area})"
        )
    turn = state.turn_number(position)
    if turn is None:
        return Activity(
            country,
            (),
            "turn not given",
            unknown="the turn number (the position's turn attribute)",
            maybe_against=("pact",),
        )
    if turn > entry:
        return Activity(
            country, ("pact",), f"active since turn {entry + 1} ({country.name} entered the war on turn {entry})"
        )
    return Activity(country, (), f"inactive until turn {entry + 1} ({country.name} entered the war on turn {entry})")


def candidate_hexes(map_data: MapData, kurdish_nations: set[str] | None) -> Mapping[str, frozenset[str]]:
    """Per partisan case, the hexes of its country whose terrain its partisans close.

    They depend on the map and on the nations Kurdish partisans are limited
    to, not on the pieces: so they are worked out once per map and setting
    (many saves share a map; the map's preparation works out the usual
    setting, all of Kurdistan) and handed out read-only.
    """
    by_setting = memoised(map_data, "tww.candidate-hexes", dict)
    setting = frozenset(kurdish_nations) if kurdish_nations is not None else None
    found = by_setting.get(setting)
    if found is None:
        columns = hex_columns(map_data, ("terrain", "region"))
        found = by_setting.setdefault(setting, MappingProxyType(_candidate_hexes(columns, kurdish_nations)))
    return found


def hex_network(map_data: MapData, kurdish_nations: set[str] | None) -> HexNetwork:
    """The map's hexes as the searches of 15.2 see them (plugin/tww/network.py), once per map and setting."""
    by_setting = memoised(map_data, "tww.hex-network", dict)
    setting = frozenset(kurdish_nations) if kurdish_nations is not None else None
    found = by_setting.get(setting)
    if found is None:
        closable = frozenset().union(*candidate_hexes(map_data, kurdish_nations).values())
        ids = hex_columns(map_data, ()).ids
        found = by_setting.setdefault(setting, network.build(ids, hex_neighbours(map_data, ids), closable))
    return found


def prepare(map_data: MapData, columns: HexColumns) -> None:
    """Work out, for a map being prepared, what 15.2 reads off it for the usual setting (all of Kurdistan)."""
    by_setting = memoised(map_data, "tww.candidate-hexes", dict)
    candidates = by_setting.setdefault(None, MappingProxyType(_candidate_hexes(columns, None)))
    memoised(map_data, "tww.hex-network", dict).setdefault(None, network.build(
        columns.ids, hex_neighbours(map_data, columns.ids), frozenset().union(*candidates.values())))


def _candidate_hexes(columns: HexColumns, kurdish_nations: set[str] | None) -> dict[str, frozenset[str]]:
    found: dict[str, list[str]] = {country.case: [] for country in COUNTRIES}
    # (area, terrain) -> the case that closes such a hex; Kurdistan is looked up by region.
    closing = {
        (country.area, terrain): country.case
        for country in COUNTRIES
        if not country.region
        for terrain in country.terrains
    }
    partisan_areas = {area for area, _ in closing}
    kurdistan = next(country for country in COUNTRIES if country.region)
    kurdish_terrains, kurdish_hexes = kurdistan.terrains, found[kurdistan.case]
    terrains, regions = columns.attributes["terrain"], columns.attributes["region"]
    for hex_id, area, terrain, region in zip(columns.ids, columns.areas, terrains, regions, strict=True):
        if area in partisan_areas:
            case = closing.get((area, terrain))
            if case is not None:
                found[case].append(hex_id)
        if region is not None and terrain in kurdish_terrains:
            if terms.KURDISTAN in region.split() and (kurdish_nations is None or area in kurdish_nations):
                kurdish_hexes.append(hex_id)
    return {case: frozenset(hexes) for case, hexes in found.items()}


def friendly_hexes(position: Position, hexes: HexNetwork) -> dict[str, set[str]]:
    """Per side, the hexes its units stand in or exert a zone of control into."""
    locations, part_of, singles = position.map.locations, hexes.part_of, hexes.singles
    covered: dict[str, set[str]] = {side: set() for side in terms.SIDES}
    for piece in position.pieces:
        side_hexes, at = covered.get(piece.side), piece.location
        if side_hexes is None or (at not in part_of and at not in singles):  # not on a hex
            continue
        side_hexes.add(at)
        if piece.attributes.get("zoc") == terms.YES:
            side_hexes.update(locations[at].neighbours)
    return covered


def partisan_map(position: Position) -> PartisanMap:
    """The hexes each side may not trace communications through, with the reasons.

    Worked out once per position and kept on it: the checks of 15.2 and the
    picture all read the same map.
    """
    return memoised(position, "tww.partisan-map", lambda: _derive_partisan_map(position))


def _derive_partisan_map(position: Position) -> PartisanMap:
    kurdish_nations = set(position.facts.get(state.KURDISH_PARTISANS_IN, ())) or None
    activities = tuple(activity(position, country) for country in COUNTRIES)
    candidates = candidate_hexes(position.map, kurdish_nations)
    hexes = hex_network(position.map, kurdish_nations)
    covered = friendly_hexes(position, hexes)
    sides = {}
    for side in terms.SIDES:
        closing = set().union(*(candidates[item.country.case] for item in activities if side in item.against))
        doubtful = set().union(*(candidates[item.country.case] for item in activities if side in item.maybe_against))
        lifted = covered[side] & (closing | doubtful)
        by_case = {
            item.country.case: frozenset(candidates[item.country.case] - lifted)
            for item in activities
            if side in item.against
        }
        sides[side] = SideMap(
            side, frozenset(closing - lifted), frozenset(doubtful - closing - lifted), frozenset(lifted), by_case
        )
    return PartisanMap(activities, candidates, sides, hexes)
