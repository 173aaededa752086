"""Declared facts and attributes: a game says what its saves may hold, the core checks it.

A game lists its facts (``<fact name=... value=...>``), the attributes of its
pieces, areas, displays, hexes and events, and its position's turn, phase and
phasing as tables of :class:`Fact` and :class:`Attribute`, each with a value
type from the small vocabulary below.  The core reads every value, writes the
standard message with the line it came from, and hands the plugin the values
already read.  What stays in a plugin is what no table can say: rules that tie
two values together.

The vocabulary, as jsonschema has its keywords:

=============================  ==================================================
``Word(choices)``              one word of a fixed set (or of a set the map gives)
``Count(minimum, most)``       a whole number in ASCII digits; leading zeros allowed,
                               a minus sign too when ``minimum`` is below zero
``Turn(first, last)``          a turn number within the game's range
``SeasonYear(seasons)``        a turn named by season and year: ``spring 1942``
``Number()``                   a whole, decimal or fractional number: 2, 1.5, 1/2
``Boolean()``                  ``true`` or ``false`` (or the two words a game uses)
``Text()``                     any value: a name or designation the rules only repeat
``MapReference(kind)``         the id of an area, display, hex or location of the map
``MapReferences(kind)``        one or more such ids; a problem names the unknown ones
``Words(first, ...)``          several space-separated words, each of its own type
``Either(a, b)``               a value of the first type that reads it
=============================  ==================================================
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import NamedTuple, Protocol

from validator.model import MapData, Position
from validator.numbers import is_ascii_digits
from validator.quoting import name_a_few, quote
from validator.wording import noun_for

Problem = tuple[int, str]
LONGEST_COUNT = 6  # significant digits: beyond any count a game keeps


class ValueProblem(ValueError):
    """A value its type cannot read: ``expected`` names what it takes, ``detail`` (optional) what is wrong."""

    @property
    def expected(self) -> str:
        return self.args[0]

    @property
    def detail(self) -> str:
        return self.args[1] if len(self.args) > 1 else ""


@dataclass(frozen=True)
class Context:
    """What a value may refer to: the map of the position being read."""

    map: MapData


class ValueType(Protocol):
    """Reads one value, or raises :class:`ValueProblem`; ``expected`` names it in messages."""

    expected: str

    def read(self, text: str, context: Context) -> object: ...


@dataclass(frozen=True)
class Word:
    """One word of a fixed set, or of the set ``extra`` finds in the map (its areas, say)."""

    choices: Iterable[str]  # listed in messages in this order (a set is sorted)
    name: str = ""  # "a major power": how messages name the set; else the words are listed
    extra: Callable[[Context], Iterable[str]] | None = None
    members: frozenset = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        choices = sorted(self.choices) if isinstance(self.choices, (set, frozenset)) else tuple(self.choices)
        object.__setattr__(self, "choices", tuple(choices))
        object.__setattr__(self, "members", frozenset(choices))

    @property
    def expected(self) -> str:
        return self.name or f"one of {', '.join(self.choices)}"

    def read(self, text: str, context: Context) -> str:
        if text in self.members or (self.extra is not None and text in self.extra(context)):
            return text
        raise ValueProblem(self.expected)


@dataclass(frozen=True)
class Count:
    """A whole number in ASCII digits from ``minimum`` to ``most``; "060" reads as 60, "-3" as -3 below zero."""

    minimum: int = 0
    most: int = 10**LONGEST_COUNT - 1
    name: str = ""

    @property
    def expected(self) -> str:
        return self.name or f"a whole number from {self.minimum} to {self.most}"

    def read(self, text: str, context: Context) -> int:
        negative = self.minimum < 0 and text.startswith("-")
        unsigned = text[1:] if negative else text
        digits = unsigned.lstrip("0") or "0"
        if not (is_ascii_digits(unsigned) and len(digits) <= LONGEST_COUNT):
            raise ValueProblem(self.expected)
        number = -int(digits) if negative else int(digits)
        if not self.minimum <= number <= self.most:
            raise ValueProblem(self.expected)
        return number


def Turn(first: int, last: int, name: str = "") -> Count:  # noqa: N802 - reads as a type in a table
    """A turn number of a game whose turns run from ``first`` to ``last``."""
    return Count(first, last, name or f"a turn number ({first} to {last})")


_SEASON_YEAR = re.compile(r"\s*([A-Za-z]+)[\s-]+([0-9]{4})\s*")


@dataclass(frozen=True)
class SeasonYear:
    """A turn named by season and year ("spring 1942"): any case, a space or a hyphen between; reads (season, year)."""

    seasons: tuple[str, ...]
    name: str = ""

    @property
    def expected(self) -> str:
        return self.name or f"a season ({', '.join(self.seasons)}) and a year, e.g. '{self.seasons[-1]} 1942'"

    def read(self, text: str, context: Context) -> tuple[str, int]:
        match = _SEASON_YEAR.fullmatch(text)
        if match is None or match.group(1).lower() not in self.seasons:
            raise ValueProblem(self.expected)
        return match.group(1).lower(), int(match.group(2))


_NUMBER = re.compile(r"[0-9]{1,4}(\.[0-9]{1,3}|/[1-9][0-9]{0,2})?")


@dataclass(frozen=True)
class Number:
    """A number read exactly, as a Fraction: whole ("2"), decimal ("1.5") or a fraction ("1/2"), up to 9999."""

    name: str = "a number such as 2, 1.5 or 1/2"

    @property
    def expected(self) -> str:
        return self.name

    def read(self, text: str, context: Context) -> Fraction:
        if not _NUMBER.fullmatch(text):
            raise ValueProblem(self.expected)
        return Fraction(text)


@dataclass(frozen=True)
class Boolean:
    """``true`` or ``false``, or the two words a game writes for them (``yes`` and ``no``)."""

    true: str = "true"
    false: str = "false"

    @property
    def expected(self) -> str:
        return f"{self.true} or {self.false}"

    def read(self, text: str, context: Context) -> bool:
        if text == self.true:
            return True
        if text == self.false:
            return False
        raise ValueProblem(self.expected)


@dataclass(frozen=True)
class Text:
    """Any value: a name, a designation or a grid number that the rules only repeat, or that the core reads."""

    expected: str = "any text"

    def read(self, text: str, context: Context) -> str:
        return text


# kind -> (the MapData mapping, how messages name one, how they name several)
MAP_PARTS = {
    "area": ("areas", "an area of the map", "area"),
    "display": ("displays", "a display of the map", "display"),
    "hex": ("locations", "a hex of the map", "hex"),
    "location": ("locations", "a location of the map", "location"),
}


def _on_map(kind: str, text: str, context: Context) -> bool:
    found = getattr(context.map, MAP_PARTS[kind][0]).get(text)
    return found is not None and (kind != "hex" or found.kind == "hex")


@dataclass(frozen=True)
class MapReference:
    """The id of an area, display, hex or location of the position's map."""

    kind: str  # a key of MAP_PARTS
    name: str = ""

    @property
    def expected(self) -> str:
        return self.name or MAP_PARTS[self.kind][1]

    def read(self, text: str, context: Context) -> str:
        if _on_map(self.kind, text, context):
            return text
        raise ValueProblem(self.expected)


@dataclass(frozen=True)
class MapReferences:
    """One or more space-separated ids of the map's areas, displays, hexes or locations; reads a tuple.

    A problem names the ids the map lacks (a few of them, for a long list).  As
    the ``rest`` of :class:`Words` it reads every remaining word at once.
    """

    kind: str
    name: str = ""
    several = True  # Words hands it all its remaining words

    @property
    def expected(self) -> str:
        return self.name or f"{noun_for(2, MAP_PARTS[self.kind][2])} of the map, separated by spaces"

    def read(self, text: str, context: Context) -> tuple[str, ...]:
        ids = tuple(text.split())
        if not ids:
            raise ValueProblem(self.expected)
        unknown = [one for one in ids if not _on_map(self.kind, one, context)]
        if unknown:
            raise ValueProblem(self.expected, f"the map has no {noun_for(len(unknown), MAP_PARTS[self.kind][2])} "
                                              f"{name_a_few(unknown)}")
        return ids


@dataclass(frozen=True)
class Words:
    """Space-separated words: one of each type in ``parts``, then ``fewest`` or more of ``rest``.

    ``different``: no word may be given twice (two powers at war).
    """

    parts: tuple[ValueType, ...]
    rest: ValueType | None = None
    name: str = ""
    different: bool = False
    fewest: int = 1  # of ``rest``: 0 for a list that may be empty (a hex with no features)

    @property
    def expected(self) -> str:
        if self.name:
            return self.name
        named = [part.expected for part in self.parts]
        if self.rest is not None:
            several = "any number" if self.fewest == 0 else "one or more"
            named.append(f"then {self.rest.expected}" if getattr(self.rest, "several", False)
                         else f"then {several} of {self.rest.expected}")
        return ", ".join(named) + (", all different" if self.different else "")

    def read(self, text: str, context: Context) -> tuple:
        """The words' values; a problem says which word is wrong, and what it should have been."""
        words = text.split()
        count = len(self.parts)
        fewest = count + (self.fewest if self.rest is not None else 0)
        if len(words) < fewest or (self.rest is None and len(words) > count):
            raise ValueProblem(self.expected)
        if self.different and len(set(words)) < len(words):
            twice = next(word for index, word in enumerate(words) if word in words[:index])
            raise ValueProblem(self.expected, f"{quote(twice)} is given twice")
        several = getattr(self.rest, "several", False)
        types = list(self.parts) + ([] if several or self.rest is None else [self.rest] * (len(words) - count))
        values = []
        for value_type, word in zip(types, words[:len(types)], strict=True):
            try:
                values.append(value_type.read(word, context))
            except ValueProblem as problem:
                detail = problem.detail or f"{quote(word)} is not {problem.expected}"
                raise ValueProblem(self.expected, detail) from None
        if several:
            try:
                values.append(self.rest.read(" ".join(words[count:]), context))
            except ValueProblem as problem:
                raise ValueProblem(self.expected, problem.detail) from None
        return tuple(values)


@dataclass(frozen=True)
class Either:
    """A value of the first of ``choices`` that reads it."""

    choices: tuple[ValueType, ...]
    name: str = ""

    @property
    def expected(self) -> str:
        return self.name or " or ".join(choice.expected for choice in self.choices)

    def read(self, text: str, context: Context) -> object:
        for choice in self.choices:
            try:
                return choice.read(text, context)
            except ValueProblem:
                continue
        raise ValueProblem(self.expected)


def _with_detail(message: str, problem: ValueProblem) -> str:
    return f"{message}; {problem.detail}" if problem.detail else message


# -- facts ---------------------------------------------------------------------

ONCE, MANY, KEYED = "once", "many", "keyed"


@dataclass(frozen=True)
class Fact:
    """A fact a save may give: its value type and how often.

    ``repeat`` is ONCE (one value; given again, it must say the same), MANY
    (a list: every value counts), or KEYED (one value per first word: a list
    of countries, each with one conqueror).  A fact with a ``subject`` is
    named with a word after a colon, of that type: ``war-entry:finland`` is
    the fact ``war-entry`` about Finland, each subject a fact of its own.
    """

    name: str
    value: ValueType
    repeat: str = ONCE
    description: str = ""  # one line for the docs, in our own words
    subject: ValueType | None = None


@dataclass(frozen=True)
class FactValue:
    """One value of a fact as the table read it, with the line it came from."""

    text: str
    value: object
    line: int


@dataclass
class FactReading:
    """The facts of one position: values read, by the name the save gives, and the problems found."""

    values: dict[str, list[FactValue]] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)

    def all(self, name: str) -> list[object]:
        return [entry.value for entry in self.values.get(name, ())]

    def one(self, name: str, default: object = None) -> object:
        entries = self.values.get(name)
        return entries[-1].value if entries else default


@dataclass(frozen=True)
class FactTable:
    """Every fact a game's saves may give; reads them and writes the standard messages."""

    what: str  # how messages name one fact of the game: "a Tito fact"
    facts: tuple[Fact, ...]
    by_name: Mapping[str, Fact] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "facts", tuple(self.facts))
        object.__setattr__(self, "by_name", MappingProxyType({fact.name: fact for fact in self.facts}))

    def read(self, position: Position) -> FactReading:
        """Read every fact of ``position``; problems come in the save's order of facts."""
        reading = FactReading()
        context = Context(position.map)
        for name in position.facts:
            fact, problem = self._fact(name, context)
            if fact is None:
                reading.problems.append((position.fact_line(name), problem))
                continue
            reading.values[name] = list(self._values(name, fact, position, context, reading.problems))
        return reading

    def _fact(self, name: str, context: Context) -> tuple[Fact | None, str]:
        """The fact a save's name stands for, or None and what is wrong with the name."""
        head, colon, subject = name.partition(":")
        fact = self.by_name.get(head)
        if fact is not None and (fact.subject is not None) == bool(colon):
            if fact.subject is None:
                return fact, ""
            try:
                if subject:
                    fact.subject.read(subject, context)
                    return fact, ""
            except ValueProblem:
                pass
            return None, f"the fact {quote(name)} needs {fact.subject.expected} after the colon"
        names = [f"{fact.name}:…" if fact.subject is not None else fact.name for fact in self.facts]
        return None, f"the fact {quote(name)} is not {self.what}; the facts are {', '.join(names)}"

    def _values(self, name: str, fact: Fact, position: Position, context: Context,
                problems: list[Problem]) -> Iterator[FactValue]:
        first_by_key: dict[object, FactValue] = {}
        for text, line in position.fact_entries(name):
            try:
                value = fact.value.read(text, context)
            except ValueProblem as problem:
                said = f"the fact {quote(name)} takes {problem.expected}, not {quote(text)}"
                problems.append((line, _with_detail(said, problem)))
                continue
            entry = FactValue(text, value, line)
            if fact.repeat != MANY:
                key = value[0] if fact.repeat == KEYED and isinstance(value, tuple) else None
                first = first_by_key.setdefault(key, entry)
                if first.value != value or type(first.value) is not type(value):  # True == 1, but "true" is not turn 1
                    problems.append((line, (
                        f"the fact {quote(name)} is given as {quote(text)} here and as {quote(first.text)} "
                        f"at line {first.line}; keep the one that holds and remove the other")))
                    continue
            yield entry


# -- attributes ------------------------------------------------------------------


@dataclass(frozen=True)
class Attribute:
    """An attribute of a piece, area, display, hex or event: its value type, and whether it must be given."""

    name: str
    value: ValueType
    required: bool = False
    description: str = ""


_UNREAD = object()


Reading = tuple[dict[str, object], list[str]]  # the values read, by name, and the problems


class _Refusal(NamedTuple):
    """What an attribute reader found wrong with one value, kept in its memo beside the values it read."""

    phrase: str


@dataclass(frozen=True)
class AttributeTable:
    """The attributes one kind of element takes; ``what`` names the kind in messages ("a Tito piece")."""

    what: str
    attributes: tuple[Attribute, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "attributes", tuple(self.attributes))

    def read(self, attributes: Mapping[str, str], context: Context, *fields: tuple[str, str]) -> Reading:
        """The values read, by name, and the problems, each a phrase to follow the element's name.

        ``fields`` are (name, value) pairs the element holds outside its
        attributes and the table declares too (a piece's type, a hex's area).
        """
        return self.reader(context)(attributes, *fields)

    def reader(self, context: Context) -> Callable[..., Reading]:
        """:meth:`read` for the many elements of one map or save, each distinct value read once.

        A big save repeats a few owners and flags thousands of times.  When
        every attribute the table takes is typed, a whole element's reading
        is remembered, so a repeated element costs one look-up; otherwise
        (a hex's column and row make each hex unique) each typed value's is.
        The memo lives as long as the reader, which the caller keeps for one
        map or save; the readings it hands out are shared, so never change them.
        """
        known = {attribute.name: attribute for attribute in self.attributes}
        required = [attribute for attribute in self.attributes if attribute.required]
        free = {attribute.name for attribute in self.attributes if type(attribute.value) is Text}  # nothing to read
        by_value: dict[tuple[str, str], object] = {}
        by_element: dict[tuple, Reading] | None = None if free else {}

        def read_one(name: str, text: str) -> object:
            attribute = known.get(name)
            if attribute is None:
                takes = ", ".join(known) or "none"
                return _Refusal(f"has an unknown attribute {quote(name)} ({self.what} takes {takes})")
            try:
                return attribute.value.read(text, context)
            except ValueProblem as problem:
                return _Refusal(_with_detail(f"has {name}={quote(text)}; it takes {problem.expected}", problem))

        def read_items(items: tuple[tuple[str, str], ...]) -> Reading:
            values: dict[str, object] = {}
            problems: list[str] = []
            for item in items:
                if item[0] in free:  # a name or grid number: one per element, not worth remembering
                    values[item[0]] = item[1]
                    continue
                value = by_value.get(item, _UNREAD)
                if value is _UNREAD:
                    value = by_value[item] = read_one(*item)
                if type(value) is _Refusal:
                    problems.append(value.phrase)
                else:
                    values[item[0]] = value
            if required:
                given = {name for name, _text in items} if problems else values
                problems.extend(f"has no {attribute.name}=; it takes {attribute.value.expected}"
                                for attribute in required if attribute.name not in given)
            return values, problems

        def read(attributes: Mapping[str, str], *fields: tuple[str, str]) -> Reading:
            items = (*fields, *attributes.items())
            if by_element is None:
                return read_items(items)
            reading = by_element.get(items)
            if reading is None:
                reading = by_element[items] = read_items(items)
            return reading

        return read


POSITION_FIELDS = ("turn", "phase", "phasing", "scenario")


def read_position(table: AttributeTable, position: Position) -> tuple[dict[str, object], list[Problem]]:
    """The position's own turn, phase, phasing and scenario as ``table`` declares them; problems at its line.

    Only the fields the table names are read (a game that leaves the phase to
    its checks does not list it); an empty field counts as not given.
    """
    declared = {attribute.name for attribute in table.attributes}
    given = {name: getattr(position, name) for name in POSITION_FIELDS if name in declared and getattr(position, name)}
    values, problems = table.read(given, Context(position.map))
    return values, [(position.line, f"the position {problem}") for problem in problems]
