"""Limited military abilities (15.3): when units marked "L" may act.

Acting means moving in a movement phase, attacking in a combat phase, or
regrouping in a regroup phase.  A NATO-committed limited unit acts only in
NATO's first impulse (15.3.1).  A Pact-committed one acts only during the
Pact first impulse: it may move and fight while the first echelon operates
and may regroup at the impulse's end, but sits out the movement and combat
of the second echelon (breakthrough) and every later impulse (15.3.2).  Whether a unit
acted comes from the save's events or from its previous location; without them the check
says what is missing.
"""

from __future__ import annotations

from types import MappingProxyType

from validator.model import Piece, Position
from validator.rules import Finding, Violation, case
from validator.wording import plural

from plugin.tww import state, terms

ACTION = MappingProxyType({terms.MOVEMENT: state.MOVE, terms.COMBAT: state.ATTACK, terms.REGROUP: state.REGROUP})
VERB = MappingProxyType({terms.MOVEMENT: "moved", terms.COMBAT: "attacked", terms.REGROUP: "regrouped"})


def forbidden_because(position: Position, side: str) -> tuple[str, str] | tuple[None, str] | None:
    """(case, why) when limited units of ``side`` may not act now; (None, missing) when undecidable; None when they
    may.
    """
    impulse = position.fact(state.IMPULSE)
    if impulse is None:
        return None, f"the impulse (fact {state.IMPULSE}: {', '.join(terms.IMPULSES)})"
    if side == "nato":
        if impulse != "first":
            return "15.3.1", f"this is the NATO {impulse} impulse; they act only in the NATO first impulse"
        return None
    if impulse != "first":
        return "15.3.2", f"this is the Pact {impulse} impulse; they act only in the Pact first impulse"
    if position.phase == terms.REGROUP:
        return None
    sub_impulse = position.fact(state.SUB_IMPULSE)
    if sub_impulse is None:
        return (
            None,
            f"the sub-impulse of the Pact first impulse (fact {state.SUB_IMPULSE}: {', '.join(terms.SUB_IMPULSES)})",
        )
    if sub_impulse == "second-echelon":
        return "15.3.2", (
            f"this is the {position.phase} phase of the second echelon sub-impulse; "
            "they move and fight only in the first echelon"
        )
    return None


def acted(position: Position, piece: Piece, acting: set[str]) -> bool | None:
    """Whether the unit acted in this phase: True, False, or None when the save cannot tell."""
    if piece.id in acting:
        return True
    previous = state.previous_location(piece)
    if position.phase in (terms.MOVEMENT, terms.REGROUP) and previous is not None:
        return previous != piece.location
    if state.records(position, ACTION[position.phase]):
        return False
    return None


@case("15.3")
def limited_unit_acting_out_of_turn(position: Position):
    """Limited units move, attack and regroup only in the impulses and phases their side allows them."""
    side = position.phasing
    if position.phase not in ACTION or side not in terms.SIDES:
        return
    limited = [piece for piece in position.pieces if piece.side == side and state.is_limited(piece) and piece.location]
    if not limited:
        return
    verdict = forbidden_because(position, side)
    if verdict is None:
        return
    case, why = verdict
    ids = tuple(piece.id for piece in limited)
    if case is None:
        yield Finding(
            f"whether the {plural(len(limited), 'limited ' + terms.side_name(side) + ' unit')} may act in this "
            f"{position.phase} "
            f"phase cannot be told; the save needs {why}",
            pieces=ids,
            severity="unchecked",
        )
        return
    acting = state.pieces_in_events(position, ACTION[position.phase])
    unknown = []
    for piece in limited:
        answer = acted(position, piece, acting)
        if answer is None:
            unknown.append(piece)
        elif answer:
            yield Violation(
                f"the limited {state.nation_name(position, piece.nationality)} unit {state.described(piece)} "
                f"{VERB[position.phase]}, but {why}",
                piece.location,
                (piece.id,),
                case=case,
                facts={
                    "impulse": position.fact(state.IMPULSE),
                    "sub_impulse": position.fact(state.SUB_IMPULSE),
                    "phase": position.phase,
                },
            )
    if unknown:
        action = ACTION[position.phase]
        source = f'{action} events (or <fact name="records" value="{action}"/> when there are none)'
        if position.phase != terms.COMBAT:
            source += " or each unit's previous-location"
        yield Finding(
            f"limited units may not act now ({why}), but whether {state.listed([p.id for p in unknown])} did cannot be "
            f"told; the save needs {source}",
            pieces=tuple(piece.id for piece in unknown),
            case=case,
            severity="unchecked",
        )
