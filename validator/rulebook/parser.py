"""Building sections, cases and lettered items from logical lines.

Where a line of text belongs follows the layout the rulebooks use:

* an unbulleted heading (``6.2 Stacking Restrictions``, ``11.22 MAJOR
  POWERS: ...``) holds every following line until the next heading;
* a bulleted case (``• 6.21 ...``) holds only the lines indented deeper than
  its bullet; a line at its own depth or shallower goes back to the nearest
  unbulleted heading above it (an example after ``• 7.55`` belongs to 7.5);
* a lettered item (``• A. ...`` or ``A. EUROPE: ...``) becomes an item of the
  case it stands in (``11.353E``) when its letter is the next in sequence,
  and likewise holds only deeper lines.

A line's depth is twice its indentation, plus one if it is a bullet or a
numbered list line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from validator.cases import CaseNumber
from validator.rulebook import tables
from validator.rulebook.lines import BULLET, Heading, LogicalLine, is_title
from validator.rulebook.model import BULLET as BULLET_BLOCK
from validator.rulebook.model import (
    GENERAL_RULE,
    HEADING,
    ITEM,
    PARAGRAPH,
    PROCEDURE,
    TABLE,
    Block,
    Case,
    Rulebook,
    TablePart,
    Unplaced,
)
from validator.rulebook.references import find_references

_ITEM = re.compile(r"^(?P<bullet>•\s*)?(?P<letter>[A-Z])\.\s*(?P<rest>\S.*)$")
_NUMBERED = re.compile(r"^\d{1,2}\.\s")
_PAGE_NUMBER = re.compile(r"^\d{1,4}$")
_TABLE_CAPTION = re.compile(r"\bTable\s*[-–—:]\s*\d")
_CAPITALS = re.compile(r"[A-Z][A-Z0-9 ,'&/.()\-]*")
_LEADING_PHRASE = re.compile(r"^(?P<title>[^.:]{2,60}?)[.:]\s+(?P<body>\S.*)$")
_LABELS = {"General Rule:": GENERAL_RULE, "Procedure:": PROCEDURE}


@dataclass
class _Frame:
    case: Case
    threshold: int  # lines deeper than this belong to the case; -1 takes everything


class _Table:
    """Cells of a flattened table being collected after its caption."""

    def __init__(self, caption: LogicalLine, destination: list[Block]) -> None:
        self.caption = caption
        self.destination = destination
        self.cells: list[str] = []

    def block(self) -> Block:
        return Block(
            kind=TABLE,
            text=self.caption.text,
            references=find_references(self.caption.text),
            table=tables.rebuild(self.cells),
            line=self.caption.line,
        )


class RulebookParser:
    """Feeds the logical lines of each file into one :class:`Rulebook`."""

    def __init__(self, game: str) -> None:
        self.book = Rulebook(game=game)
        self._stack: list[_Frame] = []
        self._letters: dict[CaseNumber, str] = {}
        self._table: _Table | None = None
        self._tab_rows: list[LogicalLine] = []

    def feed(self, lines: list[LogicalLine]) -> None:
        """Parse one file; the structure does not carry over from the previous file."""
        self._stack = []
        for line in lines:
            if line.navigation:
                continue
            if self._table is not None and self._collect_cell(line):
                continue
            if self._tab_rows and "\t" not in line.text:
                self._flush_tab_table()
            if line.blank:
                continue
            self._read(line)
        self._finish_table()
        self._flush_tab_table()

    def finish(self) -> Rulebook:
        """Link parents and resolve references once every file is in."""
        numbers = set(self.book.cases)
        for case in self.book.cases.values():
            if case.kind != "item":
                case.parent = next((number for number in case.number.ancestors() if number in numbers), None)
        for block in self._all_blocks():
            block.references = [
                type(reference)(reference.start, reference.end, reference.target, reference.target in numbers)
                for reference in block.references
            ]
        return self.book

    def _all_blocks(self):
        yield from self.book.front_matter
        for case in self.book.cases.values():
            yield from case.blocks

    # -- one line -------------------------------------------------------

    def _read(self, line: LogicalLine) -> None:
        heading = line.heading
        if heading is not None:
            self._start_case(line, heading)
        elif _PAGE_NUMBER.match(line.text):
            self.book.unplaced.append(
                Unplaced(line.source, line.line, line.text, "a bare number on its own line, taken for a page number")
            )
        elif "\t" in line.text:
            self._tab_rows.append(line)
        elif _TABLE_CAPTION.search(line.text) and tables.is_cell(line.text[:40]):
            self._table = _Table(line, self._blocks_for(self._depth(line)))
        elif not self._start_item(line):
            self._add_content(line)

    def _start_case(self, line: LogicalLine, heading: Heading) -> None:
        number = heading.number
        title, body = _split_title(heading.rest, heading.bulleted)
        case = self.book.cases.get(number)
        if case is None:
            case = Case(
                number=number,
                label=heading.label,
                title=title,
                kind="section" if number.is_section else "case",
                source=line.source,
                line=line.line,
            )
            self.book.cases[number] = case
        else:
            self.book.unplaced.append(
                Unplaced(line.source, line.line, line.text,
                         f"case {number} is defined a second time (first at {case.source} line {case.line}); "
                         "its text was added to the first")
            )
        if body:
            case.blocks.append(_text_block(PARAGRAPH, body, line))
        threshold = self._depth(line) if heading.bulleted else -1
        outer = [
            frame for frame in self._stack
            if frame.threshold == -1 and frame.case.kind != "item" and frame.case.number in number.ancestors()
        ]
        self._stack = ([outer[-1]] if heading.bulleted and outer else []) + [_Frame(case, threshold)]

    def _start_item(self, line: LogicalLine) -> bool:
        match = _ITEM.match(line.text)
        if not match or not self._stack:
            return False
        depth = self._depth(line)
        owner = self._place(depth, pop=False)
        if owner.kind == "item" or match["letter"] != self._next_letter(owner.number):
            return False
        self._place(depth)
        number = owner.number.item(match["letter"])
        rest = match["rest"]
        capitals = _capitals_title(rest)
        title, body = capitals if capitals and _is_capitals(capitals[0]) else ("", rest)
        item = Case(number=number, label=match["letter"], title=title, kind="item",
                    parent=owner.number, source=line.source, line=line.line)
        if body:
            item.blocks.append(_text_block(PARAGRAPH, body, line))
        self.book.cases[number] = item
        self._letters[owner.number] = match["letter"]
        owner.blocks.append(Block(kind=ITEM, item=number, line=line.line))
        self._stack.append(_Frame(item, depth))
        return True

    def _add_content(self, line: LogicalLine) -> None:
        depth = self._depth(line)
        text = line.text
        if text.startswith(BULLET):
            block = _text_block(BULLET_BLOCK, text[1:].strip(), line, depth=line.indent // 2)
        elif _NUMBERED.match(text):
            block = _text_block(BULLET_BLOCK, text, line, depth=line.indent // 2)
        else:
            label = next((label for label in _LABELS if text.startswith(label)), None)
            if label:
                block = _text_block(_LABELS[label], text[len(label):].strip(), line)
            elif is_title(text.rstrip(":")) and len(text.split()) <= 8:
                block = _text_block(HEADING, text, line)
            else:
                block = _text_block(PARAGRAPH, text, line)
        self._blocks_for(depth).append(block)

    # -- placement ------------------------------------------------------

    @staticmethod
    def _depth(line: LogicalLine) -> int:
        marked = line.text.startswith(BULLET) or bool(_NUMBERED.match(line.text))
        return line.indent * 2 + (1 if marked else 0)

    def _blocks_for(self, depth: int) -> list[Block]:
        """Where a block of this depth goes: its case, or the front matter before any case."""
        return self._place(depth).blocks if self._stack else self.book.front_matter

    def _place(self, depth: int, pop: bool = True) -> Case:
        """The case a line of this depth belongs to, closing deeper frames."""
        index = len(self._stack) - 1
        while index > 0 and self._stack[index].threshold >= depth:
            index -= 1
        if pop:
            del self._stack[index + 1 :]
        return self._stack[index].case

    def _next_letter(self, number: CaseNumber) -> str:
        previous = self._letters.get(number)
        return chr(ord(previous) + 1) if previous else "A"

    # -- tables ---------------------------------------------------------

    def _collect_cell(self, line: LogicalLine) -> bool:
        assert self._table is not None
        if line.blank:
            if line.whitespace_only:
                self._table.cells.append("")
            return True
        if line.heading is None and tables.is_cell(line.text):
            self._table.cells.append(line.text)
            return True
        self._finish_table()
        return False

    def _finish_table(self) -> None:
        if self._table is not None:
            self._table.destination.append(self._table.block())
            self._table = None

    def _flush_tab_table(self) -> None:
        if not self._tab_rows:
            return
        rows = [tuple(cell.strip() for cell in line.text.split("\t")) for line in self._tab_rows]
        first = self._tab_rows[0]
        block = Block(kind=TABLE, table=(TablePart(header=rows[0], rows=tuple(rows[1:])),), line=first.line)
        self._blocks_for(self._depth(first)).append(block)
        self._tab_rows = []


def _text_block(kind: str, text: str, line: LogicalLine, depth: int = 0) -> Block:
    return Block(kind=kind, text=text, depth=depth, references=find_references(text), line=line.line)


def _split_title(rest: str, bulleted: bool) -> tuple[str, str]:
    """Separate a heading's printed title from the case text that follows it."""
    if not rest:
        return "", ""
    capitals = _capitals_title(rest)
    if capitals and _is_capitals(capitals[0]):
        return capitals[0].strip(), capitals[1]
    if not bulleted and is_title(rest.rstrip(":")):
        return rest.rstrip(":").strip(), ""
    phrase = _LEADING_PHRASE.match(rest)
    if phrase and len(phrase["title"].split()) <= 7 and is_title(phrase["title"]):
        return phrase["title"].strip(), phrase["body"]
    return "", rest


def _capitals_title(text: str) -> tuple[str, str] | None:
    """``TITLE: body`` as (title, body) when the text before the first colon is a title in capitals' letters.

    Found by cutting at the first colon instead of a lazy pattern, which
    retried the spaces after every letter and took minutes on a long line.
    The title cannot hold a colon, so the first one is the only candidate.
    """
    colon = text.find(":")
    if colon < 0:
        return None
    title = text[:colon].rstrip()
    if not _CAPITALS.fullmatch(title):
        return None
    return title, text[colon + 1:].lstrip()


def _is_capitals(text: str) -> bool:
    letters = [character for character in text if character.isalpha()]
    return len(letters) >= 2 and all(character.isupper() for character in letters)
