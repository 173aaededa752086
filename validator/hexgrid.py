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


def neighbour_coordinates(layout: str, column: int, row: int) -> list[tuple[int, int]]:
    """The coordinates of the six hexes around (column, row), on or off the map."""
    if layout not in LAYOUTS:
        raise ValueError(f"the hex layout must be one of {', '.join(LAYOUTS)}, not {layout!r}")
    parity = 1 if layout.startswith("odd") else 0
    if layout.endswith("q"):
        steps = _COLUMN_STEPS[column % 2 == parity]
    else:
        steps = _ROW_STEPS[row % 2 == parity]
    return [(column + step_column, row + step_row) for step_column, step_row in steps]


def neighbours(layout: str, hexes: dict[tuple[int, int], str]) -> dict[str, tuple[str, ...]]:
    """Each hex id's neighbours that exist on the map, from ``{(column, row): hex id}``."""
    return {
        hex_id: tuple(
            hexes[coordinates] for coordinates in neighbour_coordinates(layout, column, row) if coordinates in hexes
        )
        for (column, row), hex_id in hexes.items()
    }
