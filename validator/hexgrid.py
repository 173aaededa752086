"""Hex-grid geometry: the six neighbours of a hex in offset coordinates, and where a picture draws it.

A map declares its grid once (``<map grid="hex" layout="odd-q">``) and gives
each hex a column and row; neighbours then follow from the geometry instead
of being listed hex by hex.  The four offset layouts are the usual ones:

* ``odd-q`` / ``even-q``: flat-topped hexes in columns, the odd (even)
  columns shoved half a hex down;
* ``odd-r`` / ``even-r``: pointy-topped hexes in rows, the odd (even) rows
  shoved half a hex right.

The same layout places a hex on a picture: :func:`centre` and
:func:`corners` give its centre and outline for a hex of a given radius, and
:func:`drawn_coordinates` gives every hex of a map a column and row, in
reading order for a map whose hexes list their neighbours instead.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from validator.model import MapData

LAYOUTS = ("odd-q", "even-q", "odd-r", "even-r")
DEFAULT_LAYOUT = "odd-q"
ROOT_3 = math.sqrt(3)

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


def is_flat_topped(layout: str) -> bool:
    """Hexes in columns (``-q`` layouts) have a flat top; hexes in rows have a point."""
    return layout.endswith("q")


def centre(layout: str, column: int, row: int, radius: float) -> tuple[float, float]:
    """Where the centre of the hex at (column, row) falls, for hexes of ``radius`` (centre to corner)."""
    parity = 1 if layout.startswith("odd") else 0
    if is_flat_topped(layout):
        shove = 0.5 if column % 2 == parity else 0.0
        return radius * 1.5 * column, radius * ROOT_3 * (row + shove)
    shove = 0.5 if row % 2 == parity else 0.0
    return radius * ROOT_3 * (column + shove), radius * 1.5 * row


def corners(x: float, y: float, radius: float, flat_topped: bool) -> list[tuple[float, float]]:
    """The six corners of a hex centred on (x, y), from the right (flat top) or the lower right (pointed top)."""
    angles = [math.radians((0 if flat_topped else 30) + 60 * corner) for corner in range(6)]
    return [(x + radius * math.cos(angle), y + radius * math.sin(angle)) for angle in angles]


def drawn_coordinates(map_data: MapData) -> tuple[dict[str, tuple[int, int]], str]:
    """Each hex's (column, row) on a picture, and the layout to draw them in.

    A map whose hexes all carry a column and row is drawn in its declared
    layout.  One whose hexes list their neighbours instead has no geometry
    to follow, so its hexes are set out in reading order, in a square block.
    """
    hexes = [location for location in map_data.locations.values() if location.kind == "hex"]
    given = {location.id: _column_and_row(location.attributes) for location in hexes}
    if hexes and all(place is not None for place in given.values()):
        layout = map_data.attributes.get("layout", DEFAULT_LAYOUT)
        return given, layout if layout in LAYOUTS else DEFAULT_LAYOUT
    width = max(1, math.ceil(math.sqrt(len(hexes))))
    return {location.id: (index % width, index // width) for index, location in enumerate(hexes)}, DEFAULT_LAYOUT


def _column_and_row(attributes) -> tuple[int, int] | None:
    try:
        return int(attributes["column"]), int(attributes["row"])
    except (KeyError, ValueError):
        return None
