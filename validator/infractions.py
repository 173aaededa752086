"""One result per infraction: a check that enforces a rule the rulebook states under two cases speaks once.

Tito states its opening-turns rule twice (6.63 and 15.4), so one check is
tagged with both cases and the runner, which stamps each registered case on
its own, yields the same result once per case.  An arbiter reads one unit
leaving its zone as one infraction of a rule cited twice, not two: the
results are joined into the first (the case nearest the function) and the
others ride along as its ``also_cases``.  A move violation the position
check of the same rule already reports at the same place with the same
pieces is one infraction too (A World at War 11.42).

House rules are keyed by case, so rating a joined result splits it back
into one result per case (:func:`per_case`), rates each, and joins what is
still alike (see :func:`validator.house_rules.apply`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from validator.rules import MOVE, Result, Violation


def once(results: Iterable[Result]) -> tuple[Result, ...]:
    """The results with each infraction said once: the same check's same words at the same place and pieces
    under several cases become one result citing them all, and a move violation the position check of its
    rule already reports is left out."""
    results = tuple(results)
    kept: list[Result] = []
    said: dict[tuple, int] = {}
    placed = {(result.rule, result.location, result.pieces) for result in results
              if isinstance(result, Violation) and result.judges != MOVE}
    for result in results:
        if isinstance(result, Violation) and result.judges == MOVE \
                and (result.rule, result.location, result.pieces) in placed:
            continue
        same = (type(result), result.severity, result.check, result.message, result.location, result.pieces)
        if result.check and same in said:
            first = kept[said[same]]
            cited = (first.case, *first.also_cases)
            added = tuple(case for case in (result.case, *result.also_cases) if case not in cited)
            kept[said[same]] = replace(first, also_cases=(*first.also_cases, *added))
            continue
        said[same] = len(kept)
        kept.append(result)
    return tuple(kept)


def per_case(result: Result) -> tuple[Result, ...]:
    """A joined result as the runner yielded it: one result for each case it cites."""
    if not result.also_cases:
        return (result,)
    return (replace(result, also_cases=()),
            *(replace(result, case=case, rule=f"{result.game}:{case}", also_cases=()) for case in result.also_cases))
