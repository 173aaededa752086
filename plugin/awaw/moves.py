"""A World at War's move checks: partisans that appeared since the previous position (11.353C-E), and
partisans that moved out of their country (11.42), by sea or where no land route leads (11.43).

A partisan *appeared* when the position after has it on the map and the
position before did not (off the map, or not at all), and the save after
does not mark it placed-this-phase: marked partisans are the position
checks' (11.353C-E judge them in a construction phase), so no partisan is
judged twice.  11.353C counts per turn, so the partisans that appeared are
counted as one turn's builds only when the two positions are at most one
turn apart.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterator

from validator.model import Piece, Position
from validator.moves.diff import Difference, Moved
from validator.rules import Finding, Result, Violation, case
from validator.wording import plural

from plugin.awaw.common import area_name, describe, faction, home_country
from plugin.awaw.construction import placed_among_enemies, placed_on_ineligible_hexes, too_many_in_a_country
from plugin.awaw.hexes import Hex
from plugin.awaw.situation import Situation, is_partisan, placed_this_phase, situation
from plugin.awaw.vocabulary import AXIS, IRAQ_GROUP, SEASONS, pool_area

_SEASON_YEAR = re.compile(r"\s*([A-Za-z]+)[\s-]+([0-9]{4})\s*")


def turn_order(turn: str) -> int | None:
    """A turn as a count of seasons ("spring 1942" -> 1942 * 4 + 1), or None when it is not a season and year."""
    match = _SEASON_YEAR.fullmatch(turn or "")
    if match is None or match.group(1).lower() not in SEASONS:
        return None
    return int(match.group(2)) * len(SEASONS) + SEASONS.index(match.group(1).lower())


def appeared(before: Position, after: Position) -> list[Piece]:
    """The partisans on the map after that were not on it before, and that the save after does not mark."""
    on_map_before = {piece.id for piece in before.pieces if piece.location is not None}
    return [piece for piece in situation(after).partisans_on_map
            if piece.id not in on_map_before and not placed_this_phase(piece)]


def _turns_apart(before: Position, after: Position) -> int | None:
    first, last = turn_order(before.turn), turn_order(after.turn)
    return None if first is None or last is None else last - first


@case("11.353C", judges="move")
def appeared_more_than_one_per_country(before: Position, after: Position,
                                       difference: Difference) -> Iterator[Result]:
    """Partisans that appeared since the previous position: at most one per faction and country in a turn."""
    new = appeared(before, after)
    if not new:
        return
    if _turns_apart(before, after) != 0:  # two turns' builds may be in the difference: the limit is per turn
        between = f"{before.turn or '(no turn)'} and {after.turn or '(no turn)'}"
        yield Finding(
            f"{plural(len(new), 'partisan')} appeared between {between}, which are not the same turn, so "
            "which turn built each cannot be told; compare two saves of one turn",
            pieces=[piece.id for piece in new], severity="unchecked", facts={"needs": "one turn"},
        )
        return
    yield from too_many_in_a_country(situation(after), new)


@case("11.353D", judges="move")
def appeared_on_ineligible_hex(before: Position, after: Position, difference: Difference) -> Iterator[Violation]:
    """A partisan that appeared since the previous position stands on a hex it could have been placed on."""
    yield from placed_on_ineligible_hexes(situation(after), appeared(before, after))


@case("11.353E", judges="move")
def appeared_among_enemies(before: Position, after: Position, difference: Difference) -> Iterator[Result]:
    """A partisan that appeared since the previous position is not with enemy units nor in an enemy ZoC."""
    yield from placed_among_enemies(situation(after), appeared(before, after))


def _may_stand(where: Situation, piece: Piece, hex_info: Hex) -> bool:
    """Whether a partisan may be in the hex by 11.42: its country, Ulster for the Irish, the Iraq group's."""
    home = home_country(where, piece)
    if hex_info.country == home:
        return True
    if home == "ireland" and hex_info.ulster:
        return True
    return faction(piece) == AXIS and pool_area(home) == IRAQ_GROUP == pool_area(hex_info.country)


def partisan_moves(before: Position, after: Position, difference: Difference) -> Iterator[tuple[Moved, Hex, Hex]]:
    """Each partisan that went from one hex of the map to another, with both hexes."""
    earlier, later = situation(before), situation(after)
    for move in difference.moved:
        if not is_partisan(move.after):
            continue
        start, end = earlier.hex_of(move.before), later.hex_of(move.after)
        if start is not None and end is not None:
            yield move, start, end


@case("11.42", judges="move")
def partisan_left_its_country(before: Position, after: Position, difference: Difference) -> Iterator[Violation]:
    """A partisan that stood in its country does not move out of it (Ulster and the Iraq group excepted)."""
    where = situation(after)
    for move, start, end in partisan_moves(before, after, difference):
        piece = move.after
        if end.sea or not _may_stand(where, piece, start) or _may_stand(where, piece, end):
            continue
        here = area_name(end.country) if end.country else "a hex of no country"
        yield Violation(
            f"{describe(piece)} moved from {move.start} ({area_name(start.country)}) to {move.end} ({here}); "
            f"partisans never leave their country ({area_name(home_country(where, piece))})",
            location=move.end, pieces=[piece.id],
        )


@case("11.43", judges="move")
def partisan_moved_by_sea_or_redeployed(before: Position, after: Position,
                                        difference: Difference) -> Iterator[Violation]:
    """A partisan never moves by sea nor is redeployed: it moves over land, within the hexes it may stand in."""
    where = situation(after)
    for move, start, end in partisan_moves(before, after, difference):
        piece = move.after
        if end.sea:
            yield Violation(f"{describe(piece)} moved from {move.start} into the sea hex {move.end}; partisans never "
                            "move by sea", location=move.end, pieces=[piece.id])
        elif _may_stand(where, piece, end) and not _land_route(where, piece, start.id, end.id):
            yield Violation(
                f"{describe(piece)} moved from {move.start} to {move.end}, and no route over land hexes of its own "
                "country joins them: it can only have gone by sea or been redeployed, and partisans do neither",
                location=move.end, pieces=[piece.id],
            )


def _land_route(where: Situation, piece: Piece, start: str, end: str) -> bool:
    """Whether land hexes the partisan may stand in lead from ``start`` to ``end``, neighbour by neighbour."""
    seen, queue = {start}, deque([start])
    while queue:
        hex_id = queue.popleft()
        if hex_id == end:
            return True
        for neighbour in where.hexes[hex_id].neighbours:
            info = where.hexes.get(neighbour)
            if neighbour in seen or info is None or info.sea or not _may_stand(where, piece, info):
                continue
            seen.add(neighbour)
            queue.append(neighbour)
    return False
