"""Progress of long work on a terminal: "step 120 of 5,000" rewritten in place on standard error.

Shown only when standard error is a terminal and the output is not JSON, so
a pipe, a file or a script reading JSON never sees it.  The line is cleared
when the work ends, so the report starts on a clean line.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

CLEAR = "\r\x1b[K"
REDRAW_SECONDS = 0.25  # a terminal redrawn thousands of times a second slows the work it reports on


class Progress:
    """Counts work done out of a total, redrawing one line at most every ``interval`` seconds, and at the end."""

    def __init__(self, noun: str, total: int, stream: TextIO | None = None, interval: float = REDRAW_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.noun, self.total, self.interval, self.clock = noun, total, interval, clock
        self.stream = stream or sys.stderr
        self.drawn_at: float | None = None

    def __call__(self, done: int) -> None:
        now = self.clock()
        if done == self.total or self.drawn_at is None or now - self.drawn_at >= self.interval:
            self.drawn_at = now
            self.stream.write(f"{CLEAR}{self.noun} {done:,} of {self.total:,}")
            self.stream.flush()

    def close(self) -> None:
        self.stream.write(CLEAR)
        self.stream.flush()


def shown(json_output: bool, stream: TextIO | None = None) -> bool:
    """Whether progress may be shown: text output, and standard error a terminal."""
    stream = stream or sys.stderr
    isatty = getattr(stream, "isatty", None)
    return not json_output and isatty is not None and isatty()
