"""Arbiters on the web: sign-in and sign-out, ``current_arbiter()`` and the ``arbiter_required`` decorator.

The session is Flask's signed cookie, holding the arbiter's name beside the
CSRF token; it is ``HttpOnly`` and ``SameSite=Lax`` (``create_app``), and
``Secure`` whenever the request came over HTTPS (``request.is_secure``, which
a reverse proxy's ``X-Forwarded-Proto`` sets when the site is configured to
trust it) or ``SESSION_COOKIE_SECURE`` says so.  A sign-in starts a new
session (a new CSRF token), so a token seen before it is worth nothing after.

Every write view an arbiter uses is wrapped in ``arbiter_required``: a
visitor who is not signed in gets a redirect to the sign-in page on GET and a
403 with a sentence on POST, and a POST also needs its form's CSRF token.
A session also holds the arbiter's session mark (``arbiters.signed_in``):
it ends at the next request once the arbiter is removed or their password
changed, even if the name was added again.  A database that cannot count a
sign-in (read-only) answers 503 with the storing sentence.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from flask import Blueprint, Flask, abort, current_app, g, redirect, render_template, request, session, url_for
from flask.sessions import SecureCookieSessionInterface

from validator.arbitration import arbiters
from validator.web import csrf, database
from validator.web.errors import storing

blueprint = Blueprint("arbiters", __name__)

SESSION_KEY = "arbiter"
MARK_KEY = "arbiter_mark"
LONGEST_FIELD = 200
NOT_SIGNED_IN = (
    "Only a signed-in arbiter can do this; sign in at {sign_in} first (an arbiter is added on the server with "
    "referee arbiter add NAME)."
)
WRONG_PASSWORD = "The name or the password is wrong; try again."
SLOWED = (
    "Too many failed sign-ins for this name from your address; wait {seconds} seconds before trying again."
)


class SchemeAwareSessionInterface(SecureCookieSessionInterface):
    """Flask's signed-cookie session, marked ``Secure`` on every response to a request made over HTTPS."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"]) or request.is_secure


def current_arbiter() -> arbiters.Arbiter | None:
    """The signed-in arbiter of this request, or None for a player."""
    if "arbiter" not in g:
        name, mark = session.get(SESSION_KEY), session.get(MARK_KEY)
        signed = isinstance(name, str) and isinstance(mark, str)
        g.arbiter = arbiters.signed_in(database.connection(), name, mark) if signed else None
    return g.arbiter


def arbiter_required(view: Callable) -> Callable:
    """Let only a signed-in arbiter through; a POST must also carry its form's CSRF token."""

    @functools.wraps(view)
    def guarded(*args, **kwargs):
        if current_arbiter() is None:
            sign_in = url_for("arbiters.sign_in_form", next=request.full_path.rstrip("?"))
            if request.method in ("GET", "HEAD"):
                return redirect(sign_in)
            abort(403, description=NOT_SIGNED_IN.format(sign_in=url_for("arbiters.sign_in_form")))
        if request.method not in ("GET", "HEAD"):
            csrf.require_token()
        return view(*args, **kwargs)

    return guarded


def client_address() -> str:
    """The client's address, as the app sees it (behind a trusted proxy, the one it forwarded)."""
    return request.remote_addr or ""


def _safe_next(target: str | None) -> str:
    """A page of this site to go back to; anything else (another site, a scheme) is the home page."""
    if target and target.startswith("/") and not target.startswith("//") and "\\" not in target:
        return target
    return url_for("home.index")


@blueprint.get("/sign-in")
def sign_in_form():
    return render_template("arbiters/sign_in.html", next=_safe_next(request.args.get("next")), problem=None)


@blueprint.post("/sign-in")
def sign_in():
    csrf.require_token()
    name = request.form.get("name", "")[:LONGEST_FIELD]
    password = request.form.get("password", "")
    following = _safe_next(request.form.get("next"))
    if len(password) > LONGEST_FIELD:
        password = ""
    with storing("your sign-in"):
        outcome = arbiters.verify(database.connection(), name, password, client_address())
    if outcome.arbiter is None:
        waiting = outcome.wait_seconds and SLOWED.format(seconds=outcome.wait_seconds)
        status = 429 if waiting else 401
        page = render_template("arbiters/sign_in.html", next=following, problem=waiting or WRONG_PASSWORD,
                               name=name)
        headers = {"Retry-After": str(outcome.wait_seconds)} if waiting else {}
        return page, status, headers
    session.clear()
    session[SESSION_KEY] = outcome.arbiter.name
    session[MARK_KEY] = outcome.mark
    current_app.logger.info("The arbiter %s signed in from %s.", outcome.arbiter.name, client_address())
    return redirect(following, code=303)


@blueprint.get("/sign-out")
def sign_out_by_get():
    """Signing out changes the session, so it is a POST (the sign-out button); a GET is told so."""
    abort(405, valid_methods=["POST"], description="Sign out with the sign-out button at the top of a page.")


@blueprint.post("/sign-out")
def sign_out():
    csrf.require_token()
    session.clear()
    return redirect(url_for("home.index"), code=303)


def init_app(app: Flask) -> None:
    app.session_interface = SchemeAwareSessionInterface()
    app.jinja_env.globals["current_arbiter"] = current_arbiter
