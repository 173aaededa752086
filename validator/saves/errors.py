"""What every reader of our save format shares: its namespace and its one kind of error."""

from __future__ import annotations

from validator.xmlparsing import XmlInputError

NAMESPACE = "urn:referee:save:1"


class SaveInputError(XmlInputError):
    """A save or map file that cannot be used, and why."""


def tag(name: str) -> str:
    """The qualified tag of one of our elements."""
    return f"{{{NAMESPACE}}}{name}"
