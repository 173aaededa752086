"""What every reader of our save format shares: its namespace and its one kind of error."""

from __future__ import annotations

from validator.xmlparsing import XmlInputError

NAMESPACE = "urn:referee:save:1"


class SaveInputError(XmlInputError):
    """A save or map file that cannot be used, and why."""


class UnknownGameInSave(SaveInputError):
    """The save names a game no plugin answers to; ``game_id`` lets a caller say more (a reference-only game)."""

    def __init__(self, source: object, game_id: str, problem: str, line: int = 0) -> None:
        super().__init__(source, problem, line)
        self.game_id = game_id


def tag(name: str) -> str:
    """The qualified tag of one of our elements."""
    return f"{{{NAMESPACE}}}{name}"
