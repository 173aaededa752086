"""Partisans and communications (15.2): the closed hexes per side, and units cut off by them."""

from __future__ import annotations

from collections.abc import Callable

from validator import hexpaths
from validator.model import Position
from validator.rules import Finding, Violation, case
from validator.wording import plural, verb_for

from plugin.tww import state, terms
from plugin.tww.network import HexNeighbours, HexNetwork
from plugin.tww.partisans import partisan_map


@case("15.2", severity="info")
def partisan_closed_hexes(position: Position):
    """Report, per side and partisan country, the hexes the side may not trace communications through."""
    derived = partisan_map(position)
    for item in derived.activities:
        country, candidates = item.country, derived.candidates[item.country.case]
        if not candidates:
            continue
        if item.unknown:
            yield Finding(
                f"{country.name} partisans: {item.reason}, so whether its "
                f"{plural(len(candidates), country.terrain_words + ' hex')} {verb_for(len(candidates), 'is', 'are')} "
                f"closed cannot be told; the save needs {item.unknown}",
                case=country.case, severity="unchecked", facts={"hexes": sorted(candidates)},
            )
            continue
        if not item.against:
            yield Finding(
                f"{country.name} partisans: {item.reason}; its "
                f"{plural(len(candidates), country.terrain_words + ' hex')} "
                f"{verb_for(len(candidates), 'stays', 'stay')} open",
                case=country.case,
                facts={"active": False},
            )
            continue
        for side in item.against:
            side_map = derived.sides[side]
            closed = sorted(side_map.by_case[country.case])
            reopened = sorted(candidates & side_map.lifted)
            yield Finding(
                f"{country.name} partisans {item.reason}: {terms.side_name(side)} may not trace communications "
                f"through {plural(len(closed), country.terrain_words + ' hex')} ({state.listed(closed)})"
                + (
                    f"; {len(reopened)} more {verb_for(len(reopened), 'is', 'are')} open through friendly units or "
                    f"zones of control ({state.listed(reopened)})"
                    if reopened
                    else ""
                ),
                case=country.case,
                facts={"side": side, "closed": closed, "reopened": reopened},
            )


@case("15.2")
def unit_cut_off_by_partisans(position: Position):
    """A unit the save marks in communication must reach a supply source without crossing a hex partisans close to
    its side.
    """
    derived = partisan_map(position)
    hexes = derived.network
    marked: dict[str, list] = {side: [] for side in terms.SIDES}  # each side's units marked, on a hex
    for piece in state.marked(position, "communication"):
        if piece.side in marked and piece.location in hexes:
            marked[piece.side].append(piece)
    for side in terms.SIDES:
        units = marked[side]
        if not units:
            continue
        sources = [hex_id for hex_id in state.supply_sources(position, side) if hex_id in hexes]
        if not sources:
            yield Finding(
                f"{plural(len(units), terms.side_name(side) + ' unit')} {verb_for(len(units), 'is', 'are')} marked in "
                f"communication, but the save names no "
                f"{terms.side_name(side)} supply source (fact {state.SUPPLY_SOURCE}{side}; rule 8 is outside the text)",
                pieces=tuple(piece.id for piece in units),
                severity="unchecked",
            )
            continue
        yield from _judge_side(position, side, units, sources, derived)


def _joined_anyhow(hexes: HexNetwork, reached: set) -> Callable[[str], bool]:
    """Whether a hex is joined to the ``reached`` nodes by some path, closed hexes or not.

    The search that stopped at closed hexes, resumed through them, reaches
    the whole connected parts of the map its hexes lie in: so a hex is joined
    when its part holds a reached node.
    """
    whole_part = hexes.whole_part
    reached_parts = {whole_part[node] for node in reached}
    return lambda hex_id: whole_part[hexes.node(hex_id)] in reached_parts


def _judge_side(position, side, units, sources, derived):
    side_map, hexes = derived.sides[side], derived.network
    # The searches run on the network's nodes (plugin/tww/network.py); a hex is reached when its node is.
    if side_map.uncertain:
        # What is sure first; the search then resumes through the hexes partisans may close
        # (those it stopped at, and sources among them) instead of starting over.
        stopped_at: set[str] = set()
        surely = hexes.reachable(sources, side_map.blocked | side_map.uncertain, touched=stopped_at)
        reached = hexes.reachable((*sources, *stopped_at), side_map.blocked, seen=surely)
    else:
        reached = surely = hexes.reachable(sources, side_map.blocked)
    part_of = hexes.part_of
    at = [(piece, part_of.get(piece.location, piece.location)) for piece in units]  # each unit's node
    cut_off = [piece for piece, node in at if node not in reached]
    for piece, node in at if surely is not reached else ():
        if node in reached and node not in surely:
            missing = "; ".join(
                item.unknown for item in derived.activities if item.unknown and side in item.maybe_against
            )
            yield Finding(
                f"{state.described(piece)} reaches a {terms.side_name(side)} supply source only through hexes that "
                f"partisans may close; the save needs {missing}",
                piece.location,
                (piece.id,),
                severity="unchecked",
            )
    if not cut_off:
        return
    # What the search reaches through the closed hexes too: the rest is kept from
    # the sources by the map itself, not by partisans.
    joined = _joined_anyhow(hexes, reached)
    regions = hexpaths.enclosures(HexNeighbours(position.map, hexes), [piece.location for piece in cut_off],
                                  side_map.blocked)
    for piece in cut_off:
        if not joined(piece.location):
            yield Finding(
                f"{state.described(piece)} is marked in communication, but no path on the map joins its hex to a "
                f"{terms.side_name(side)} supply source, partisans or not; rule 8 (outside the text) decides",
                piece.location,
                (piece.id,),
                severity="warning",
            )
            continue
        region, border = regions[piece.location]
        closing = sorted(border)
        cases = sorted({derived.case_of(hex_id) for hex_id in closing} - {None})
        yield Violation(
            f"{state.described(piece)} is marked in communication, but every path from it to a "
            f"{terms.side_name(side)} supply source ({state.listed(sources, 4)}) crosses hexes partisans close to "
            f"{terms.side_name(side)}: {plural(len(closing), 'closed hex')} {verb_for(len(closing), 'rings', 'ring')} "
            "its "
            f"{len(region)}-hex pocket ({state.listed(closing)})",
            piece.location,
            (piece.id,),
            case=cases[0] if len(cases) == 1 else None,
            facts={"side": side, "blocking": closing, "pocket_size": len(region), "sources": sources},
        )
