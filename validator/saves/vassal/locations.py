"""From a map point to a location name, the way ``Map.locationName`` finds it.

Order of questions: is a draw pile exactly here (its name wins)?  Which board
holds the point (half-open bounds, boards laid out by the board picker)?
What does that board's grid call the board-local point (reversed boards
mirrored)?  Anything unanswered is ``offboard``, VASSAL's own word.  When the
answer depends on something the files do not give us (a board image's size
for a multi-board layout or descending numbering), the name is ``unknown``.
"""

from __future__ import annotations

from collections.abc import Iterable

from .commands import BoardPlacement
from .errors import VassalFormatError
from .grids import UNKNOWN, LabelTooLong, SizeNeeded
from .module import Board, MapDefinition, Module

OFFBOARD = "offboard"


def _layout(map_definition: MapDefinition, placements: Iterable[BoardPlacement] | None):
    """[(board, column, row, reversed)] for the boards in use on this map."""
    chosen = []
    if placements is not None:
        for placement in placements:
            board = map_definition.board(placement.board)
            if board is not None:
                chosen.append((board, placement.column, placement.row, placement.reversed))
    elif len(map_definition.boards) == 1:
        chosen.append((map_definition.boards[0], 0, 0, False))
    return chosen


def _origins(map_definition: MapDefinition, layout) -> list[tuple[Board, int, int, bool]] | None:
    """Pixel origin of each board; ``None`` when a size that matters is unknown."""
    result = []
    for board, column, row, reversed_ in layout:
        x, y = map_definition.edge_width, map_definition.edge_height
        for other, other_column, other_row, _ in layout:
            if other_row == row and other_column < column:
                if other.width is None:
                    return None
                x += other.width
            if other_column == column and other_row < row:
                if other.height is None:
                    return None
                y += other.height
        result.append((board, x, y, reversed_))
    return result


def location_of(module: Module, map_name: str, x: int, y: int,
                boards: Iterable[BoardPlacement] | None = None) -> str:
    """The location name VASSAL shows for map point (x, y); ``boards`` is the save's layout for the map."""
    map_definition = module.maps.get(map_name)
    if map_definition is None:
        return UNKNOWN
    if boards is not None:
        boards = [b for b in boards if b.map == map_name] or None
    origins = _origins(map_definition, _layout(map_definition, boards))
    if origins is None:
        return UNKNOWN
    origin_of = {board.name: (bx, by) for board, bx, by, _ in origins}
    for pile in map_definition.draw_piles:
        base = origin_of.get(pile.owning_board) if pile.owning_board else (
            map_definition.edge_width, map_definition.edge_height)
        if base is not None and (pile.x + base[0], pile.y + base[1]) == (x, y):
            return pile.name
    single = len(origins) == 1
    for board, bx, by, reversed_ in origins:
        width, height = board.width, board.height
        if width is None or height is None:
            if not single:
                return UNKNOWN
            inside = x >= bx and y >= by
        else:
            inside = bx <= x < bx + width and by <= y < by + height
        if not inside:
            continue
        local_x, local_y = x - bx, y - by
        if reversed_:
            if width is None or height is None:
                return UNKNOWN
            local_x, local_y = width - local_x, height - local_y
        if board.grid is None:
            return OFFBOARD
        try:
            name = board.grid.location_name(local_x, local_y, width, height)
        except SizeNeeded:
            return UNKNOWN
        except LabelTooLong as error:
            raise VassalFormatError(module.source, f"the point ({x}, {y}) on the map {map_name} is so far along "
                                                   f"the grid of the board {board.name} that {error}") from None
        return OFFBOARD if name is None else name
    return OFFBOARD
