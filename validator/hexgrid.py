"""Hex-grid geometry: the six neighbours of a hex in offset coordinates.

A map declares its grid once (``<map grid="hex" layout="odd-q">``) and gives
each hex a column and row; neighbours then follow from the geometry instead
of being listed hex by hex.  The four offset layouts are the usual ones:

* ``odd-q`` / ``even-q``: flat-topped hexes in columns, the odd (even)
  columns shoved half a hex down;
* ``odd-r`` / ``even-r``: pointy-topped hexes in rows, the odd (even) rows
  shoved half a hex right.
"""

from __future__ import annotations

LAYOUTS = ("odd-q", "even-q", "odd-r", "even-r")

# (column, row) steps to the six neighbours, for a hex on an unshoved and a shoved line.
_COLUMN_STEPS = {
    False: ((+1, -1), (+1, 0), (0, +1), (-1, 0), (-1, -1), (0, -1)),
    True: ((+1, 0), (+1, +1), (0, +1), (-1, +1), (-1, 0), (0, -1)),
}
_ROW_STEPS = {
    False: ((+1, 0), (0, +1), (-1, +1), (-1, 0), (-1, -1), (0, -1)),
    True: ((+1, 0), (+1, +1), (0, +1), (-1, 0), (0, -1), (+1, -1)),
}


def _step_table(layout: str) -> tuple[bool, int, dict[bool, tuple[tuple[int, int], ...]]]:
    """(whether columns are shoved, the parity of a shoved line, the steps for an unshoved and a shoved line)."""
    if layout not in LAYOUTS:
        raise ValueError(f"the hex layout must be one of {', '.join(LAYOUTS)}, not {layout!r}")
    by_column = layout.endswith("q")
    return by_column, 1 if layout.startswith("odd") else 0, _COLUMN_STEPS if by_column else _ROW_STEPS


def neighbour_coordinates(layout: str, column: int, row: int) -> list[tuple[int, int]]:
    """The coordinates of the six hexes around (column, row), on or off the map."""
    by_column, parity, steps = _step_table(layout)
    shoved = (column if by_column else row) % 2 == parity
    return [(column + step_column, row + step_row) for step_column, step_row in steps[shoved]]


def neighbours(layout: str, hexes: dict[tuple[int, int], str]) -> dict[str, tuple[str, ...]]:
    """Each hex id's neighbours that exist on the map, from ``{(column, row): hex id}``.

    The same answer as calling :func:`neighbour_coordinates` for every hex,
    in the same order, but with the layout decided once: a Europe-size map
    has twenty thousand hexes, and this runs on every cold read.
    """
    by_column, parity, steps = _step_table(layout)
    on_map = hexes.get  # hex ids are never None, so None means "off the map"
    found: dict[str, tuple[str, ...]] = {}
    for (column, row), hex_id in hexes.items():
        around = steps[(column if by_column else row) % 2 == parity]
        candidates = [on_map((column + step_column, row + step_row)) for step_column, step_row in around]
        found[hex_id] = tuple([neighbour for neighbour in candidates if neighbour is not None])
    return found
