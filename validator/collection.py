"""Pausing Python's cyclic garbage collector while a reader builds many objects that are not garbage.

Reading a big save or map builds tens of thousands of tuples and mappings,
all kept; every few hundred of them the collector would walk the young ones,
and every few thousand everything the process holds, finding nothing: that
was a tenth of a read.  The readers build no reference cycles, and objects
are still freed by reference counting meanwhile; collection resumes as it
was when the read ends, however it ends.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """Run the block with the collector off, leaving it as it was (a caller may have turned it off itself)."""
    was_collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_collecting:
            gc.enable()
