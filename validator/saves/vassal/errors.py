"""The one exception every unusable VASSAL input raises.

The CLI maps it to exit status 2 and the web app to a 400, as every
:class:`~validator.errors.InputError`, so its message must stand on its own:
a sentence naming the file, the entry inside the archive when there is one,
and what is wrong.
"""

from __future__ import annotations

from validator.errors import InputError


class VassalFormatError(InputError):
    """A .vsav, .vlog, .vmod or buildFile that cannot be read."""

    def __init__(self, source: object, problem: str, *, entry: str | None = None) -> None:
        self.entry = entry
        super().__init__(source, problem.rstrip("."))

    @property
    def where(self) -> str:
        """The file, and the entry inside the archive when there is one."""
        return f"{self.source}, entry {self.entry!r}" if self.entry else self.source

    def sentence(self) -> str:
        return f"{self.where}: {self.problem}."
