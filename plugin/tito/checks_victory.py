"""The victory points the position would score at a Victory Point Stage: 14.2 A-C, with 8.51."""

from __future__ import annotations

from collections.abc import Iterator

from validator.model import Piece, Position
from validator.rules import Finding, case
from validator.wording import plural, verb_for

from plugin.tito import facts, stacks, units
from plugin.tito.units import describe_all


def _yugoslav_units(stack: stacks.Stack | None) -> list[Piece]:
    """The Yugoslav-side units of a stack (markers are left out of it), Tito not counted: those that hold a place."""
    if stack is None:
        return []
    return [piece for piece, kind in zip(stack.pieces, stack.kinds, strict=True)
            if kind.side == "yugoslav" and piece.type != facts.TITO]  # units.is_tito


@case("14.2", severity="info")
def victory_points_scored(position: Position) -> Iterator[Finding]:
    """What the Yugoslav player would gain: held Objective Displays, held Mountains, Germans kept past their
    transfer.
    """
    turn = units.turn_number(position)
    standing = stacks.stacks(position)
    placed_at = stacks.placed_at(position)
    eliminated = set(position.facts.get("intrinsic-defence-eliminated", ()))
    totals = {"displays": 0, "mountains": 0, "transfers": 0}
    unchecked = False

    for display in position.map.displays.values():
        yugoslav_box = f"{display.area}/{display.id}/yugoslav"
        holders = _yugoslav_units(placed_at.get(yugoslav_box))
        if not holders:
            continue
        value = int(display.attributes.get("victory-points", "0"))
        if "intrinsic-defence" in display.attributes and display.id not in eliminated:
            yield Finding(
                f"{display.label} is held ({describe_all(holders)}) but scores nothing: its intrinsic defence "
                f"of {display.attributes['intrinsic-defence']} stands (8.51; record intrinsic-defence-eliminated "
                "once it falls)",
                location=yugoslav_box,
                pieces=[piece.id for piece in holders],
                case="14.2A",
                facts={"display": display.id, "victory_points": 0},
            )
            continue
        axis_box = standing.get(f"{display.area}/{display.id}/axis", ())
        if any(piece.nationality == "chetnik" for piece in holders) and any(
            units.is_pro_axis_chetnik(piece) for piece in axis_box
        ):
            yield Finding(
                f"{display.label} is held by Chetniks ({describe_all(holders)}) but scores nothing while "
                "pro-Axis Chetniks stand in its Axis box (addendum 7.44E)",
                location=yugoslav_box,
                pieces=[piece.id for piece in holders],
                case="14.2A",
                facts={"display": display.id, "victory_points": 0},
            )
            continue
        totals["displays"] += value
        yield Finding(
            f"{display.label} held by {plural(len(holders), 'Yugoslav unit')}: {plural(value, 'victory point')}",
            location=yugoslav_box,
            pieces=[piece.id for piece in holders],
            case="14.2A",
            facts={"display": display.id, "victory_points": value},
        )

    for zone in position.map.areas:
        for side in ("partisan", "chetnik"):
            location_id = f"{zone}/mountain/{side}"
            holders = _yugoslav_units(placed_at.get(location_id))
            if not holders:
                continue
            missing = [piece for piece in holders if piece.strength is None]
            if missing:
                unchecked = True
                yield Finding(
                    f"the Mountain's points cannot be counted: {plural(len(missing), 'unit')} "
                    f"{verb_for(len(missing), 'has', 'have')} no strength "
                    f"({describe_all(missing)})",
                    location=location_id,
                    pieces=[piece.id for piece in missing],
                    case="14.2B",
                    severity="unchecked",
                )
                continue
            strength = sum(piece.strength for piece in holders)
            points = min(strength // facts.MOUNTAIN_POINTS_PER_VICTORY_POINT, len(holders))
            if points == 0:
                continue
            totals["mountains"] += points
            cap = (
                " (capped at the number of units)"
                if points < strength // facts.MOUNTAIN_POINTS_PER_VICTORY_POINT
                else ""
            )
            yield Finding(
                f"{plural(len(holders), 'unit')} of strength {strength} in this Mountain: {strength} / "
                f"{facts.MOUNTAIN_POINTS_PER_VICTORY_POINT} rounded down = "
                f"{strength // facts.MOUNTAIN_POINTS_PER_VICTORY_POINT}"
                f", scoring {plural(points, 'victory point')}{cap}",
                location=location_id,
                pieces=[piece.id for piece in holders],
                case="14.2B",
                facts={"strength": strength, "units": len(holders), "victory_points": points},
            )

    if turn is not None:
        reinforcement_phase = facts.PHASES.index("axis-reinforcement")
        current = units.phase_index(position.phase)
        for piece in position.pieces:
            if piece.location is None or piece.nationality != "german":
                continue
            due = facts.GERMAN_TRANSFERS.get(units.designation(piece))
            if due is None:
                continue
            if turn > due or (turn == due and current is not None and current > reinforcement_phase):
                totals["transfers"] += facts.GERMAN_LATE_TRANSFER_POINTS
                yield Finding(
                    f"the German {describe_all([piece])} is still on the map after its transfer in Game-Turn "
                    f"{due}: {facts.GERMAN_LATE_TRANSFER_POINTS} victory points",
                    location=piece.location,
                    pieces=[piece.id],
                    case="14.2C",
                    facts={"victory_points": facts.GERMAN_LATE_TRANSFER_POINTS},
                )

    total = sum(totals.values())
    if total == 0 and not unchecked:
        return
    message = (
        f"the Victory Point Stage would award {total}: {totals['displays']} for Objective Displays, "
        f"{totals['mountains']} for Mountains, {totals['transfers']} for Germans past their transfer"
    )
    if unchecked:
        message += ", plus Mountains that could not be counted"
    so_far = position.fact("victory-points")
    if so_far is not None:
        message += f"; the total would go from {so_far} to {int(so_far) + total} before any losses (14.3, not computed)"
    yield Finding(message, facts={**totals, "total": total})
