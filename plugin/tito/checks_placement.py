"""Who may stand where, and with whom: 5.4, 6.13, 6.14, 6.15, 6.23 (with 5.3 and 7.31), 6.34, 6.44, 6.5."""

from __future__ import annotations

from collections.abc import Iterator
from types import MappingProxyType

from validator.model import Piece, Position
from validator.rules import Violation, case
from validator.wording import plural, verb_for

from plugin.tito import facts, stacks, units
from plugin.tito.units import describe_all

_SIDE_WORDS = MappingProxyType({"partisan": "Partisan", "axis": "Axis", "chetnik": "Chetnik", "yugoslav": "Yugoslav"})
_LOCATION_OF = MappingProxyType({"axis": "an Axis location", "yugoslav": "a Yugoslav location"})


def _standing(pieces: list[Piece], noun: str) -> str:
    """"1 Axis unit stands" or "2 Axis units stand": how many of what, with the verb agreeing."""
    return f"{plural(len(pieces), noun)} {verb_for(len(pieces), 'stands', 'stand')}"


def _is_neutral(piece: Piece) -> bool:
    return piece.nationality == "chetnik" and units.allegiance(piece) == "neutral"


@case("5.4")
def neutral_chetnik_out_of_neutral_box(position: Position) -> Iterator[Violation]:
    """Neutral Chetniks stand only in their zone's Neutral Chetnik box, and nothing else stands there."""
    for location_id, location, pieces in stacks.placed(position):
        if location.kind == facts.NEUTRAL_BOX:
            intruders = [piece for piece in pieces if not _is_neutral(piece)]
            if intruders:
                yield Violation(
                    f"{_standing(intruders, 'unit')} in the Neutral Chetnik box without being a neutral Chetnik "
                    f"({describe_all(intruders)}); only neutral Chetniks belong there",
                    location=location_id, pieces=[piece.id for piece in intruders],
                )
        else:
            neutral = [piece for piece in pieces if _is_neutral(piece)]
            if neutral:
                yield Violation(
                    f"{_standing(neutral, 'neutral Chetnik')} here ({describe_all(neutral)}); neutral Chetniks "
                    f"stand only in {units.zone_name(position, location.area)}'s Neutral Chetnik box",
                    location=location_id, pieces=[piece.id for piece in neutral],
                )


def _zone_display_home(piece: Piece, turn: int | None) -> tuple[str, frozenset[str]] | None:
    """What the piece is, and the zone-display sides it may stand on; None when another check decides."""
    if units.is_soviet_or_yugoslav_bulgarian(piece, turn) or _is_neutral(piece):
        return None  # 6.44 and 5.4
    if units.is_pro_axis_chetnik(piece):
        return "pro-Axis Chetnik", frozenset({"axis", "chetnik"})
    side = units.side(piece, turn)
    if side == "axis":
        return "Axis", frozenset({"axis"})
    if piece.nationality == "partisan":
        return "Partisan", frozenset({"partisan"})
    if piece.nationality == "chetnik":
        return "pro-Yugoslav Chetnik", frozenset({"chetnik"})
    return None


@case("6.13")
def unit_in_wrong_zone_display_location(position: Position) -> Iterator[Violation]:
    """In a zone display a unit stands in the triangle or circle of its own kind: Partisan, Axis or Chetnik."""
    turn = units.turn_number(position)
    for location_id, location, pieces in stacks.placed(position):
        if location.kind not in (facts.MOUNTAIN, facts.HIDE_AWAY):
            continue
        here = units.location_side(location)
        misplaced: dict[str, tuple[frozenset[str], list[Piece]]] = {}
        for piece in pieces:
            home = _zone_display_home(piece, turn)
            if home is not None and here not in home[1]:
                misplaced.setdefault(home[0], (home[1], []))[1].append(piece)
        for kind, (sides, group) in misplaced.items():
            allowed = " or ".join(_SIDE_WORDS[side] for side in sorted(sides))
            note = "; Referee's reading for pro-Axis Chetniks, see the case page" if kind == "pro-Axis Chetnik" else ""
            yield Violation(
                f"{_standing(group, kind + ' unit')} in the "
                f"{location.name}: {describe_all(group)}; {verb_for(len(group), 'it belongs', 'they belong')} in "
                f"the {allowed} triangle or circle{note}",
                location=location_id, pieces=[piece.id for piece in group],
            )


@case("6.14")
def unit_in_wrong_objective_box(position: Position) -> Iterator[Violation]:
    """In an Objective Display Yugoslav units stand in the Yugoslav box and Axis units in the Axis box."""
    side_of = stacks.sides(position)
    for location_id, location, pieces in stacks.placed(position):
        if location.kind != facts.OBJECTIVE_BOX:
            continue
        here = units.location_side(location)
        misplaced = [
            piece for piece in pieces
            if side_of[piece.id] in ("axis", "yugoslav") and side_of[piece.id] != here
        ]
        if misplaced:
            theirs = _SIDE_WORDS[side_of[misplaced[0].id]]
            yield Violation(
                f"{_standing(misplaced, theirs + ' unit')} in the "
                f"{location.name}: {describe_all(misplaced)}; in an Objective Display {theirs} units belong in "
                f"the {theirs} box",
                location=location_id, pieces=[piece.id for piece in misplaced],
            )


def _location_owner(location) -> str:
    """The side a box, triangle or circle is for: "axis", or "yugoslav" for Partisan, Chetnik and Yugoslav ones."""
    return "axis" if units.location_side(location) == "axis" else "yugoslav"


def _pro_axis_chetnik_in_chetnik_location(piece: Piece, location) -> bool:
    """Referee's reading (see 6.13): a pro-Axis Chetnik may still use the Chetnik triangle and circle."""
    return units.is_pro_axis_chetnik(piece) and units.location_side(location) == "chetnik"


@case("6.15")
def unit_in_enemy_location(position: Position) -> Iterator[Violation]:
    """No Yugoslav unit stands in an Axis box, triangle or circle, and no Axis unit in a Yugoslav one."""
    side_of = stacks.sides(position)
    for location_id, location, pieces in stacks.placed(position):
        if location.kind not in (facts.MOUNTAIN, facts.HIDE_AWAY, facts.OBJECTIVE_BOX):
            continue
        owner = _location_owner(location)
        enemies = [
            piece for piece in pieces
            if side_of[piece.id] in ("axis", "yugoslav") and side_of[piece.id] != owner
            and not _pro_axis_chetnik_in_chetnik_location(piece, location)
        ]
        if not enemies:
            continue
        theirs = _SIDE_WORDS[side_of[enemies[0].id]]
        note = (
            "; Referee's reading: pro-Axis Chetniks count as Axis units, see the case page"
            if any(units.is_pro_axis_chetnik(piece) for piece in enemies) else ""
        )
        yield Violation(
            f"{_standing(enemies, theirs + '-side unit')} in the "
            f"{location.name}, {_LOCATION_OF[owner]}: {describe_all(enemies)}; no unit may stand in a "
            f"box, triangle or circle of the other side{note}",
            location=location_id, pieces=[piece.id for piece in enemies],
        )


@case("6.23")
def enemies_or_partisans_and_chetniks_together(position: Position) -> Iterator[Violation]:
    """No location holds enemy units together, nor Partisans together with Chetniks (also 5.3 and 7.31)."""
    side_of = stacks.sides(position)
    for location_id, location, pieces in stacks.placed(position):
        axis = [piece for piece in pieces if side_of[piece.id] == "axis"]
        yugoslav = [piece for piece in pieces if side_of[piece.id] == "yugoslav"]
        if axis and yugoslav:
            yield Violation(
                f"enemies share this location: {plural(len(axis), 'Axis-side unit')} ({describe_all(axis)}) and "
                f"{plural(len(yugoslav), 'Yugoslav-side unit')} ({describe_all(yugoslav)})",
                location=location_id, pieces=[piece.id for piece in axis + yugoslav],
            )
            continue
        partisans = [piece for piece in yugoslav if piece.nationality == "partisan"]
        chetniks = [piece for piece in yugoslav if piece.nationality == "chetnik"]
        if partisans and chetniks:
            related = "5.3" if location.kind == facts.OBJECTIVE_BOX else "7.31"
            yield Violation(
                f"{plural(len(partisans), 'Partisan unit')} ({describe_all(partisans)}) "
                f"{verb_for(len(partisans), 'shares', 'share')} this location with "
                f"{plural(len(chetniks), 'Chetnik unit')} ({describe_all(chetniks)}); Partisans and Chetniks never "
                "stack "
                f"together (also {related})",
                location=location_id,
                pieces=[piece.id for piece in partisans + chetniks],
            )


@case("6.34")
def axis_unit_in_hide_away_off_operation(position: Position) -> Iterator[Violation]:
    """Axis units enter a zone's Axis Hide-away only while on an Anti-Guerrilla Operation against that zone."""
    turn = units.turn_number(position)
    on_operation = units.operation_zone_by_piece(position)
    for location_id, location, pieces in stacks.placed(position):
        if location.kind != facts.HIDE_AWAY or units.location_side(location) != "axis":
            continue
        intruders = [
            piece
            for piece in pieces
            if units.side(piece, turn) == "axis" and on_operation.get(piece.id) != location.area
        ]
        if not intruders:
            continue
        elsewhere = {piece.id: on_operation[piece.id] for piece in intruders if piece.id in on_operation}
        detail = "".join(
            f"; {piece_id} is on the operation against {units.zone_name(position, zone)}"
            for piece_id, zone in elsewhere.items()
        )
        zone = units.zone_name(position, location.area)
        yield Violation(
            f"{_standing(intruders, 'Axis-side unit')} in the Axis Hide-away of {zone} without being on an "
            f"Anti-Guerrilla Operation against {zone}: {describe_all(intruders)}{detail}",
            location=location_id,
            pieces=[piece.id for piece in intruders],
        )


@case("6.44")
def soviet_or_bulgarian_outside_partisan_locations(position: Position) -> Iterator[Violation]:
    """Soviets and pro-Yugoslav Bulgarians use the Partisan triangle and circle and never stack with Chetniks."""
    turn = units.turn_number(position)
    for location_id, location, pieces in stacks.placed(position):
        allies = [piece for piece in pieces if units.is_soviet_or_yugoslav_bulgarian(piece, turn)]
        if not allies:
            continue
        if location.kind in (facts.MOUNTAIN, facts.HIDE_AWAY) and units.location_side(location) != "partisan":
            yield Violation(
                f"{_standing(allies, 'Soviet or pro-Yugoslav Bulgarian unit')} in the "
                f"{location.name} ({describe_all(allies)}); in a zone display "
                f"{verb_for(len(allies), 'it belongs', 'they belong')} in the Partisan triangle or circle",
                location=location_id,
                pieces=[piece.id for piece in allies],
            )
        chetniks = [piece for piece in pieces if piece.nationality == "chetnik"]
        if chetniks:
            yield Violation(
                f"{plural(len(allies), 'Soviet or pro-Yugoslav Bulgarian unit')} ({describe_all(allies)}) "
                f"{verb_for(len(allies), 'stacks', 'stack')} with {plural(len(chetniks), 'Chetnik unit')} "
                f"({describe_all(chetniks)}); {verb_for(len(allies), 'it never stacks', 'they never stack')} with "
                "Chetniks",
                location=location_id,
                pieces=[piece.id for piece in allies + chetniks],
            )


@case("6.5")
def objective_display_in_islands(position: Position) -> Iterator[Violation]:
    """The Islands zone has its zone display only: no Objective Displays, so nothing can stand in one."""
    for display in position.map.displays.values():
        if display.area != facts.ISLANDS:
            continue
        boxes = [f"{facts.ISLANDS}/{display.id}/{side}" for side in facts.OBJECTIVE_BOX_SIDES]
        standing = [piece for box in boxes for piece in position.pieces_at(box)]
        who = f"; {_standing(standing, 'unit')} in it: {describe_all(standing)}" if standing else ""
        yield Violation(
            f"the map gives the Islands an Objective Display, {display.label} ({position.map.source}, line "
            f"{display.line}), but the Islands have none{who}",
            location=boxes[0],
            pieces=[piece.id for piece in standing],
        )
