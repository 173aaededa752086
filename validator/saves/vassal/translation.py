"""A decoded VASSAL save in Referee's terms, through a module mapping: state, pieces, and what was left out.

What is read of the save is what one viewer may see (:mod:`.views`: masked
pieces the viewer may not see through are left out, invisible ones never
appear), at the location names VASSAL itself shows.

Each piece the save places is either translated, or skipped and counted in
the note: off the map (no map, or VASSAL's ``offboard``), on a map the
mapping ignores, masked from this viewer, left out by an ``<ignore>`` rule,
or at a location the mapping skips.  A piece the mapping cannot place or
describe (no location rule, a required attribute without a value, a word a
table does not know) refuses the save with one sentence listing up to ten
such pieces, each with its VASSAL name and location.

Every value is already what our save format can carry (identifiers where the
format wants them, characters XML forbids replaced by U+FFFD), so the same
:class:`Translation` becomes a :class:`~validator.model.Position` directly
(:mod:`.positions`) or a save file (:mod:`.export`) with the same values.
"""

from __future__ import annotations

import re
from collections.abc import Mapping as MappingType
from dataclasses import dataclass
from types import MappingProxyType
from typing import NamedTuple

from validator.saves.errors import SaveInputError

from .grids import UNKNOWN
from .locations import OFFBOARD
from .mapping import Mapping, ValueProblem
from .model import Piece, SavedGame
from .module import Module
from .views import View, face_down_decks

MAX_LISTED_PIECES = 10
STRONGEST = 999_999  # the save format's largest strength
COMMON_ATTRIBUTES = ("name", "side", "nationality", "type", "size", "strength")
IDENTIFIER_ATTRIBUTES = ("side", "nationality", "type", "size")
IDENTIFIER_POSITION_ATTRIBUTES = ("phase", "phasing")
POSITION_ATTRIBUTES = ("scenario", "turn", "phase", "phasing")
_IDENTIFIER = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:/\-]{0,199}")
_WHOLE = re.compile(r"[0-9]{1,9}")
_NOT_XML = re.compile("[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")

# Why a piece was skipped, in the order the note lists the reasons.
OFF_MAP = "off the map"
IGNORED_MAP = "on maps the mapping ignores"
MASKED = "masked from this viewer"
IGNORED_PIECE = "left out by the mapping's <ignore> rules"
IGNORED_BY_TODO = "left out by <ignore> rules still marked todo (they may be units the check never sees)"
SKIPPED_LOCATION = "at locations the mapping skips"
SKIP_REASONS = (OFF_MAP, IGNORED_MAP, MASKED, IGNORED_PIECE, IGNORED_BY_TODO, SKIPPED_LOCATION)


class ExportError(SaveInputError):
    """A save that this mapping cannot read into a position (exit status 2), as one sentence."""


class ModuleMismatch(ExportError):
    """The module is not the one the mapping is for; the sentence says how to draft one (a site says it cannot)."""

    def __init__(self, source: object, problem: str, module: str, game: str) -> None:
        self.mismatch, self.module, self.game = problem, module, game
        super().__init__(source, f"{problem}; draft a mapping for this module with `referee vassal mapping draft "
                                 f"--module {module} --game {game} --output club.xml`, fill it in, and check with "
                                 "--mapping club.xml.")

    def on_the_site(self) -> str:
        """The sentence for the web, where no mapping can be given."""
        return (f"{self.where}: {self.mismatch}; this site checks only saves of modules it has a mapping for, so "
                "choose that module or check the save with the command line and a mapping drafted for it.")


class TranslatedPiece(NamedTuple):
    """One of our pieces: its id, name, attributes in save order, location, and the VASSAL piece it came from."""

    id: str
    name: str
    attributes: MappingType[str, str]
    """``side``, ``nationality``, ``type``, ``size``, ``strength`` when given, then the game's own."""
    location: str | None
    origin: str
    """The VASSAL piece as messages name it: ``'704 Inf Div' at Main Map / Serbia Axis Mountain``."""


@dataclass(frozen=True)
class Translation:
    """A save as the mapping reads it for one viewer: Referee's state and pieces, and what was skipped."""

    game: str
    source: str
    """The save, as messages name it."""
    mapping_source: str
    seen_as: str
    """``the arbiter``, ``side Axis`` or ``a spectator``."""
    attributes: MappingType[str, str]
    """The position's scenario, turn, phase and phasing, where the state gives them."""
    facts: tuple[tuple[str, str], ...]
    pieces: tuple[TranslatedPiece, ...]
    skipped: MappingType[str, int]
    todo_entries: int = 0
    """How many elements of the mapping a draft marked todo are still so marked."""

    @property
    def left_out_by_todo(self) -> int:
        """Pieces an unfinished draft's todo ``<ignore>`` rules left out: the verdict does not cover them."""
        return self.skipped.get(IGNORED_BY_TODO, 0)

    @property
    def note(self) -> str:
        """How many pieces were exported, how many were skipped for which reason, and what is still todo."""
        parts = [f"{count} {reason}" for reason, count in self.skipped.items() if count]
        exported = len(self.pieces)
        text = f"{exported} piece{'s' if exported != 1 else ''} exported"
        text += (f"; skipped {', '.join(parts)}" if parts else "; none skipped") + "."
        if self.todo_entries:
            entries = f"{self.todo_entries} entr{'ies' if self.todo_entries != 1 else 'y'}"
            text += (f" The mapping {self.mapping_source} still has {entries} marked todo, and "
                     f"{self.left_out_by_todo} of the pieces were left out by rules marked todo: fill them in "
                     "(referee vassal mapping check shows what they cover) before trusting the verdict.")
        return text


def check_module(mapping: Mapping, module: Module, game: SavedGame | None = None) -> None:
    """Refuse a module (or a save made with another module) the mapping is not for."""
    name = module.name or (module.metadata.name if module.metadata else None)
    version = module.version or (module.metadata.version if module.metadata else None)
    if name != mapping.module_name:
        raise ModuleMismatch(module.source, f"the module is '{name}', but the mapping {mapping.source} is for the "
                                            f"module '{mapping.module_name}'", module.source, mapping.game)
    if not mapping.accepts_version(version):
        raise ExportError(module.source, f"the module '{name}' is version {version or '(none given)'}, but the mapping "
                                         f"{mapping.source} is for {mapping.version_range()}")
    saved_with = game.module_metadata.name if game is not None and game.module_metadata else None
    if saved_with and saved_with != name:
        raise ExportError(game.source, f"the save was made with the module '{saved_with}', not '{name}' (the module "
                                       "given)")


def describe(name: str, map_name: str | None, location: str | None) -> str:
    """A VASSAL piece as a message names it: ``'704 Inf Div' at Main Map / Serbia Axis Mountain``."""
    where = map_name if map_name is not None else "no map"
    if location is not None:
        where += f" / {location}"
    return f"'{name}' at {where}"


def xml_text(text: str) -> str:
    """Text XML can carry: characters it forbids (VASSAL names may hold control characters) become U+FFFD."""
    return _NOT_XML.sub("\ufffd", text)


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


def _value_problem(name: str, value: str) -> str:
    if name in IDENTIFIER_ATTRIBUTES and not _IDENTIFIER.fullmatch(value):
        return f"'{name}' is '{value}', which is not a save identifier (letters, digits and _.:/- only)"
    if name == "strength":
        if not _WHOLE.fullmatch(value):
            return f"'strength' is '{value}', which is not a whole number"
        if int(value) > STRONGEST:
            return f"'strength' is '{value}', more than {STRONGEST:,}, the most a save's strength may be"
    return ""


class _Translator:
    """The mapping's rules applied to one piece, or to the game's global properties."""

    def __init__(self, mapping: Mapping) -> None:
        self.mapping = mapping
        self.tables = mapping.tables

    def location(self, map_name: str, location: str) -> tuple[str | None, str | None, str | None]:
        """(location id, skip reason, problem) for a piece on a map."""
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

    def groups(self, piece: Piece) -> dict[str, str | None]:
        values: dict[str, str | None] = {"name": piece.name, "basic_name": piece.basic_name, "id": piece.id}
        for match in self.mapping.matches:
            subject = match.subject(piece.name, piece.basic_name, piece.properties)
            found = match.pattern.search(subject) if subject is not None else None
            if found is None:
                continue
            for group, value in found.groupdict().items():
                if values.get(group) is None:
                    values[group] = value
        return values

    def attributes(self, piece: Piece, groups) -> tuple[dict[str, str], list[str]]:
        attributes: dict[str, str] = {}
        problems: list[str] = []
        for rule in self.mapping.attributes:
            if rule.property is not None:
                raw = piece.properties.get(rule.property)
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

    def state(self, global_properties: MappingType[str, str]
              ) -> tuple[dict[str, str], list[tuple[str, str]], list[str]]:
        position: dict[str, str] = {}
        facts: list[tuple[str, str]] = []
        problems: list[str] = []
        todo = dict(self.mapping.to_fill_in)
        for rule in self.mapping.state:
            raw = global_properties.get(rule.property)
            if raw is None or raw == "":
                if rule.default is None or rule.default == "":
                    if rule.line in todo:  # a draft's stand-in: say where to fill it in, not what is missing
                        problems.append(f"the <global> at line {rule.line} is still marked todo ({todo[rule.line]}); "
                                        "fill it in and remove todo")
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
                value = values[-1] if values else ""
                if value and rule.position in IDENTIFIER_POSITION_ATTRIBUTES and not _IDENTIFIER.fullmatch(value):
                    problems.append(f"the global property '{rule.property}' (line {rule.line}) gives the "
                                    f"{rule.position} '{value}', which is not a save identifier (letters, digits "
                                    "and _.:/- only)")
                    continue
                position[rule.position] = value
            else:
                facts.extend((rule.fact, value) for value in values)
        return position, facts, problems


def _seen_as(viewer: str | None, arbiter: bool) -> str:
    return "the arbiter" if arbiter else f"side {viewer}" if viewer else "a spectator"


def translate(game: SavedGame, module: Module, mapping: Mapping, game_id: str, *, viewer: str | None = None,
              arbiter: bool = False) -> Translation:
    """``game`` in Referee's terms as ``viewer`` sees it.

    Raises :class:`ExportError` when the mapping is for another game, the
    module is not the mapping's, or a global property or any piece cannot be
    mapped.
    """
    if mapping.game != game_id:
        raise ExportError(mapping.source, f"the mapping is for the game '{mapping.game}', not '{game_id}'")
    check_module(mapping, module, game)
    translator = _Translator(mapping)
    position_attributes, facts, state_problems = translator.state(game.global_properties)
    if state_problems:
        raise ExportError(game.source, f"the game state cannot be exported with the mapping {mapping.source}: "
                                       + "; ".join(state_problems))
    view = View(module, viewer, arbiter)
    face_down = face_down_decks(game)
    skipped = {reason: 0 for reason in SKIP_REASONS}
    pieces: list[TranslatedPiece] = []
    failures: list[str] = []
    taken: set[str] = set()
    for piece in game.pieces:
        if not view.visible(piece):
            continue
        reason = None
        if piece.map is None:
            reason = OFF_MAP
        elif piece.map in mapping.ignored_maps:
            reason = IGNORED_MAP
        elif view.obscured(piece, face_down):
            reason = MASKED
        elif ignore := next((rule for rule in mapping.ignores if rule.applies(piece.name, piece.properties)), None):
            reason = IGNORED_BY_TODO if ignore.todo is not None else IGNORED_PIECE
        if reason is not None:
            skipped[reason] += 1
            continue
        vassal_location = view.location(piece, game.boards)
        location, reason, location_problem = translator.location(piece.map, vassal_location)
        if reason is not None:
            skipped[reason] += 1
            continue
        attributes, problems = translator.attributes(piece, translator.groups(piece))
        origin = describe(piece.name, piece.map, vassal_location)
        if location_problem:
            problems.insert(0, location_problem)
        if problems:
            failures.append(f"{origin}: {'; '.join(problems)}")
            continue
        name = xml_text(attributes.pop("name", piece.name))
        ordered = {key: attributes.pop(key) for key in COMMON_ATTRIBUTES[1:] if key in attributes}
        ordered.update(attributes)
        pieces.append(TranslatedPiece(_piece_id(piece.id, taken), name,
                                      MappingProxyType({key: xml_text(value) for key, value in ordered.items()}),
                                      location, origin))
    if failures:
        listed = [f"({number}) {failure}" for number, failure in enumerate(failures[:MAX_LISTED_PIECES], 1)]
        more = f"; and {len(failures) - len(listed)} more" if len(failures) > len(listed) else ""
        count = f"{len(failures)} piece{'s' if len(failures) != 1 else ''}"
        raise ExportError(game.source, f"{count} cannot be exported with the mapping {mapping.source}: "
                                       + "; ".join(listed) + more)
    return Translation(
        game=game_id, source=game.source, mapping_source=mapping.source, seen_as=_seen_as(viewer, arbiter),
        attributes=MappingProxyType({name: xml_text(position_attributes[name]) for name in POSITION_ATTRIBUTES
                                     if position_attributes.get(name)}),
        facts=tuple((xml_text(name), xml_text(value)) for name, value in facts),
        pieces=tuple(pieces), skipped=MappingProxyType(skipped), todo_entries=len(mapping.to_fill_in),
    )


__all__ = ["ExportError", "MAX_LISTED_PIECES", "SKIP_REASONS", "TranslatedPiece", "Translation", "check_module",
           "describe", "translate", "xml_text"]
