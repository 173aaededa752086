"""The map's hexes as the searches of 15.2 see them: open parts and the hexes partisans may close.

Partisans close only hexes of their countries' terrain (``closable``, the
candidate hexes of every partisan case); every other hex is always open.  So
the open hexes fall into parts, each joined within itself by open hexes
alone, and a search for a supply path need only step from part to closable
hex to part: a few thousand steps instead of one per hex of the map.  The
parts depend on the map and the candidate hexes only, so they are worked out
once per map (when it is prepared, and kept with it).

A part stands for its hexes because every neighbour link goes both ways:
the map reader refuses a map whose lists disagree (validator/saves/map_reader.py),
and a grid's links always do.  So a search reaches exactly the hexes a
hex-by-hex search would.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from itertools import chain
from types import MappingProxyType

from validator import hexpaths
from validator.model import MapData

Node = int | str  # an open part's number, or a closable hex's id


@dataclass(frozen=True)
class HexNetwork:
    """The hexes' nodes, their links, and the connected part of the whole map each node lies in."""

    part_of: Mapping[str, int]  # an open hex -> its part's number
    singles: frozenset[str]  # the closable hexes, each its own node
    links: Mapping[Node, Sequence[Node]]
    whole_part: Mapping[Node, int]  # a node -> its connected part of the whole map, closed hexes or not

    def __contains__(self, hex_id: object) -> bool:
        """Whether ``hex_id`` is a hex of the map."""
        return hex_id in self.part_of or hex_id in self.singles

    def node(self, hex_id: str) -> Node:
        return self.part_of.get(hex_id, hex_id)

    def reachable(self, starts, avoid: AbstractSet[str], seen: AbstractSet[Node] = frozenset(),
                  touched: set[str] | None = None) -> set[Node]:
        """The nodes joined to the hexes ``starts`` by paths that never enter ``avoid`` (closable hexes);
        ``seen`` and ``touched`` as :func:`validator.hexpaths.reachable` takes them, in nodes."""
        part_of = self.part_of
        nodes = [part_of.get(start, start) for start in starts if start in self]
        return hexpaths.reachable(self.links, nodes, avoid, seen=seen, touched=touched)


def build(ids: list[str], neighbours: list[tuple[str, ...]], closable: AbstractSet[str]) -> HexNetwork:
    """The network of the hexes ``ids`` (with their ``neighbours``), ``closable`` the hexes partisans may close."""
    graph = dict(zip(ids, neighbours, strict=True))
    part_of = _open_parts(ids, graph, closable)
    singles = frozenset(hex_id for hex_id in ids if hex_id in closable)
    links: dict[Node, set[Node]] = {}
    for hex_id in singles:
        neighbours_of = graph[hex_id]
        around = set(map(part_of.get, neighbours_of, neighbours_of))  # a closable neighbour is its own node
        links[hex_id] = around
        for other in around:
            if type(other) is int:
                links.setdefault(other, set()).add(hex_id)
    for part in set(part_of.values()) - links.keys():
        links[part] = set()
    frozen = MappingProxyType({node: tuple(around) for node, around in links.items()})
    return HexNetwork(MappingProxyType(part_of), singles, frozen, MappingProxyType(_numbered_parts(frozen)))


def _open_parts(ids: list[str], graph: Mapping[str, Sequence[str]], closable: AbstractSet[str]) -> dict[str, int]:
    """Each open hex's part; a part is numbered by the count of open hexes in the parts found before it.

    One breadth-first search per part, in the map's order of their first
    hexes, over the open hexes no search has reached: each level is one set
    intersection in C, which never looks at a closable hex or one reached
    before (a map is mostly one big part).
    """
    neighbours_of = graph.__getitem__
    unreached = set(graph).difference(closable)
    part_of: dict[str, int] = {}
    for hex_id in ids:
        if not unreached:
            break
        if hex_id in unreached:
            unreached.remove(hex_id)
            members, frontier = [hex_id], (hex_id,)
            while frontier:
                frontier = unreached.intersection(chain.from_iterable(map(neighbours_of, frontier)))
                unreached -= frontier
                members.extend(frontier)
            part_of.update(dict.fromkeys(members, len(part_of)))
    return part_of


def _numbered_parts(links: Mapping[Node, Sequence[Node]]) -> dict[Node, int]:
    numbered: dict[Node, int] = {}
    for node in links:
        if node not in numbered:
            numbered.update(dict.fromkeys(hexpaths.reachable(links, (node,)), len(numbered)))
    return numbered


class HexNeighbours(Mapping[str, Sequence[str]]):
    """Each hex's neighbours, as :func:`validator.hexpaths.hex_graph` gives them, read from the map when asked for:
    for the searches of a few hexes (a cut-off unit's pocket), which need not build every hex."""

    def __init__(self, map_data: MapData, network: HexNetwork) -> None:
        self._locations, self._network = map_data.locations, network

    def __getitem__(self, hex_id: str) -> Sequence[str]:
        if hex_id not in self._network:
            raise KeyError(hex_id)
        return self._locations[hex_id].neighbours

    def __contains__(self, hex_id: object) -> bool:
        return hex_id in self._network

    def __iter__(self) -> Iterator[str]:
        yield from self._network.part_of
        yield from self._network.singles

    def __len__(self) -> int:
        return len(self._network.part_of) + len(self._network.singles)
