"""The property every reader keeps: it returns what it read, or refuses the input with a project input error.

Anything else escaping a reader (a ``KeyError``, a ``ZeroDivisionError``,
lxml's or zipfile's own exceptions) fails the example, and Hypothesis shrinks
it to the smallest input that does it.
"""

from __future__ import annotations

from pathlib import Path

from validator.errors import InputError

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
FIXTURES = ROOT / "tests" / "fixtures"


def read_or_refuse(read, *arguments, expected: type | tuple[type, ...], **options):
    """``read(*arguments, **options)``: a value of the ``expected`` type, or the :class:`InputError` it raised."""
    try:
        value = read(*arguments, **options)
    except InputError as error:
        assert error.problem.strip(), f"an input error without a sentence: {error!r}"
        assert "Traceback" not in str(error)
        return error
    assert isinstance(value, expected), f"the reader gave {type(value).__name__}, not {expected}"
    return value
