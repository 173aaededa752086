"""Python's cycle collector, paused for work that makes many long-lived objects and little garbage.

Reference counting frees almost everything Referee drops; the cycle
collector only finds garbage that refers to itself.  It runs whenever enough
new objects have been made, and each run walks every object made since the
last one: while a reader builds a big save's or map's tuples and mappings,
or a command imports its modules and reads one save, that is a walk over
objects all still in use (a tenth of a read; some twenty-five walks for a
small Tito check).  :func:`collector_paused` keeps it off for such a stretch
and puts it back as it was; the readers build no reference cycles, and what
cyclic garbage a stretch left is collected at the collector's next run.
Only bounded work is paused: one position's reading and checking, never a
server or a loop over a log's steps.

:func:`left_to_exit` is for a process about to end: the interpreter's
collections at exit would walk every object once more, some forty
milliseconds after a small check, only to find garbage the operating system
takes back with the rest of the process (issue 14's lean start-up).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """The collector off for the block, then on again if it was on (a block inside another changes nothing)."""
    was_collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_collecting:
            gc.enable()


def left_to_exit() -> None:
    """Leave every object to the end of the process: the collector skips them when the interpreter shuts down.

    Only for a process whose work is done, as ``referee`` when its command
    returns (exit handlers still run first).  An object already unreachable
    in a cycle is not finalized: Referee closes its files and connections
    itself (``with`` blocks), so none is left to a finalizer.
    """
    gc.freeze()
