"""Error pages: a plain sentence for every failure, never a traceback.

Views that know more (an unknown game, a bad query) pass their own sentence
as the error's description; otherwise the page says what the status means.
Under ``/api/``, and for addresses of JSON documents (``/reports/<id>.json``),
the same sentence comes as JSON, ``{"error": sentence}``: a program that
follows a report's address gets an answer it can read.

A database that refuses to store a record (a read-only file, a full disk, a
server that takes no writes) is a 503 saying what was not stored and to
send it again later (:class:`NotStored`, raised by :func:`storing`), never
the 400 of a mistake in what was sent: the user did nothing wrong.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from flask import Flask, current_app, jsonify, render_template, request
from werkzeug.exceptions import HTTPException, ServiceUnavailable

from validator import store
from validator.saves.xml_reader import MAX_SAVE_BYTES
from validator.web.kept_modules import MAX_MODULE_BYTES

API_PREFIX = "/api/"
JSON_SUFFIX = ".json"

MESSAGES = {
    400: "The request could not be understood; please check the address or the form you sent.",
    404: "There is no page at this address.",
    405: "This page cannot be used that way; follow a link or use the form on the page instead.",
    413: (
        "The request is larger than the {limit} MB that Referee accepts in one request: a save or map file may be "
        "at most {save} MB and a module at most {module} MB. Choose a smaller file; for a VASSAL save, choose a "
        "module kept from an earlier upload instead of sending the module again."
    ),
    500: "Something went wrong on our side while building this page; the error has been logged.",
    507: "Referee has no room left to keep this upload, so nothing was checked or kept; please try again later.",
}
FORM_TOO_LARGE = (
    "The form sent has a text field longer than Referee reads, or too many parts; send the form as the page "
    "gives it, with one file in each file field."
)


NOT_STORED = (
    "Referee cannot store anything just now, as its database refuses to write, so {what} was not stored; go back "
    "(your browser keeps what you sent) and send it again in a few minutes."
)
RETRY_AFTER_SECONDS = 300


class NotStored(ServiceUnavailable):
    """503: the database refused to store ``what`` (its cause, logged, says which database and why)."""

    def __init__(self, what: str) -> None:
        super().__init__(description=NOT_STORED.format(what=what), retry_after=RETRY_AFTER_SECONDS)


@contextmanager
def storing(what: str) -> Iterator[None]:
    """Around a write: a database that refuses it becomes :class:`NotStored` naming ``what`` (not an input error)."""
    try:
        yield
    except store.UnusableDatabase as error:
        raise NotStored(what) from error


def _not_stored(error: NotStored):
    current_app.logger.error("%s (%s)", error.description, error.__cause__)
    return show_error(error)


class InsufficientStorage(HTTPException):
    """507: the instance's storage cap would be passed (``validator.storage``); Werkzeug has no class for it."""

    code = 507
    description = MESSAGES[507]


def show_error(error: HTTPException):
    """Render the error page, keeping headers such as a 405's Allow list."""
    message = vars(error).get("description") or _default_message(error)
    headers = [(key, value) for key, value in error.get_headers() if key.lower() != "content-type"]
    if wants_json():
        return jsonify(error=message), error.code, headers
    page = render_template("errors/error.html", code=error.code, name=error.name, message=message)
    return page, error.code, headers


def wants_json() -> bool:
    """True for API requests and for addresses of JSON documents."""
    return request.path.startswith(API_PREFIX) or request.path.endswith(JSON_SUFFIX)


def too_large_message() -> str:
    """The 413's sentence: the request's limit and each file's, and what to do."""
    limit, length = current_app.config["MAX_CONTENT_LENGTH"], request.content_length
    if limit is not None and length is not None and length <= limit:
        return FORM_TOO_LARGE  # within the limit, so a text field or the number of parts was too large
    megabyte = 1024 * 1024
    return MESSAGES[413].format(
        limit=current_app.config["MAX_CONTENT_LENGTH"] // megabyte,
        save=MAX_SAVE_BYTES // megabyte,
        module=MAX_MODULE_BYTES // megabyte,
    )


def _default_message(error: HTTPException) -> str:
    if error.code == 413:
        return too_large_message()
    return MESSAGES.get(error.code, error.description)


def init_app(app: Flask) -> None:
    # Registered for the base class: it covers every status, including the 500
    # Flask raises for an unhandled exception (which it logs first).
    app.register_error_handler(HTTPException, show_error)
    app.register_error_handler(NotStored, _not_stored)
