"""What every upload view shares: the error it answers with, and reading a file part under a cap."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from flask import current_app
from werkzeug.datastructures import FileStorage

from validator import catalogue
from validator.errors import InputError
from validator.runner import CheckDefectError
from validator.saves.xml_reader import MAX_SAVE_BYTES
from validator.web import database
from validator.web.markup import printable

LONGEST_FILE_NAME = 120


class UploadError(InputError):
    """An upload that cannot be checked, as one sentence that names its own subject, with its HTTP status."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__("", message)
        self.status = status


def status_of(error: InputError) -> int:
    """The HTTP status that answers an input error: 400, or an upload's own (413 for one too large)."""
    return error.status if isinstance(error, UploadError) else 400


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
    """The file name the user gave, without its folders, fit to show; never used as a path."""
    name = (part.filename or "").replace("\\", "/").rsplit("/", 1)[-1].strip()
    return printable(name, LONGEST_FILE_NAME) if name else default


@contextmanager
def answering_problems(save_name: str, files: str, public: Callable[[str], str] = str) -> Iterator[None]:
    """Turn what reading and checking an upload raise into an :class:`UploadError`.

    Unusable input (an :class:`InputError`) gets its own sentence (``public``
    may strip server paths from it); a defect in Referee is logged and
    answered as one, never as a 500.
    """
    try:
        yield
    except UploadError:
        raise  # already an answer with its sentence
    except InputError as error:  # a save of a reference-only game is told it has no checks
        raise UploadError(public(str(catalogue.explained(database.connection(), error)))) from None
    except CheckDefectError as error:
        current_app.logger.exception("A check failed on the upload %s", save_name)
        raise UploadError(f"{save_name}: {error}") from None
    except Exception:  # a defect met while reading odd input must not become a 500
        current_app.logger.exception("Reading the upload %s failed unexpectedly", save_name)
        raise UploadError(
            f"{save_name}: the file could not be read because Referee failed on it; this is a bug "
            f"and it has been logged. Please report it with the {files}."
        ) from None
