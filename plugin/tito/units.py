"""Reading a Tito position: which side a piece is on, what it counts, where it stands, when it is.

It also holds the words VASSAL modules name Tito's pieces with (``KIND_WORDS``,
``NATION_WORDS``, ``SIZE_WORDS``), for the mapping draft (:mod:`plugin.tito.drafting`).

The save's values are checked by :mod:`plugin.tito.validation` before any
check runs, so these helpers may rely on known nationalities, sizes and
allegiances.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from types import MappingProxyType

from validator.derived import memoised
from validator.model import Location, Piece, Position
from validator.numbers import is_whole_number
from validator.wording import plural

from plugin.tito import facts

# -- pieces ------------------------------------------------------------------


def turn_number(position: Position) -> int | None:
    """The Game-Turn as a number, or None when the save does not give it."""
    return int(position.turn) if is_whole_number(position.turn) else None


def side(piece: Piece, turn: int | None) -> str:
    """"axis", "yugoslav" or "neutral" ("" for markers)."""
    if piece.side:
        return piece.side
    nationality = piece.nationality
    if nationality in facts.AXIS_NATIONALITIES:
        return "axis"
    if nationality in ("partisan", "soviet"):
        return "yugoslav"
    if nationality == "chetnik":
        return facts.ALLEGIANCES.get(piece.attribute("allegiance"), "")
    if nationality == "bulgarian" and turn is not None:
        return "yugoslav" if turn >= facts.BULGARIANS_CHANGE_SIDES_ON else "axis"
    return ""


def is_marker(piece: Piece) -> bool:
    return piece.type == facts.MARKER


def is_tito(piece: Piece) -> bool:
    return piece.type == facts.TITO


def is_guerrilla(piece: Piece) -> bool:
    return piece.nationality in facts.GUERRILLA_NATIONALITIES and not is_marker(piece)


def is_soviet_or_yugoslav_bulgarian(piece: Piece, turn: int | None) -> bool:
    return piece.nationality == "soviet" or (piece.nationality == "bulgarian" and side(piece, turn) == "yugoslav")


def allegiance(piece: Piece) -> str:
    return piece.attribute("allegiance")


def is_pro_axis_chetnik(piece: Piece) -> bool:
    return piece.nationality == "chetnik" and allegiance(piece) == "pro-axis"


def is_axis_regular(piece: Piece, turn: int | None) -> bool:
    """An Axis unit proper: German, Italian, Croat, Serbian, or an Axis Bulgarian (not a pro-Axis Chetnik)."""
    if is_marker(piece):
        return False
    if piece.nationality in facts.AXIS_NATIONALITIES:
        return True
    return piece.nationality == "bulgarian" and side(piece, turn) == "axis"


_NOTHING = Fraction(0)  # made once: a Fraction is immutable, and making one costs a microsecond


def division_equivalent(piece: Piece) -> Fraction:
    """What the piece counts toward stacking (6.22, 6.24); Tito and markers count nothing."""
    if is_marker(piece) or is_tito(piece):
        return _NOTHING
    return facts.SIZE_EQUIVALENTS.get(piece.size, _NOTHING)


def designation(piece: Piece) -> str:
    return piece.attribute("designation")


def describe(piece: Piece) -> str:
    """A piece as messages name it: its name and id."""
    return f"{piece.name} ({piece.id})" if piece.name and piece.name != piece.id else piece.id


def describe_all(pieces: list[Piece], limit: int = 6) -> str:
    names = [describe(piece) for piece in pieces[:limit]]
    if len(pieces) > limit:
        names.append(f"and {len(pieces) - limit} more")
    return ", ".join(names)


# -- the words modules name pieces with ----------------------------------------

# Words and abbreviations (normalised: lower case, several words joined by "-")
# that name one of facts.UNIT_TYPES, facts.NATIONALITIES or a size of
# facts.SIZE_EQUIVALENTS in a piece's name, image or palette folder.  Zone names
# (Serbia, Croatia) are left out: a piece named after its zone says nothing of
# its nationality.
KIND_WORDS = MappingProxyType({
    "inf": "infantry", "infantry": "infantry",
    "mtn": "mountain-infantry", "mountain": "mountain-infantry", "mtn-inf": "mountain-infantry",
    "mountain-infantry": "mountain-infantry",
    "mech": "mechanized-infantry", "mech-inf": "mechanized-infantry", "mechanized": "mechanized-infantry",
    "mechanized-infantry": "mechanized-infantry",
    "pz": "panzer", "panzer": "panzer", "cav": "cavalry", "cavalry": "cavalry",
    "para": "parachute", "parachute": "parachute",
    "gue": "guerrilla", "guer": "guerrilla", "guerrilla": "guerrilla", "guerrillas": "guerrilla",
    "tito": "tito",
})
NATION_WORDS = MappingProxyType({
    "ger": "german", "germ": "german", "german": "german", "germany": "german",
    "it": "italian", "ita": "italian", "ital": "italian", "italian": "italian", "italy": "italian",
    "cro": "croat", "croat": "croat", "croatian": "croat",
    "ser": "serbian", "serb": "serbian", "serbian": "serbian",
    "bul": "bulgarian", "bulg": "bulgarian", "bulgarian": "bulgarian",
    "sov": "soviet", "soviet": "soviet", "ussr": "soviet",
    "par": "partisan", "part": "partisan", "partisan": "partisan", "partisans": "partisan",
    "che": "chetnik", "chet": "chetnik", "chetnik": "chetnik", "chetniks": "chetnik",
})
SIZE_WORDS = MappingProxyType({
    "bn": "battalion", "btn": "battalion", "battalion": "battalion",
    "rgt": "regiment", "regt": "regiment", "regiment": "regiment",
    "bde": "brigade", "brig": "brigade", "brigade": "brigade",
    "div": "division", "division": "division", "corps": "corps", "grp": "group", "group": "group",
})


# -- numbers -------------------------------------------------------------------


def fraction_text(value: Fraction) -> str:
    """7 1/2, 1/6, 3: how a division-equivalent reads in a message."""
    whole, rest = divmod(value.numerator, value.denominator)
    if rest == 0:
        return str(whole)
    part = f"{rest}/{value.denominator}"
    return f"{whole} {part}" if whole else part


def size_breakdown(pieces: list[Piece]) -> str:
    """"4 divisions (4) + 3 brigades (1 1/2)": the pieces that count, grouped by size."""
    counts: dict[str, int] = {}
    for piece in pieces:
        if division_equivalent(piece):
            key = "Soviet corps" if piece.size == "corps" else piece.size
            counts[key] = counts.get(key, 0) + 1
    parts = []
    for size, count in counts.items():
        each = facts.SIZE_EQUIVALENTS["corps" if size.endswith("corps") else size]
        counted = plural(count, size, size if size.endswith("corps") else None)
        parts.append(f"{counted} ({fraction_text(each * count)})")
    return " + ".join(parts)


# -- locations ---------------------------------------------------------------


def location_side(location: Location) -> str:
    return location.attributes.get("side", "")


def zone_of(position: Position, piece: Piece) -> str | None:
    location = position.map.locations.get(piece.location or "")
    return location.area if location is not None else None


def zone_name(position: Position, zone: str | None) -> str:
    area = position.map.areas.get(zone or "")
    return area.label if area is not None else facts.ZONES.get(zone or "", zone or "")


# -- when ----------------------------------------------------------------------


def phase_index(phase: str) -> int | None:
    return facts.PHASES.index(phase) if phase in facts.PHASES else None


def trigger_turn(position: Position, name: str) -> int | None:
    """The Game-Turn a one-time event happened (0 for "some earlier turn"), or None if not yet."""
    value = position.fact(name)
    if value is None or value == "false":
        return None
    if value == "true":
        turn = turn_number(position)
        return turn - 1 if turn is not None else 0
    return int(value)


def after_turn(position: Position, name: str) -> bool:
    """True when the event happened in an earlier Game-Turn than the position's."""
    if position.fact(name) == "true":
        return True
    happened = trigger_turn(position, name)
    turn = turn_number(position)
    return happened is not None and turn is not None and happened < turn


def since_phase(position: Position, name: str, phase: str) -> bool:
    """True when the event happened in an earlier Game-Turn, or in this one and ``phase`` has begun."""
    if position.fact(name) == "true":
        return True
    happened = trigger_turn(position, name)
    turn = turn_number(position)
    if happened is None or turn is None:
        return False
    if happened < turn:
        return True
    current = phase_index(position.phase)
    return happened == turn and current is not None and current >= facts.PHASES.index(phase)


def pieces_by_id(position: Position) -> Mapping[str, Piece]:
    """Each piece by its id (the reader refuses an id used twice): made once per position, read-only."""
    return memoised(position, "tito.pieces-by-id", lambda: MappingProxyType(
        {piece.id: piece for piece in position.pieces}))


def operations(position: Position) -> list:
    return [event for event in position.events if event.kind == facts.ANTI_GUERRILLA_OPERATION]


def operation_zone_by_piece(position: Position) -> dict[str, str]:
    """Each piece on a declared Anti-Guerrilla Operation, with the operation's target zone."""
    return {piece_id: event.area for event in operations(position) for piece_id in event.pieces}
