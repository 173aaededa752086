"""Rivalry (15.4.1): what units of rival nations on the same side may not do.

Rivalry binds nations committed to the same side; air units are left alone
(15.4.1.3 says rivalry restrictions do not touch them, and we read that for
every item of 15.4.1).  The pairs come from ``rivals.table_for``.
"""

from __future__ import annotations

from itertools import combinations

from validator.model import Piece, Position
from validator.rules import Finding, Violation, case

from plugin.tww import state, terms
from plugin.tww.rivals import RivalryTable, table_for


def _pair_facts(table: RivalryTable, first: str, second: str) -> dict:
    return {"nations": sorted((first, second)), "rivalry_source": table.source(first, second),
            "rivalry_list_complete": table.complete}


def rival_groups(table: RivalryTable, pieces: list[Piece]):
    """Each pair of rival nationalities among ``pieces`` (same side, not air), with their units."""
    by_nation: dict[tuple[str, str], list[Piece]] = {}
    for piece in pieces:
        if piece.nationality and not state.is_air(piece):
            by_nation.setdefault((piece.side, piece.nationality), []).append(piece)
    for (side_a, first), (side_b, second) in combinations(sorted(by_nation), 2):
        if side_a == side_b and side_a in terms.SIDES and table.are_rivals(first, second):
            yield first, second, by_nation[(side_a, first)] + by_nation[(side_b, second)]


@case("15.4.1.1")
def rivals_stacked(position: Position):
    """Units of rival nations never share a hex."""
    table = table_for(position)
    rivalled = table.nations()
    for location, pieces in position.stacks().items():
        pieces = [piece for piece in pieces if piece.nationality in rivalled]  # only they can make a pair
        if len(pieces) < 2:
            continue
        for first, second, units in rival_groups(table, pieces):
            yield Violation(
                f"{state.nation_name(position, first)} and {state.nation_name(position, second)} are rivals, yet "
                f"their units {', '.join(piece.id for piece in units)} share this hex",
                location, tuple(piece.id for piece in units), facts=_pair_facts(table, first, second),
            )


def _forced_in(position: Position) -> set[str]:
    retreated = state.pieces_in_events(position, state.FORCED_RETREAT)
    return retreated | {piece.id for piece in state.marked(position, "forced-retreat")}


def _rival_host(position: Position, table: RivalryTable, piece: Piece, location_id: str | None):
    """(nation, side) when the hex belongs to a nation rival to the unit's; side None when unknown."""
    location = state.hex_at(position, location_id)
    if location is None or not location.area or not table.are_rivals(piece.nationality, location.area):
        return None
    return location.area, state.nation_side(position, location.area)


@case("15.4.1.2")
def unit_in_rival_territory(position: Position):
    """A unit enters a rival nation's hexes only when a retreat leaves it no other way."""
    table = table_for(position)
    forced = _forced_in(position)
    rivalled = table.nations()
    for piece in position.pieces:
        if piece.nationality not in rivalled:  # a nation with no rival: never in a rival's hex
            continue
        if state.is_air(piece) or piece.id in forced or piece.side not in terms.SIDES:
            continue
        host = _rival_host(position, table, piece, piece.location)
        if host is None:
            continue
        nation, side = host
        names = state.nation_name(position, piece.nationality), state.nation_name(position, nation)
        if side is None:
            yield Finding(
                f"{state.described(piece)} ({names[0]}) stands in {names[1]}, its rival, but the side {names[1]} is "
                f"committed to is unknown (fact {state.NATION_SIDE}{nation} or the area's side)",
                piece.location, (piece.id,), severity="unchecked",
            )
        elif side == piece.side and side in terms.SIDES:
            yield Violation(
                f"{state.described(piece)} ({names[0]}) stands in {names[1]}, a rival nation on the same side, and "
                "the save records no forced retreat that put it there",
                piece.location, (piece.id,), facts=_pair_facts(table, piece.nationality, nation),
            )


@case("15.4.1.3")
def rivals_attacking_together(position: Position):
    """Ground units of rival nations never take part in the same attack."""
    table = table_for(position)
    attacks = state.events(position, state.ATTACK)
    for event in attacks:
        attackers = [
            piece for piece in map(position.piece, event.pieces) if piece is not None and state.is_ground(piece)
        ]
        for first, second, units in rival_groups(table, attackers):
            target = event.attributes.get("hex")
            yield Violation(
                f"{state.nation_name(position, first)} and {state.nation_name(position, second)} ground units "
                f"({', '.join(piece.id for piece in units)}) attack {target} together, but the two are rivals "
                f"(attack declared at line {event.line})",
                target,
                tuple(piece.id for piece in units),
                facts=_pair_facts(table, first, second),
            )
    if position.phase == terms.COMBAT and not state.records(position, state.ATTACK):
        side_pieces = [piece for piece in position.pieces if piece.side == position.phasing and piece.location]
        if next(rival_groups(table, side_pieces), None) is not None:
            yield Finding(
                "rival nations' units are on the phasing side, but the save lists no attacks; it needs attack events "
                f'(or <fact name="records" value="{state.ATTACK}"/> when there are none)',
                severity="unchecked",
            )


@case("15.4.1.4")
def regroup_in_rival_territory(position: Position):
    """A unit standing in a rival nation's territory does not regroup."""
    table = table_for(position)
    regroup_events = state.events(position, state.REGROUP)
    starts: dict[str, str | None] = {}
    for event in regroup_events:
        for piece_id in event.pieces:
            piece = position.piece(piece_id)
            if piece is not None:
                starts[piece_id] = event.attributes.get("from") or state.previous_location(piece)
    if position.phase == terms.REGROUP:
        for piece in position.pieces:
            previous = state.previous_location(piece)
            if previous is not None and previous != piece.location:
                starts.setdefault(piece.id, previous)
    unknown = []
    for piece_id, start in starts.items():
        piece = position.piece(piece_id)
        if state.is_air(piece):
            continue
        if start is None:
            unknown.append(piece_id)
            continue
        host = _rival_host(position, table, piece, start)
        if host is None:
            continue
        nation, side = host
        if side == piece.side and side in terms.SIDES:
            yield Violation(
                f"{state.described(piece)} regrouped from {start}, in {state.nation_name(position, nation)}, "
                f"a rival of {state.nation_name(position, piece.nationality)} on the same side",
                start,
                (piece.id,),
                facts=_pair_facts(table, piece.nationality, nation),
            )
    if unknown:
        yield Finding(
            f"{state.listed(unknown)} regrouped, but the save does not say from where; it needs the event's from "
            "attribute or the unit's previous-location",
            pieces=tuple(unknown),
            severity="unchecked",
        )
    elif position.phase == terms.REGROUP and not starts and not state.records(position, state.REGROUP):
        exposed = [
            piece.id
            for piece in position.pieces
            if piece.side == position.phasing
            and not state.is_air(piece)
            and (host := _rival_host(position, table, piece, piece.location)) is not None
            and host[1] == piece.side in terms.SIDES
        ]
        if exposed:
            yield Finding(
                f"{state.listed(exposed)} stand in rival territory in a regroup phase, but the save says nothing of "
                f'who regrouped; it needs regroup events (or <fact name="records" value="{state.REGROUP}"/>) '
                "or previous-location",
                pieces=tuple(exposed),
                severity="unchecked",
            )
