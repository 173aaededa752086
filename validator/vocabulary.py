"""A game's words, for matching a module's names to them: the game contract's ``vocabulary`` (docs/game-contract.md).

``referee vassal mapping draft`` reads what a VASSAL module names (piece
names, images, palette folders, global properties) and what a club writes in
a map skeleton's tables, and must know each game's own words to match them
exactly: which words name a unit kind or a nation, which facts and position
attributes a save may give, which values a hex or area column takes.  A game
gives them in one :class:`Vocabulary`, so the draft and the skeleton know no
game.  Words are normalised as the draft normalises names: lower case, runs
of letters and digits, several words joined by ``-`` (``west-germany``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from validator.facts import AttributeTable, FactTable

PIECE_SOURCES = ("name", "image", "folder", "prototypes")
"""What of a piece the draft reads words in: its name, its image's file name, its palette folders, its prototypes."""


def _nothing() -> Mapping[str, str]:
    return MappingProxyType({})


def _read_only(value: object, *names: str) -> None:
    """A game's tables stay as it gave them: a frozen value holds read-only copies (docs/game-contract.md)."""
    for name in names:
        object.__setattr__(value, name, MappingProxyType(dict(getattr(value, name))))


@dataclass(frozen=True)
class PieceWords:
    """Words that name one attribute of a piece (its kind, its nation), as modules abbreviate them.

    A piece gets the value when the sources that name any give the same one,
    and none names two: the draft guesses nothing.
    """

    attribute: str
    """Our piece attribute the value goes to (``type``, ``nationality``, ``owner``, ``side``, ``size``)."""
    table: str
    """The drafted ``<table>`` that lists each piece name with its value (``piece-types``)."""
    words: Mapping[str, str]
    """A normalised word or phrase (``inf``, ``west-germany``) to our value."""
    sources: tuple[str, ...] = ("name", "image")
    """Which of :data:`PIECE_SOURCES` are read."""
    fallback: tuple[str, ...] = ("prototypes",)
    """Sources read only when those name nothing: a slot's prototypes name broad classes (``Naval``, ``Axis``)."""
    required: bool = True
    """A piece the sources give no value is left out (marked todo); otherwise the attribute is left off."""
    attribute_for_kind: Mapping[str, tuple[str, str]] = field(default_factory=_nothing)
    """Kind -> (attribute, table) the value goes to instead for pieces of that kind (a partisan's builder)."""

    def __post_init__(self) -> None:
        _read_only(self, "words", "attribute_for_kind")


@dataclass(frozen=True)
class KindNeeds:
    """An attribute the pieces of one kind need that no module name gives (an A World at War partisan's home)."""

    kind: str
    attribute: str
    table: str
    """A drafted table keyed by VASSAL piece id, left for the club to fill in."""
    todo: str
    """What to fill in, for the table's ``todo``."""


@dataclass(frozen=True)
class Implied:
    """A skeleton value that says another column's value (A World at War's terrain ``sea`` is a sea hex).

    The read-back writes the implied value when its column is empty and
    refuses a row where the two disagree.
    """

    column: str
    value: str
    implies: str
    implied: str


@dataclass(frozen=True)
class Vocabulary:
    """Everything the draft and the skeleton match against for one game; docs/game-contract.md says each part."""

    kind: PieceWords
    """The unit kinds: read first, since another attribute may go elsewhere for a kind."""
    attributes: tuple[PieceWords, ...] = ()
    """The other attributes a piece's names may give (its nation, its side, its size)."""
    kind_needs: tuple[KindNeeds, ...] = ()
    position: AttributeTable | None = None
    """The position attributes (turn, phase, phasing) a save takes, with their value types."""
    position_needed: tuple[str, ...] = ()
    """Position attributes a save needs: drafted as stand-ins marked todo when no property holds one."""
    facts: FactTable | None = None
    names: Mapping[str, str] = field(default_factory=_nothing)
    """Other normalised names a module may give a fact's or a position attribute's global property (``vp``)."""
    hex_columns: tuple[str, ...] = ()
    """A hex game's map skeleton columns, for the club to fill in (none: the game's map is not drafted as hexes)."""
    area_columns: tuple[str, ...] = ()
    """The area table's columns after ``id`` and ``name`` (``part-of``)."""
    hexes: AttributeTable | None = None
    """The hex attributes a map skeleton's table may fill in, with the values each takes."""
    areas: AttributeTable | None = None
    """The area attributes (``part-of``) an area table may fill in."""
    implied: tuple[Implied, ...] = ()
    known_areas: tuple[str, ...] = ()
    """Area ids the game's rules name (its countries): an area table's other areas are reported, not refused."""
    area_parent: str = ""
    """The area column that makes an area part of another (``part-of``), followed to a known area."""

    def __post_init__(self) -> None:
        _read_only(self, "names")


__all__ = ["Implied", "KindNeeds", "PIECE_SOURCES", "PieceWords", "Vocabulary"]
