"""Counted words in messages: "1 closed hex", "3 closed hexes", "1 unit stands", "2 units stand".

A message that writes "unit(s)" leaves the grammar to the reader; with these
helpers a check says what it counted in the form the number takes.  Only the
regular English plural is built; a noun that does not follow it ("corps")
is given its plural by the caller.
"""

from __future__ import annotations

_HISSING_ENDINGS = ("s", "x", "z", "ch", "sh")
_VOWELS = "aeiou"


def plural_of(noun: str) -> str:
    """The regular plural of a noun phrase, made on its last word: hex -> hexes, territory -> territories."""
    head, space, last = noun.rpartition(" ")
    if last.endswith(_HISSING_ENDINGS):
        last += "es"
    elif len(last) > 1 and last.endswith("y") and last[-2].lower() not in _VOWELS:
        last = last[:-1] + "ies"
    else:
        last += "s"
    return head + space + last


def noun_for(count, noun: str, many: str | None = None) -> str:
    """The noun alone in the form ``count`` takes: singular for exactly one, plural for any other number."""
    return noun if count == 1 else (many or plural_of(noun))


def plural(count, noun: str, many: str | None = None) -> str:
    """The count followed by its noun: "1 closed hex", "0 closed hexes", "2 Soviet corps" (with ``many``)."""
    return f"{count} {noun_for(count, noun, many)}"


def verb_for(count, one: str, many: str) -> str:
    """The verb that agrees with ``count``: verb_for(1, "stands", "stand") is "stands"."""
    return one if count == 1 else many
