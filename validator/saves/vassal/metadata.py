"""The small ``savedata`` / ``moduledata`` XML entries: who saved what, when."""

from __future__ import annotations

from .model import Metadata
from .xmlparser import parse_xml


def _text(root, tag: str) -> str | None:
    for element in root.findall(tag):
        if element.get("lang") is None:
            return (element.text or "").strip()
    return None


def parse_metadata(data: bytes, *, source: str, entry: str) -> Metadata:
    """Name, versions, save date and description; translations (``lang=``) are skipped."""
    root = parse_xml(data, source=source, entry=entry)
    date = _text(root, "dateSaved")
    return Metadata(
        name=_text(root, "name"),
        version=_text(root, "version"),
        vassal_version=_text(root, "VassalVersion"),
        date_saved=int(date) if date and date.isdigit() else None,
        description=_text(root, "description"),
    )
