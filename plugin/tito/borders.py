"""Which Tito zones border each other, as far as the map file knows it, and paths over those borders.

Zone adjacency is map data (6.11): the rulebook states only a few borders
in its examples (:data:`facts.RULEBOOK_ADJACENCY`), and the map file gives
the rest in each zone's ``neighbours``.  A map that copies a border from no
printed map marks it in ``placeholder-neighbours``; the sample map does so
for every border the rulebook does not state.

A border between two zones is then one of:

* ``KNOWN``: the rulebook states it, or the map lists it and does not mark it;
* ``PLACEHOLDER``: the map lists it but marks it a placeholder;
* ``ABSENT``: neither zone lists the other, and both zones' lists are
  complete (no zone without neighbours, no placeholder among them), or one
  is the Islands and the other is not among the four zones 6.5 names;
* ``UNKNOWN``: neither zone lists the other, but one of them gives no
  neighbours or only a sample list, so the printed map may have the border.

A move across a ``PLACEHOLDER`` or ``UNKNOWN`` border cannot be judged: the
checks say so, naming the border and what the map lacks.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from validator.derived import memoised
from validator.model import MapData

from plugin.tito import facts

KNOWN, PLACEHOLDER, ABSENT, UNKNOWN = "known", "placeholder", "absent", "unknown"
PLACEHOLDER_ATTRIBUTE = "placeholder-neighbours"


@dataclass(frozen=True)
class Borders:
    """The map's borders: each zone's known and placeholder neighbours, and the zones whose list is incomplete."""

    known: Mapping[str, frozenset[str]]
    placeholders: Mapping[str, frozenset[str]]
    incomplete: frozenset[str]  # zones with no neighbours listed, or with a placeholder among them
    source: str

    def between(self, one: str, other: str) -> str:
        if other in self.known.get(one, ()):
            return KNOWN
        if other in self.placeholders.get(one, ()):
            return PLACEHOLDER
        if facts.ISLANDS in (one, other) and not {one, other} & facts.ISLANDS_ENTRY_ZONES:
            return ABSENT  # 6.5 names the only zones the Islands border
        if one in self.incomplete or other in self.incomplete:
            return UNKNOWN
        return ABSENT

    def why_unknown(self, one: str, other: str, names: Mapping[str, str]) -> str:
        """What the map lacks to tell whether ``one`` borders ``other``, in a clause."""
        pair = f"{names.get(one, one)} and {names.get(other, other)}"
        if self.between(one, other) == PLACEHOLDER:
            return f"the map {self.source} marks the border between {pair} as a placeholder"
        lacking = [zone for zone in (one, other) if zone in self.incomplete]
        empty = [zone for zone in lacking if not self.known.get(zone) and not self.placeholders.get(zone)]
        if empty:
            return f"the map {self.source} lists no neighbours for {names.get(empty[0], empty[0])}"
        zone = lacking[0]
        return (f"the map {self.source} gives placeholder borders for {names.get(zone, zone)}, so whether "
                f"{pair} border each other is not known")

    def distance(self, start: str, end: str, most: int) -> tuple[int | None, bool]:
        """The fewest zones entered to go from ``start`` to ``end`` over known borders, up to ``most``.

        The second value says whether a shorter route might exist over a
        border the map does not know for certain (a placeholder or an unknown
        one), so that a verdict resting on the map's gaps can be withheld.
        """
        known_steps = self._steps(start, end, most, certain=True)
        possible_steps = self._steps(start, end, most, certain=False)
        doubtful = possible_steps is not None and (known_steps is None or possible_steps < known_steps)
        return known_steps, doubtful

    def _steps(self, start: str, end: str, most: int, certain: bool) -> int | None:
        seen = {start: 0}
        queue = deque([start])
        while queue:
            zone = queue.popleft()
            if zone == end:
                return seen[zone]
            if seen[zone] == most:
                continue
            for other in self._next(zone, certain):
                if other not in seen:
                    seen[other] = seen[zone] + 1
                    queue.append(other)
        return None

    def _next(self, zone: str, certain: bool) -> list[str]:
        if certain:
            return sorted(self.known.get(zone, ()))
        return sorted(other for other in facts.ZONES if other != zone and self.between(zone, other) != ABSENT)


def borders(map_data: MapData) -> Borders:
    """The map's borders, read once per map."""
    return memoised(map_data, "tito:borders", lambda: _read(map_data))


def _read(map_data: MapData) -> Borders:
    known: dict[str, set[str]] = {zone: set() for zone in map_data.areas}
    placeholders: dict[str, set[str]] = {zone: set() for zone in map_data.areas}
    incomplete = set()
    for zone, area in map_data.areas.items():
        marked = set(area.attributes.get(PLACEHOLDER_ATTRIBUTE, "").split())
        for other in area.neighbours:
            (placeholders if other in marked else known)[zone].add(other)
        if not area.neighbours or marked:
            incomplete.add(zone)
    for pair in facts.RULEBOOK_ADJACENCY:
        one, other = sorted(pair)
        for zone, neighbour in ((one, other), (other, one)):
            known.setdefault(zone, set()).add(neighbour)
            placeholders.get(zone, set()).discard(neighbour)
    return Borders(
        MappingProxyType({zone: frozenset(others) for zone, others in known.items()}),
        MappingProxyType({zone: frozenset(others) for zone, others in placeholders.items()}),
        frozenset(incomplete),
        map_data.source or map_data.id,
    )
