"""From a decoded VASSAL save to Referee's save XML, through a module mapping.

The export writes the same ``<position>`` document a person would write by
hand (``docs/save-format.md``), so that it then goes through the same
reader, schema and game plugin checks: nothing here judges legality.

What the export reads of the save is what :func:`dump.dump_game` shows one
viewer (fog of war: masked pieces the viewer may not see through are left
out, invisible ones never appear), with VASSAL's own location names.

Each piece the save places is either exported, or skipped and counted in
the note: off the map (no map, or VASSAL's ``offboard``), on a map the
mapping ignores, masked from this viewer, left out by an ``<ignore>`` rule,
or at a location the mapping skips.  A piece the mapping cannot place or
describe (no location rule, a required attribute without a value, a word a
table does not know) makes the export fail with one sentence listing up to
ten such pieces, each with its VASSAL name and location.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping as MappingType
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lxml import etree

from validator.saves.xml_reader import NAMESPACE as SAVE_NAMESPACE
from validator.saves.xml_reader import SaveInputError

from .dump import dump_game
from .grids import UNKNOWN
from .locations import OFFBOARD
from .mapping import Mapping, ValueProblem
from .model import SavedGame
from .module import Module

SAVE_VERSION = "1"
MAX_LISTED_PIECES = 10
COMMON_ATTRIBUTES = ("name", "side", "nationality", "type", "size", "strength")
IDENTIFIER_ATTRIBUTES = ("side", "nationality", "type", "size")
_IDENTIFIER = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:/\-]{0,199}")
_WHOLE = re.compile(r"[0-9]{1,9}")

# Why a piece was skipped, in the order the note lists the reasons.
OFF_MAP = "off the map"
IGNORED_MAP = "on maps the mapping ignores"
MASKED = "masked from this viewer"
IGNORED_PIECE = "left out by the mapping's <ignore> rules (markers)"
SKIPPED_LOCATION = "at locations the mapping skips"
SKIP_REASONS = (OFF_MAP, IGNORED_MAP, MASKED, IGNORED_PIECE, SKIPPED_LOCATION)


class ExportError(SaveInputError):
    """A save that cannot be exported through this mapping (exit status 2), as one sentence."""


@dataclass(frozen=True)
class Export:
    """An exported position: the XML, and what was left out of it and why."""

    xml: bytes
    exported: int
    skipped: MappingType[str, int]
    origins: MappingType[str, str]
    """Our piece id -> the VASSAL piece it came from, as messages name it."""

    @property
    def note(self) -> str:
        """One sentence: how many pieces were exported, and how many were skipped for which reason."""
        parts = [f"{count} {reason}" for reason, count in self.skipped.items() if count]
        text = f"{self.exported} piece{'s' if self.exported != 1 else ''} exported"
        return text + (f"; skipped {', '.join(parts)}" if parts else "; none skipped") + "."


def check_module(mapping: Mapping, module: Module, game: SavedGame | None = None) -> None:
    """Refuse a module (or a save made with another module) the mapping is not for."""
    name = module.name or (module.metadata.name if module.metadata else None)
    version = module.version or (module.metadata.version if module.metadata else None)
    if name != mapping.module_name:
        raise ExportError(module.source, f"the module is '{name}', but the mapping {mapping.source} is for the module "
                                         f"'{mapping.module_name}'")
    if not mapping.accepts_version(version):
        raise ExportError(module.source, f"the module '{name}' is version {version or '(none given)'}, but the mapping "
                                         f"{mapping.source} is for {mapping.version_range()}")
    saved_with = game.module_metadata.name if game is not None and game.module_metadata else None
    if saved_with and saved_with != name:
        raise ExportError(game.source, f"the save was made with the module '{saved_with}', not '{name}' (the module "
                                       "given)")


def describe(entry: MappingType[str, Any]) -> str:
    """A VASSAL piece as a message names it: ``'704 Inf Div' at Main Map / Serbia Axis Mountain``."""
    where = entry["map"] if entry["map"] is not None else "no map"
    if entry.get("location") is not None:
        where += f" / {entry['location']}"
    return f"'{entry['name']}' at {where}"


def _piece_id(vassal_id: str, taken: set[str]) -> str:
    """VASSAL's piece id made a save identifier; a clash after cleaning gets a numbered suffix."""
    cleaned = re.sub(r"[^A-Za-z0-9_.:/\-]", "_", vassal_id)[:180]
    if not cleaned or not cleaned[0].isalnum():
        cleaned = "p" + cleaned
    candidate, number = cleaned, 2
    while candidate in taken:
        candidate, number = f"{cleaned}-{number}", number + 1
    taken.add(candidate)
    return candidate


class _Exporter:
    def __init__(self, mapping: Mapping) -> None:
        self.mapping = mapping
        self.tables = mapping.tables

    def location(self, entry: MappingType[str, Any]) -> tuple[str | None, str | None, str | None]:
        """(location id, skip reason, problem) for a piece on a map."""
        map_name, location = entry["map"], entry["location"]
        found = self.mapping.location_rule(map_name, location)
        if found is None:
            if location == OFFBOARD:
                return None, OFF_MAP, None
            if location == UNKNOWN:
                return None, None, ("VASSAL cannot name its location here (the module lacks a board size or uses "
                                    "a grid Referee does not know); map it with an exact <location vassal=\"unknown\">"
                                    " only if that is really one place")
            return None, None, f"no location rule matches '{location}' on the map '{map_name}'"
        rule, values = found
        if rule.skip:
            return None, SKIPPED_LOCATION, None
        try:
            identifier = rule.template.render(values, self.tables)
        except ValueProblem as error:
            return None, None, f"the location rule at line {rule.line} cannot give an id: {error}"
        if not _IDENTIFIER.fullmatch(identifier):
            return None, None, (f"the location rule at line {rule.line} gives '{identifier}', which is not a location "
                                "id (letters, digits and _.:/- only)")
        return identifier, None, None

    def groups(self, entry: MappingType[str, Any]) -> dict[str, str | None]:
        values: dict[str, str | None] = {"name": entry["name"], "basic_name": entry["basic_name"], "id": entry["id"]}
        properties = entry["properties"]
        for match in self.mapping.matches:
            subject = match.subject(entry["name"], entry["basic_name"], properties)
            found = match.pattern.search(subject) if subject is not None else None
            if found is None:
                continue
            for group, value in found.groupdict().items():
                if values.get(group) is None:
                    values[group] = value
        return values

    def attributes(self, entry: MappingType[str, Any], groups) -> tuple[dict[str, str], list[str]]:
        attributes: dict[str, str] = {}
        problems: list[str] = []
        properties = entry["properties"]
        for rule in self.mapping.attributes:
            if rule.property is not None:
                raw = properties.get(rule.property)
            elif rule.group is not None:
                raw = groups.get(rule.group)
            elif rule.value is not None:
                try:
                    raw = rule.value.render(groups, self.tables)
                except ValueProblem as error:
                    problems.append(f"'{rule.name}' from {rule.describe_source()}: {error}")
                    continue
            else:
                raw = None
            value = None
            if raw is not None and raw != "":
                try:
                    value = self.tables[rule.translate].translate(raw) if rule.translate else raw
                except ValueProblem as error:
                    problems.append(f"'{rule.name}' from {rule.describe_source()}: {error}")
                    continue
            if value is None or value == "":
                value = rule.default
            if value is None or value == "":
                if rule.required:
                    problems.append(f"no value for '{rule.name}' ({rule.describe_source()} gives none and there is "
                                    "no default)")
                continue
            problem = _value_problem(rule.name, value)
            if problem:
                problems.append(problem)
                continue
            attributes[rule.name] = value
        return attributes, problems

    def state_value(self, rule, raw: str) -> str:
        value = rule.value.render({"value": raw}, self.tables) if rule.value is not None else raw
        return self.tables[rule.translate].translate(value) if rule.translate else value

    def state(self, global_properties: MappingType[str, str]) -> tuple[dict[str, str], list[tuple[str, str]], list[str]]:
        position: dict[str, str] = {}
        facts: list[tuple[str, str]] = []
        problems: list[str] = []
        for rule in self.mapping.state:
            raw = global_properties.get(rule.property)
            if raw is None or raw == "":
                if rule.default is None or rule.default == "":
                    continue
                values = [rule.default]
            else:
                values = [part.strip() for part in raw.split(rule.separator)] if rule.separator else [raw]
                try:
                    values = [self.state_value(rule, value) for value in values if value != ""]
                except ValueProblem as error:
                    problems.append(f"the global property '{rule.property}' (line {rule.line}): {error}")
                    continue
            if rule.position is not None:
                position[rule.position] = values[-1] if values else ""
            else:
                facts.extend((rule.fact, value) for value in values)
        return position, facts, problems


def _value_problem(name: str, value: str) -> str:
    if name in IDENTIFIER_ATTRIBUTES and not _IDENTIFIER.fullmatch(value):
        return f"'{name}' is '{value}', which is not a save identifier (letters, digits and _.:/- only)"
    if name == "strength" and not _WHOLE.fullmatch(value):
        return f"'strength' is '{value}', which is not a whole number"
    return ""


_NOT_XML = re.compile("[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _xml_text(text: str) -> str:
    """Text XML can carry: characters it forbids (VASSAL names may hold control characters) become U+FFFD."""
    return _NOT_XML.sub("\ufffd", text)


def _comment(text: str) -> str:
    return " " + _xml_text(text).replace("--", "- -").rstrip("-") + " "


def export_position(game: SavedGame, module: Module, mapping: Mapping, game_id: str, *, map_href: str,
                    viewer: str | None = None, arbiter: bool = False) -> Export:
    """Our save XML for ``game`` as ``viewer`` sees it, its ``<map href>`` set to ``map_href``.

    Raises :class:`ExportError` when the module is not the mapping's, when a
    global property or any piece cannot be mapped.
    """
    if mapping.game != game_id:
        raise ExportError(mapping.source, f"the mapping is for the game '{mapping.game}', not '{game_id}'")
    check_module(mapping, module, game)
    data = dump_game(game, module, viewer=viewer, arbiter=arbiter)
    exporter = _Exporter(mapping)
    position_attributes, facts, state_problems = exporter.state(data["global_properties"])
    if state_problems:
        raise ExportError(game.source, f"the game state cannot be exported with the mapping {mapping.source}: "
                                       + "; ".join(state_problems))
    skipped = {reason: 0 for reason in SKIP_REASONS}
    rows: list[tuple[str, dict[str, str], str | None, str]] = []
    origins: dict[str, str] = {}
    failures: list[str] = []
    taken: set[str] = set()
    for entry in data["pieces"]:
        reason = None
        if entry["map"] is None:
            reason = OFF_MAP
        elif entry["map"] in mapping.ignored_maps:
            reason = IGNORED_MAP
        elif entry["obscured"]:
            reason = MASKED
        elif any(rule.applies(entry["name"], entry["properties"]) for rule in mapping.ignores):
            reason = IGNORED_PIECE
        if reason is not None:
            skipped[reason] += 1
            continue
        location, reason, location_problem = exporter.location(entry)
        if reason is not None:
            skipped[reason] += 1
            continue
        attributes, problems = exporter.attributes(entry, exporter.groups(entry))
        if location_problem:
            problems.insert(0, location_problem)
        if problems:
            failures.append(f"{describe(entry)}: {'; '.join(problems)}")
            continue
        piece_id = _piece_id(entry["id"], taken)
        origins[piece_id] = describe(entry)
        rows.append((piece_id, attributes, location, entry["name"]))
    if failures:
        listed = [f"({number}) {failure}" for number, failure in enumerate(failures[:MAX_LISTED_PIECES], 1)]
        more = f"; and {len(failures) - len(listed)} more" if len(failures) > len(listed) else ""
        count = f"{len(failures)} piece{'s' if len(failures) != 1 else ''}"
        raise ExportError(game.source, f"{count} cannot be exported with the mapping {mapping.source}: "
                                       + "; ".join(listed) + more)
    root = etree.Element(f"{{{SAVE_NAMESPACE}}}position", nsmap={None: SAVE_NAMESPACE})
    root.set("version", SAVE_VERSION)
    root.set("game", game_id)
    for name in ("scenario", "turn", "phase", "phasing"):
        if position_attributes.get(name):
            root.set(name, _xml_text(position_attributes[name]))
    for name, value in facts:
        etree.SubElement(root, f"{{{SAVE_NAMESPACE}}}fact", name=_xml_text(name), value=_xml_text(value))
    etree.SubElement(root, f"{{{SAVE_NAMESPACE}}}map", href=map_href)
    pieces = etree.SubElement(root, f"{{{SAVE_NAMESPACE}}}pieces")
    for piece_id, attributes, location, vassal_name in rows:
        element = etree.SubElement(pieces, f"{{{SAVE_NAMESPACE}}}piece", id=piece_id)
        element.set("name", _xml_text(attributes.get("name", vassal_name)))
        for name in COMMON_ATTRIBUTES[1:]:
            if name in attributes:
                element.set(name, _xml_text(attributes[name]))
        for name, value in attributes.items():
            if name not in COMMON_ATTRIBUTES:
                element.set(name, _xml_text(value))
        if location is not None:
            element.set("location", location)
    result = Export(b"", len(rows), skipped, origins)
    source_name = os.path.basename(game.source)
    root.addprevious(etree.Comment(_comment(
        f"Exported by Referee from {source_name} with the mapping {os.path.basename(mapping.source)}, as "
        + ("the arbiter" if arbiter else f"side {viewer}" if viewer else "a spectator") + f" sees it: {result.note}")))
    xml = etree.tostring(root.getroottree(), xml_declaration=True, encoding="UTF-8", pretty_print=True)
    return Export(xml, len(rows), skipped, origins)


def map_href_for(mapping: Mapping, relative_to: str | os.PathLike[str] | None) -> str:
    """The ``<map href>`` an exported save needs: relative to the folder it will be read from, else absolute."""
    if relative_to is None:
        return mapping.map_path.as_posix()
    return Path(os.path.relpath(mapping.map_path, Path(relative_to).resolve())).as_posix()


__all__ = ["Export", "ExportError", "MAX_LISTED_PIECES", "SKIP_REASONS", "check_module", "describe",
           "export_position", "map_href_for"]
