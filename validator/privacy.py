"""Personal data a VASSAL file can carry is never shown: e-mail addresses are withheld wherever text is shown.

A save's description, a log's chat, a global property or a piece's property
is free text a player typed, and players do type their e-mail addresses
there.  Referee shows what the position needs and nothing about the people:
every word holding an address (``name@host.tld``, ``mailto:...``) is replaced
by :data:`WITHHELD` in the JSON and on every page (the report JSON, the
web's stored reports and exports, ``vassal dump``, and every text a web page
prints, through validator.web's template ``finalize``).  The roster's player names
are left out of the dump altogether (its sides are what a reader needs), and
the roster's player ids, VASSAL's passwords, are never kept at all
(:mod:`validator.saves.vassal.model`).

The scan is linear: a text is split on spaces and punctuation once, and only
the words holding ``@`` are looked at, so a megabyte of property text costs
one pass, never a backtracking search.
"""

from __future__ import annotations

import re

WITHHELD = "[e-mail address withheld]"
_SEPARATORS = re.compile(r"""([\s<>"'(),;\[\]{}|]+)""")


def _is_address(word: str) -> bool:
    """True for a word shaped like an e-mail address: something, ``@``, then a host with a dot."""
    local, at, host = word.rpartition("@")
    if not at:
        return False
    local = local.removeprefix("mailto:")
    host = host.rstrip(".:!?")
    return bool(local) and "." in host.strip(".") and not host.startswith(".")


def without_addresses(text: str) -> str:
    """``text`` with each word holding an e-mail address replaced by :data:`WITHHELD`."""
    if "@" not in text:
        return text
    parts = _SEPARATORS.split(text)
    return "".join(_withheld(part) if "@" in part and _is_address(part) else part for part in parts)


def _withheld(word: str) -> str:
    """:data:`WITHHELD` in place of an address, keeping the punctuation that ends its sentence."""
    return WITHHELD + word[len(word.rstrip(".:!?")):]


def scrubbed(data: object) -> object:
    """JSON-ready ``data`` (dicts, lists, strings, numbers) with every address withheld, keys and values."""
    if isinstance(data, str):
        return without_addresses(data)
    if isinstance(data, dict):
        return {scrubbed(key): scrubbed(value) for key, value in data.items()}
    if isinstance(data, (list, tuple)):
        return [scrubbed(item) for item in data]
    return data
