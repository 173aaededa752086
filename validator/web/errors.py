"""Error pages: a plain sentence for every failure, never a traceback.

Views that know more (an unknown game, a bad query) pass their own sentence
as the error's description; otherwise the page says what the status means.
Under ``/api/`` the same sentence comes as JSON, ``{"error": sentence}``.
"""

from __future__ import annotations

from flask import Flask, current_app, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

API_PREFIX = "/api/"

MESSAGES = {
    400: "The request could not be understood; please check the address or the form you sent.",
    404: "There is no page at this address.",
    405: "This page cannot be used that way; follow a link or use the form on the page instead.",
    413: "The request is larger than the {limit} MB that Referee accepts.",
    500: "Something went wrong on our side while building this page; the error has been logged.",
}


def show_error(error: HTTPException):
    """Render the error page, keeping headers such as a 405's Allow list."""
    message = vars(error).get("description") or _default_message(error)
    headers = [(key, value) for key, value in error.get_headers() if key.lower() != "content-type"]
    if request.path.startswith(API_PREFIX):
        return jsonify(error=message), error.code, headers
    page = render_template("errors/error.html", code=error.code, name=error.name, message=message)
    return page, error.code, headers


def _default_message(error: HTTPException) -> str:
    if error.code == 413:
        limit = current_app.config["MAX_CONTENT_LENGTH"] // (1024 * 1024)
        return MESSAGES[413].format(limit=limit)
    return MESSAGES.get(error.code, error.description)


def init_app(app: Flask) -> None:
    # Registered for the base class: it covers every status, including the 500
    # Flask raises for an unhandled exception (which it logs first).
    app.register_error_handler(HTTPException, show_error)
