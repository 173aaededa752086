"""The map's hexes as the partisan rules see them: each with its country, features and regular controller.

A map is read once however many saves share it (``map_reading`` keeps the
reading in the map's ``derived`` memo).  It is read only once
:mod:`plugin.awaw.validation` has found the map usable, so every value here
is one the tables accepted.
"""

from __future__ import annotations

from functools import partial
from typing import NamedTuple

from validator.derived import memoised
from validator.model import MapData

from plugin.awaw.vocabulary import BUILDERS, NEUTRAL, NOBODY


class Hex(NamedTuple):
    """A hex as the partisan rules see it (a named tuple: twenty thousand are built per read)."""

    id: str
    country: str  # the country for pools and 11.42 ("" at sea or off the known map)
    region: str  # the map area itself (eastern-poland, ukraine, ulster...)
    regions: frozenset  # the map area and every area it is part of, up to its country (kiev, ukraine, russia)
    features: frozenset
    island: bool
    sea: bool
    controller: str  # the regular controller: a builder, "neutral" or "none" (11.61: what it reverts to)
    neighbours: tuple
    line: int

    def has(self, feature: str) -> bool:
        return feature in self.features

    @property
    def ulster(self) -> bool:
        return "ulster" in self.features or "ulster" in self.regions


class MapReading(NamedTuple):
    """What the rules read from a map alone; the same for every save that shares it."""

    hexes: dict  # hex id -> Hex, with the map's own controllers
    objective_hexes: tuple  # hex ids with the objective feature, in map order (11.63 counts them for every save)
    area_countries: dict  # map area -> the country it is part of, or itself (partisans' home countries)

    def __reduce__(self):
        """Pickled with its hexes as plain rows (a prepared map keeps this reading): no call per hex either way."""
        return _reading_from_rows, (list(self.hexes), [tuple(hex_info) for hex_info in self.hexes.values()],
                                    self.objective_hexes, self.area_countries)


def _reading_from_rows(ids: list, rows: list, objective_hexes: tuple, area_countries: dict) -> MapReading:
    return MapReading(dict(zip(ids, map(partial(tuple.__new__, Hex), rows), strict=True)), objective_hexes,
                      area_countries)


def map_reading(map_data: MapData) -> MapReading:
    """The map as the rules see it, read once per map object (many saves may share one map)."""
    return memoised(map_data, "awaw", lambda: _read(map_data))


def _read(map_data: MapData) -> MapReading:
    hexes = _hexes(map_data)
    return MapReading(hexes, tuple(hex_id for hex_id, hex_info in hexes.items() if "objective" in hex_info.features),
                      {area.id: part_of_chain(map_data, area.id)[0][-1] for area in map_data.areas.values()})


def part_of_chain(map_data: MapData, area_id: str) -> tuple[list[str], list[str]]:
    """The area and every area it is part of, up to its country; and the circle part-of runs in, if any.

    part-of is followed as far as it goes (kiev, ukraine, russia), since an
    area that is part of a part of a country is in that country too.
    """
    chain = [area_id]
    while True:
        area = map_data.areas.get(chain[-1])
        parent = area.attributes.get("part-of") if area is not None else None
        if parent is None:
            return chain, []
        if parent in chain:
            return chain, chain[chain.index(parent):]
        chain.append(parent)


def _hexes(map_data: MapData) -> dict[str, Hex]:
    feature_sets: dict[str, frozenset] = {}  # a map repeats a few feature lists many times
    countries: dict[str | None, tuple[str, frozenset]] = {}
    hexes: dict[str, Hex] = {}
    for location in map_data.locations.values():
        if location.kind != "hex":
            continue
        area, attributes = location.area, location.attributes
        if area not in countries:
            chain = part_of_chain(map_data, area)[0] if area else []
            countries[area] = (chain[-1] if chain else ""), frozenset(chain)
        country, regions = countries[area]
        listed = attributes.get("features", "")
        features = feature_sets.get(listed) or feature_sets.setdefault(listed, frozenset(listed.split()))
        sea = attributes.get("sea") == "true"
        controller = attributes.get("controller") or (NOBODY if sea else (country if country in BUILDERS else NEUTRAL))
        island = attributes.get("island") == "true"
        hexes[location.id] = Hex(location.id, "" if sea else country, area or "", regions, features, island, sea,
                                 controller, location.neighbours, location.line)
    return hexes
