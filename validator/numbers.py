"""Numbers as the files we read write them: ASCII digits, and not too many.

``str.isdigit`` also takes "²", which ``int`` refuses, and "١", which ``int``
reads as 1; and ``int`` refuses more than 4,300 digits.  A file's odd value
would crash a reader or be read as another number instead of getting its
sentence, so every reader asks here first.
"""

from __future__ import annotations

LONGEST_WHOLE_NUMBER = 9  # digits: beyond any turn, count or strength a game writes


def is_ascii_digits(text: str | None) -> bool:
    """True when ``text`` is one or more ASCII digits."""
    return bool(text) and text.isascii() and text.isdigit()


def is_whole_number(text: str | None, longest: int = LONGEST_WHOLE_NUMBER) -> bool:
    """True for one to ``longest`` ASCII digits, which ``int`` reads as the writer meant."""
    return is_ascii_digits(text) and len(text) <= longest
