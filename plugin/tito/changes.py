"""The changes of unit under one id Tito's rules allow between two saves of a chain (the game's allowed_change).

A move never turns one unit into another, so a chain breaks where a piece
does (validator.moves.chains), except where the rules replace a counter:

- **13.81**: an Axis unit upgraded, its counter flipped, in the Axis
  Reinforcement Phase: the other side shows a stronger unit, so the counter
  keeps its nationality, gains Combat Strength and is no smaller;
- **10.34**: an Italian unit that defects, replaced by a Partisan brigade
  (never a division or a group) in the Italian Surrender Phase;
- **7.63**: a guerrilla group built into a brigade (below).

Each is allowed only where the phase may have been played between the two
saves: in it, across it, or across Game-Turns.  An allowance the saves
cannot prove (the upgrade schedule, the reinforcements due, groups that may
have moved since) is an ``unchecked`` finding asking the arbiter to check it
by hand; one they show is an ``info`` finding.

Once a guerrilla type has reached brigade-strength (7.62), the Yugoslav
player builds its groups into brigades in two ways, and only these:

- **7.63A**, in a Guerrilla Status Phase: three groups of the type in one
  box, triangle or circle (never a Hide-away) give way to one brigade.  A
  save keeping one of the groups' ids for the brigade shows that group
  becoming a brigade where it stood, and two more groups of its type gone
  from that place for each brigade built there.
- **7.63B**, in a Guerrilla Reinforcement Phase after the one where
  brigade-strength came: groups due as reinforcements enter the map as
  brigades.  A save that keeps the reinforcements off the map shows a group
  off the map becoming a brigade on it.

Both are the Yugoslav player's: Partisans, and Chetniks while they are on
his side (a pro-Axis or neutral Chetnik is not his to build).  Only the size
(group to brigade) and the name may change; a division is never built this
way (7.64 to 7.68, which would say how, are not in the text).
"""

from __future__ import annotations

from types import MappingProxyType

from validator.model import Piece, Position

from plugin.tito import facts, units

AXIS_REINFORCEMENT, ITALIAN_SURRENDER = "axis-reinforcement", "italian-surrender"
GUERRILLA_REINFORCEMENT, GUERRILLA_STATUS = "guerrilla-reinforcement", "guerrilla-status"
GROUPS_PER_BRIGADE = 3  # 7.63A, 7.63B
STRENGTH_FACTS = MappingProxyType({"partisan": "partisan-brigade-strength", "chetnik": "chetnik-brigade-strength"})
TYPE_NAMES = MappingProxyType({"partisan": "Partisan", "chetnik": "Chetnik"})
SHOWN, BY_HAND = "info", "unchecked"  # the severity of an allowance the saves show, and of one they cannot


def allowed_change(before: Position, after: Position, was: Piece, now: Piece) -> tuple[str, str, str] | None:
    """The case allowing ``was`` to become ``now`` under one id, why in words, and whether the saves show it
    (``info``) or the arbiter must check it by hand (``unchecked``); None when no rule allows it."""
    turn = units.turn_number(after)
    if grew_into_brigade(before, after, was, now):
        built = built_in_status_phase(before, after, was, now)
        if built is not None:
            return "7.63A", *built
        entered = entered_as_brigade(before, after, was, now)
        return ("7.63B", entered, BY_HAND) if entered is not None else None
    if spans(before, after, AXIS_REINFORCEMENT) and units.is_axis_regular(was, turn) \
            and upgraded(was, now):  # the schedule upgrades Axis units, never Chetniks
        return "13.81", ("an Axis unit may be upgraded, its counter flipped, in the Axis Reinforcement Phase; "
                         "check by hand that the schedule (13.9) lists it for this Game-Turn"), BY_HAND
    if spans(before, after, ITALIAN_SURRENDER) and was.nationality == "italian" and now.nationality == "partisan" \
            and now.size == "brigade":
        return "10.34", ("an Italian unit that defects is replaced by a Partisan brigade in the Italian Surrender "
                         "Phase"), SHOWN
    return None


def upgraded(was: Piece, now: Piece) -> bool:
    """Whether ``now`` can be ``was`` flipped by an upgrade (13.81): one nationality, stronger, no smaller.

    A strength or size the saves do not give is not held against it (the
    finding asks the arbiter to check the schedule anyway).
    """
    if was.nationality != now.nationality:
        return False
    if was.strength is not None and now.strength is not None and now.strength <= was.strength:
        return False
    sizes = facts.SIZE_EQUIVALENTS
    return not (was.size in sizes and now.size in sizes and sizes[now.size] < sizes[was.size])


def spans(before: Position, after: Position, phase: str) -> bool:
    """Whether the phase may have been played between the two positions (in it, across it, or across turns)."""
    if before.turn != after.turn:
        return True
    order = facts.PHASES
    if before.phase not in order or after.phase not in order:
        return before.phase == after.phase == phase
    return order.index(before.phase) <= order.index(phase) <= order.index(after.phase)


def grew_into_brigade(before: Position, after: Position, was: Piece, now: Piece) -> bool:
    """Whether ``was`` became ``now`` by growing from a guerrilla group into a brigade of its own type."""
    return (units.is_guerrilla(was) and was.size == "group" and now.size == "brigade"
            and (now.nationality, now.type) == (was.nationality, was.type)
            and _yugoslav(was, before) and _yugoslav(now, after))


def built_in_status_phase(before: Position, after: Position, was: Piece, now: Piece) -> tuple[str, str] | None:
    """Why 7.63A allows the brigade and whether the saves show it, or None: in a Guerrilla Status Phase, from
    groups, outside a Hide-away."""
    if was.location is None or now.location is None or not spans(before, after, GUERRILLA_STATUS):
        return None
    if not units.since_phase(after, STRENGTH_FACTS[was.nationality], GUERRILLA_STATUS):
        return None
    kind = TYPE_NAMES[was.nationality]
    if before.turn != after.turn:  # units may have moved since: where it was built cannot be told
        return (f"{kind} groups may be built into a brigade, three for one, in a Guerrilla Status Phase once "
                "brigade-strength is reached; the saves are of different Game-Turns, so check by hand that it was "
                "built from three groups in one place, not in a Hide-away"), BY_HAND
    if now.location != was.location or _in_hide_away(after, now):
        return None
    built = _built_at(before, after, was)
    gone = _groups_gone(before, after, was)
    if gone < (GROUPS_PER_BRIGADE - 1) * built:
        return None
    return (f"{kind} groups may be built into a brigade, three for one, in a Guerrilla Status Phase once "
            f"brigade-strength is reached; {built * (GROUPS_PER_BRIGADE - 1)} more groups left this place for "
            f"the {'brigade' if built == 1 else f'{built} brigades'} built here"), SHOWN


def entered_as_brigade(before: Position, after: Position, was: Piece, now: Piece) -> str | None:
    """Why 7.63B allows the brigade, or None: a reinforcing group entering the map as a brigade."""
    if was.location is not None or now.location is None or not spans(before, after, GUERRILLA_REINFORCEMENT):
        return None
    if not units.after_turn(after, STRENGTH_FACTS[was.nationality]):
        return None
    return (f"once brigade-strength was reached in an earlier Game-Turn, {TYPE_NAMES[was.nationality]} groups due "
            "as reinforcements may enter the map as brigades in the Guerrilla Reinforcement Phase, three groups "
            "for each brigade; check the reinforcements due by hand")


def _yugoslav(piece: Piece, position: Position) -> bool:
    return units.side(piece, units.turn_number(position)) == "yugoslav"


def _in_hide_away(position: Position, piece: Piece) -> bool:
    location = position.map.locations.get(piece.location or "")
    return location is not None and location.kind == facts.HIDE_AWAY


def _alike(piece: Piece, like: Piece) -> bool:
    return (piece.nationality, piece.type) == (like.nationality, like.type) and units.is_guerrilla(piece)


def _built_at(before: Position, after: Position, like: Piece) -> int:
    """Groups of the place and type of ``like`` that stand there as brigades under the same id after."""
    now = units.pieces_by_id(after)
    return sum(1 for piece in before.pieces
               if piece.location == like.location and piece.size == "group" and _alike(piece, like)
               and piece.id in now and now[piece.id].size == "brigade" and now[piece.id].location == like.location)


def _groups_gone(before: Position, after: Position, like: Piece) -> int:
    """Groups of the place and type of ``like`` that are no longer on the map after (removed, or off it)."""
    now = units.pieces_by_id(after)
    return sum(1 for piece in before.pieces
               if piece.location == like.location and piece.size == "group" and _alike(piece, like)
               and (piece.id not in now or now[piece.id].location is None))
