"""Who may stand where, and with whom: 5.4, 6.13, 6.14, 6.15, 6.23 (with 5.3 and 7.31), 6.34, 6.44, 6.5."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from types import MappingProxyType

from validator.model import Piece, Position
from validator.rules import Violation, case
from validator.wording import plural, verb_for

from plugin.tito import facts, stacks, units
from plugin.tito.units import describe_all

_SIDE_WORDS = MappingProxyType({"partisan": "Partisan", "axis": "Axis", "chetnik": "Chetnik", "yugoslav": "Yugoslav"})
_LOCATION_OF = MappingProxyType({"axis": "an Axis location", "yugoslav": "a Yugoslav location"})
_ENEMY_OF = MappingProxyType({"axis": "yugoslav", "yugoslav": "axis"})  # of a location's owner (_owner)


def _standing(pieces: list[Piece], noun: str) -> str:
    """"1 Axis unit stands" or "2 Axis units stand": how many of what, with the verb agreeing."""
    return f"{plural(len(pieces), noun)} {verb_for(len(pieces), 'stands', 'stand')}"


def _pieces_where(stack: stacks.Stack, wanted: Callable[[stacks.Kind], bool]) -> list[Piece]:
    """The stack's pieces whose kind is ``wanted``, in save order: asked once a kind in ``stack.present`` is."""
    return [piece for piece, kind in zip(stack.pieces, stack.kinds, strict=True) if wanted(kind)]


@case("5.4")
def neutral_chetnik_out_of_neutral_box(position: Position) -> Iterator[Violation]:
    """Neutral Chetniks stand only in their zone's Neutral Chetnik box, and nothing else stands there."""
    for stack in stacks.placed(position):
        location = stack.location
        if location.kind == facts.NEUTRAL_BOX:
            if all(kind.neutral_chetnik for kind in stack.present):
                continue
            intruders = _pieces_where(stack, lambda kind: not kind.neutral_chetnik)
            yield Violation(
                f"{_standing(intruders, 'unit')} in the Neutral Chetnik box without being a neutral Chetnik "
                f"({describe_all(intruders)}); only neutral Chetniks belong there",
                location=stack.id, pieces=[piece.id for piece in intruders],
            )
        elif any(kind.neutral_chetnik for kind in stack.present):
            neutral = _pieces_where(stack, lambda kind: kind.neutral_chetnik)
            yield Violation(
                f"{_standing(neutral, 'neutral Chetnik')} here ({describe_all(neutral)}); neutral Chetniks "
                f"stand only in {units.zone_name(position, location.area)}'s Neutral Chetnik box",
                location=stack.id, pieces=[piece.id for piece in neutral],
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
    homes: dict[stacks.Kind, str | None] = {}
    for stack in stacks.placed(position):
        location = stack.location
        if location.kind not in (facts.MOUNTAIN, facts.HIDE_AWAY):
            continue
        here = units.location_side(location)
        wrong: dict[stacks.Kind, str] = {}
        for piece_kind in stack.present:
            home = homes[piece_kind] if piece_kind in homes else homes.setdefault(piece_kind,
                                                                                  _zone_display_home(piece_kind))
            if home is not None and here not in _HOMES[home]:
                wrong[piece_kind] = home
        if not wrong:
            continue
        misplaced: dict[str, list[Piece]] = {}
        for piece, piece_kind in zip(stack.pieces, stack.kinds, strict=True):
            if piece_kind in wrong:
                misplaced.setdefault(wrong[piece_kind], []).append(piece)
        for kind, group in misplaced.items():
            allowed = " or ".join(_SIDE_WORDS[side] for side in sorted(_HOMES[kind]))
            note = "; Referee's reading for pro-Axis Chetniks, see the case page" if kind == "pro-Axis Chetnik" else ""
            yield Violation(
                f"{_standing(group, kind + ' unit')} in the "
                f"{location.name}: {describe_all(group)}; {verb_for(len(group), 'it belongs', 'they belong')} in "
                f"the {allowed} triangle or circle{note}",
                location=stack.id, pieces=[piece.id for piece in group],
            )


@case("6.14")
def unit_in_wrong_objective_box(position: Position) -> Iterator[Violation]:
    """In an Objective Display Yugoslav units stand in the Yugoslav box and Axis units in the Axis box."""
    for stack in stacks.placed(position):
        location = stack.location
        if location.kind != facts.OBJECTIVE_BOX:
            continue
        here = units.location_side(location)
        wrong = [kind for kind in stack.present if kind.side in ("axis", "yugoslav") and kind.side != here]
        if not wrong:
            continue
        misplaced = [piece for piece, kind in zip(stack.pieces, stack.kinds, strict=True) if kind in wrong]
        theirs = _SIDE_WORDS[wrong[0].side]  # the first misplaced piece's: ``present`` keeps the pieces' order
        yield Violation(
            f"{_standing(misplaced, theirs + ' unit')} in the "
            f"{location.name}: {describe_all(misplaced)}; in an Objective Display {theirs} units belong in "
            f"the {theirs} box",
            location=stack.id, pieces=[piece.id for piece in misplaced],
        )


def _owner(location_side: str) -> str:
    """The side a box, triangle or circle of this side (:func:`plugin.tito.units.location_side`) is for: "axis",
    or "yugoslav" for Partisan, Chetnik and Yugoslav ones."""
    return "axis" if location_side == "axis" else "yugoslav"


@case("6.15")
def unit_in_enemy_location(position: Position) -> Iterator[Violation]:
    """No Yugoslav unit stands in an Axis box, triangle or circle, and no Axis unit in a Yugoslav one.

    Referee's reading (see 6.13): a pro-Axis Chetnik may still use the Chetnik triangle and circle.
    """
    for stack in stacks.placed(position):
        location = stack.location
        if location.kind not in (facts.MOUNTAIN, facts.HIDE_AWAY, facts.OBJECTIVE_BOX):
            continue
        here = units.location_side(location)
        owner = _owner(here)
        enemy = _ENEMY_OF[owner]
        chetnik_location = here == "chetnik"
        wrong = [kind for kind in stack.present
                 if kind.side == enemy and not (chetnik_location and kind.pro_axis_chetnik)]
        if not wrong:
            continue
        enemies = [piece for piece, kind in zip(stack.pieces, stack.kinds, strict=True) if kind in wrong]
        theirs = _SIDE_WORDS[enemy]
        note = (
            "; Referee's reading: pro-Axis Chetniks count as Axis units, see the case page"
            if any(kind.pro_axis_chetnik for kind in wrong) else ""
        )
        yield Violation(
            f"{_standing(enemies, theirs + '-side unit')} in the "
            f"{location.name}, {_LOCATION_OF[owner]}: {describe_all(enemies)}; no unit may stand in a "
            f"box, triangle or circle of the other side{note}",
            location=stack.id, pieces=[piece.id for piece in enemies],
        )


def _by_side(stack: stacks.Stack) -> dict[str, list[Piece]]:
    """The stack's pieces by side, each side's in save order."""
    found: dict[str, list[Piece]] = {}
    for piece, kind in zip(stack.pieces, stack.kinds, strict=True):
        if kind.side in found:
            found[kind.side].append(piece)
        else:
            found[kind.side] = [piece]
    return found


@case("6.23")
def enemies_or_partisans_and_chetniks_together(position: Position) -> Iterator[Violation]:
    """No location holds enemy units together, nor Partisans together with Chetniks (also 5.3 and 7.31)."""
    for stack in stacks.placed(position):
        sides = {kind.side for kind in stack.present}
        if "yugoslav" not in sides:
            continue  # no enemies, and no Partisans or Chetniks: both are Yugoslav-side units here
        if "axis" in sides:
            by_side = _by_side(stack)
            axis, yugoslav = by_side["axis"], by_side["yugoslav"]
            yield Violation(
                f"enemies share this location: {plural(len(axis), 'Axis-side unit')} ({describe_all(axis)}) and "
                f"{plural(len(yugoslav), 'Yugoslav-side unit')} ({describe_all(yugoslav)})",
                location=stack.id, pieces=[piece.id for piece in axis + yugoslav],
            )
            continue
        nationalities = {kind.nationality for kind in stack.present if kind.side == "yugoslav"}
        if "partisan" in nationalities and "chetnik" in nationalities:
            yugoslav = _by_side(stack)["yugoslav"]
            partisans = [piece for piece in yugoslav if piece.nationality == "partisan"]
            chetniks = [piece for piece in yugoslav if piece.nationality == "chetnik"]
            related = "5.3" if stack.location.kind == facts.OBJECTIVE_BOX else "7.31"
            yield Violation(
                f"{plural(len(partisans), 'Partisan unit')} ({describe_all(partisans)}) "
                f"{verb_for(len(partisans), 'shares', 'share')} this location with "
                f"{plural(len(chetniks), 'Chetnik unit')} ({describe_all(chetniks)}); Partisans and Chetniks never "
                "stack "
                f"together (also {related})",
                location=stack.id,
                pieces=[piece.id for piece in partisans + chetniks],
            )


@case("6.34")
def axis_unit_in_hide_away_off_operation(position: Position) -> Iterator[Violation]:
    """Axis units enter a zone's Axis Hide-away only while on an Anti-Guerrilla Operation against that zone."""
    on_operation = units.operation_zone_by_piece(position)
    for stack in stacks.placed(position):
        location = stack.location
        if location.kind != facts.HIDE_AWAY or units.location_side(location) != "axis":
            continue
        if not any(kind.side == "axis" for kind in stack.present):
            continue
        intruders = [
            piece
            for piece, kind in zip(stack.pieces, stack.kinds, strict=True)
            if kind.side == "axis" and on_operation.get(piece.id) != location.area
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
            location=stack.id,
            pieces=[piece.id for piece in intruders],
        )


@case("6.44")
def soviet_or_bulgarian_outside_partisan_locations(position: Position) -> Iterator[Violation]:
    """Soviets and pro-Yugoslav Bulgarians use the Partisan triangle and circle and never stack with Chetniks."""
    for stack in stacks.placed(position):
        if not any(kind.soviet_or_yugoslav_bulgarian for kind in stack.present):
            continue
        location = stack.location
        allies = _pieces_where(stack, lambda kind: kind.soviet_or_yugoslav_bulgarian)
        if location.kind in (facts.MOUNTAIN, facts.HIDE_AWAY) and units.location_side(location) != "partisan":
            yield Violation(
                f"{_standing(allies, 'Soviet or pro-Yugoslav Bulgarian unit')} in the "
                f"{location.name} ({describe_all(allies)}); in a zone display "
                f"{verb_for(len(allies), 'it belongs', 'they belong')} in the Partisan triangle or circle",
                location=stack.id,
                pieces=[piece.id for piece in allies],
            )
        if any(kind.nationality == "chetnik" for kind in stack.present):
            chetniks = _pieces_where(stack, lambda kind: kind.nationality == "chetnik")
            yield Violation(
                f"{plural(len(allies), 'Soviet or pro-Yugoslav Bulgarian unit')} ({describe_all(allies)}) "
                f"{verb_for(len(allies), 'stacks', 'stack')} with {plural(len(chetniks), 'Chetnik unit')} "
                f"({describe_all(chetniks)}); {verb_for(len(allies), 'it never stacks', 'they never stack')} with "
                "Chetniks",
                location=stack.id,
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
