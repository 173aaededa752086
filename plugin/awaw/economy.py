"""The economic effect of partisans (11.71, 11.72): each one counted or not, and why.

A partisan costs the enemy major power whose territory it stands in one BRP
a turn when its hex is otherwise that enemy's and every hex around it is
enemy- or partisan-held, neutral or sea; not on an island, with no
friendly non-partisan unit in its hex or next to it.  Irish partisans hurt Britain only in or next
to Ulster (11.71A); Persian partisans next to Abadan, Ahwaz or Tehran also
cut the Persian BRP route by five BRPs each (11.71B).  The loss is taken at
the end of the losing power's combat phase (11.72).
"""

from __future__ import annotations

from types import MappingProxyType

from validator.cases import CaseNumber
from validator.rules import Finding, case
from validator.wording import plural

from plugin.awaw.common import describe, home_country, power_name
from plugin.awaw.situation import SIDE_OF_POWER, UNIT_TYPES, Hex, Situation, enemies, friends, side_of, situation
from plugin.awaw.vocabulary import MAJOR_POWERS, NEUTRAL, PARTISAN, PERSIAN_ROUTE_FEATURES

PERSIAN_ROUTE_CUT = 5  # BRPs per Persian partisan next to Abadan, Ahwaz or Tehran
# The cases ``assess`` answers with, read once: a Finding given a string parses it again, once per partisan.
_CASES = MappingProxyType({text: CaseNumber.parse(text) for text in ("11.71", "11.71A")})


def _surrounding_gap(where: Situation, hex_info: Hex, builder: str) -> str:
    """The first neighbouring hex that breaks the ring 11.71 asks for, described; "" when the ring holds.

    The builder's side is looked up once: a hex breaks the ring unless it is
    sea, partisan-held, neutral or held by a power of the other side
    (:func:`~plugin.awaw.situation.enemies`).
    """
    side = side_of(builder)
    hexes, control = where.hexes, where.control
    for neighbour_id in hex_info.neighbours:
        neighbour = hexes[neighbour_id]
        if neighbour.sea:
            continue
        controller = control.get(neighbour_id) or neighbour.controller  # where.effective_controller
        if controller in (PARTISAN, NEUTRAL) or (side and side_of(controller) not in ("", side)):
            continue
        held = "uncontrolled" if controller == "none" else f"held by {power_name(controller)}"
        return f"{where.place(neighbour_id)} next to it is {held}"
    return ""


def _friendly_unit_beside(where: Situation, hex_info: Hex, builder: str) -> str:
    """Where a friendly non-partisan unit breaks the partisan's effect, in words; "" when none does.

    A friendly ground unit in the partisan's own hex takes the hex (checked
    before this), so what is left here is an air or naval unit in the hex, or
    any unit in a hex next to it.  A unit is friendly when its owner is of
    the builder's side (:func:`~plugin.awaw.situation.friends`): a builder of
    no side has no friends.
    """
    side = side_of(builder)
    if not side:
        return ""
    stacks, sides = where.pieces_by_hex, SIDE_OF_POWER
    for piece in stacks.get(hex_info.id, ()):
        if piece.type in UNIT_TYPES and sides.get(piece.attributes.get("owner", ""), "") == side:
            return f"the friendly unit {piece.id} is in its hex"
    for hex_id in hex_info.neighbours:
        for piece in stacks.get(hex_id, ()):
            if piece.type in UNIT_TYPES and sides.get(piece.attributes.get("owner", ""), "") == side:
                return f"the friendly unit {piece.id} is next to it, in {where.place(hex_id)}"
    return ""


def assess(where: Situation, piece) -> tuple[str, str, str]:
    """(power losing a BRP or "", the reason, the case) for one partisan on the map."""
    hex_info = where.hexes[piece.location]
    builder = piece.attribute("builder")
    if hex_info.island:
        return "", "it is on an island", "11.71"
    regular = hex_info.controller
    if where.control.get(hex_info.id, PARTISAN) != PARTISAN:
        return "", f"a friendly ground unit shares its hex, which is therefore {power_name(where.control[hex_info.id])}'s", "11.71"
    if not enemies(regular, builder) or regular not in MAJOR_POWERS:
        if friends(regular, builder):
            return "", f"it is behind friendly lines (the hex is otherwise {power_name(regular)}'s)", "11.71"
        held = "neutral" if regular == NEUTRAL else f"otherwise held by {power_name(regular)}, not an enemy major power"
        return "", f"its hex is {held}", "11.71"
    friendly = _friendly_unit_beside(where, hex_info, builder)
    if friendly:
        return "", friendly, "11.71"
    gap = _surrounding_gap(where, hex_info, builder)
    if gap:
        return "", f"it is not surrounded: {gap}", "11.71"
    if home_country(where, piece) == "ireland" and regular == "britain":
        if not (hex_info.ulster or any(where.hexes[n].ulster for n in hex_info.neighbours)):
            return "", "it is an Irish partisan neither in nor next to Ulster", "11.71A"
    return regular, f"it stands in {power_name(regular)}'s territory, surrounded", "11.71"


@case("11.71")
def partisan_brp_losses(position):
    """Each partisan deep in enemy territory costs that enemy major power one BRP a turn; the reason is given for every partisan."""
    where = situation(position)
    losses: dict[str, list] = {}
    for piece in where.partisans:
        if not piece.location:
            continue
        loser, reason, case = assess(where, piece)
        if loser:
            losses.setdefault(loser, []).append(piece)
            message = f"{describe(piece)} costs {power_name(loser)} 1 BRP: {reason}"
        else:
            message = f"{describe(piece)} costs no BRPs: {reason}"
        yield Finding(message, location=piece.location, pieces=[piece.id], case=_CASES.get(case, case),
                      facts={"loser": loser, "counted": bool(loser), "applies": bool(loser)})
        if home_country(where, piece) == "persia":
            yield from _persian_route(where, piece)
    for loser, pieces in losses.items():
        yield Finding(
            f"{power_name(loser)} loses {plural(len(pieces), 'BRP')} to partisans ({', '.join(p.id for p in pieces)}), "
            f"deducted at the end of {power_name(loser)}'s combat phase (11.72)",
            pieces=[p.id for p in pieces], facts={"loser": loser, "brp_loss": len(pieces), "applies": True},
        )


def _persian_route(where: Situation, piece):
    hex_info = where.hexes[piece.location]
    near = sorted({feature for n in hex_info.neighbours for feature in where.hexes[n].features
                   if feature in PERSIAN_ROUTE_FEATURES})
    if near:
        route = where.state.persian_route
        yield Finding(
            f"{describe(piece)} is next to {', '.join(name.capitalize() for name in near)}: the Persian BRP route "
            f"({route}) carries {PERSIAN_ROUTE_CUT} BRPs less (40.532)", location=piece.location, pieces=[piece.id],
            case="11.71B", facts={"route_cut": PERSIAN_ROUTE_CUT, "route": route, "applies": True},
        )
