"""What every upload view shares: the error it answers with, reading a file part under a cap, and room to keep it.

Before an upload is read, :func:`refuse_past_storage_caps` compares what the
instance already keeps (``validator.storage``) and what the request may
bring (its length) with the ``[storage]`` caps: past one, the answer is a
507 saying which cap, before any work is done or any file written.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from flask import current_app, request
from werkzeug.datastructures import FileStorage
from werkzeug.exceptions import HTTPException

from validator import catalogue, instance, storage
from validator.errors import InputError
from validator.runner import CheckDefectError
from validator.saves.xml_reader import MAX_SAVE_BYTES
from validator.web import database, errors
from validator.web.markup import printable

LONGEST_FILE_NAME = 120
UPLOAD_VIEWS = ("checking.check_form", "checking.check_api")  # the views that keep what they are sent
MODULE_PART = "module"
MEGABYTE = 1024 * 1024
STORE_FULL = (
    "Referee's store of {kind} is full: it holds {held}, its cap is {cap}, and this upload may add {incoming}; "
    "so nothing was checked or kept. Please try again later. (The site's keeper can remove "
    "files no report names with “referee maintenance clean”, or raise [storage] {key} in the settings file.)"
)
LARGER_THAN_STORE = (
    "This upload ({incoming}) is larger than the whole store of {kind} may ever hold ({cap}), so nothing was "
    "checked or kept; send a smaller file. (The site's keeper can raise [storage] {key} in the settings file.)"
)


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
    except (UploadError, HTTPException):
        raise  # already an answer with its sentence (a 503 when the site's settings are broken)
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


def refuse_past_storage_caps() -> None:
    """Before an upload view runs: a 507 when keeping what the request brings would pass a ``[storage]`` cap.

    The request's length stands for what it brings (it is at least the size
    of every file in it), so the refusal comes before the body is read; the
    module cap is consulted only when the request sends a module file.
    """
    if request.endpoint not in UPLOAD_VIEWS:
        return
    caps: storage.StorageSettings = current_app.config["STORAGE"]
    incoming = request.content_length or current_app.config["MAX_CONTENT_LENGTH"] or 0
    held = storage.stored_bytes(Path(current_app.instance_path) / instance.UPLOADS_NAME)
    if held.uploads + incoming > caps.max_upload_bytes_total:
        _refuse("uploaded saves and maps", held.uploads, caps.max_upload_bytes_total, incoming,
                "max_upload_bytes_total")
    if held.modules + incoming > caps.max_module_bytes_total and _sends_module():
        _refuse("kept modules", held.modules, caps.max_module_bytes_total, incoming, "max_module_bytes_total")


def _sends_module() -> bool:
    part = request.files.get(MODULE_PART)
    return part is not None and bool(part.filename)


def _refuse(kind: str, held: int, cap: int, incoming: int, key: str) -> None:
    current_app.logger.warning("An upload was refused: the store of %s holds %s of its %s bytes ([storage] %s).",
                               kind, f"{held:,}", f"{cap:,}", key)
    sentence = LARGER_THAN_STORE if incoming > cap else STORE_FULL
    raise errors.InsufficientStorage(description=sentence.format(
        kind=kind, held=_amount(held), cap=_amount(cap), incoming=_amount(incoming), key=key))


def _amount(size: int) -> str:
    return f"{size / MEGABYTE:,.1f} MB" if size >= MEGABYTE // 10 else f"{size:,} bytes"
