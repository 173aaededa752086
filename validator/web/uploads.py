"""What every upload view shares: the error it answers with, and reading a file part under a cap."""

from __future__ import annotations

from werkzeug.datastructures import FileStorage

from validator.saves.xml_reader import MAX_SAVE_BYTES
from validator.web.markup import printable

LONGEST_FILE_NAME = 120


class UploadError(ValueError):
    """An upload that cannot be checked, as one sentence, with its HTTP status."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def read_part(part: FileStorage | None) -> bytes | None:
    """A file part's bytes, capped; None when the part is absent or no file was chosen."""
    if part is None:
        return None
    data = part.stream.read(MAX_SAVE_BYTES + 1)
    if len(data) > MAX_SAVE_BYTES:
        raise UploadError(
            f"{display_name(part, 'the file')}: the file is larger than {MAX_SAVE_BYTES:,} bytes, "
            "the limit for a save or map file.",
            status=413,
        )
    if not data and not part.filename:
        return None  # a browser sends an empty part for a file field left blank
    return data


def display_name(part: FileStorage, default: str) -> str:
    """The file name the user gave, fit to show; never used as a path."""
    name = (part.filename or "").replace("\\", "/").rsplit("/", 1)[-1].strip()
    return printable(name, LONGEST_FILE_NAME) if name else default
