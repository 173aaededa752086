"""Reading a Third World War position: game state, hexes and units in rule terms.

The save carries what the rulebook's chapter 15 depends on but does not
print (docs/save-format.md, "The Third World War"): the turn, impulse and
phase; the turn each nation entered the war; the Kurdish partisans'
alignment (rule 20.3.7 is outside the text); the supply sources that
communications are traced to (rule 8 is outside the text); and what this
phase's units did (events, or each unit's previous location).
"""

from __future__ import annotations

from validator.derived import memoised
from validator.model import Event, Location, Piece, Position
from validator.numbers import is_whole_number

from plugin.tww import terms

# Fact names.  Those ending in ":" take a nation or side after the colon.
IMPULSE = "impulse"
SUB_IMPULSE = "sub-impulse"
WAR_ENTRY = "war-entry:"
NATION_SIDE = "side:"
KURDISH_PARTISANS = "kurdish-partisans"
KURDISH_PARTISANS_IN = "kurdish-partisans-in"
SUPPLY_SOURCE = "supply-source:"
RIVALS = "rivals"
RECORDS = "records"

# Event kinds and the piece attributes the plugin reads.
MOVE, ATTACK, REGROUP, ARRIVE, FORCED_RETREAT = "move", "attack", "regroup", "arrive", "forced-retreat"
EVENT_KINDS = (MOVE, ATTACK, REGROUP, ARRIVE, FORCED_RETREAT)
PREVIOUS_LOCATION = "previous-location"
FLAG_ATTRIBUTES = ("territorial", "limited", "zoc", "communication", "forced-retreat")



def turn_number(position: Position) -> int | None:
    """The war turn as a number, or None when the save does not say."""
    turn = position.turn.strip()
    return int(turn) if is_whole_number(turn) else None


def war_entry(position: Position, nation: str) -> int | None:
    """The turn ``nation`` entered the war, or None when it has not (per the save)."""
    value = position.fact(WAR_ENTRY + nation)
    return int(value) if value is not None else None


def supply_sources(position: Position, side: str) -> list[str]:
    """The hexes the save names as ``side``'s supply sources for tracing communications."""
    return [hex_id for value in position.facts.get(SUPPLY_SOURCE + side, ()) for hex_id in value.split()]


def records(position: Position, kind: str) -> bool:
    """Whether the save lists every event of ``kind`` in this phase.

    It does when a ``records`` fact names the kind, or when it lists at least
    one event of that kind (a save that lists some lists them all).
    """
    return kind in position.facts.get(RECORDS, ()) or any(event.kind == kind for event in position.events)


def events(position: Position, kind: str) -> list[Event]:
    return [event for event in position.events if event.kind == kind]


def pieces_in_events(position: Position, kind: str) -> set[str]:
    return {piece_id for event in events(position, kind) for piece_id in event.pieces}


# -- hexes -------------------------------------------------------------------


def hex_at(position: Position, location_id: str | None) -> Location | None:
    """The hex a piece stands on, or None off the map or in a non-hex location."""
    location = position.map.locations.get(location_id) if location_id else None
    return location if location is not None and location.kind == "hex" else None


def terrain(location: Location) -> str:
    return location.attributes.get("terrain", "")


def regions(location: Location) -> tuple[str, ...]:
    return tuple(location.attributes.get("region", "").split())


def is_city(location: Location) -> bool:
    return bool(location.attributes.get("city", "").strip())


def nation_name(position: Position, nation: str) -> str:
    """A nation's name for messages: its area's name, or its id made readable."""
    area = position.map.areas.get(nation)
    if area is not None and area.name:
        return area.name
    return nation.replace("-", " ").title() if nation else "no nation"


def nation_side(position: Position, nation: str) -> str | None:
    """The side a nation is committed to: the save's fact, the map's area, or its units' one side."""
    declared = position.fact(NATION_SIDE + nation)
    if declared:
        return declared
    area = position.map.areas.get(nation)
    if area is not None and area.attributes.get("side"):
        return area.attributes["side"]
    sides = {piece.side for piece in position.pieces if piece.nationality == nation and piece.side}
    return sides.pop() if len(sides) == 1 else None


# -- units -------------------------------------------------------------------


def flag(piece: Piece, name: str) -> bool:
    return piece.attributes.get(name) == terms.YES


def marked(position: Position, name: str) -> tuple[Piece, ...]:
    """The units marked with the flag ``name``, in the save's order: one pass over the pieces per position."""
    return memoised(position, "tww.marked:" + name, lambda: tuple(
        piece for piece in position.pieces if piece.attributes.get(name) == terms.YES))


def is_territorial(piece: Piece) -> bool:
    return flag(piece, "territorial")


def is_limited(piece: Piece) -> bool:
    """Marked "L", or of a nation or faction 15.3.3 lists."""
    return flag(piece, "limited") or piece.nationality in terms.LIMITED_FORCES


def is_air(piece: Piece) -> bool:
    return piece.type in terms.AIR_TYPES


def is_ground(piece: Piece) -> bool:
    return piece.type not in terms.NON_GROUND_TYPES


def previous_location(piece: Piece) -> str | None:
    """Where the unit stood at the start of this phase, when the save says."""
    return piece.attributes.get(PREVIOUS_LOCATION)


def described(piece: Piece) -> str:
    """A unit for messages: its name and id."""
    return f"{piece.name} ({piece.id})" if piece.name and piece.name != piece.id else piece.id


def listed(items: list[str], limit: int = 8) -> str:
    """Up to ``limit`` items joined with commas, then how many more."""
    shown = ", ".join(items[:limit])
    return shown + (f" and {len(items) - limit} more" if len(items) > limit else "")
