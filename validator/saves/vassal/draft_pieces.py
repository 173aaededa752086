"""A piece name's kind and other attributes, read from its words as the game's vocabulary names them.

Matching is exact (docs/vassal-mapping.md, "Drafting a mapping"): the words
of a piece's name, image, palette folders and, only when those name
nothing, its prototypes (runs of letters and digits in lower case; a phrase
of the vocabulary before its words) are looked up in each of the game's
tables, and the sources that name a value must name the same one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from validator.vocabulary import PieceWords, Vocabulary

_WORD = re.compile(r"[a-z0-9]+")
LONGEST_PHRASE = 4
"""Most words a vocabulary phrase (``united-arab-emirates``) runs to."""


def normalised(text: str) -> str:
    return "-".join(_WORD.findall(text.lower()))


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def phrases_found(text: str, table: Mapping[str, str]) -> set[str]:
    """The values of the table's words and phrases in the text, the longest phrase first at each word."""
    found: set[str] = set()
    listed, index = words(text), 0
    while index < len(listed):
        for length in range(min(LONGEST_PHRASE, len(listed) - index), 0, -1):
            phrase = "-".join(listed[index:index + length])
            if phrase in table:
                found.add(table[phrase])
                index += length
                break
        else:
            index += 1
    return found


@dataclass(frozen=True)
class PieceClass:
    """What the draft found for one piece name: its kind and the other attributes its names give."""

    name: str
    kind: str | None
    kind_from: str
    """``name``, ``image``, ``name and image``, or why no kind was found."""
    values: Mapping[str, str]
    """Attribute -> value, for each other attribute of the vocabulary the names give."""
    missing: tuple[str, ...]
    """Required attributes the names do not give (and why), so the piece is left out."""

    def value(self, attribute: str) -> str | None:
        return self.values.get(attribute)


def _texts(name: str, image: str, folder: str, prototypes: str) -> dict[str, str]:
    return {"name": name, "image": re.sub(r"\.[A-Za-z]+$", "", image), "folder": folder, "prototypes": prototypes}


def find_value(piece_words: PieceWords, texts: Mapping[str, str]) -> tuple[str | None, str]:
    """The attribute's value when the sources naming any name the same one, and why not otherwise.

    The fallback sources (a slot's prototypes: broader, ``Naval`` for a
    submarine) are read only when the others name nothing.
    """
    value, why = _agreed(piece_words.attribute, piece_words.sources, piece_words.words, texts)
    if value is None and why is None and piece_words.fallback:
        value, why = _agreed(piece_words.attribute, piece_words.fallback, piece_words.words, texts)
    if value is None and why is None:
        article = "an" if piece_words.attribute[:1] in "aeiou" else "a"
        sources = " or ".join((*piece_words.sources, *piece_words.fallback))
        why = f"no word of its {sources} names {article} {piece_words.attribute}"
    return value, why


def _agreed(attribute: str, sources: tuple[str, ...], table: Mapping[str, str], texts: Mapping[str, str]
            ) -> tuple[str | None, str | None]:
    """(value, from which sources), (None, why not), or (None, None) when no source names any."""
    named = {source: phrases_found(texts.get(source, ""), table) for source in sources}
    several = [source for source, values in named.items() if len(values) > 1]
    if several:
        return None, f"its {several[0]} names more than one {attribute}"
    given = {source: next(iter(values)) for source, values in named.items() if values}
    if len(set(given.values())) > 1:
        (first, one), (second, other) = list(given.items())[:2]
        return None, f"its {first} says {one} but its {second} says {other}"
    if not given:
        return None, None
    return next(iter(given.values())), " and ".join(given)


def one_class(name: str, classes: list[PieceClass]) -> PieceClass:
    """A name that several piece slots carry is one piece type only when they all say the same of it."""
    if all((c.kind, c.values, c.missing) == (classes[0].kind, classes[0].values, classes[0].missing)
           for c in classes):
        return classes[0]
    return PieceClass(name, None, f"its {len(classes)} piece slots (in other folders or with other images) say "
                                  "different things of it", {}, ())


def classify(name: str, image: str, folder: str, vocabulary: Vocabulary | None, prototypes: str = "") -> PieceClass:
    """A piece name's kind and other attributes, found only where the words say them plainly.

    ``folder`` is the palette path (``Counters / Units / Britain``) and
    ``prototypes`` the names of the prototypes the slot uses, as one text.
    """
    if vocabulary is None:
        return PieceClass(name, None, "the game has no vocabulary to match names against", {}, ())
    texts = _texts(name, image, folder, prototypes)
    kind, kind_from = find_value(vocabulary.kind, texts)
    values: dict[str, str] = {}
    missing: list[str] = []
    for piece_words in vocabulary.attributes:
        value, why = find_value(piece_words, texts)
        if value is not None:
            values[piece_words.attribute] = value
        elif piece_words.required and kind not in piece_words.attribute_for_kind:
            missing.append(f"no {piece_words.attribute}: {why}")
    return PieceClass(name, kind, kind_from, values, tuple(missing))


__all__ = ["PieceClass", "classify", "find_value", "normalised", "one_class", "phrases_found", "words"]
