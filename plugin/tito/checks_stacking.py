"""The stacking limit: 6.21, counted per 6.22 with groups free per 6.24."""

from __future__ import annotations

import math
from collections.abc import Iterator

from validator.model import Position
from validator.rules import Finding, Result, Violation, case
from validator.wording import plural, verb_for

from plugin.tito import facts, stacks, units
from plugin.tito.units import fraction_text

# One piece counts at most a division (6.22), so a stack of fewer pieces than this cannot pass the
# limit and its pieces need not be added up.
FEWEST_PIECES_OVER_THE_LIMIT = math.floor(facts.STACKING_LIMIT / max(facts.SIZE_EQUIVALENTS.values())) + 1


@case("6.21")
def overstacked_location(position: Position) -> Iterator[Result]:
    """No box, triangle or circle holds more than seven division-equivalents once a Movement Phase has ended."""
    if position.phase in facts.MOVEMENT_IN_PROGRESS:
        return
    over = []
    for location_id, stack in stacks.stacks(position).items():
        if len(stack) < FEWEST_PIECES_OVER_THE_LIMIT:
            continue
        total = stacks.division_total(stack)
        if total > facts.STACKING_LIMIT:
            over.append((location_id, stack, total))
    for location_id, stack, total in over:
        counted = [piece for piece in stack if units.division_equivalent(piece)]
        free = len(stack) - len(counted)
        free_note = (
            f"; {plural(free, 'other piece')} (guerrilla groups, Tito, markers) {verb_for(free, 'adds', 'add')} nothing"
            if free else ""
        )
        message = (
            f"{fraction_text(total)} division-equivalents: {units.size_breakdown(counted)}"
            f"{free_note}; the limit is {facts.STACKING_LIMIT}"
        )
        numbers = {"division_equivalents": str(total), "limit": facts.STACKING_LIMIT}
        if not position.phase:
            yield Finding(
                f"{message}, but the save gives no phase: the limit holds from the end of each Movement Phase on",
                location=location_id, pieces=[piece.id for piece in counted], severity="unchecked", facts=numbers,
            )
        else:
            yield Violation(message, location=location_id, pieces=[piece.id for piece in counted], facts=numbers)
