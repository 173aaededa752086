"""Progress of long work on a terminal: "step 120 of 5,000" rewritten in place on standard error.

Shown only when standard error is a terminal and the output is not JSON, so
a pipe, a file or a script reading JSON never sees it.  The line is cleared
when the work ends, so the report starts on a clean line.
"""

from __future__ import annotations

import sys
from typing import TextIO

CLEAR = "\r\x1b[K"


class Progress:
    """Counts work done out of a total, redrawing one line at most every ``every`` items."""

    def __init__(self, noun: str, total: int, stream: TextIO | None = None, every: int = 1) -> None:
        self.noun, self.total, self.every = noun, total, max(every, 1)
        self.stream = stream or sys.stderr

    def __call__(self, done: int) -> None:
        if done % self.every == 0 or done == self.total:
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
