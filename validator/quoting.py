"""Quoting what a file says inside a problem, kept short, for any reader or plugin.

A fact value or an attribute has no length limit in the schema, and a
problem that repeats a megabyte of it is no longer a sentence anyone can
read.  So a long value is cut to its start and its length is given, and a
list of unknown ids names only its first few.
"""

from __future__ import annotations

from collections.abc import Iterable

LONGEST = 60  # characters of a value a problem repeats
FEW = 5  # items of a list a problem names


def quote(value: str) -> str:
    """``'value'``, or its start with an ellipsis and its length when it is longer than LONGEST."""
    if len(value) <= LONGEST:
        return f"'{value}'"
    return f"'{value[:LONGEST]}…' ({len(value):,} characters)"


def name_a_few(items: Iterable[str]) -> str:
    """"a, b, c": at most FEW items, each quoted short, then "and N more" for the rest."""
    items = list(items)
    shown = ", ".join(quote(item) for item in items[:FEW])
    return shown + (f" and {len(items) - FEW:,} more" if len(items) > FEW else "")
