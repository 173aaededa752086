"""Rebuilding tables that text extraction flattened to one cell per line.

The flattened form is a run of short lines, one cell each (a line holding
only a space is an empty cell).  Rows are found from their shape: a row
starts with a label (a cell that is not a value) followed by value cells
(numbers, dashes, ratios like ``1:2``, with footnote marks).  The run of
cells just before the first row is its header; anything earlier in the same
part is a title and a group header whose spans the text does not give.
"""

from __future__ import annotations

import re

from validator.rulebook.model import TablePart

_VALUE = re.compile(r"^[-–—]?$|^[\d\s:\-–/.,%]+[*†‡§]*$|^[-–—][*†‡§]*$")
MAX_CELL_LENGTH = 40


def is_value(cell: str) -> bool:
    """A number, dash, ratio or range, possibly with footnote marks: never a row label."""
    return bool(cell) and bool(_VALUE.match(cell))


def is_cell(line: str) -> bool:
    """Short enough to be one cell of a flattened table."""
    return len(line.strip()) <= MAX_CELL_LENGTH and not line.strip().endswith((".", ";"))


def rebuild(cells: list[str]) -> tuple[TablePart, ...]:
    """Split a flat list of cells into table parts with headers and rows."""
    starts = [
        index
        for index in range(len(cells) - 1)
        if cells[index] and not is_value(cells[index]) and is_value(cells[index + 1])
    ]
    if not starts:
        return (TablePart(rows=tuple((cell,) for cell in cells)),)
    parts: list[TablePart] = []
    consumed = 0
    index = 0
    while index < len(starts):
        first = starts[index]
        width = _row_width(cells, starts, index)
        rows = []
        position = first
        while position in starts and all(is_value(cell) or not cell for cell in cells[position + 1 : position + width]):
            rows.append(tuple(cells[position : position + width]))
            position += width
            index += 1
        prefix = cells[consumed:first]
        header = tuple(prefix[-width:]) if len(prefix) >= width else tuple(prefix)
        above = prefix[: len(prefix) - len(header)]
        title = above[0] if above and above[0] else ""
        groups = tuple(above[1:] if title else above)
        parts.append(TablePart(title=title, groups=groups, header=header, rows=tuple(rows)))
        consumed = position
        while index < len(starts) and starts[index] < position:
            index += 1
    leftover = [cell for cell in cells[consumed:] if cell]
    if leftover:
        parts.append(TablePart(rows=tuple((cell,) for cell in leftover)))
    return tuple(parts)


def _row_width(cells: list[str], starts: list[int], index: int) -> int:
    """Cells per row: the gap to the next row start, or to the end of the value cells."""
    first = starts[index]
    if index + 1 < len(starts):
        gap = starts[index + 1] - first
        if all(is_value(cell) or not cell for cell in cells[first + 1 : first + gap]):
            return gap
    width = 1
    while first + width < len(cells) and (is_value(cells[first + width]) or not cells[first + width]):
        width += 1
    return width
