"""The imported rulebook as plain values: cases, their blocks, references.

The importer builds these, the store saves and loads them, the pages and the
CLI read them.  Nothing here parses text or touches a database.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from validator.cases import CaseNumber

# Block kinds, in the words the templates use.
PARAGRAPH = "paragraph"
GENERAL_RULE = "general-rule"
PROCEDURE = "procedure"
HEADING = "heading"
BULLET = "bullet"
TABLE = "table"
ITEM = "item"  # the place where a lettered item stands in its case's text


@dataclass(frozen=True)
class Reference:
    """A cross-reference found in a block: ``text[start:end]`` names ``target``."""

    start: int
    end: int
    target: CaseNumber
    resolved: bool = False


@dataclass(frozen=True)
class TablePart:
    """One table of a table block; a flattened table may hold several."""

    title: str = ""
    groups: tuple[str, ...] = ()  # a spanning header row whose spans the text does not give
    header: tuple[str, ...] = ()
    rows: tuple[tuple[str, ...], ...] = ()


@dataclass
class Block:
    """A paragraph, bullet, table or item slot in a case, in reading order."""

    kind: str
    text: str = ""
    depth: int = 0  # nesting of bullets and numbered lines
    references: list[Reference] = field(default_factory=list)
    table: tuple[TablePart, ...] = ()
    item: CaseNumber | None = None
    line: int = 0  # first source line, for messages

    def segments(self) -> list[tuple[str, Reference | None]]:
        """The text cut into plain runs and references, for rendering with links."""
        pieces: list[tuple[str, Reference | None]] = []
        position = 0
        for reference in sorted(self.references, key=lambda found: found.start):
            if reference.start > position:
                pieces.append((self.text[position : reference.start], None))
            pieces.append((self.text[reference.start : reference.end], reference))
            position = reference.end
        if position < len(self.text):
            pieces.append((self.text[position:], None))
        return pieces


@dataclass
class Case:
    """A numbered section, case or lettered item with its text."""

    number: CaseNumber
    label: str  # as printed: "6.0", "11.353", "A"
    title: str = ""
    kind: str = "case"  # "section", "case" or "item"
    parent: CaseNumber | None = None
    blocks: list[Block] = field(default_factory=list)
    source: str = ""
    line: int = 0
    notes: list[str] = field(default_factory=list)  # repairs and flags from fixups


@dataclass(frozen=True)
class Unplaced:
    """Source text the importer dropped or could not attach, and why."""

    source: str
    line: int
    text: str
    reason: str


@dataclass
class Rulebook:
    """A game's imported rulebook: every case by number, plus what surrounds them."""

    game: str
    sources: list[str] = field(default_factory=list)
    cases: dict[CaseNumber, Case] = field(default_factory=dict)
    front_matter: list[Block] = field(default_factory=list)
    unplaced: list[Unplaced] = field(default_factory=list)
    repairs: list[str] = field(default_factory=list)
    imported_at: str = ""

    def ordered(self) -> list[Case]:
        return [self.cases[number] for number in sorted(self.cases)]

    def children(self, number: CaseNumber) -> list[Case]:
        return sorted(
            (case for case in self.cases.values() if case.parent == number),
            key=lambda case: case.number,
        )

    def breadcrumb(self, number: CaseNumber) -> list[Case]:
        """The imported ancestors of a case, outermost first."""
        chain = []
        parent = self.cases[number].parent if number in self.cases else None
        while parent is not None:
            chain.append(self.cases[parent])
            parent = self.cases[parent].parent
        return list(reversed(chain))

    def neighbours(self, number: CaseNumber) -> tuple[Case | None, Case | None]:
        """The previous and next case in case order."""
        numbers = sorted(self.cases)
        index = numbers.index(number)
        previous = self.cases[numbers[index - 1]] if index > 0 else None
        following = self.cases[numbers[index + 1]] if index + 1 < len(numbers) else None
        return previous, following

    def references(self) -> list[tuple[Case, Block, Reference]]:
        """Every reference with the case and block holding it, in case order."""
        found = []
        for case in self.ordered():
            for block in case.blocks:
                found.extend((case, block, reference) for reference in block.references)
        return found

    def cited_by(self, number: CaseNumber) -> list[Case]:
        """The cases whose text refers to this number, each once."""
        citing: dict[CaseNumber, Case] = {}
        for case, _block, reference in self.references():
            if reference.target == number and case.number != number:
                citing.setdefault(case.number, case)
        return [citing[key] for key in sorted(citing)]

    def nearest_existing(self, number: CaseNumber) -> Case | None:
        """The closest imported case at or above a number, for unresolved references."""
        for candidate in [number, *number.ancestors()]:
            if candidate in self.cases:
                return self.cases[candidate]
        return None

    def counts(self) -> dict[str, int]:
        references = [reference for _case, _block, reference in self.references()]
        return {
            "sections": sum(case.kind == "section" for case in self.cases.values()),
            "cases": sum(case.kind == "case" for case in self.cases.values()),
            "items": sum(case.kind == "item" for case in self.cases.values()),
            "tables": sum(
                block.kind == TABLE for case in self.cases.values() for block in case.blocks
            ),
            "references": len(references),
            "resolved": sum(reference.resolved for reference in references),
            "unresolved": sum(not reference.resolved for reference in references),
            "unplaced": len(self.unplaced),
        }
