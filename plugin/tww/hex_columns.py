"""A map's hexes a field at a time, for the passes over the whole map (its validation, the partisan hexes).

A map of twenty thousand hexes keeps each hex as a row until a check asks
for it (``validator.model.LocationTable``); a pass that builds every hex's
value costs more than the map's parse.  A table that answers a column at a
time (``column``, ``attribute_column``) is read that way; any other mapping
of locations (a map a test builds) is read location by location, to the same
lists.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import compress

from validator import hexpaths
from validator.model import MapData


@dataclass(frozen=True)
class HexColumns:
    """The map's hexes in map order: their ids and areas, and the attributes asked for (None where absent)."""

    ids: list[str]
    areas: list[str | None]
    attributes: Mapping[str, list[str | None]]


def hex_columns(map_data: MapData, names: tuple[str, ...]) -> HexColumns:
    locations = map_data.locations
    if hasattr(locations, "column") and hasattr(locations, "attribute_column"):
        is_hex = [kind == "hex" for kind in locations.column("kind")]
        return HexColumns(list(compress(locations.column("id"), is_hex)),
                          list(compress(locations.column("area"), is_hex)),
                          {name: list(compress(locations.attribute_column(name), is_hex)) for name in names})
    hexes = [location for location in locations.values() if location.kind == "hex"]
    return HexColumns([location.id for location in hexes], [location.area for location in hexes],
                      {name: [location.attributes.get(name) for location in hexes] for name in names})


def hex_neighbours(map_data: MapData, ids: list[str]) -> list[tuple[str, ...]]:
    """The neighbours of the hexes ``ids`` (every hex of the map, in map order, as :func:`hex_columns` gives them)."""
    locations = map_data.locations
    if hasattr(locations, "column"):
        kinds = locations.column("kind")
        found = list(compress(locations.column("neighbours"), [kind == "hex" for kind in kinds]))
        if len(found) == len(ids):
            return found
    graph = hexpaths.hex_graph(map_data)  # any other mapping: the core's graph, every hex built once
    return [graph[hex_id] for hex_id in ids]
