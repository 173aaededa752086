"""The small ``savedata`` / ``moduledata`` XML entries: who saved what, when."""

from __future__ import annotations

from validator.numbers import is_whole_number

from .model import Metadata
from .xmlparser import parse_xml

# VASSAL writes the date as a Java long: milliseconds since 1970, at most 19 digits.
LONGEST_DATE = 19


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
        date_saved=_date(date),
        description=_text(root, "description"),
    )


def _date(text: str | None) -> int | None:
    """The save date in milliseconds; None when missing or not a number VASSAL could have written.

    The date is only what the save says about itself, so an odd one is read
    as unknown rather than refusing the whole file.
    """
    return int(text) if is_whole_number(text, LONGEST_DATE) else None
