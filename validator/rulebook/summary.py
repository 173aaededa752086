"""What an import reports: counts, unresolved references, text not placed, repairs."""

from __future__ import annotations

from collections import defaultdict

from validator.rulebook.model import Rulebook
from validator.wording import plural, plural_of

# What a rulebook is counted in, by key of ``Rulebook.counts()``, with the noun for
# one.  The import summary, the front page and the table of contents all count
# and name these parts through this table.
COUNTED_PARTS = (("sections", "section"), ("cases", "case"), ("items", "lettered item"))


def counted_parts(counts: dict[str, int]) -> list[str]:
    """The sections, cases and lettered items of ``counts``: "2 sections", "1 case", ..."""
    return [plural(counts[key], noun) for key, noun in COUNTED_PARTS]


def parts_sentence(counts: dict[str, int]) -> str:
    """The parts counted as a phrase: "2 sections, 66 cases and 42 lettered items"."""
    phrases = counted_parts(counts)
    return ", ".join(phrases[:-1]) + " and " + phrases[-1]


def unresolved_citations(book: Rulebook) -> dict[str, list[str]]:
    """Each unresolved target with the cases that cite it, in case order."""
    citing: dict = defaultdict(list)
    for case, _block, reference in book.references():
        if not reference.resolved and str(case.number) not in citing[reference.target]:
            citing[reference.target].append(str(case.number))
    return {str(target): citing[target] for target in sorted(citing)}


def as_json(book: Rulebook) -> dict:
    return {
        "game": book.game,
        "sources": book.sources,
        "counts": book.counts(),
        "unresolved": [
            {"to": target, "cited_in": cases} for target, cases in unresolved_citations(book).items()
        ],
        "unplaced": [unplaced.__dict__ for unplaced in book.unplaced],
        "repairs": book.repairs,
    }


def as_text(book: Rulebook) -> str:
    counts = book.counts()
    lines = [
        f"Imported the {book.game} rulebook from {', '.join(book.sources)}.",
        *(f"  {plural_of(noun) + ':':17}{counts[key]}" for key, noun in COUNTED_PARTS),
        f"  tables:          {counts['tables']}",
        f"  references:      {counts['resolved']} resolved, {counts['unresolved']} unresolved",
    ]
    for target, cases in unresolved_citations(book).items():
        lines.append(f"    unresolved {target}: cited in {', '.join(cases)}")
    if book.unplaced:
        lines.append(f"  text not placed: {len(book.unplaced)}")
        for unplaced in book.unplaced:
            lines.append(f"    {unplaced.source} line {unplaced.line}: {unplaced.reason}: {unplaced.text[:60]!r}")
    else:
        lines.append("  text not placed: none")
    if book.repairs:
        lines.append(f"  repairs from fixups: {len(book.repairs)}")
        lines.extend(f"    {repair}" for repair in book.repairs)
    return "\n".join(lines)
