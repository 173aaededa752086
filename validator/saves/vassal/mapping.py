"""A module mapping: how one game's VASSAL module says what Referee's save format says.

A mapping file (``schemas/mapping.xsd``, namespace ``urn:referee:mapping:1``,
documented in ``docs/vassal-mapping.md``) names the module it is for, the
Referee map file exported positions use, translation tables, the game state
read from global properties, how piece attributes come from names and
properties, and how VASSAL location names become our location ids.

It is parsed from capped bytes with the project's one hardened parser,
validated against the schema, and then checked for what a schema cannot
say -- every regular expression compiles, every template names groups and
tables that exist, each attribute has one source -- so that a broken
mapping fails when it is read, with its file and line, never half-way
through an export.

Templates (location ids, attribute values) are plain text with
``{name}`` or ``{name|filter|filter:argument}`` slots; ``{{`` and ``}}``
are literal braces.  The filters are listed in :data:`FILTERS`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping as MappingType
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from lxml import etree

from validator.numbers import is_ascii_digits
from validator.patterns import PatternProblem, UserPattern, compile_user_pattern
from validator.saves.xml_reader import SaveInputError, read_capped
from validator.xmlparsing import XmlInputError, parse_xml, validate

NAMESPACE = "urn:referee:mapping:1"
SCHEMA = "mapping.xsd"
MAX_MAPPING_BYTES = 4 * 1024 * 1024
POSITION_ATTRIBUTES = ("scenario", "turn", "phase", "phasing")
RESERVED_PIECE_ATTRIBUTES = ("id", "location")
LOCATION_BUILTINS = ("map", "location")
PIECE_BUILTINS = ("name", "basic_name", "id")
FILTERS = {
    "lower": "lower case",
    "upper": "upper case",
    "title": "each word capitalised",
    "slug": "lower case, every run of other characters than letters and digits becomes one hyphen",
    "number": "a whole number without leading zeros",
    "add:N": "a whole number plus N (N may be negative)",
    "pad:N": "a whole number written with at least N digits",
    "map:TABLE": "translated through the named <table>",
    "lookup:TABLE": "translated through the named <table>, or nothing when the table does not list the text",
}
_SLOT = re.compile(r"\{\{|\}\}|\{([^{}]*)\}|[{}]")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_INTEGER = re.compile(r"[+-]?[0-9]{1,9}")


class MappingError(SaveInputError):
    """A mapping file that cannot be used: its file, its line and what is wrong.

    A :class:`SaveInputError` so that every command that already turns
    unusable saves into exit status 2 does the same for mappings.
    """


class ValueProblem(ValueError):
    """A template or table cannot give a value for this piece or property (not a mapping defect)."""


def _tag(name: str) -> str:
    return f"{{{NAMESPACE}}}{name}"


# -- tables and templates ---------------------------------------------------------


@dataclass(frozen=True)
class Table:
    """The module's words to ours; ``keep`` passes a word the table does not list unchanged."""

    name: str
    entries: MappingType[str, str]
    keep: bool = False
    line: int = 0

    def translate(self, value: str) -> str:
        if value in self.entries:
            return self.entries[value]
        if self.keep:
            return value
        raise ValueProblem(f"'{value}' is not in the table '{self.name}'")


def _whole(value: str, filter_name: str) -> int:
    if not _INTEGER.fullmatch(value.strip()):
        raise ValueProblem(f"the filter '{filter_name}' needs a whole number, not '{value}'")
    return int(value)


def _apply(filter_name: str, argument: str | None, value: str, tables: MappingType[str, Table]) -> str:
    if filter_name == "lower":
        return value.lower()
    if filter_name == "upper":
        return value.upper()
    if filter_name == "title":
        return value.title()
    if filter_name == "slug":
        return re.sub(r"[^a-z0-9]+", "-", value.lower()).strip("-")
    if filter_name == "number":
        return str(_whole(value, filter_name))
    if filter_name == "add":
        return str(_whole(value, filter_name) + int(argument))
    if filter_name == "pad":
        number = _whole(value, filter_name)
        return ("-" if number < 0 else "") + str(abs(number)).zfill(int(argument))
    if filter_name == "lookup":
        return tables[argument].entries.get(value, "")
    return tables[argument].translate(value)


@dataclass(frozen=True)
class Template:
    """``text {group|filter:argument} text``, compiled once and checked against what it may name."""

    text: str
    parts: tuple[str | tuple[str, tuple[tuple[str, str | None], ...]], ...]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(part[0] for part in self.parts if isinstance(part, tuple))

    def render(self, values: MappingType[str, str | None], tables: MappingType[str, Table]) -> str:
        """The text with every slot filled; a group that did not take part is empty and skips its filters."""
        pieces = []
        for part in self.parts:
            if isinstance(part, str):
                pieces.append(part)
                continue
            name, filters = part
            value = values.get(name)
            if value is None or value == "":
                continue
            for filter_name, argument in filters:
                value = _apply(filter_name, argument, value, tables)
            pieces.append(value)
        return "".join(pieces)


def compile_template(text: str, *, allowed: set[str], tables: MappingType[str, Table], where: str) -> Template:
    """A :class:`Template`, or :class:`ValueError` naming the slot that cannot work (``where`` says what it is for)."""
    parts: list = []
    position = 0
    for match in _SLOT.finditer(text):
        if match.start() > position:
            parts.append(text[position:match.start()])
        token = match.group(0)
        position = match.end()
        if token in ("{{", "}}"):
            parts.append(token[0])
            continue
        if token in ("{", "}"):
            raise ValueError(f"{where} has a lone '{token}' (write '{token * 2}' for a brace)")
        pieces = [piece.strip() for piece in match.group(1).split("|")]
        name = pieces[0]
        if not _NAME.fullmatch(name):
            raise ValueError(f"{where} has the slot '{{{match.group(1)}}}', which names no group")
        if name not in allowed:
            known = ", ".join(sorted(allowed)) or "none"
            raise ValueError(f"{where} uses '{{{name}}}', which is not a group it can see (it can use: {known})")
        filters = []
        for piece in pieces[1:]:
            filter_name, _, argument = piece.partition(":")
            filters.append(_filter(filter_name, argument if _ else None, tables, where))
        parts.append((name, tuple(filters)))
    if position < len(text):
        parts.append(text[position:])
    merged: list = []
    for part in parts:
        if isinstance(part, str) and merged and isinstance(merged[-1], str):
            merged[-1] += part
        else:
            merged.append(part)
    return Template(text, tuple(merged))


def _filter(name: str, argument: str | None, tables: MappingType[str, Table], where: str) -> tuple[str, str | None]:
    if name in ("lower", "upper", "title", "slug", "number"):
        if argument is not None:
            raise ValueError(f"{where}: the filter '{name}' takes no argument")
        return name, None
    if name in ("add", "pad"):
        if argument is None or not _INTEGER.fullmatch(argument) or (name == "pad" and not 0 < int(argument) <= 20):
            example = f"{name}:{2 if name == 'pad' else -1}"
            raise ValueError(f"{where}: the filter '{name}' needs a whole number, as in '{example}'")
        return name, argument
    if name in ("map", "lookup"):
        if argument not in tables:
            known = ", ".join(sorted(tables)) or "none"
            raise ValueError(f"{where}: the filter '{name}:{argument}' names no <table> of the mapping "
                             f"(tables: {known})")
        return name, argument
    raise ValueError(f"{where}: '{name}' is not a filter; the filters are {', '.join(FILTERS)}")


# -- the rules a mapping holds ----------------------------------------------------------


@dataclass(frozen=True)
class StateRule:
    """A global property that gives a position attribute or a fact."""

    property: str
    position: str | None
    fact: str | None
    value: Template | None
    """Applied to the raw value (``{value}``) before ``translate``."""
    translate: str | None
    separator: str | None
    default: str | None
    line: int


@dataclass(frozen=True)
class PieceIgnore:
    """Pieces to leave out (markers): every condition given must hold."""

    name_pattern: UserPattern | None
    property: str | None
    equals: str | None
    pattern: UserPattern | None
    line: int
    todo: str | None = None
    """A draft's "to fill in" note: the rule stands in for what the club has yet to say."""

    def applies(self, name: str, properties: MappingType[str, str]) -> bool:
        if self.name_pattern is not None and not self.name_pattern.search(name):
            return False
        if self.property is not None:
            value = properties.get(self.property)
            if value is None:
                return False
            if self.equals is not None and value != self.equals:
                return False
            if self.pattern is not None and not self.pattern.search(value):
                return False
            if self.equals is None and self.pattern is None and value == "":
                return False
        return True


@dataclass(frozen=True)
class Match:
    """A regular expression on a piece's name or property; its named groups feed the attributes."""

    source: str
    property: str | None
    pattern: UserPattern
    line: int

    def subject(self, name: str, basic_name: str | None, properties: MappingType[str, str]) -> str | None:
        if self.source == "name":
            return name
        if self.source == "basic-name":
            return basic_name
        return properties.get(self.property or "")


@dataclass(frozen=True)
class AttributeRule:
    """One attribute of our pieces: where its value comes from, how it is translated, what if nothing."""

    name: str
    property: str | None
    group: str | None
    value: Template | None
    translate: str | None
    default: str | None
    required: bool
    line: int

    def describe_source(self) -> str:
        if self.property is not None:
            return f"the property '{self.property}'"
        if self.group is not None:
            return f"the group '{self.group}'"
        if self.value is not None:
            return f"the value '{self.value.text}'"
        return "no source"


@dataclass(frozen=True)
class LocationRule:
    """An exact VASSAL location name, or a pattern, and the location id it gives (or ``skip``)."""

    map: str | None
    exact: str | None
    pattern: UserPattern | None
    template: Template | None
    skip: bool
    line: int
    todo: str | None = None
    """A draft's "to fill in" note: the rule stands in for what the club has yet to say."""


@dataclass(frozen=True)
class Mapping:
    """A parsed, checked mapping file."""

    source: str
    game: str
    module_name: str
    min_version: str | None
    max_version: str | None
    map_href: str
    map_path: Path
    tables: MappingType[str, Table]
    state: tuple[StateRule, ...]
    ignores: tuple[PieceIgnore, ...]
    matches: tuple[Match, ...]
    attributes: tuple[AttributeRule, ...]
    ignored_maps: frozenset[str]
    exact_locations: MappingType[tuple[str | None, str], LocationRule]
    location_patterns: tuple[LocationRule, ...]
    to_fill_in: tuple[tuple[int, str], ...] = ()
    """(line, note) of every element a draft marked ``todo``, in file order."""
    todo_maps: frozenset[str] = frozenset()
    """The ignored maps whose ``<ignore-map>`` a draft marked ``todo``."""

    def accepts_version(self, version: str | None) -> bool:
        """Whether a module version lies in the mapping's range (no range accepts every version).

        Versions compare part by part, numbers as numbers; ``max-version``
        compares only as many parts as it gives, so "1.9" admits 1.9.3.
        """
        if self.min_version is None and self.max_version is None:
            return True
        if version is None:
            return False
        parts = version_parts(version)
        if self.min_version is not None and not _at_least(parts, version_parts(self.min_version)):
            return False
        if self.max_version is None:
            return True
        limit = version_parts(self.max_version)
        return _at_least(limit, parts[: len(limit)])

    def version_range(self) -> str:
        if self.min_version and self.max_version:
            return f"versions {self.min_version} to {self.max_version}"
        if self.min_version:
            return f"version {self.min_version} or later"
        if self.max_version:
            return f"version {self.max_version} or earlier"
        return "any version"

    def location_rule(self, map_name: str, location: str) -> tuple[LocationRule, dict[str, str | None]] | None:
        """The first rule for a VASSAL location: exact entries (this map's, then any map's), then patterns in order."""
        for key in ((map_name, location), (None, location)):
            rule = self.exact_locations.get(key)
            if rule is not None:
                return rule, {"map": map_name, "location": location}
        for rule in self.location_patterns:
            if rule.map is not None and rule.map != map_name:
                continue
            found = rule.pattern.fullmatch(location)
            if found is not None:
                return rule, {"map": map_name, "location": location, **found.groupdict()}
        return None


def version_parts(version: str) -> list[tuple[int, int, str]]:
    """``1.10.2`` as comparable parts: numbers compare as numbers, words as words (after numbers).

    A number is kept as its digits without leading zeros, ordered by length
    first: that compares as numbers do without ``int``, which refuses "²" and
    very long numbers.  Only ASCII digits make a number; "١" is a word.
    """
    return [_version_part(part) for part in re.split(r"[.\-_]", version) if part]


def _version_part(part: str) -> tuple[int, int, str]:
    if is_ascii_digits(part):
        digits = part.lstrip("0")
        return (0, len(digits), digits)
    return (1, 0, part)


def _at_least(parts: list, floor: list) -> bool:
    size = max(len(parts), len(floor))
    zero = (0, 0, "")
    return parts + [zero] * (size - len(parts)) >= floor + [zero] * (size - len(floor))


# -- reading -----------------------------------------------------------------------------


def read_mapping(path: str | os.PathLike[str]) -> Mapping:
    """The mapping file at ``path`` (capped at :data:`MAX_MAPPING_BYTES`), checked."""
    path = Path(path)
    try:
        data = read_capped(path, MAX_MAPPING_BYTES)
    except SaveInputError as error:
        raise MappingError(error.source, error.problem) from None
    return parse_mapping(data, str(path), path.resolve().parent)


def parse_mapping(data: bytes, source: str, folder: Path) -> Mapping:
    """A mapping from bytes; ``folder`` is where its map ``href`` is resolved from."""
    try:
        root = parse_xml(data, source)
        if root.tag != _tag("mapping"):
            raise MappingError(
                source,
                f"the root element is <{etree.QName(root).localname}>, not a <mapping> in the namespace {NAMESPACE}",
                root.sourceline or 0,
            )
        validate(root, SCHEMA, source)
    except MappingError:
        raise
    except XmlInputError as error:
        raise MappingError(error.source, error.problem, error.line, error.column) from None
    return _Builder(source, folder).build(root)


class _Builder:
    def __init__(self, source: str, folder: Path) -> None:
        self.source, self.folder = source, folder

    def fail(self, element: etree._Element, problem: str) -> MappingError:
        return MappingError(self.source, problem, element.sourceline or 0)

    def regex(self, element: etree._Element, attribute: str) -> UserPattern | None:
        text = element.get(attribute)
        if text is None:
            return None
        try:
            return compile_user_pattern(text)
        except PatternProblem as problem:
            raise self.fail(element, str(problem)) from None

    def template(self, element: etree._Element, attribute: str, allowed: set[str], tables) -> Template:
        text = element.get(attribute)
        try:
            return compile_template(text, allowed=allowed, tables=tables, where=f"the template {text!r}")
        except ValueError as error:
            raise self.fail(element, str(error)) from None

    def build(self, root: etree._Element) -> Mapping:
        module = root.find(_tag("module"))
        map_element = root.find(_tag("map"))
        tables = self.tables(root)
        state = tuple(
            self.state_rule(element, tables) for element in root.iterfind(f"{_tag('state')}/{_tag('global')}")
        )
        pieces = root.find(_tag("pieces"))
        ignores = tuple(self.ignore(element) for element in pieces.iterfind(_tag("ignore")))
        matches = tuple(self.match(element) for element in pieces.iterfind(_tag("match")))
        groups: set[str] = set()
        for found in matches:
            for group in found.pattern.groupindex:
                if group in PIECE_BUILTINS:
                    raise self.fail(
                        pieces.find(_tag("match")),
                        f"the group name '{group}' is taken: {', '.join(PIECE_BUILTINS)} are given for every piece",
                    )
                groups.add(group)
        attributes = tuple(self.attribute(element, groups, tables) for element in pieces.iterfind(_tag("attribute")))
        locations = root.find(_tag("locations"))
        ignored_maps = frozenset(element.get("name") for element in locations.iterfind(_tag("ignore-map")))
        todo_maps = frozenset(element.get("name") for element in locations.iterfind(_tag("ignore-map"))
                              if element.get("todo") is not None)
        exact: dict[tuple[str | None, str], LocationRule] = {}
        patterns: list[LocationRule] = []
        for element in locations:
            if element.tag == _tag("location"):
                rule = self.exact_location(element)
                key = (rule.map, rule.exact)
                if key in exact:
                    raise self.fail(
                        element, f"the location '{rule.exact}' is mapped twice (first at line {exact[key].line})"
                    )
                exact[key] = rule
            elif element.tag == _tag("pattern"):
                patterns.append(self.location_pattern(element, tables))
        href = map_element.get("href")
        if re.match(r"^[A-Za-z][A-Za-z0-9+.\-]*://", href):
            raise self.fail(
                map_element, f"the map href '{href}' is a URL; give a file path relative to the mapping file"
            )
        return Mapping(
            source=self.source,
            game=root.get("game"),
            module_name=module.get("name"),
            min_version=module.get("min-version"),
            max_version=module.get("max-version"),
            map_href=href,
            map_path=(self.folder / href).resolve(),
            tables=MappingProxyType(tables),
            state=state,
            ignores=ignores,
            matches=matches,
            attributes=attributes,
            ignored_maps=ignored_maps,
            exact_locations=MappingProxyType(exact),
            location_patterns=tuple(patterns),
            to_fill_in=tuple((element.sourceline or 0, element.get("todo")) for element in root.iter()
                             if isinstance(element.tag, str) and element.get("todo") is not None),
            todo_maps=todo_maps,
        )

    def tables(self, root: etree._Element) -> dict[str, Table]:
        tables: dict[str, Table] = {}
        for element in root.iterfind(_tag("table")):
            entries: dict[str, str] = {}
            for entry in element.iterfind(_tag("entry")):
                word = entry.get("vassal")
                if word in entries:
                    raise self.fail(entry, f"the table '{element.get('name')}' lists '{word}' twice")
                entries[word] = entry.get("ours")
            tables[element.get("name")] = Table(
                element.get("name"),
                MappingProxyType(entries),
                element.get("otherwise", "error") == "keep",
                element.sourceline or 0,
            )
        return tables

    def known_table(self, element: etree._Element, name: str | None, tables) -> str | None:
        if name is not None and name not in tables:
            known = ", ".join(sorted(tables)) or "none"
            raise self.fail(element, f"translate='{name}' names no <table> of the mapping (tables: {known})")
        return name

    def state_rule(self, element: etree._Element, tables) -> StateRule:
        position, fact = element.get("position"), element.get("fact")
        if (position is None) == (fact is None):
            raise self.fail(
                element,
                f"the global property '{element.get('property')}' needs exactly one of "
                "position= (scenario, turn, phase, phasing) or fact=",
            )
        if element.get("separator") is not None and fact is None:
            raise self.fail(element, "separator= splits a property into several facts; it needs fact=")
        value = None
        if element.get("value") is not None:
            value = self.template(element, "value", {"value"}, tables)
        return StateRule(
            element.get("property"),
            position,
            fact,
            value,
            self.known_table(element, element.get("translate"), tables),
            element.get("separator"),
            element.get("default"),
            element.sourceline or 0,
        )

    def ignore(self, element: etree._Element) -> PieceIgnore:
        rule = PieceIgnore(
            self.regex(element, "name-pattern"),
            element.get("property"),
            element.get("equals"),
            self.regex(element, "pattern"),
            element.sourceline or 0,
            element.get("todo"),
        )
        if rule.name_pattern is None and rule.property is None:
            raise self.fail(element, "an <ignore> needs name-pattern= or property= (it would leave out every piece)")
        if rule.property is None and (rule.equals is not None or rule.pattern is not None):
            raise self.fail(element, "equals= and pattern= test a property value; give property= too")
        return rule

    def match(self, element: etree._Element) -> Match:
        source, property_name = element.get("source", "name"), element.get("property")
        if (source == "property") != (property_name is not None):
            raise self.fail(
                element, 'a <match> reads a property when, and only when, it has source="property" and property='
            )
        return Match(source, property_name, self.regex(element, "pattern"), element.sourceline or 0)

    def attribute(self, element: etree._Element, groups: set[str], tables) -> AttributeRule:
        name = element.get("name")
        if name in RESERVED_PIECE_ATTRIBUTES:
            raise self.fail(
                element,
                f"the attribute '{name}' is not mapped: Referee gives a piece's id from VASSAL's "
                "and its location from <locations>",
            )
        sources = [key for key in ("property", "group", "value") if element.get(key) is not None]
        if len(sources) > 1:
            raise self.fail(element, f"the attribute '{name}' has {' and '.join(sources)}; give one source")
        if not sources and element.get("default") is None:
            raise self.fail(element, f"the attribute '{name}' needs a source: property=, group=, value= or default=")
        group = element.get("group")
        if group is not None and group not in groups:
            known = ", ".join(sorted(groups)) or "none"
            raise self.fail(
                element,
                f"the attribute '{name}' reads the group '{group}', which no <match> pattern defines (groups: {known})",
            )
        value = None
        if element.get("value") is not None:
            value = self.template(element, "value", groups | set(PIECE_BUILTINS), tables)
        return AttributeRule(
            name,
            element.get("property"),
            group,
            value,
            self.known_table(element, element.get("translate"), tables),
            element.get("default"),
            element.get("required", "yes") == "yes",
            element.sourceline or 0,
        )

    def exact_location(self, element: etree._Element) -> LocationRule:
        skip = element.get("skip", "no") == "yes"
        if skip == (element.get("id") is not None):
            raise self.fail(element, f"the location '{element.get('vassal')}' needs either id= or skip=\"yes\"")
        template = Template(element.get("id"), (element.get("id"),)) if not skip else None
        return LocationRule(element.get("map"), element.get("vassal"), None, template, skip, element.sourceline or 0,
                            element.get("todo"))

    def location_pattern(self, element: etree._Element, tables) -> LocationRule:
        skip = element.get("skip", "no") == "yes"
        if skip == (element.get("id") is not None):
            raise self.fail(element, f'the pattern {element.get("match")!r} needs either id= or skip="yes"')
        pattern = self.regex(element, "match")
        taken = set(pattern.groupindex) & set(LOCATION_BUILTINS)
        if taken:
            raise self.fail(
                element,
                f"the group name '{taken.pop()}' is taken: {{map}} and {{location}} are given for every location",
            )
        template = (
            None if skip else self.template(element, "id", set(pattern.groupindex) | set(LOCATION_BUILTINS), tables)
        )
        return LocationRule(element.get("map"), None, pattern, template, skip, element.sourceline or 0,
                            element.get("todo"))


__all__ = [
    "AttributeRule",
    "FILTERS",
    "LocationRule",
    "Mapping",
    "MappingError",
    "Match",
    "PieceIgnore",
    "StateRule",
    "Table",
    "Template",
    "ValueProblem",
    "compile_template",
    "parse_mapping",
    "read_mapping",
    "version_parts",
]
