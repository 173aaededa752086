"""Tito's move checks: how far a unit may go between two positions (6.11, 6.31, 6.41-6.43, 6.5, 6.63, 15.4).

Each check receives the position before, the position after and their
difference, and judges the pieces that changed zone (a piece entering or
leaving the map is a reinforcement or a loss, not a move).  Borders come
from the map file through :mod:`plugin.tito.borders`; a move across a
border the map marks as a placeholder, or does not give, is an "unchecked"
finding naming what the map lacks.

The limits of 6.31, 6.41 and 6.42 belong to one Movement Phase.  A
difference between positions of two different phases (or Game-Turns) may
hold several phases' moves, so those limits are not applied to it and 6.11
says once that the distances were not judged.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING

from validator.model import Piece, Position
from validator.rules import Finding, Result, Violation, case
from validator.wording import plural

from plugin.tito import facts, units
from plugin.tito.borders import ABSENT, KNOWN, borders

if TYPE_CHECKING:  # a position's check imports no move code (issue 14's lean start-up)
    from validator.moves.diff import Difference, Moved

AXIS_MOVEMENT, YUGOSLAV_MOVEMENT = "axis-movement", "yugoslav-movement"
AG_REACTION, AG_DEPLOYMENT, AG_REDEPLOYMENT = (
    "anti-guerrilla-reaction", "anti-guerrilla-deployment", "anti-guerrilla-redeployment")
# The phases each side moves as in a Movement Phase: an operation's Axis units reach their zone as a
# Movement Phase would let them (8.42, deployed by 8.44), and the Yugoslav reaction is a bonus
# Movement Phase under the normal rules (8.43).
AXIS_MOVES_AS_IN_MOVEMENT = frozenset({AXIS_MOVEMENT, AG_DEPLOYMENT})
YUGOSLAV_MOVES_AS_IN_MOVEMENT = frozenset({YUGOSLAV_MOVEMENT, AG_REACTION})
AXIS_ZONES_PER_PHASE = 3  # 6.31
ZONE_DISPLAY_KINDS = frozenset({facts.MOUNTAIN, facts.HIDE_AWAY})
FIRST_TURNS_IN_PLACE = 2  # 6.63, 15.4


@dataclass(frozen=True)
class ZoneMove:
    """A unit that stands in another zone than before."""

    move: Moved
    start: str
    end: str

    @property
    def piece(self) -> Piece:
        return self.move.after


def zone_moves(difference: Difference) -> list[ZoneMove]:
    """The moves of units (not markers) from one zone to another, both on the map."""
    found = []
    for move in difference.moved:
        if units.is_marker(move.after):
            continue
        start = units.zone_of(difference.before, move.before)
        end = units.zone_of(difference.after, move.after)
        if start is not None and end is not None and start != end:
            found.append(ZoneMove(move, start, end))
    return found


def one_phase(before: Position, after: Position) -> str | None:
    """The phase both positions are in, or None when the difference spans phases or Game-Turns."""
    if before.phase != after.phase or before.turn != after.turn:
        return None
    return after.phase


def moves_three_zones(piece: Piece, position: Position) -> bool:
    """Whether 6.31 governs the unit: an Axis unit proper (pro-Axis Chetniks move as Yugoslavs, 6.32)."""
    return units.is_axis_regular(piece, units.turn_number(position))


def is_yugoslav(piece: Piece, position: Position) -> bool:
    return units.side(piece, units.turn_number(position)) == "yugoslav"


def moves_as_yugoslav(piece: Piece, position: Position, phase: str | None) -> bool:
    """Whether 6.4 governs the unit's move: a Yugoslav unit in its side's moves, a pro-Axis Chetnik in the Axis's.

    6.32: pro-Axis Chetniks move as Yugoslav units.
    """
    if phase in YUGOSLAV_MOVES_AS_IN_MOVEMENT:
        return is_yugoslav(piece, position)
    if phase == AXIS_MOVEMENT:
        return units.side(piece, units.turn_number(position)) == "axis" and not moves_three_zones(piece, position)
    return False


def _words(difference: Difference, zone_move: ZoneMove) -> str:
    return difference.describe_move(zone_move.move)


def _zone(position: Position, zone: str) -> str:
    return units.zone_name(position, zone)


def _one_zone_verdicts(difference: Difference, moves: list[ZoneMove], allowed: str) -> Iterator[Result]:
    """A violation for each move to a zone that does not border the start; unchecked where the map cannot say."""
    known_borders = borders(difference.after.map)
    for zone_move in moves:
        border = known_borders.between(zone_move.start, zone_move.end)
        if border == KNOWN:
            continue
        start, end = _zone(difference.after, zone_move.start), _zone(difference.after, zone_move.end)
        if border == ABSENT:
            yield Violation(
                f"{_words(difference, zone_move)}: {end} does not border {start} on the map "
                f"{known_borders.source}; {allowed}",
                location=zone_move.piece.location, pieces=[zone_move.piece.id],
            )
        else:
            yield Finding(
                f"{_words(difference, zone_move)} is not judged: "
                f"{known_borders.why_unknown(zone_move.start, zone_move.end, facts.ZONES)}; give the border as "
                "the printed map shows it",
                location=zone_move.piece.location, pieces=[zone_move.piece.id], severity="unchecked",
            )


MOVING_SIDE = MappingProxyType({AXIS_MOVEMENT: "axis", YUGOSLAV_MOVEMENT: "yugoslav"})  # 4.2: one player's phase
SIDE_NAMES = MappingProxyType({"axis": "Axis", "yugoslav": "Yugoslav"})


@case("6.1", judges="move")
def moved_in_the_other_players_phase(before: Position, after: Position, difference: Difference) -> Iterator[Violation]:
    """In a Movement Phase only the phasing player's units move; the other side's stay in their zones."""
    phase = one_phase(before, after)
    mover = MOVING_SIDE.get(phase or "")
    if mover is None:
        return
    turn = units.turn_number(after)
    for zone_move in zone_moves(difference):
        owner = units.side(zone_move.piece, turn)
        if owner in MOVING_SIDE.values() and owner != mover:
            yield Violation(
                f"{_words(difference, zone_move)}: in the {SIDE_NAMES[mover]} Movement Phase only the "
                f"{SIDE_NAMES[mover]} player's units move, and this unit is {SIDE_NAMES[owner]}; undo the move or "
                "give the save the phase it was made in",
                location=zone_move.piece.location, pieces=[zone_move.piece.id],
            )


@case("6.11", judges="move")
def moved_to_a_zone_not_adjacent(before: Position, after: Position, difference: Difference) -> Iterator[Result]:
    """A unit moves within its zone or into a zone bordering it (Axis and Yugoslav Movement Phases: 6.31, 6.41)."""
    moves = zone_moves(difference)
    if not moves:
        return
    phase = one_phase(before, after)
    if phase is None:
        yield Finding(
            f"{plural(len(moves), 'unit')} changed zone between Game-Turn {before.turn or '?'} "
            f"{before.phase or '(no phase)'} and Game-Turn {after.turn or '?'} {after.phase or '(no phase)'}; "
            "how far a unit may go is judged within one phase, so compare positions of the same phase",
            pieces=[zone_move.piece.id for zone_move in moves], severity="unchecked",
        )
        return
    if phase == AG_REDEPLOYMENT:
        yield Finding(
            f"{plural(len(moves), 'unit')} changed zone in the Anti-Guerrilla Operations Redeployment Phase; where "
            "an operation's units return to is not judged (8.47 is not in the rulebook text Referee reads), so "
            "check their places by hand",
            pieces=[zone_move.piece.id for zone_move in moves], severity="unchecked",
        )
        return
    judged = [
        zone_move for zone_move in moves
        if not (phase in AXIS_MOVES_AS_IN_MOVEMENT and moves_three_zones(zone_move.piece, after))
        and not (phase in YUGOSLAV_MOVES_AS_IN_MOVEMENT and is_yugoslav(zone_move.piece, after))
    ]
    yield from _one_zone_verdicts(difference, judged, "a unit moves only within its zone or into an adjacent one")


@case("6.31", judges="move")
def axis_moved_more_than_three_zones(before: Position, after: Position, difference: Difference) -> Iterator[Result]:
    """An Axis unit enters at most three zones, each bordering the one before, in a Movement Phase (and 8.42)."""
    if one_phase(before, after) not in AXIS_MOVES_AS_IN_MOVEMENT:
        return
    known_borders = borders(after.map)
    for zone_move in zone_moves(difference):
        if not moves_three_zones(zone_move.piece, after):
            continue
        steps, doubtful = known_borders.distance(zone_move.start, zone_move.end, AXIS_ZONES_PER_PHASE)
        if steps is not None:  # a path over known borders is enough, whatever the map leaves open
            continue
        start, end = _zone(after, zone_move.start), _zone(after, zone_move.end)
        if not doubtful:
            yield Violation(
                f"{_words(difference, zone_move)}: no path of {AXIS_ZONES_PER_PHASE} zones or fewer leads from "
                f"{start} to {end} over the borders of the map {known_borders.source}; an Axis unit enters at "
                f"most {AXIS_ZONES_PER_PHASE} contiguous zones in a Movement Phase",
                location=zone_move.piece.location, pieces=[zone_move.piece.id],
            )
        else:
            yield Finding(
                f"{_words(difference, zone_move)} is not judged: no path of {AXIS_ZONES_PER_PHASE} zones or fewer "
                f"over known borders leads from {start} to {end}, and the map {known_borders.source} leaves some "
                "borders on the way unknown or marked as placeholders; give them as the printed map shows them",
                location=zone_move.piece.location, pieces=[zone_move.piece.id], severity="unchecked",
            )


@case("6.41", judges="move")
def yugoslav_moved_beyond_adjacent_zone(before: Position, after: Position,
                                        difference: Difference) -> Iterator[Result]:
    """A Yugoslav unit stays in its zone or enters one bordering it, in a Movement Phase or a reaction (8.43)."""
    if one_phase(before, after) not in YUGOSLAV_MOVES_AS_IN_MOVEMENT:
        return
    moves = [zone_move for zone_move in zone_moves(difference) if is_yugoslav(zone_move.piece, after)]
    yield from _one_zone_verdicts(difference, moves, "a Yugoslav unit moves within its zone or into an adjacent one")


@case("6.42", judges="move")
def yugoslav_entered_zone_into_objective_display(before: Position, after: Position,
                                                 difference: Difference) -> Iterator[Violation]:
    """A Yugoslav unit that enters a zone ends the Yugoslav Movement Phase in its Mountains or Hide-away."""
    phase = one_phase(before, after)
    turn = units.turn_number(after)
    for zone_move in zone_moves(difference):
        piece = zone_move.piece
        if not moves_as_yugoslav(piece, after, phase) or units.is_soviet_or_yugoslav_bulgarian(piece, turn):
            continue
        location = after.map.locations[piece.location]
        if location.kind not in ZONE_DISPLAY_KINDS:
            yield Violation(
                f"{_words(difference, zone_move)}: a unit moving as a Yugoslav one entering "
                f"{_zone(after, zone_move.end)} ends the phase in a Mountain triangle or Hide-away circle of its "
                "zone display, not in an Objective Display",
                location=piece.location, pieces=[piece.id],
            )


@case("6.43", severity="info", judges="move")
def soviet_entered_zone_into_objective_display(before: Position, after: Position,
                                               difference: Difference) -> Iterator[Finding]:
    """Soviet and pro-Yugoslav Bulgarian units may enter a zone straight into one of its Objective Displays."""
    if one_phase(before, after) not in YUGOSLAV_MOVES_AS_IN_MOVEMENT:
        return
    turn = units.turn_number(after)
    for zone_move in zone_moves(difference):
        piece = zone_move.piece
        if not units.is_soviet_or_yugoslav_bulgarian(piece, turn):
            continue
        if after.map.locations[piece.location].kind not in ZONE_DISPLAY_KINDS:
            yield Finding(
                f"{_words(difference, zone_move)}: a Soviet or pro-Yugoslav Bulgarian unit may enter a zone "
                "straight into an Objective Display, so 6.42 does not hold it back",
                location=piece.location, pieces=[piece.id], facts={"applies": True},
            )


@case("6.5", judges="move")
def entered_islands_from_elsewhere(before: Position, after: Position, difference: Difference) -> Iterator[Result]:
    """The Islands are entered only from Istria, Slovenia, Croatia or Dalmatia."""
    phase = one_phase(before, after)
    known_borders = borders(after.map)
    for zone_move in zone_moves(difference):
        if zone_move.end != facts.ISLANDS or zone_move.start in facts.ISLANDS_ENTRY_ZONES:
            continue
        if phase in (AXIS_MOVEMENT, None) and moves_three_zones(zone_move.piece, after):
            # An Axis unit may have passed through an entry zone on its way: 6.31 judges the path.
            reach = [known_borders.distance(zone_move.start, entry, AXIS_ZONES_PER_PHASE - 1)
                     for entry in facts.ISLANDS_ENTRY_ZONES]
            if any(steps is not None or doubtful for steps, doubtful in reach):
                continue
        yield Violation(
            f"{_words(difference, zone_move)}: the Islands are entered only from Istria, Slovenia, Croatia or "
            f"Dalmatia, not from {_zone(after, zone_move.start)}",
            location=zone_move.piece.location, pieces=[zone_move.piece.id],
        )


@case("15.4", judges="move")
@case("6.63", judges="move")
def left_zone_in_first_two_turns(before: Position, after: Position, difference: Difference) -> Iterator[Violation]:
    """On Game-Turns 1 and 2 every unit stays in the zone it started in or entered the game in."""
    turns = [units.turn_number(before), units.turn_number(after)]
    if None in turns or max(turns) > FIRST_TURNS_IN_PLACE:
        return
    for zone_move in zone_moves(difference):
        home = _home_zone(difference, zone_move)
        if zone_move.end == home:  # back where it started: the move that left is the one at fault
            continue
        yield Violation(
            f"{_words(difference, zone_move)} in Game-Turn {after.turn}: on Game-Turns 1 and 2 every unit stays "
            f"in the zone it started in or entered the game in ({_zone(after, home)})",
            location=zone_move.piece.location, pieces=[zone_move.piece.id],
        )


def _home_zone(difference: Difference, zone_move: ZoneMove) -> str:
    """The zone the unit held where the judged history began (or entered the game in), else where the move began."""
    found = difference.origin_of(zone_move.piece.id)
    if found is not None:
        zone = units.zone_of(*found)
        if zone is not None:
            return zone
    return zone_move.start
