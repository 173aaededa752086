"""Cross-site request forgery protection for every state-changing request.

A form page puts a per-session token into Flask's signed session cookie and
into a hidden field; a POST is accepted only when the field (or the
``X-CSRF-Token`` header) matches the session's token, compared in constant
time.  Flask's session is signed with ``SECRET_KEY``, so a forged cookie
cannot carry a token of the attacker's choosing.  The cookie is
``SameSite=Lax`` and ``HttpOnly`` (set in ``create_app``).

API clients (``POST /api/check``) may leave the token out only when they send
no cookies at all, and no ``Origin`` header naming another site.  The point
of a forged request is to ride on the victim's cookies; a request without any
carries no one's session.  A browser that posts to the API from another
site sends its ``Origin``, which is refused; a script on the command line
(``curl -F save=@file.xml``) sends neither and needs no token.  A client that
keeps cookies must fetch a token from the form page and send it like the form.

Showing a form creates the token in the visitor's own cookie; that is no
state change on the server, so ``GET /check`` stays a safe request.

No dependency is added for this: Flask-WTF would bring WTForms for one
hidden field and one comparison.
"""

from __future__ import annotations

import hmac
import secrets
from urllib.parse import urlsplit

from flask import Flask, abort, request, session

SESSION_KEY = "csrf_token"
FIELD = "csrf_token"
HEADER = "X-CSRF-Token"
LONGEST_TOKEN = 200

MISSING_TOKEN = (
    "This form was not sent from a page of this site, or it has expired; "
    "reload the page and send the form again."
)
COOKIES_WITHOUT_TOKEN = (
    "A request that carries cookies must also carry the form's token (the csrf_token field or "
    "the X-CSRF-Token header); API clients that need no token send no cookies."
)
FOREIGN_ORIGIN = "Requests from another site are refused; send the file from this site or without a browser."


def token() -> str:
    """The session's token, created on first use (a template global for forms)."""
    value = session.get(SESSION_KEY)
    if not isinstance(value, str) or not value:
        value = secrets.token_urlsafe(32)
        session[SESSION_KEY] = value
    return value


def has_valid_token() -> bool:
    """True when the request carries the token of its own session."""
    expected = session.get(SESSION_KEY)
    given = request.form.get(FIELD) or request.headers.get(HEADER) or ""
    if not isinstance(expected, str) or not expected or not given or len(given) > LONGEST_TOKEN:
        return False
    return hmac.compare_digest(given.encode("utf-8"), expected.encode("utf-8"))


def require_token() -> None:
    """Stop a form POST that lacks its session's token with a 400 and a sentence."""
    if not has_valid_token():
        abort(400, description=MISSING_TOKEN)


def require_token_or_no_cookies() -> None:
    """The API's rule: a token, or no cookies and no foreign Origin at all."""
    origin = request.headers.get("Origin")
    if origin is not None and not _same_site(origin):
        abort(400, description=FOREIGN_ORIGIN)
    if request.headers.get("Cookie") is None:
        return
    if not has_valid_token():
        abort(400, description=COOKIES_WITHOUT_TOKEN)


def _same_site(origin: str) -> bool:
    parts = urlsplit(origin)
    return bool(parts.netloc) and parts.netloc == request.host and parts.scheme == request.scheme


def init_app(app: Flask) -> None:
    app.jinja_env.globals["csrf_token"] = token
