"""Declared facts and attributes: a game says what its saves may hold, the core checks it.

A game lists its facts (``<fact name=... value=...>``) and the attributes of
its pieces, areas, displays and hexes as tables of :class:`Fact` and
:class:`Attribute`, each with a value type from the small vocabulary below.
The core reads every value, writes the standard message with the line it
came from, and hands the plugin the values already read.  What stays in a
plugin is what no table can say: rules that tie two values together.

The vocabulary, as jsonschema has its keywords:

========================  =====================================================
``Word(choices)``         one word of a fixed set (or of a set the map gives)
``Count(minimum, most)``  a whole number in ASCII digits; leading zeros allowed
``Turn(first, last)``     a turn number within the game's range
``Boolean()``             ``true`` or ``false``
``MapReference(kind)``    the id of an area, display, hex or location of the map
``Words(first, ...)``     several space-separated words, each of its own type
``Either(a, b)``          a value of the first type that reads it
========================  =====================================================
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator, Mapping, Protocol

from validator.model import MapData, Position
from validator.numbers import is_ascii_digits
from validator.quoting import quote

Problem = tuple[int, str]
LONGEST_COUNT = 6  # significant digits: beyond any count a game keeps


class ValueProblem(ValueError):
    """A value its type cannot read; the argument says what was expected."""


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

    choices: Iterable[str]
    name: str = ""  # "a major power": how messages name the set; else the words are listed
    extra: Callable[[Context], Iterable[str]] | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "choices", tuple(self.choices))

    @property
    def expected(self) -> str:
        return self.name or f"one of {', '.join(self.choices)}"

    def read(self, text: str, context: Context) -> str:
        if text in self.choices or (self.extra is not None and text in self.extra(context)):
            return text
        raise ValueProblem(self.expected)


@dataclass(frozen=True)
class Count:
    """A whole number in ASCII digits from ``minimum`` to ``most``; "060" reads as 60."""

    minimum: int = 0
    most: int = 10**LONGEST_COUNT - 1
    name: str = ""

    @property
    def expected(self) -> str:
        return self.name or f"a whole number from {self.minimum} to {self.most}"

    def read(self, text: str, context: Context) -> int:
        digits = text.lstrip("0") or "0"
        if not (is_ascii_digits(text) and len(digits) <= LONGEST_COUNT):
            raise ValueProblem(self.expected)
        number = int(digits)
        if not self.minimum <= number <= self.most:
            raise ValueProblem(self.expected)
        return number


def Turn(first: int, last: int, name: str = "") -> Count:  # noqa: N802 - reads as a type in a table
    """A turn number of a game whose turns run from ``first`` to ``last``."""
    return Count(first, last, name or f"a turn number ({first} to {last})")


@dataclass(frozen=True)
class Boolean:
    """``true`` or ``false``."""

    expected: str = "true or false"

    def read(self, text: str, context: Context) -> bool:
        if text == "true":
            return True
        if text == "false":
            return False
        raise ValueProblem(self.expected)


MAP_PARTS = {
    "area": ("areas", "an area of the map"),
    "display": ("displays", "a display of the map"),
    "location": ("locations", "a location of the map"),
}


@dataclass(frozen=True)
class MapReference:
    """The id of an area, display or location of the position's map."""

    kind: str  # a key of MAP_PARTS
    name: str = ""

    @property
    def expected(self) -> str:
        return self.name or MAP_PARTS[self.kind][1]

    def read(self, text: str, context: Context) -> str:
        if text in getattr(context.map, MAP_PARTS[self.kind][0]):
            return text
        raise ValueProblem(self.expected)


@dataclass(frozen=True)
class Words:
    """Space-separated words: one of each type in ``parts``, then any number of ``rest``."""

    parts: tuple[ValueType, ...]
    rest: ValueType | None = None
    name: str = ""

    @property
    def expected(self) -> str:
        if self.name:
            return self.name
        named = [part.expected for part in self.parts]
        if self.rest is not None:
            named.append(f"then one or more of {self.rest.expected}")
        return ", ".join(named)

    def read(self, text: str, context: Context) -> tuple:
        words = text.split()
        if len(words) < len(self.parts) + (self.rest is not None) or (self.rest is None and len(words) > len(self.parts)):
            raise ValueProblem(self.expected)
        types = list(self.parts) + [self.rest] * (len(words) - len(self.parts))
        try:
            return tuple(value_type.read(word, context) for value_type, word in zip(types, words))
        except ValueProblem:
            raise ValueProblem(self.expected) from None


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


# -- facts ---------------------------------------------------------------------

ONCE, MANY, KEYED = "once", "many", "keyed"


@dataclass(frozen=True)
class Fact:
    """A fact a save may give: its value type and how often.

    ``repeat`` is ONCE (one value; given again, it must say the same), MANY
    (a list: every value counts), or KEYED (one value per first word: a list
    of countries, each with one conqueror).
    """

    name: str
    value: ValueType
    repeat: str = ONCE
    description: str = ""  # one line for the docs, in our own words


@dataclass(frozen=True)
class FactValue:
    """One value of a fact as the table read it, with the line it came from."""

    text: str
    value: object
    line: int


@dataclass
class FactReading:
    """The facts of one position: values read, by fact name, and the problems found."""

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

    def __post_init__(self) -> None:
        object.__setattr__(self, "facts", tuple(self.facts))

    @property
    def by_name(self) -> Mapping[str, Fact]:
        return {fact.name: fact for fact in self.facts}

    def read(self, position: Position) -> FactReading:
        """Read every fact of ``position``; problems come in the save's order of facts."""
        reading = FactReading()
        known = self.by_name
        context = Context(position.map)
        for name in position.facts:
            fact = known.get(name)
            if fact is None:
                reading.problems.append((position.fact_line(name), (
                    f"the fact {quote(name)} is not {self.what}; the facts are {', '.join(known)}")))
                continue
            reading.values[name] = list(self._values(fact, position, context, reading.problems))
        return reading

    def _values(self, fact: Fact, position: Position, context: Context, problems: list[Problem]) -> Iterator[FactValue]:
        first_by_key: dict[object, FactValue] = {}
        for text, line in position.fact_entries(fact.name):
            try:
                value = fact.value.read(text, context)
            except ValueProblem as problem:
                problems.append((line, f"the fact {quote(fact.name)} takes {problem.args[0]}, not {quote(text)}"))
                continue
            entry = FactValue(text, value, line)
            if fact.repeat != MANY:
                key = value[0] if fact.repeat == KEYED and isinstance(value, tuple) else None
                first = first_by_key.setdefault(key, entry)
                if first.value != value:
                    problems.append((line, (
                        f"the fact {quote(fact.name)} is given as {quote(text)} here and as {quote(first.text)} "
                        f"at line {first.line}; keep the one that holds and remove the other")))
                    continue
            yield entry


# -- attributes ------------------------------------------------------------------


@dataclass(frozen=True)
class Attribute:
    """An attribute of a piece, area, display or hex: its value type, and whether it must be given."""

    name: str
    value: ValueType
    required: bool = False
    description: str = ""


@dataclass(frozen=True)
class AttributeTable:
    """The attributes one kind of element takes; ``what`` names the kind in messages ("a Tito piece")."""

    what: str
    attributes: tuple[Attribute, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "attributes", tuple(self.attributes))

    def read(self, attributes: Mapping[str, str], context: Context) -> tuple[dict[str, object], list[str]]:
        """The values read, by name, and the problems, each a phrase to follow the element's name."""
        known = {attribute.name: attribute for attribute in self.attributes}
        values: dict[str, object] = {}
        problems: list[str] = []
        for name, text in attributes.items():
            attribute = known.get(name)
            if attribute is None:
                problems.append(f"has an unknown attribute {quote(name)} ({self.what} takes {', '.join(known)})")
                continue
            try:
                values[name] = attribute.value.read(text, context)
            except ValueProblem as problem:
                problems.append(f"has {name}={quote(text)}; it takes {problem.args[0]}")
        for attribute in self.attributes:
            if attribute.required and attribute.name not in attributes:
                problems.append(f"needs {attribute.name}= ({attribute.value.expected})")
        return values, problems

