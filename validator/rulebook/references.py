"""Finding cross-references in rule text.

A reference is either a number with a point (``7.6``, ``(see 8.4.)``,
``13.91D``, ``[7.42]``, ``15.4.1.1``) or a whole number named as a rule or
section (``rule 45``, ``see rule 8``, ``Section 14``).  Whole numbers
without such a word -- strengths like ``704(12)``, turn numbers, zone values
like ``4C2``, BRP amounts, dates, table cells -- are never references.
"""

from __future__ import annotations

import re

from validator.cases import CaseNumber
from validator.rulebook.model import Reference

_REFERENCE = re.compile(
    r"""
    (?<![\w.#])                                       # not inside a word or number
    (?:
        (?P<decimal>\d{1,3}\.\d+(?:\.\d+)*[A-Z]?)(?![\w])   # 7.6  11.353E  15.4.1.1
      |
        (?i:(?:rules?|sections?)\s+)                  # rule 45, see rule 8, Section 14
        (?P<whole>\d{1,3})(?![\w]|\.\d)
    )
    """,
    re.VERBOSE,
)


def find_references(text: str) -> list[Reference]:
    """Every reference in ``text``, in order, not yet resolved."""
    found = []
    for match in _REFERENCE.finditer(text):
        group = "decimal" if match["decimal"] else "whole"
        number = CaseNumber.try_parse(match[group])
        if number is not None:
            found.append(Reference(match.start(group), match.end(group), number))
    return found
