"""The one exception every unusable VASSAL input raises.

The CLI maps it to exit status 2 and the web app to a 400, so its message must
stand on its own: a sentence naming the file, the entry inside the archive
when there is one, and what is wrong.
"""

from __future__ import annotations


class VassalFormatError(ValueError):
    """A .vsav, .vlog, .vmod or buildFile that cannot be read."""

    def __init__(self, source: object, problem: str, *, entry: str | None = None) -> None:
        self.source = str(source)
        self.entry = entry
        self.problem = problem.rstrip(".")
        where = f"{self.source}, entry {entry!r}" if entry else self.source
        super().__init__(f"{where}: {self.problem}.")
