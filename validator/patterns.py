"""Regular expressions that users write, run on RE2 so that none can take more than linear time.

A mapping file holds patterns its author wrote, and a mapping may come from
someone the operator does not know.  Python's own engine backtracks: a
pattern such as ``^(a|aa)+$`` takes time exponential in the text it meets.
RE2 (the ``google-re2`` bindings) never backtracks; a search costs time
linear in the text whatever the pattern, and a pattern too big to run that
way is refused when it is compiled.  The price is that RE2 has no
backreferences, lookarounds, atomic groups, possessive quantifiers or
conditionals; a pattern using one is refused here with a sentence naming
the construct, rather than run on a slower engine.

Matching means what it means in Python: ``search`` finds the pattern
anywhere in the text, ``fullmatch`` needs it to cover the whole text, and
the leftmost alternative wins.  Three differences remain, documented in
``docs/vassal-mapping.md``: ``\\w``, ``\\d``, ``\\s`` and ``\\b`` are
ASCII only (``\\pL`` is any letter), ``$`` does not match before a final
newline, and ``\\Z`` is written ``\\z``.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

import re2

QUOTED_LENGTH = 60
"""How much of a pattern an error message quotes; a hostile pattern may be megabytes long."""

_OPTIONS = re2.Options()
_OPTIONS.log_errors = False
"""RE2 would otherwise print each refused pattern to standard error, beside our own sentence."""

_PERL_GROUPS = {
    "(?=": "a lookahead '(?=...)'",
    "(?!": "a negative lookahead '(?!...)'",
    "(?<=": "a lookbehind '(?<=...)'",
    "(?<!": "a negative lookbehind '(?<!...)'",
    "(?>": "an atomic group '(?>...)'",
    "(?(": "a conditional group '(?(...)...)'",
    "(?#": "a comment group '(?#...)'",
    "(?P": "a named backreference '(?P=name)'",
}
"""The groups Python knows and RE2 refuses, by how RE2's message quotes them (longest first when tried)."""


class PatternProblem(ValueError):
    """A pattern that cannot be used; the message is one clause saying which construct and what to do."""


class UserPattern:
    """A compiled user pattern: ``search``, ``fullmatch`` and ``groupindex`` as Python's patterns have them."""

    __slots__ = ("text", "groupindex", "_compiled")

    def __init__(self, text: str, compiled) -> None:
        self.text = text
        self.groupindex: Mapping[str, int] = MappingProxyType(dict(compiled.groupindex))
        self._compiled = compiled

    def search(self, subject: str):
        """The first match anywhere in ``subject`` (a match object with ``groupdict()``), or None."""
        return self._compiled.search(subject)

    def fullmatch(self, subject: str):
        """The match covering the whole of ``subject``, or None."""
        return self._compiled.fullmatch(subject)

    def __reduce__(self):
        """Pickled as its text, compiled again when unpickled (RE2's program is not worth keeping)."""
        return compile_user_pattern, (self.text,)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, UserPattern) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)

    def __repr__(self) -> str:
        return f"UserPattern({self.text!r})"


def compile_user_pattern(text: str) -> UserPattern:
    """``text`` compiled on RE2, or :class:`PatternProblem` naming what RE2 cannot run."""
    try:
        return UserPattern(text, re2.compile(text, _OPTIONS))
    except re2.error as error:
        raise PatternProblem(_explain(_message(error), text)) from None


def quoted(text: str) -> str:
    """The pattern as an error message shows it: quoted, and cut short when it is long."""
    if len(text) <= QUOTED_LENGTH:
        return repr(text)
    return repr(text[:QUOTED_LENGTH]) + f" (cut; {len(text):,} characters in all)"


def _message(error: re2.error) -> str:
    detail = error.args[0] if error.args else ""
    if isinstance(detail, bytes):
        detail = detail.decode("utf-8", "replace")
    return str(detail)


def _unsupported(text: str, construct: str) -> str:
    return (
        f"the pattern {quoted(text)} uses {construct}, which Referee's regular expressions do not support "
        "(they run on RE2, which takes time linear in the text); rewrite the pattern without it"
    )


def _explain(message: str, text: str) -> str:
    """RE2's message (``kind: fragment``) as a sentence naming the construct."""
    kind, _, fragment = message.partition(": ")
    if kind == "invalid perl operator":
        for opening in sorted(_PERL_GROUPS, key=len, reverse=True):
            if fragment.startswith(opening):
                return _unsupported(text, _PERL_GROUPS[opening])
        return _unsupported(text, f"the group '{fragment}' (RE2 knows the flags i, m, s and U only)")
    if kind == "invalid escape sequence":
        if fragment[1:].isdigit():
            return _unsupported(text, f"a backreference '{fragment}'")
        if fragment == "\\Z":
            return _unsupported(text, "'\\Z' (write '\\z' for the end of the text)")
        return _unsupported(text, f"the escape '{fragment}'")
    if kind == "bad repetition operator" and fragment.endswith("+"):
        return _unsupported(text, f"a possessive quantifier '{fragment}'")
    if kind == "invalid repetition size":
        return _unsupported(text, f"the repetition '{fragment}' (at most 1000 repeats, nested repeats multiplied)")
    if kind.startswith("pattern too large"):
        return (
            f"the pattern {quoted(text)} is too large to run in linear time "
            "(RE2 refuses a pattern that needs more than 8 MB of states); write a shorter pattern"
        )
    where = f" at {quoted(fragment)}" if fragment and fragment != text else ""
    return f"the pattern {quoted(text)} does not compile: {kind}{where}"


__all__ = ["PatternProblem", "UserPattern", "compile_user_pattern", "quoted"]
