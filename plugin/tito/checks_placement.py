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
_ENEMY_OF = MappingProxyType({"axis": "yugoslav", "yugoslav": "axis"})  # of a location's owner (_location_owner)


def _standing(pieces: list[Piece], noun: str) -> str:
    """"1 Axis unit stands" or "2 Axis units stand": how many of what, with the verb agreeing."""
    return f"{plural(len(pieces), noun)} {verb_for(len(pieces), 'stands', 'stand')}"


@case("5.4")
def neutral_chetnik_out_of_neutral_box(position: Position) -> Iterator[Violation]:
    """Neutral Chetniks stand only in their zone's Neutral Chetnik box, and nothing else stands there."""
    kind_of = stacks.kinds(position)
    for location_id, location, pieces in stacks.placed(position):
        if location.kind == facts.NEUTRAL_BOX:
            intruders = [piece for piece in pieces if not kind_of[piece.id].neutral_chetnik]
            if intruders:
                yield Violation(
                    f"{_standing(intruders, 'unit')} in the Neutral Chetnik box without being a neutral Chetnik "
                    f"({describe_all(intruders)}); only neutral Chetniks belong there",
                    location=location_id, pieces=[piece.id for piece in intruders],
                )
        else:
            neutral = [piece for piece in pieces if kind_of[piece.id].neutral_chetnik]
            if neutral:
                yield Violation(
                    f"{_standing(neutral, 'neutral Chetnik')} here ({describe_all(neutral)}); neutral Chetniks "
                    f"stand only in {units.zone_name(position, location.area)}'s Neutral Chetnik box",
                    location=location_id, pieces=[piece.id for piece in neutral],
                )


_HOMES = MappingProxyType({
    "pro-Axis Chetnik": frozenset({"axis", "chetnik"}), "Axis": frozenset({"axis"}),
    "Partisan": frozenset({"partisan"}), "pro-Yugoslav Chetnik": frozenset({"chetnik"}),
})


def _zone_display_home(kind: stacks.Kind) -> str | None:
    """What a piece of this kind is (a key of _HOMES: the zone-display sides it may stand on); None when another
    check decides."""
    if kind.soviet_or_yugoslav_bulgarian or kind.neutral_chetnik:
        return None  # 6.44 and 5.4
    if kind.pro_axis_chetnik:
        return "pro-Axis Chetnik"
    if kind.side == "axis":
        return "Axis"
    if kind.nationality == "partisan":
        return "Partisan"
    if kind.nationality == "chetnik":
        return "pro-Yugoslav Chetnik"
    return None


@case("6.13")
def unit_in_wrong_zone_display_location(position: Position) -> Iterator[Violation]:
    """In a zone display a unit stands in the triangle or circle of its own kind: Partisan, Axis or Chetnik."""
    kind_of = stacks.kinds(position)
    homes: dict[stacks.Kind, str | None] = {}
    for location_id, location, pieces in stacks.placed(position):
        if location.kind not in (facts.MOUNTAIN, facts.HIDE_AWAY):
            continue
        here = units.location_side(location)
        misplaced: dict[str, list[Piece]] = {}
        for piece in pieces:
            piece_kind = kind_of[piece.id]
            home = homes[piece_kind] if piece_kind in homes else homes.setdefault(piece_kind,
                                                                                  _zone_display_home(piece_kind))
            if home is not None and here not in _HOMES[home]:
                misplaced.setdefault(home, []).append(piece)
        for kind, group in misplaced.items():
            allowed = " or ".join(_SIDE_WORDS[side] for side in sorted(_HOMES[kind]))
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


@case("6.15")
def unit_in_enemy_location(position: Position) -> Iterator[Violation]:
    """No Yugoslav unit stands in an Axis box, triangle or circle, and no Axis unit in a Yugoslav one.

    Referee's reading (see 6.13): a pro-Axis Chetnik may still use the Chetnik triangle and circle.
    """
    side_of = stacks.sides(position)
    kind_of = stacks.kinds(position)
    for location_id, location, pieces in stacks.placed(position):
        if location.kind not in (facts.MOUNTAIN, facts.HIDE_AWAY, facts.OBJECTIVE_BOX):
            continue
        owner = _location_owner(location)
        enemy = _ENEMY_OF[owner]
        chetnik_location = units.location_side(location) == "chetnik"
        enemies = [
            piece for piece in pieces
            if side_of[piece.id] == enemy and not (chetnik_location and kind_of[piece.id].pro_axis_chetnik)
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
        here = [side_of[piece.id] for piece in pieces]
        if "yugoslav" not in here:
            continue  # no enemies, and no Partisans or Chetniks: both are Yugoslav-side units here
        axis = [piece for piece, side in zip(pieces, here, strict=True) if side == "axis"]
        yugoslav = [piece for piece, side in zip(pieces, here, strict=True) if side == "yugoslav"]
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
    side_of = stacks.sides(position)
    on_operation = units.operation_zone_by_piece(position)
    for location_id, location, pieces in stacks.placed(position):
        if location.kind != facts.HIDE_AWAY or units.location_side(location) != "axis":
            continue
        intruders = [
            piece
            for piece in pieces
            if side_of[piece.id] == "axis" and on_operation.get(piece.id) != location.area
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
    kind_of = stacks.kinds(position)
    for location_id, location, pieces in stacks.placed(position):
        allies = [piece for piece in pieces if kind_of[piece.id].soviet_or_yugoslav_bulgarian]
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
