"""Turning a board-local point into a location name, as VASSAL's grids do.

Ported from the rules in vassal-formats.md section 5 with VASSAL's quirks kept
on purpose -- ``maxRows = H/dx``, the stagger parity of the *raw* column,
doubled letters (Z, AA, BB), truncation of square-grid rows, ``offboard`` for
grids without numbering -- because the names must match what players see.
Each grid answers ``location_name(x, y, width, height)``; ``None`` means
"nothing here" and the map falls back to ``offboard``.  A grid class we do
not know answers ``unknown`` rather than guessing.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from validator.limits import DEFAULT_LIMITS

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
UNKNOWN = "unknown"
THIRD_REICH_OBLIQUE = "ThirdReich.ObliqueHexGridNumbering"
"""A module's own numbering class (the A3R modules) whose public source says what it does; see ``HexGrid``."""
CUSTOM_NUMBERINGS = (THIRD_REICH_OBLIQUE,)
_KEY = re.compile(r"\$([^$]*)\$")


class SizeNeeded(LookupError):
    """Descending numbering needs the container's size and the board image was not available."""


class LabelTooLong(ValueError):
    """A point so far along the grid that its row or column label would be absurdly long."""

    def __init__(self, characters: int, most: int) -> None:
        super().__init__(f"its label would have {characters:,} characters, more than the label_characters "
                         f"limit of {most:,}")
        self.characters = characters


def java_round(value: float) -> int:
    """``Math.round``: half up, unlike Python's banker's rounding."""
    return math.floor(value + 0.5)


def expand_format(text: str, values: dict[str, str | None]) -> str:
    """``FormattedString``: ``$key$`` becomes its value, ``None`` nothing, unknown keys their own name."""
    def replace(match: re.Match) -> str:
        key = match.group(1)
        if key in values:
            return values[key] or ""
        return key
    return _KEY.sub(replace, text)


@dataclass(frozen=True, slots=True)
class Numbering:
    """``HexGridNumbering`` / ``SquareGridNumbering`` attributes (VASSAL's defaults)."""

    first: str = "H"
    sep: str = ""
    h_type: str = "N"
    v_type: str = "N"
    h_leading: int = 1
    v_leading: int = 1
    h_off: int = 1
    v_off: int = 1
    h_descend: bool = False
    v_descend: bool = False
    stagger: bool = True
    location_format: str = "$gridLocation$"
    oblique: bool = False
    custom: str | None = None
    """The module's own numbering class, when it names one instead of VASSAL's; only
    :data:`CUSTOM_NUMBERINGS` are computed, any other makes every location ``unknown``."""
    most_characters: int = DEFAULT_LIMITS.label_characters
    """The longest row or column label this numbering may build (``LabelTooLong`` past it)."""

    @property
    def known(self) -> bool:
        """Whether this reader computes the names (VASSAL's classes, and :data:`CUSTOM_NUMBERINGS`)."""
        return self.custom is None or self.custom in CUSTOM_NUMBERINGS

    @staticmethod
    def part(value: int, kind: str, leading: int, most: int = DEFAULT_LIMITS.label_characters) -> str:
        """``RegularGridNumbering.getName``, built in one step rather than a letter or a zero at a time.

        Alphabetic: VASSAL appends ``ALPHABET[v % 26]`` and subtracts 26 until
        v is negative, which repeats one letter ``v // 26 + 1`` times.
        Numeric: it prepends a zero while ``leading > 0`` and ``v < 10**leading``,
        lowering ``leading`` each time, which adds ``leading - digits + 1``
        zeros (none when that is not positive).
        """
        sign = ""
        if value < 0:
            sign, value = "-", -value
        if kind == "A":
            count = value // 26 + 1
            if count > most:
                raise LabelTooLong(count, most)
            return sign + ALPHABET[value % 26] * count
        digits = str(value)             # at most 309 digits: the value comes from a finite float
        if len(digits) > most:
            raise LabelTooLong(len(digits), most)
        zeros = max(0, leading - len(digits) + 1)
        if zeros > most:
            raise LabelTooLong(zeros + len(digits), most)
        return sign + "0" * zeros + digits

    def name(self, row: int, column: int) -> str | None:
        row_name = self.part(row + self.v_off, self.v_type, self.v_leading, self.most_characters)
        column_name = self.part(column + self.h_off, self.h_type, self.h_leading, self.most_characters)
        grid_location = (column_name + self.sep + row_name if self.first == "H"
                         else row_name + self.sep + column_name)
        if self.location_format.startswith("{"):
            return UNKNOWN
        return expand_format(self.location_format,
                             {"gridLocation": grid_location, "row": row_name, "column": column_name})


def _needs(size: float | None) -> float:
    if size is None:
        raise SizeNeeded
    return size


@dataclass(frozen=True, slots=True)
class HexGrid:
    x0: int = 0
    y0: int = 32
    dx: float = math.sqrt(3) / 2 * 64
    dy: float = 64.0
    sideways: bool = False
    numbering: Numbering | None = None

    def location_name(self, x: float, y: float, width: float | None, height: float | None) -> str | None:
        if self.numbering is None:
            return None
        if not self.numbering.known:
            return UNKNOWN
        row, column = self.row_and_column(x, y, width, height)
        return self.numbering.name(row, column)

    def row_and_column(self, x: float, y: float, width: float | None, height: float | None) -> tuple[int, int]:
        """The numbering's row and column of a board point, before the offsets (``getRow``/``getColumn``).

        ``ThirdReich.ObliqueHexGridNumbering`` (the Third Reich modules' class,
        public source in the ThirdReich package of those modules) takes
        VASSAL's row and, on a sideways grid only, lowers it by half the
        column less one, rounded toward zero as Java's int division does: the
        printed rows run obliquely across the sideways columns.
        """
        if self.sideways:
            x, y = y, x
        raw_column = math.floor((x - self.x0) / self.dx + 0.5)
        nearest = java_round((x - self.x0) / self.dx)
        if nearest % 2 == 0:
            raw_row = java_round((y - self.y0) / self.dy)
        else:
            raw_row = java_round((y - self.y0 - self.dy / 2) / self.dy)
        n = self.numbering
        column, row = raw_column, raw_row
        descending_row = n.h_descend if self.sideways else n.v_descend
        if self.sideways and n.v_descend:
            column = self._max_rows(height) - column
        if not self.sideways and n.h_descend:
            column = self._max_columns(width) - column
        if not self.sideways and n.v_descend:
            row = self._max_rows(height) - row
        if self.sideways and n.h_descend:
            row = self._max_columns(width) - row
        if n.stagger and raw_column % 2 != 0:
            row += -1 if descending_row else 1
        if n.oblique:
            row = int(column / 2) + row if n.stagger else row - int(column / 2) + 1
        if n.custom == THIRD_REICH_OBLIQUE and self.sideways:
            row -= int((column - 1) / 2)
        return row, column

    def _max_rows(self, height: float | None) -> int:
        return math.floor(_needs(height) / self.dx + 0.5)

    def _max_columns(self, width: float | None) -> int:
        return math.floor(_needs(width) / self.dy + 0.5)


@dataclass(frozen=True, slots=True)
class SquareGrid:
    x0: int = 24
    y0: int = 24
    dx: float = 48.0
    dy: float = 48.0
    numbering: Numbering | None = None

    def location_name(self, x: float, y: float, width: float | None, height: float | None) -> str | None:
        if self.numbering is None:
            return None
        if not self.numbering.known:
            return UNKNOWN
        column = math.floor((x - self.x0) / self.dx + 0.5)
        row = int((y - self.y0) / self.dy + 0.5)
        n = self.numbering
        if n.h_descend:
            column = int(_needs(width) / self.dx + 0.5) - column
        if n.v_descend:
            row = int(_needs(height) / self.dy + 0.5) - row
        return n.name(row, column)


@dataclass(frozen=True, slots=True)
class RegionGrid:
    """Named points; a location is the nearest region's raw name."""

    regions: tuple[tuple[str, int, int], ...] = ()

    def location_name(self, x: float, y: float, width: float | None, height: float | None) -> str | None:
        best, best_distance = None, None
        for name, region_x, region_y in self.regions:
            distance = (region_x - x) ** 2 + (region_y - y) ** 2
            if best_distance is None or distance < best_distance:
                best, best_distance = name, distance
        return best


@dataclass(frozen=True, slots=True)
class UnknownGrid:
    """A grid class this reader does not implement (VASL and other custom modules)."""

    class_name: str

    def location_name(self, x: float, y: float, width: float | None, height: float | None) -> str | None:
        return UNKNOWN


def polygon_contains(points: tuple[tuple[int, int], ...], x: float, y: float) -> bool:
    """Even-odd insideness with ``java.awt.Polygon``'s half-open edge rules."""
    if len(points) <= 2:
        return False
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    if not (min(xs) <= x < max(xs) and min(ys) <= y < max(ys)):
        return False
    hits = 0
    last_x, last_y = points[-1]
    for current_x, current_y in points:
        previous_x, previous_y = last_x, last_y
        last_x, last_y = current_x, current_y
        if current_y == previous_y:
            continue
        if current_x < previous_x:
            if x >= previous_x:
                continue
            left_x = current_x
        else:
            if x >= current_x:
                continue
            left_x = previous_x
        if current_y < previous_y:
            if y < current_y or y >= previous_y:
                continue
            if x < left_x:
                hits += 1
                continue
            test1, test2 = x - current_x, y - current_y
        else:
            if y < previous_y or y >= current_y:
                continue
            if x < left_x:
                hits += 1
                continue
            test1, test2 = x - previous_x, y - previous_y
        if test1 < test2 / (previous_y - current_y) * (previous_x - current_x):
            hits += 1
    return hits % 2 == 1


@dataclass(frozen=True, slots=True)
class Zone:
    name: str
    points: tuple[tuple[int, int], ...]
    location_format: str = "$name$"
    use_parent_grid: bool = False
    grid: object | None = None

    @property
    def size(self) -> tuple[int, int]:
        if not self.points:
            return 0, 0
        xs = [p[0] for p in self.points]
        ys = [p[1] for p in self.points]
        return max(xs) - min(xs), max(ys) - min(ys)


@dataclass(frozen=True, slots=True)
class ZonedGrid:
    zones: tuple[Zone, ...] = ()
    background: object | None = None

    def location_name(self, x: float, y: float, width: float | None, height: float | None) -> str | None:
        for zone in self.zones:
            if polygon_contains(zone.points, x, y):
                grid = self.background if zone.use_parent_grid else zone.grid
                grid_location = None
                if grid is not None:
                    zone_width, zone_height = zone.size
                    grid_location = grid.location_name(x, y, zone_width, zone_height)
                if zone.location_format.startswith("{"):
                    return UNKNOWN
                return expand_format(zone.location_format, {"name": zone.name, "gridLocation": grid_location})
        if self.background is not None:
            return self.background.location_name(x, y, width, height)
        return None


def parse_path(path: str) -> tuple[tuple[int, int], ...]:
    """``x1,y1;x2,y2;…``; unparseable pairs are skipped as VASSAL does."""
    points = []
    for pair in path.split(";"):
        parts = pair.split(",")
        if len(parts) == 2:
            try:
                points.append((int(parts[0].strip()), int(parts[1].strip())))
            except ValueError:
                continue
    return tuple(points)
