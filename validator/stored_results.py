"""Every result a stored report holds, wherever its shape keeps them.

A report of one position keeps its ``violations`` and ``findings`` at the
top.  A report of moves (a log judged step by step or a chain of saves,
:mod:`validator.web.move_reports`) keeps them in each step or link, and the
violations of the position a log starts from under ``start``.  Whatever asks
what a report broke (a case page, a ruling's exception, a case file's export)
reads them through here, so that a moves report is never taken for one that
breaks nothing.
"""

from __future__ import annotations

LOG, CHAIN = MOVES_KINDS = ("log", "chain")
MOVES_PARTS = ("start", "steps", "links")


def is_moves(report: dict) -> bool:
    """Whether a stored report judges moves (a log's steps or a chain) rather than one position."""
    return report.get("kind") in MOVES_KINDS


def results_of(report: dict, key: str) -> list[dict]:
    """The report's ``violations`` or ``findings`` (``key``), in the order its page lists them."""
    if not is_moves(report):
        return _items(report.get(key))
    found: list[dict] = []
    for part in MOVES_PARTS:
        held = report.get(part)
        for move in [held] if isinstance(held, dict) else held if isinstance(held, list) else ():
            if isinstance(move, dict):
                found += _items(move.get(key))
    return found


def violations_of(report: dict) -> list[dict]:
    return results_of(report, "violations")


def findings_of(report: dict) -> list[dict]:
    return results_of(report, "findings")


def _items(listed: object) -> list[dict]:
    return [item for item in listed if isinstance(item, dict)] if isinstance(listed, list) else []
