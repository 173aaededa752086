"""VASSAL's SequenceEncoder and its Decoder, ported rule for rule.

VASSAL flattens every nested structure (commands, piece traits, properties)
into strings with one delimiter per level.  A delimiter inside a value is
preceded by a single backslash; backslashes themselves are never escaped, so
nesting grows one backslash per level and every decoding level removes one.
Plain ``str.split`` gets this wrong (stray backslashes, broken tokens), which
is why every reader in this package goes through :func:`split`.

The decoder rule (``SequenceEncoder.Decoder.nextToken``): a delimiter whose
preceding character is a backslash is data -- the backslash is dropped and the
scan goes on; after unescaping, a token longer than one character that starts
and ends with ``'`` loses one quote at each end.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_JAVA_INT = re.compile(r"[+-]?[0-9]+\Z")
_INT_MIN, _INT_MAX = -(2**31), 2**31 - 1


def _unquote(token: str) -> str:
    if len(token) > 1 and token[0] == "'" and token[-1] == "'":
        return token[1:-1]
    return token


def split(value: str, delimiter: str) -> list[str]:
    """All tokens of ``value`` exactly as repeated ``Decoder.nextToken`` calls give them.

    ``""`` gives ``[""]`` and a trailing delimiter gives a final empty token,
    as in VASSAL.  Runs at C speed: the string is split once and only parts
    whose raw text ends in a backslash are glued back together.
    """
    parts = value.split(delimiter)
    if "\\" + delimiter in value:
        tokens: list[str] = []
        pending: list[str] = []
        for part in parts[:-1]:
            if part.endswith("\\"):
                pending.append(part[:-1])
                pending.append(delimiter)
            else:
                pending.append(part)
                tokens.append("".join(pending))
                pending = []
        pending.append(parts[-1])
        tokens.append("".join(pending))
        parts = tokens
    if "'" in value:
        parts = [_unquote(token) for token in parts]
    return parts


class TooManyItems(ValueError):
    """A list inside a value longer than any real one; the reader names the file and the piece."""


def items(value: str, delimiter: str, most: int) -> list[str]:
    """Every token of ``value``, as :func:`split` gives them, refused before splitting when more than ``most``.

    For lists that VASSAL reads whole: a list of millions of empty items is a
    few megabytes of text and would be a gigabyte of parts.
    """
    count = value.count(delimiter) + 1
    if count > most:
        raise TooManyItems(f"holds a list of {count:,} items, more than the list_items limit of {most:,}")
    return split(value, delimiter)


def leading(value: str, delimiter: str, count: int, start: int = 0) -> list[str]:
    """The first ``count`` tokens of ``value[start:]`` (fewer when it has fewer), exactly as :func:`split` gives them.

    For fields VASSAL reads a fixed number of tokens from and ignores the
    rest: only the tokens asked for are built, so a value holding millions of
    delimiters costs no list of millions of parts.  ``start`` skips a prefix
    that ends with a delimiter (``+/``) without copying the rest.
    """
    escaped, first = "\\" + delimiter, start
    if value.find(escaped, start) < 0:
        tokens = (value[start:] if start else value).split(delimiter, count)
        del tokens[count:]
    else:
        tokens = []
        pending: list[str] = []
        while len(tokens) < count:
            end = value.find(delimiter, start)
            if end < 0:
                pending.append(value[start:])
                tokens.append("".join(pending))
                break
            if end > start and value[end - 1] == "\\":
                pending.append(value[start:end - 1])
                pending.append(delimiter)
            else:
                pending.append(value[start:end])
                tokens.append("".join(pending))
                pending = []
            start = end + 1
    if value.find("'", first) >= 0:
        tokens = [_unquote(token) for token in tokens]
    return tokens


def java_int(text: str | None, default: int) -> int:
    """``Integer.parseInt`` with VASSAL's fallback: the default when missing or malformed."""
    if text is None:
        return default
    if not (text.isdigit() and text.isascii()):    # the common case first: plain ASCII digits
        if not _JAVA_INT.match(text):
            return default
    number = int(text)
    return number if _INT_MIN <= number <= _INT_MAX else default


def escape(value: str, delimiter: str) -> str:
    """One value as ``SequenceEncoder.append(String)`` writes it (without the delimiter)."""
    if not value:
        return ""
    escaped = value.replace(delimiter, "\\" + delimiter)
    if value[0] == "\\" or (value[0] == "'" and value[-1] == "'"):
        return "'" + escaped + "'"
    return escaped


def encode(values: Iterable[str | None], delimiter: str) -> str:
    """Values joined as a ``SequenceEncoder`` would; ``None`` and ``""`` both give empty tokens."""
    return delimiter.join(escape(value or "", delimiter) for value in values)


class Decoder:
    """Token-by-token reading with VASSAL's typed defaults (``nextToken(default)``, ``nextInt``)."""

    __slots__ = ("_tokens", "_index")

    def __init__(self, value: str | None, delimiter: str, *, count: int | None = None) -> None:
        """``count``: read only that many tokens (VASSAL ignores the rest), however many the value has."""
        if value is None:
            self._tokens = []
        else:
            self._tokens = split(value, delimiter) if count is None else leading(value, delimiter, count)
        self._index = 0

    def has_more(self) -> bool:
        return self._index < len(self._tokens)

    def next_token(self, default: str | None = "") -> str | None:
        if self._index >= len(self._tokens):
            return default
        token = self._tokens[self._index]
        self._index += 1
        return token

    def next_int(self, default: int) -> int:
        if self._index >= len(self._tokens):
            return default
        return java_int(self.next_token(), default)

    def next_boolean(self, default: bool) -> bool:
        if self._index >= len(self._tokens):
            return default
        return self.next_token() == "true"

    def rest(self) -> list[str]:
        tokens = self._tokens[self._index :]
        self._index = len(self._tokens)
        return tokens
