"""The line a person would name for an element: where its start tag opens.

libxml2 numbers an element by the line on which its start tag *ends*, so a
tag written over several lines (one attribute per line, as many editors and
tools write them) would be reported at its closing "/>".  A start tag cannot
contain "<", so the line where it opens is the nearest line at or above the
reported one that holds a "<".

Most saves keep every start tag on one line; for them nothing is computed.
Whether a file has a tag across lines is judged from its angle brackets and
line ends alone (a C-speed pass): a "<" with a line end before the next ">".
A comment over several lines passes that test too, which only costs the
computation; a ">" inside an attribute value of a wrapped tag hides it, and
that tag keeps libxml2's number.
"""

from __future__ import annotations

from lxml import etree

_ALL_BUT_BRACKETS_AND_LINE_ENDS = bytes(byte for byte in range(256) if byte not in b"<>\n")


class SourceLines:
    """Line numbers for one file's elements, moved to where their start tags open."""

    def __init__(self, data: bytes) -> None:
        self.spans_lines = b"<\n" in data.translate(None, _ALL_BUT_BRACKETS_AND_LINE_ENDS)
        self._opening: list[int] = _opening_lines(data) if self.spans_lines else []

    def fix(self, line: int) -> int:
        """The opening line of the start tag libxml2 numbered ``line``."""
        if not self.spans_lines or not 0 < line <= len(self._opening):
            return line
        return self._opening[line - 1]

    def of(self, element: etree._Element) -> int:
        return self.fix(element.sourceline or 0)


def _opening_lines(data: bytes) -> list[int]:
    """For each line (1-based, by index), the nearest line at or above it that holds a "<"."""
    opening: list[int] = []
    last = 1
    for number, text in enumerate(data.split(b"\n"), start=1):
        if b"<" in text:
            last = number
        opening.append(last)
    return opening
