"""A few entries kept by how recently they were used, safe to share between threads.

The readers keep a few files' bytes and prepared maps from one save to the
next: a club checks save after save against one map of megabytes.  Under the
threaded web server several requests read, add and evict at once, and an
``OrderedDict`` moved and trimmed by two threads can lose the entry one of
them is about to move.  One lock per cache keeps each step whole; the work
of reading a file or preparing a map is done outside it.
"""

from __future__ import annotations

from _thread import allocate_lock  # threading.Lock itself, without importing threading (issue 14's start-up)
from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

Key = TypeVar("Key", bound=Hashable)
Value = TypeVar("Value")


class RecentlyUsed(Generic[Key, Value]):
    """At most ``size`` entries; adding one more forgets the one used longest ago."""

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError(f"a cache holds at least one entry, not {size}")
        self.size = size
        self._entries: OrderedDict[Key, Value] = OrderedDict()
        self._lock = allocate_lock()

    def get(self, key: Key) -> Value | None:
        """The entry for ``key``, now the most recently used, or None."""
        with self._lock:
            value = self._entries.get(key)
            if value is not None:
                self._entries.move_to_end(key)
            return value

    def put(self, key: Key, value: Value) -> None:
        """Keep ``value`` for ``key`` as the most recently used entry."""
        with self._lock:
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)
