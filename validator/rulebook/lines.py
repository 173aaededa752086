"""From source lines to logical lines: one heading, item or paragraph each.

Extraction glues things together that the parser must see apart: inline
bullets (``... rivals: • Greece ... • Iraq ...``) and case numbers printed
mid-paragraph (``... appears. 15.1.2 Territorials appear ...``).  This module
splits them, recognises headings, and marks the table of contents, which is
navigation and not rule text.

A file numbers its cases one way.  The SPI texts print the number bare at
the start of a line (``6.21 ...``, ``• 6.21 ...``); other rulebooks put it in
brackets (``[6.21] ...``).  The first line of a file that opens with a case
number decides: in a bracketed file only a bracketed number opens a case and
a bare one is running text, and in the others a bracketed number at the
start of a line is a reference (``[2.21] (addition) ...``), never a heading.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from validator.cases import CaseNumber

BULLET = "•"

_HEADING = re.compile(
    r"^(?P<bullet>•\s*)?(?P<label>\d{1,3}\.(?:\d+(?:\.\d+)*)?)(?=\s|$)\s*(?P<rest>.*)$"
)
_BRACKETED_HEADING = re.compile(r"^\[(?P<label>\d{1,3}\.\d+(?:\.\d+)*)\](?=\s|$)\s*(?P<rest>.*)$")
_EMBEDDED = re.compile(r"(?<=\s)(?P<label>\d{1,3}\.\d+(?:\.\d+)*)(?=\s+[A-Z])")
_NOT_A_HEADING_BEFORE = {
    "see", "case", "cases", "rule", "rules", "section", "sections", "and", "or",
    "of", "to", "in", "with", "under", "per", "by",
}
_LONGEST_WORD = 100
_CONTENTS_TITLE = re.compile(r"^(table of )?contents$", re.IGNORECASE)


@dataclass
class LogicalLine:
    source: str
    line: int  # the source line it came from
    indent: int
    text: str  # stripped
    blank: bool = False
    whitespace_only: bool = False  # a line holding only spaces: an empty table cell
    navigation: bool = False
    bracketed: bool = False  # the file numbers its cases in brackets
    heading: Heading | None = field(init=False)

    def __post_init__(self) -> None:
        self.heading = parse_heading(self.text, self.bracketed) if self.text else None


@dataclass(frozen=True)
class Heading:
    number: CaseNumber
    label: str  # as printed, without a trailing point or brackets
    rest: str
    bulleted: bool


def parse_heading(text: str, bracketed: bool = False) -> Heading | None:
    """A line that starts a numbered section or case, or None; ``bracketed``: the file's numbers are in brackets."""
    if bracketed:
        match = _BRACKETED_HEADING.match(text)
        number = CaseNumber.try_parse(match["label"]) if match else None
        return Heading(number, match["label"], match["rest"].strip(), False) if number else None
    match = _HEADING.match(text)
    if not match:
        return None
    label = match["label"]
    rest = match["rest"].strip()
    bulleted = bool(match["bullet"])
    if label.endswith("."):
        # "11. PARTISANS" is a section; "1. Allied Progress Phase" is a numbered list line.
        if bulleted or not rest or not _is_capitals(rest.split(" ", 1)[0]):
            return None
        label = label[:-1]
    number = CaseNumber.try_parse(label)
    if number is None:
        return None
    return Heading(number, label, rest, bulleted)


def logical_lines(source: str, lines: list[str | None]) -> list[LogicalLine]:
    """Split glued bullets and mid-paragraph case numbers; mark the contents."""
    result: list[LogicalLine] = []
    last: CaseNumber | None = None
    bracketed = numbers_in_brackets(lines)
    for number, raw in enumerate(lines, start=1):
        if raw is None:
            continue
        raw = raw.rstrip("\r")
        if not raw.strip():
            result.append(LogicalLine(source, number, 0, "", blank=True, whitespace_only=bool(raw)))
            continue
        indent = len(raw) - len(raw.lstrip(" \t"))
        for piece in _split_inline_bullets(raw.strip()):
            # A bracketed file marks every case, so a bare number mid-line is never one.
            for part in [piece] if bracketed else _split_embedded_cases(piece, last):
                heading = parse_heading(part, bracketed)
                if heading is not None:
                    last = heading.number
                result.append(LogicalLine(source, number, indent, part, bracketed=bracketed))
    _mark_contents(result)
    return result


def numbers_in_brackets(lines: list[str | None]) -> bool:
    """Whether the first line that opens with a case number has it in brackets (``[4.12] ...``)."""
    for raw in lines:
        text = (raw or "").strip()
        if parse_heading(text) is not None:
            return False
        if parse_heading(text, bracketed=True) is not None:
            return True
    return False


def _split_inline_bullets(text: str) -> list[str]:
    head, *bullets = text.split(f" {BULLET} ")
    return [head, *(f"{BULLET} {bullet}" for bullet in bullets)]


def _split_embedded_cases(text: str, last: CaseNumber | None) -> list[str]:
    """Cut a line before each case number that continues the sequence mid-line.

    One pass over the line: each cut starts a new piece whose own heading is
    the number to continue from, and what comes before a candidate is looked
    at from the candidate backwards, never copied, so a long line with many
    numbers in it costs its length.
    """
    heading = parse_heading(text)
    current = heading.number if heading else last
    if current is None:
        return [text]
    pieces: list[str] = []
    piece_start = 0
    search_from = len(heading.label) + 1 if heading else 0
    while True:
        for match in _EMBEDDED.finditer(text, search_from):
            candidate = CaseNumber.try_parse(match["label"])
            if candidate is None or not is_successor(current, candidate):
                continue
            before_end = _end_of_words(text, piece_start, match.start())
            if text.endswith(("(", "[", ","), piece_start, before_end):
                continue
            if _last_word(text, piece_start, before_end) in _NOT_A_HEADING_BEFORE:
                continue
            pieces.append(text[piece_start:before_end])
            piece_start = match.start()
            current = candidate
            search_from = piece_start + len(match["label"]) + 1
            break
        else:
            pieces.append(text[piece_start:])
            return pieces


def _end_of_words(text: str, start: int, end: int) -> int:
    """Where ``text[start:end]`` ends once trailing whitespace is dropped (as ``rstrip`` would)."""
    while end > start and text[end - 1].isspace():
        end -= 1
    return end


def _last_word(text: str, start: int, end: int) -> str:
    """The last space-separated word of ``text[start:end]``, letters and digits only, lower case.

    A word longer than any of the words it is compared with is looked at
    over its last ``_LONGEST_WORD`` characters only.
    """
    space = text.rfind(" ", max(start, end - _LONGEST_WORD), end)
    word = text[max(start, end - _LONGEST_WORD) if space < 0 else space + 1:end]
    return re.sub(r"\W", "", word).lower()


def is_successor(last: CaseNumber, candidate: CaseNumber) -> bool:
    """The next number in reading order: a first child, or the next sibling at some level."""
    if candidate.letter:
        return False
    levels, wanted = last.levels, candidate.levels
    if wanted == levels + (1,):
        return True
    return any(
        wanted == levels[: depth - 1] + (levels[depth - 1] + 1,) for depth in range(len(levels), 1, -1)
    )


def _mark_contents(lines: list[LogicalLine]) -> None:
    """Mark runs of bare headings whose numbers come again later: a table of contents."""
    content = [line for line in lines if not line.blank]
    last_position = {line.heading.number: position for position, line in enumerate(content) if line.heading}
    run_start = 0
    for index in range(len(content) + 1):
        if index < len(content) and _is_contents_entry(content[index]):
            continue
        if _mark_run(content, run_start, index, last_position):
            # The "Table of Contents" titles just before the run belong to it.
            before = run_start - 1
            while before >= 0 and is_contents_title(content[before].text):
                content[before].navigation = True
                before -= 1
        run_start = index + 1


def _is_contents_entry(line: LogicalLine) -> bool:
    if line.heading is not None:
        return is_title(line.heading.rest.rstrip(":"))
    return line.text.startswith(BULLET) and is_title(line.text[1:].strip())


def _mark_run(content: list[LogicalLine], start: int, end: int, last_position: dict) -> bool:
    """Mark content[start:end] as navigation if two or more of its numbers are defined again later.

    "Later" includes the rest of the run itself: the first real heading may be a
    bare title too ("11.1 OVERVIEW:" right after the contents).
    """
    repeated = [
        position for position in range(start, end)
        if content[position].heading is not None
        and last_position[content[position].heading.number] > position
    ]
    if len(repeated) < 2:
        return False
    last_repeated, repeated = repeated[-1], set(repeated)
    for position in range(start, last_repeated + 1):
        line = content[position]
        if line.heading is None or position in repeated:
            line.navigation = True
    return True


def _is_capitals(word: str) -> bool:
    letters = [character for character in word if character.isalpha()]
    return bool(letters) and all(character.isupper() for character in letters)


def is_title(text: str) -> bool:
    """A short heading: up to ten words, no closing punctuation, significant words capitalised."""
    words = text.split()
    if not words or len(words) > 10 or text.endswith((".", ";", ",")):
        return False
    for word in words:
        bare = word.strip("()[],'\"“”")
        if len(bare) >= 4 and not bare[0].isupper():
            return False
    return True


def is_contents_title(text: str) -> bool:
    return bool(_CONTENTS_TITLE.match(text.strip()))
