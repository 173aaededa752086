"""The one kind of error every unusable input raises, whatever read it.

A save, a map, a VASSAL file, a mapping, a rulebook text or a game id that
cannot be used raises an :class:`InputError` (or a subclass): where it is
(source, line, column) and what is wrong, as one sentence.  The CLI turns it
into exit status 2 and the web app into a 400, so each catches this one class
(and the runner's check-defect error) and nothing else.
"""

from __future__ import annotations


class InputError(ValueError):
    """Unusable input: ``source``, ``line`` and ``column`` say where (0 when unknown), ``problem`` what.

    The message is ``where: problem``; with no source it is the problem
    alone, for a sentence that names its own subject ("There is no game 'x'").
    """

    def __init__(self, source: object, problem: str, line: int = 0, column: int = 0) -> None:
        self.source, self.problem, self.line, self.column = str(source), problem, line, column
        super().__init__(self.sentence())

    @property
    def where(self) -> str:
        """"save.xml, line 3, column 7", as much of it as is known."""
        if not self.line:
            return self.source
        return f"{self.source}, line {self.line}" + (f", column {self.column}" if self.column else "")

    def sentence(self) -> str:
        """The message: where, then what is wrong."""
        where = self.where
        return f"{where}: {self.problem}" if where else self.problem


class CheckDefectError(RuntimeError):
    """A check yielded something malformed: a bug in the plugin, not in the position."""
