"""The places a Tito piece can stand, generated from the zones and displays of a map file.

Every zone has a zone display of three Mountain triangles and three
Hide-away circles (5.2), one for each of Partisans, Axis and Chetniks, and a
Neutral Chetnik box (5.4); every Objective Display has a Yugoslav and an Axis
box (5.3).  Their ids:

    {zone}/mountain/{partisan|axis|chetnik}     kind "mountain"
    {zone}/hide-away/{partisan|axis|chetnik}    kind "hide-away"
    {zone}/neutral-chetnik                      kind "neutral-box"
    {zone}/{display}/{yugoslav|axis}            kind "objective-box"

Each location carries the attributes ``side`` (whose units it is for) and
``display`` ("zone" for the zone display, else the Objective Display's id).
The display is named in the location's own name ("Belgrade Axis box"), so the
display field stays empty and labels read "Serbia / Belgrade Axis box".
"""

from __future__ import annotations

import dataclasses
from types import MappingProxyType

from validator.model import Location, MapData

from plugin.tito import facts

ZONE_DISPLAY = "zone"
_SIDE_NAMES = MappingProxyType({"partisan": "Partisan", "axis": "Axis", "chetnik": "Chetnik", "yugoslav": "Yugoslav"})


def mountain(zone: str, side: str) -> str:
    return f"{zone}/mountain/{side}"


def hide_away(zone: str, side: str) -> str:
    return f"{zone}/hide-away/{side}"


def neutral_box(zone: str) -> str:
    return f"{zone}/neutral-chetnik"


def objective_box(zone: str, display: str, side: str) -> str:
    return f"{zone}/{display}/{side}"


# The attributes of the zone-display locations, by side: every zone's are the same, so its locations share one
# read-only mapping per side (a prepared map then keeps seven, not one per location).
_ZONE_DISPLAY_ATTRIBUTES = MappingProxyType({
    side: MappingProxyType({"side": side, "display": ZONE_DISPLAY}) for side in (*facts.ZONE_DISPLAY_SIDES, "neutral")
})


def zone_locations(zone: str, line: int = 0) -> list[Location]:
    """The six zone-display locations and the Neutral Chetnik box of one zone (``line``: the zone's, in the map)."""
    generated = []
    for side in facts.ZONE_DISPLAY_SIDES:
        attributes = _ZONE_DISPLAY_ATTRIBUTES[side]
        generated.append(Location(
            id=mountain(zone, side), kind=facts.MOUNTAIN, area=zone, name=f"{_SIDE_NAMES[side]} Mountain",
            attributes=attributes, line=line,
        ))
        generated.append(Location(
            id=hide_away(zone, side), kind=facts.HIDE_AWAY, area=zone, name=f"{_SIDE_NAMES[side]} Hide-away",
            attributes=attributes, line=line,
        ))
    generated.append(Location(
        id=neutral_box(zone), kind=facts.NEUTRAL_BOX, area=zone, name="Neutral Chetnik box",
        attributes=_ZONE_DISPLAY_ATTRIBUTES["neutral"], line=line,
    ))
    return generated


def generated_kinds(map_data: MapData) -> dict[str, str]:
    """The kind of every location :func:`prepare_map` generates, by id (what those functions make, without making
    the locations)."""
    kinds: dict[str, str] = {}
    for zone in map_data.areas:
        for side in facts.ZONE_DISPLAY_SIDES:
            kinds[mountain(zone, side)] = facts.MOUNTAIN
            kinds[hide_away(zone, side)] = facts.HIDE_AWAY
        kinds[neutral_box(zone)] = facts.NEUTRAL_BOX
    for display in map_data.displays.values():
        for side in facts.OBJECTIVE_BOX_SIDES:
            kinds[objective_box(display.area, display.id, side)] = facts.OBJECTIVE_BOX
    return kinds


def display_locations(zone: str, display_id: str, display_label: str, line: int) -> list[Location]:
    """The Yugoslav and Axis boxes of one Objective Display."""
    return [
        Location(
            id=objective_box(zone, display_id, side), kind=facts.OBJECTIVE_BOX, area=zone,
            name=f"{display_label} {_SIDE_NAMES[side]} box",
            attributes=MappingProxyType({"side": side, "display": display_id}), line=line,
        )
        for side in facts.OBJECTIVE_BOX_SIDES
    ]


def prepare_map(map_data: MapData) -> MapData:
    """The map with every location the rules define added (locations the file gives are kept), and its problems
    found (:func:`plugin.tito.validation.map_problems`), so that a prepared map keeps them."""
    from plugin.tito.validation import map_problems  # validation imports this module

    locations = dict(map_data.locations)
    for zone, area in map_data.areas.items():
        for location in zone_locations(zone, area.line):
            locations.setdefault(location.id, location)
    for display in map_data.displays.values():
        for location in display_locations(display.area, display.id, display.label, display.line):
            locations.setdefault(location.id, location)
    prepared = dataclasses.replace(map_data, locations=MappingProxyType(locations))
    map_problems(prepared)
    return prepared
