"""Breadth-first search over a map's hexes, avoiding a set of hexes.

Any game may use it: it reads only ``Location.neighbours`` (listed by the
map or derived from its grid by ``validator/hexgrid.py``), as The Third World
War's lines of communication do.  Every search is multi-source and level by
level: each hex is visited once and each level's neighbours are gathered with
set operations, so a search costs one pass over the map whatever the number
of start hexes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from itertools import chain
from types import MappingProxyType

from validator.derived import memoised
from validator.model import MapData

Graph = Mapping[str, Sequence[str]]

def hex_graph(map_data: MapData) -> Graph:
    """Each hex id's neighbouring hex ids, built once per map and kept on it (many saves share one map)."""
    return memoised(map_data, "hex-graph", lambda: MappingProxyType({
        location.id: location.neighbours for location in map_data.locations.values() if location.kind == "hex"
    }))


def reachable(
    graph: Graph, starts: Iterable[str], avoid: AbstractSet[str] = frozenset(), seen: AbstractSet[str] = frozenset(),
    touched: set[str] | None = None,
) -> set[str]:
    """Every hex joined to one of ``starts`` by a path that never enters ``avoid``.

    A start hex inside ``avoid`` is not reached (a path cannot begin there).
    ``seen`` hexes count as already reached (a search can resume where an
    earlier one stopped); the ``avoid`` hexes the search ran into are added to
    ``touched`` when it is given.
    """
    frontier = {start for start in starts if start in graph and start not in avoid} - seen
    reached = set(seen) | frontier
    neighbours_of = graph.__getitem__
    while frontier:
        following = set(chain.from_iterable(map(neighbours_of, frontier)))
        following -= reached
        if touched is not None:
            touched |= following & avoid
        following -= avoid
        reached |= following
        frontier = following
    return reached


def enclosures(
    graph: Graph, starts: Iterable[str], avoid: AbstractSet[str]
) -> dict[str, tuple[frozenset[str], frozenset[str]]]:
    """For each start hex: the hexes it reaches without entering ``avoid``, and the ``avoid`` hexes that ring them.

    Starts that share a region share one search.
    """
    found: dict[str, tuple[frozenset[str], frozenset[str]]] = {}
    for start in starts:
        if start in found:
            continue
        region = frozenset(reachable(graph, (start,), avoid))
        ring: set[str] = set()
        for hex_id in region:
            ring.update(graph[hex_id])
        border = frozenset(ring & avoid)
        for member in region:
            found[member] = (region, border)
        found.setdefault(start, (region, border))
    return found
