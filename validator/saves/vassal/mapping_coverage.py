"""How much of a save a mapping covers: pieces and locations resolved, what is not, and what goes unchecked.

A drafted mapping stands in for what the club has not yet said with
elements marked ``todo`` (:mod:`.mapping_draft`): a piece they leave out,
or a location they skip, is *unresolved*, as is a piece no rule can place
or describe.  A piece placed on a hex our map gives no data for (only its
id and neighbours: the club has not filled in its row of the skeleton) is
resolved but judged without that hex's data.  The report says, for each,
how many pieces and which names or locations, and which of the game's
checks judge the position without them.

The web report calls :func:`coverage` as the command does; both show
:meth:`MappingCoverage.to_json`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from .grids import UNKNOWN
from .locations import OFFBOARD
from .mapping import Mapping
from .model import SavedGame
from .module import Module
from .module_summary import unknown_reasons
from .translation import _Translator
from .views import View

COVERAGE_VERSION = 1
MOST_LISTED = 50
"""Names and locations listed per kind of gap (the counts cover all of them)."""
MAP_STRUCTURE = ("id", "column", "row", "neighbours", "name")
"""Hex attributes that are not game data."""


@dataclass
class MappingCoverage:
    """The counts for one save read with one mapping (every piece, as the arbiter sees them)."""

    save: str
    mapping: str
    pieces: int = 0
    resolved: int = 0
    skipped: Counter = field(default_factory=Counter)
    """Reason to count: off the map, on ignored maps, left out as markers, at skipped locations."""
    unresolved_pieces: Counter = field(default_factory=Counter)
    """(piece name, why) to count."""
    unresolved_locations: Counter = field(default_factory=Counter)
    """(map, location, why) to count."""
    hexes_without_data: Counter = field(default_factory=Counter)
    """Our hex id to the number of resolved pieces on it."""
    to_fill_in: int = 0
    """Elements of the mapping still marked ``todo``."""
    checks: tuple[str, ...] = ()
    """The game's position checks (rule ids), which judge without what is unresolved."""

    @property
    def unresolved(self) -> int:
        return sum(self.unresolved_pieces.values()) + sum(self.unresolved_locations.values())

    def unchecked(self) -> list[dict]:
        """What goes unchecked, by cause: pieces left out, and pieces on hexes without data."""
        causes = []
        if self.unresolved:
            causes.append({"because": "pieces the mapping does not resolve are left out of the position",
                           "pieces": self.unresolved, "checks": list(self.checks)})
        if self.hexes_without_data:
            causes.append({"because": "pieces stand on hexes the map gives no data for (country, terrain, features)",
                           "pieces": sum(self.hexes_without_data.values()), "hexes": len(self.hexes_without_data),
                           "checks": list(self.checks)})
        return causes

    def to_json(self) -> dict:
        def listed(counter: Counter, keys: tuple[str, ...]) -> list[dict]:
            return [{**dict(zip(keys, key if isinstance(key, tuple) else (key,), strict=True)), "pieces": count}
                    for key, count in counter.most_common(MOST_LISTED)]

        return {
            "coverage_version": COVERAGE_VERSION, "save": self.save, "mapping": self.mapping,
            "pieces": self.pieces, "resolved": self.resolved, "unresolved": self.unresolved,
            "skipped": dict(self.skipped), "to_fill_in": self.to_fill_in,
            "unresolved_pieces": listed(self.unresolved_pieces, ("name", "why")),
            "unresolved_locations": listed(self.unresolved_locations, ("map", "location", "why")),
            "hexes_without_data": listed(self.hexes_without_data, ("hex",)),
            "unchecked": self.unchecked(),
        }

    def render_text(self) -> str:
        lines = [f"{self.save} with {self.mapping}: {self.resolved} of {self.pieces} pieces resolved, "
                 f"{self.unresolved} unresolved"
                 + (", " + ", ".join(f"{count} {reason}" for reason, count in self.skipped.items()) + " skipped"
                    if self.skipped else "") + "."]
        if self.to_fill_in:
            lines.append(f"The mapping still has {self.to_fill_in} elements marked todo (to fill in).")
        for title, counter, describe in (
            ("Unresolved pieces", self.unresolved_pieces, lambda key: f"{key[0]}: {key[1]}"),
            ("Unresolved locations", self.unresolved_locations, lambda key: f"{key[0]} / {key[1]}: {key[2]}"),
            ("Hexes without data", self.hexes_without_data, str),
        ):
            if counter:
                lines.append(f"{title} ({sum(counter.values())} pieces, {len(counter)} kinds):")
                lines.extend(f"  {count} x {describe(key)}" for key, count in counter.most_common(MOST_LISTED))
                if len(counter) > MOST_LISTED:
                    lines.append(f"  and {len(counter) - MOST_LISTED} more")
        for cause in self.unchecked():
            lines.append(f"Unchecked: {cause['pieces']} pieces, because {cause['because']}; the checks "
                         f"{', '.join(cause['checks']) or '(none)'} judge the position without them.")
        return "\n".join(lines) + "\n"


def hexes_with_data(mapping: Mapping) -> tuple[set[str], set[str]] | None:
    """(every hex id, the hex ids that carry game data) of the mapping's map; None when it is not a hex map."""
    from lxml import etree

    from validator.xmlparsing import parse_xml

    if not mapping.map_path.is_file():
        return None
    root = parse_xml(mapping.map_path.read_bytes(), str(mapping.map_path))
    every, with_data = set(), set()
    for element in root.iter():
        if isinstance(element.tag, str) and etree.QName(element).localname == "hex":
            every.add(element.get("id"))
            if any(name not in MAP_STRUCTURE for name in element.attrib):
                with_data.add(element.get("id"))
    return (every, with_data) if every else None


def _unknown_why(module: Module, map_name: str) -> str:
    definition = module.maps.get(map_name)
    reasons = [] if definition is None else [r for board in definition.boards for r in unknown_reasons(board.grid)]
    if reasons:
        return "VASSAL's name is unknown here: Referee does not compute " + ", ".join(sorted(set(reasons)))
    return "VASSAL's name is unknown here: the module lacks a board image that sizes the layout"


def coverage(module: Module, mapping: Mapping, save: SavedGame, checks: tuple[str, ...] = ()) -> MappingCoverage:
    """What ``mapping`` resolves of ``save`` (every piece, hidden ones included: coverage is the club's view)."""
    result = MappingCoverage(save.source, mapping.source, to_fill_in=len(mapping.to_fill_in), checks=checks)
    translator = _Translator(mapping)
    view = View(module, None, True)
    hexes = hexes_with_data(mapping)
    for piece in save.pieces:
        result.pieces += 1
        if piece.map is None:
            result.skipped["off the map"] += 1
            continue
        if piece.map in mapping.ignored_maps:
            if piece.map in mapping.todo_maps:
                result.unresolved_locations[(piece.map, "(whole map)", "the map is ignored until filled in")] += 1
            else:
                result.skipped["on ignored maps"] += 1
            continue
        ignore = next((rule for rule in mapping.ignores if rule.applies(piece.name, piece.properties)), None)
        if ignore is not None:
            if ignore.todo:
                result.unresolved_pieces[(piece.basic_name or piece.name, "left out until filled in")] += 1
            else:
                result.skipped["left out as markers"] += 1
            continue
        location = view.location(piece, save.boards)
        found = mapping.location_rule(piece.map, location)
        if found is None:
            if location == OFFBOARD:
                result.skipped["off the map"] += 1
            else:
                why = _unknown_why(module, piece.map) if location == UNKNOWN else "no location rule matches"
                result.unresolved_locations[(piece.map, location, why)] += 1
            continue
        rule, _ = found
        if rule.skip:
            if rule.todo:
                result.unresolved_locations[(piece.map, location, "skipped until filled in")] += 1
            else:
                result.skipped["at skipped locations"] += 1
            continue
        identifier, _, problem = translator.location(piece.map, location)
        attributes, problems = translator.attributes(piece, translator.groups(piece))
        if problem or problems:
            why = "; ".join(filter(None, [problem, *problems]))
            result.unresolved_pieces[(piece.basic_name or piece.name, why)] += 1
            continue
        result.resolved += 1
        if hexes is not None and identifier in hexes[0] and identifier not in hexes[1]:
            result.hexes_without_data[identifier] += 1
    return result


__all__ = ["COVERAGE_VERSION", "MappingCoverage", "coverage", "hexes_with_data"]
