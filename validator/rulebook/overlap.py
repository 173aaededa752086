"""How far an imported text matches the case index of the plugin game it is imported under.

A rulebook imported under a plugin game takes on the plugin's short titles
and stands beside its checks, so a text that is not that game's rulebook
must not pass for it quietly.  The numbered cases of the text (sections and
cases; the index lists no lettered items) are compared with the index:

* when under half of the text's cases are in the index, the text is most
  likely another game's, and the import is refused unless forced;
* when the index has cases the text lacks (one chapter of several), the
  import goes ahead with a note naming them.
"""

from __future__ import annotations

from dataclasses import dataclass

from validator.cases import CaseNumber
from validator.games import IndexEntry
from validator.rulebook.model import Rulebook
from validator.wording import plural


@dataclass(frozen=True)
class Overlap:
    """The numbered cases of a text beside those of a game's case index."""

    game: str
    text_cases: frozenset[CaseNumber]
    index_cases: frozenset[CaseNumber]

    @property
    def known(self) -> frozenset[CaseNumber]:
        """The text's cases the index lists too."""
        return self.text_cases & self.index_cases

    @property
    def missing(self) -> list[CaseNumber]:
        """The index's cases the text lacks, in case order."""
        return sorted(self.index_cases - self.text_cases)

    @property
    def mostly_unknown(self) -> bool:
        """Under half of the text's cases are in the index: the text is probably not this game's."""
        return len(self.known) * 2 < len(self.text_cases)

    def missing_parts(self) -> list[str]:
        """The missing cases in case order, a case whose whole subtree is missing standing for it.

        "3 (and the 12 cases under it)" when the text lacks section 3 and all
        of it; a case missing while some below it are present is named alone.
        """
        missing = set(self.missing)
        below: dict[CaseNumber, list[CaseNumber]] = {}
        for number in self.index_cases:
            for above in number.ancestors():
                below.setdefault(above, []).append(number)
        parts: list[str] = []
        whole: set[CaseNumber] = set()
        for number in self.missing:
            if any(above in whole for above in number.ancestors()):
                continue
            under = below.get(number, [])
            if under and all(case in missing for case in under):
                whole.add(number)
                cases = "case" if len(under) == 1 else plural(len(under), "case")
                parts.append(f"{number} (and the {cases} under it)")
            else:
                parts.append(str(number))
        return parts

    def refusal(self) -> str:
        """Why an import is refused, and the two ways on."""
        return (
            f"{self._known_phrase()}, so this does not look like the {self.game} rulebook; import it as a "
            'game of its own (referee games add ID --title "TITLE", then referee rules import ID FILE...), '
            f"or give --force to import it as {self.game} anyway."
        )

    def forced_note(self) -> str:
        """The note for a text imported with --force although the index knows it little, or ""."""
        if not self.mostly_unknown:
            return ""
        return f"Note: {self._known_phrase()}; it was imported as {self.game} because of --force."

    def _known_phrase(self) -> str:
        known = len(self.known)
        return (
            f"only {known} of the text's {plural(len(self.text_cases), 'case number')} "
            f"{'is' if known == 1 else 'are'} in the {self.game} case index of {plural(len(self.index_cases), 'case')}"
        )

    def missing_note(self) -> str:
        """The note for a partial import, or "" when the text holds every case of the index."""
        if not self.missing:
            return ""
        return (
            f"Note: this text lacks {len(self.missing)} of the {plural(len(self.index_cases), 'case')} of the "
            f"{self.game} case index: {', '.join(self.missing_parts())}."
        )

    def as_json(self) -> dict:
        return {
            "text_cases": len(self.text_cases),
            "index_cases": len(self.index_cases),
            "known": len(self.known),
            "missing": [str(number) for number in self.missing],
        }


def of_book(game: str, book: Rulebook, index: list[IndexEntry]) -> Overlap:
    """The overlap of an imported book's numbered cases with a game's case index."""
    return Overlap(
        game,
        frozenset(case.number for case in book.cases.values() if case.kind != "item"),
        frozenset(entry.number for entry in index),
    )
