"""Case numbers of the SPI case system, as one value type used everywhere.

Two spellings occur in the rulebooks:

* compact: ``6.21``, ``11.353E`` -- one digit per level after the point
  (``11.353`` is section 11, primary case 3, secondary 5, tertiary 3);
* dotted: ``15.4.1.1`` -- one number per level, separated by points.

Both give the same list of levels, so ``11.353`` and ``11.3.5.3`` sit at the
same place in the order, but they are different numbers with different
canonical strings: a rulebook uses one spelling and a reference is matched in
the spelling it was written in.  Numbers of one or two levels (``6``,
``6.2``) read the same either way and carry no spelling.

A major section heading printed ``6.0`` is the section ``6`` itself: the
``.0`` says "the section as a whole", not a case numbered zero.  So
``CaseNumber("6.0") == CaseNumber("6")`` and the canonical string is ``6``.
A lettered item (``7.44E``) is a child of its case (``7.44``); a letter
directly on a section (``13A``, from a procedure under ``13.0``) is allowed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import total_ordering

_PATTERN = re.compile(
    r"""^\s*
    (?P<major>\d{1,3})
    (?:
        \.(?P<rest>\d+(?:\.\d+)*)(?P<letter>[A-Za-z])?   # 6.21  11.353E  15.4.1.1
      | \.                                          # "44." as printed for a section
      | (?P<section_letter>[A-Za-z])                # 13A: an item directly on a section
    )?
    \s*$""",
    re.VERBOSE,
)


MAX_LENGTH = 32  # far beyond any real case number; keeps hostile input cheap
Fields = tuple  # (levels, letter, dotted) of a CaseNumber, hashed and compared in C


class CaseNumberError(ValueError):
    """The text is not a case number."""


@total_ordering
@dataclass(frozen=True, slots=True)
class CaseNumber:
    """A parsed case number: its levels, an optional item letter, its spelling."""

    levels: tuple[int, ...]
    letter: str = ""
    dotted: bool = False

    def __post_init__(self) -> None:
        levels = self.levels
        below = levels[1:]  # min and max, not a generator per level: a report's coverage makes hundreds of these
        if not levels or min(levels) < 0:
            raise CaseNumberError(f"a case number needs at least one level, not {self.levels!r}")
        if self.letter and not (len(self.letter) == 1 and "A" <= self.letter <= "Z"):
            raise CaseNumberError(f"an item letter is one capital letter, not {self.letter!r}")
        if len(levels) < 3 and self.dotted and max(below, default=0) <= 9:
            object.__setattr__(self, "dotted", False)
        if not self.dotted and max(below, default=0) > 9:
            raise CaseNumberError(
                f"levels {self.levels!r} need the dotted spelling (a level above 9)"
            )

    @classmethod
    def parse(cls, text: str) -> CaseNumber:
        """Read ``6``, ``6.0``, ``6.21``, ``11.353E``, ``15.4.1.1`` and the like."""
        match = _PATTERN.match(text) if len(text) <= MAX_LENGTH else None
        if not match:
            raise CaseNumberError(f"{text.strip()!r} is not a case number")
        levels = [int(match["major"])]
        rest = match["rest"]
        dotted = False
        if rest is not None:
            if "." in rest:
                dotted = True
                levels.extend(map(int, rest.split(".")))
            else:
                levels.extend(map(int, rest))
        if len(levels) == 2 and levels[1] == 0:
            levels.pop()  # "6.0" is section 6 itself
        letter = match["letter"] or match["section_letter"] or ""
        return cls(tuple(levels), letter.upper(), dotted and len(levels) >= 3)

    @classmethod
    def try_parse(cls, text: str) -> CaseNumber | None:
        try:
            return cls.parse(text)
        except CaseNumberError:
            return None

    @property
    def is_section(self) -> bool:
        """A major section such as ``6`` (printed ``6.0``)."""
        return len(self.levels) == 1 and not self.letter

    @property
    def is_item(self) -> bool:
        return bool(self.letter)

    @property
    def parent(self) -> CaseNumber | None:
        """The number one level up: 11.353E -> 11.353 -> 11.35 -> 11.3 -> 11."""
        if self.letter:
            return CaseNumber(self.levels, "", self.dotted)
        if len(self.levels) == 1:
            return None
        return CaseNumber(self.levels[:-1], "", self.dotted)

    def ancestors(self) -> list[CaseNumber]:
        """Every number above this one, nearest first."""
        chain = []
        current = self.parent
        while current is not None:
            chain.append(current)
            current = current.parent
        return chain

    def is_within(self, other: CaseNumber) -> bool:
        """True for the number itself and every number below it."""
        return self == other or other in self.ancestors()

    def child(self, level: int) -> CaseNumber:
        return CaseNumber(self.levels + (level,), "", self.dotted or level > 9)

    def item(self, letter: str) -> CaseNumber:
        return CaseNumber(self.levels, letter.upper(), self.dotted)

    def __str__(self) -> str:
        head = str(self.levels[0])
        rest = self.levels[1:]
        if rest:
            separator = "." if self.dotted else ""
            head += "." + separator.join(str(level) for level in rest)
        return head + self.letter

    @property
    def anchor(self) -> str:
        """An HTML id and URL fragment: ``c11-353E``, ``c15-4-1-1``."""
        return "c" + str(self).replace(".", "-")

    @property
    def fields(self) -> Fields:
        """The number as a plain tuple, ``CaseNumber(*fields)`` again: equal exactly when the numbers are equal."""
        return (self.levels, self.letter, self.dotted)

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, CaseNumber):
            return NotImplemented
        return self.fields < other.fields

    def __repr__(self) -> str:
        return f"CaseNumber('{self}')"


def parent_fields(fields: Fields) -> Fields | None:
    """The fields of :attr:`CaseNumber.parent` from a number's fields, making no number.

    A report's coverage walks every case of an index up to its section; each
    number made checks its fields, and these come from numbers already checked.
    """
    levels, letter, dotted = fields
    if letter:
        return (levels, "", dotted)
    if len(levels) == 1:
        return None
    up = levels[:-1]
    return (up, "", dotted and (len(up) >= 3 or max(up[1:], default=0) > 9))
