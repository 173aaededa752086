"""Work that several checks share, done once per position or map and kept on it.

A plugin reads a position once (its situation, its derived map) and every
check uses that reading.  The reading is kept in the value's own ``derived``
memo, so it lives and dies with the position: no global cache holds a
checked position, and nothing one check works out reaches another
position's checks.  Under the threaded web server two threads may compute
the same reading at once; ``dict.setdefault`` is atomic, so both get the
first one stored and the other is dropped.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, TypeVar

Value = TypeVar("Value")


class HasDerived(Protocol):
    derived: dict


def memoised(owner: HasDerived, key: str, compute: Callable[[], Value]) -> Value:
    """``owner``'s value for ``key``, computed by ``compute()`` the first time it is asked for."""
    memo = owner.derived
    if key in memo:
        return memo[key]
    return memo.setdefault(key, compute())
