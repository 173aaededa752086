"""The map's hexes as the partisan rules see them: each with its country, features and regular controller.

A map is read once however many saves share it (``map_reading`` keeps the
reading in the map's ``derived`` memo).  It is read only once
:mod:`plugin.awaw.validation` has found the map usable, so every value here
is one the tables accepted.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from itertools import compress, repeat
from operator import and_, eq
from typing import NamedTuple

from validator.derived import memoised
from validator.model import MapData, location_table

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


_new_hex = tuple.__new__  # a Hex from all its fields at once, without the named tuple's Python-level __new__


class MapReading(NamedTuple):
    """What the rules read from a map alone; the same for every save that shares it."""

    hexes: Mapping  # hex id -> Hex, with the map's own controllers (a HexTable: each hex read when asked for)
    objective_hexes: tuple  # hex ids with the objective feature, in map order (11.63 counts them for every save)
    area_countries: dict  # map area -> the country it is part of, or itself (partisans' home countries)

    def __reduce__(self):
        """Pickled without its hexes (a prepared map keeps this reading): they are read again from the locations."""
        return _reading_from_parts, (self.hexes.locations, self.hexes.not_hexes, self.hexes.countries,
                                     self.objective_hexes, self.area_countries)


def _reading_from_parts(locations, not_hexes: frozenset, countries: dict, objective_hexes: tuple,
                        area_countries: dict) -> MapReading:
    return MapReading(HexTable(locations, not_hexes, countries), objective_hexes, area_countries)


class HexTable(Mapping):
    """The map's hexes by id, each :class:`Hex` read from its location the first time it is asked for.

    A save's checks look at the hexes its pieces stand in and their
    neighbours, a few thousand of a map's tens of thousands; a process that
    loads a prepared map reads only those.  Read-only; ids, membership and
    length read nothing.
    """

    __slots__ = ("locations", "not_hexes", "countries", "_built", "_feature_sets")

    def __init__(self, locations: Mapping, not_hexes: frozenset, countries: dict) -> None:
        self.locations = locations  # the map's LocationTable
        self.not_hexes = not_hexes  # the ids of its locations that are not hexes
        self.countries = countries  # map area -> (its country, the area and every area it is part of)
        self._built: dict[str, Hex] = {}
        self._feature_sets: dict[str, frozenset] = {}  # a map repeats a few feature lists many times

    def __getitem__(self, hex_id: str) -> Hex:
        built = self._built.get(hex_id)
        if built is None:
            if hex_id in self.not_hexes:
                raise KeyError(hex_id)
            built = self._built.setdefault(hex_id, self._read(self.locations[hex_id]))
        return built

    def __contains__(self, hex_id: object) -> bool:
        return hex_id in self.locations and hex_id not in self.not_hexes

    def __iter__(self) -> Iterator[str]:
        return (hex_id for hex_id in self.locations if hex_id not in self.not_hexes)

    def __len__(self) -> int:
        return len(self.locations) - len(self.not_hexes)

    def _read(self, location) -> Hex:
        area, attributes = location.area, location.attributes
        country, regions = self.countries.get(area) or ((area, frozenset((area,))) if area else ("", frozenset()))
        listed = attributes.get("features", "")
        features = self._feature_sets.get(listed) or self._feature_sets.setdefault(listed, frozenset(listed.split()))
        sea = attributes.get("sea") == "true"
        controller = attributes.get("controller") or (NOBODY if sea else (country if country in BUILDERS else NEUTRAL))
        island = attributes.get("island") == "true"
        return _new_hex(Hex, (location.id, "" if sea else country, area or "", regions, features, island, sea,
                              controller, location.neighbours, location.line))

    def __repr__(self) -> str:
        return f"HexTable({len(self)} hexes)"


def map_reading(map_data: MapData) -> MapReading:
    """The map as the rules see it, read once per map object (many saves may share one map)."""
    return memoised(map_data, "awaw", lambda: _read(map_data))


def _read(map_data: MapData) -> MapReading:
    """The reading, no hex read yet: the objectives come from the locations' features as written."""
    locations = location_table(map_data.locations)
    kinds, features = locations.column("kind"), locations.attribute_column("features")
    with_objective = {listed for listed in set(features) if listed and "objective" in listed.split()}
    objectives = list(compress(locations, map(and_, map(with_objective.__contains__, features),
                                              map(eq, kinds, repeat("hex")))))
    countries = {}
    for area_id in map_data.areas:
        chain = part_of_chain(map_data, area_id)[0]
        countries[area_id] = chain[-1], frozenset(chain)
    return MapReading(HexTable(map_data.locations, not_hexes(map_data), countries), tuple(objectives),
                      {area_id: country for area_id, (country, _regions) in countries.items()})


def not_hexes(map_data: MapData) -> frozenset:
    """The ids of the map's locations that are not hexes (the hexes kept as columns are hexes, so not asked)."""
    locations = location_table(map_data.locations)
    return frozenset(location_id for location_id, kind in zip(locations.rows, locations.column_of_rows("kind"),
                                                               strict=True) if kind != "hex")


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
