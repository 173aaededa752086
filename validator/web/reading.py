"""The shapes the rules pages render, built from a rulebook or a case index.

A case page shows a case with its whole subtree in reading order: the case's
blocks, with each lettered item drawn in place where its parent's text names
it, then the child cases.  A contents page shows the cases nested by parent.
Templates only walk these shapes; every decision about order and placement is
made here, where it can be tested without HTML.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from validator.cases import CaseNumber
from validator.rulebook.model import BULLET, ITEM, Block, Case, Reference, Rulebook
from validator.rules import Check, RuleSet

Index = dict[CaseNumber, str]  # the plugin's short titles by case number


@dataclass(frozen=True)
class Title:
    """A case's title: the book's own, or Referee's short title when the book gives none."""

    text: str
    ours: bool = False


def title_of(number: CaseNumber, book_title: str, index: Index) -> Title:
    if book_title:
        return Title(book_title)
    if number in index:
        return Title(index[number], ours=True)
    return Title("")


def is_linked(book: Rulebook, reference: Reference) -> bool:
    """A reference becomes a link only when it resolved to a case the book holds.

    The second test keeps every link alive even if a resolved target was
    later dropped from the book (for example by a fixup).
    """
    return reference.resolved and reference.target in book.cases


@dataclass
class Part:
    """A run of a case's text: one block, a list of bullets, or a lettered item in place."""

    kind: str  # "block", "bullets" or "item"
    blocks: list[Block]
    item: CaseView | None = None


@dataclass
class CaseView:
    """A case as its page draws it: title, text in parts, the cases below, its checks."""

    case: Case
    title: Title
    parts: list[Part]
    children: list[CaseView]
    checks: list[Check]

    @property
    def number(self) -> CaseNumber:
        return self.case.number


def case_view(book: Rulebook, number: CaseNumber, index: Index, rules: RuleSet) -> CaseView:
    """The case at ``number`` with its subtree, ready to render."""
    children_of = _children_by_parent(book)
    shown: set[CaseNumber] = set()  # draws every case once, even if two slots name one item

    def build(case: Case) -> CaseView:
        shown.add(case.number)

        def item_in_place(block: Block) -> CaseView | None:
            if block.kind == ITEM and block.item in book.cases and block.item not in shown:
                return build(book.cases[block.item])
            return None

        parts = _parts(case.blocks, item_in_place)
        children = [
            build(child) for child in children_of.get(case.number, []) if child.number not in shown
        ]
        title = title_of(case.number, case.title, index)
        return CaseView(case, title, parts, children, rules.enforcing(case.number))

    return build(book.cases[number])


def front_matter_parts(book: Rulebook) -> list[Part]:
    """The text before the first case, bullets grouped as in a case."""
    return _parts(book.front_matter, lambda block: None)


def walk(view: CaseView) -> Iterator[CaseView]:
    """Every case of a view in the order the page shows them."""
    yield view
    for part in view.parts:
        if part.item is not None:
            yield from walk(part.item)
    for child in view.children:
        yield from walk(child)


@dataclass(frozen=True)
class Target:
    """A number the shown text refers to, and whether there is a case to link to."""

    number: CaseNumber
    title: Title
    linked: bool


def links_out(book: Rulebook, view: CaseView, index: Index) -> list[Target]:
    """Each distinct number the shown cases refer to, in case order."""
    linked: dict[CaseNumber, bool] = {}
    for shown in walk(view):
        for block in shown.case.blocks:
            for reference in block.references:
                linked[reference.target] = linked.get(reference.target, False) or is_linked(
                    book, reference
                )
    targets = []
    for number, is_case in sorted(linked.items()):
        title = title_of(number, book.cases[number].title if is_case else "", index)
        targets.append(Target(number, title, is_case))
    return targets


@dataclass(frozen=True)
class Unresolved:
    """A number the book refers to but does not hold, who cites it, and the closest case."""

    number: CaseNumber
    cited_by: list[Case]
    nearest: Case | None


def unresolved(book: Rulebook) -> list[Unresolved]:
    citing: dict[CaseNumber, dict[CaseNumber, Case]] = {}
    for case, _block, reference in book.references():
        if not is_linked(book, reference):
            citing.setdefault(reference.target, {}).setdefault(case.number, case)
    return [
        Unresolved(number, [cases[key] for key in sorted(cases)], book.nearest_existing(number))
        for number, cases in sorted(citing.items())
    ]


@dataclass
class Entry:
    """A line naming a case (contents, breadcrumb, neighbours), with the lines nested under it."""

    number: CaseNumber
    title: Title
    children: list[Entry] = field(default_factory=list)


def book_entry(book: Rulebook, number: CaseNumber, index: Index) -> Entry:
    return Entry(number, title_of(number, book.cases[number].title, index))


def index_entry(number: CaseNumber, index: Index) -> Entry:
    return Entry(number, Title(index[number], ours=True))


def book_contents(book: Rulebook, index: Index) -> list[Entry]:
    """The book's cases nested by parent; a case whose parent is missing stands at the top."""

    def parent_of(number: CaseNumber) -> CaseNumber | None:
        parent = book.cases[number].parent
        return parent if parent in book.cases else None

    return _nest(sorted(book.cases), parent_of, lambda number: book_entry(book, number, index))


def index_contents(index: Index) -> list[Entry]:
    """The plugin's case index, each case under its nearest indexed ancestor."""
    return _nest(
        sorted(index),
        lambda number: index_parent(number, index),
        lambda number: index_entry(number, index),
    )


def index_parent(number: CaseNumber, index: Index) -> CaseNumber | None:
    return next((ancestor for ancestor in number.ancestors() if ancestor in index), None)


def nearest_entry(number: CaseNumber, book: Rulebook | None, index: Index) -> Entry | None:
    """The closest case at or above ``number``: in the book, or in the index before import."""
    if book is not None:
        found = book.nearest_existing(number)
        return book_entry(book, found.number, index) if found else None
    listed = [candidate for candidate in [number, *number.ancestors()] if candidate in index]
    return index_entry(listed[0], index) if listed else None


def _parts(blocks: list[Block], item_in_place: Callable[[Block], CaseView | None]) -> list[Part]:
    """Blocks in reading order, consecutive bullets joined into one list."""
    parts: list[Part] = []
    for block in blocks:
        item = item_in_place(block)
        if item is not None:
            parts.append(Part("item", [block], item))
        elif block.kind == BULLET and parts and parts[-1].kind == "bullets":
            parts[-1].blocks.append(block)
        else:
            parts.append(Part("bullets" if block.kind == BULLET else "block", [block]))
    return parts


def _children_by_parent(book: Rulebook) -> dict[CaseNumber, list[Case]]:
    children: dict[CaseNumber, list[Case]] = {}
    for case in book.ordered():
        if case.parent is not None:
            children.setdefault(case.parent, []).append(case)
    return children


def _nest(
    numbers: list[CaseNumber],
    parent_of: Callable[[CaseNumber], CaseNumber | None],
    entry: Callable[[CaseNumber], Entry],
) -> list[Entry]:
    entries = {number: entry(number) for number in numbers}
    top: list[Entry] = []
    for number in numbers:
        parent = parent_of(number)
        (entries[parent].children if parent is not None else top).append(entries[number])
    return top
