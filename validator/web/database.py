"""One database connection per request, opened on first use, closed at teardown."""

from __future__ import annotations

from flask import Flask, abort, current_app, g
from werkzeug.exceptions import ServiceUnavailable

from validator import store

# A server whose database cannot be used is unavailable until its keeper fixes the file;
# the page does not show the server's file paths, the log says which file and why.
UNAVAILABLE = 503
UNUSABLE_DATABASE = (
    "Referee cannot use its database just now, so this page cannot be built; the server's log says which file "
    "and why. Try again once the site's keeper has fixed it."
)


def connection() -> store.Connection:
    """The request's connection to the instance database; a database that cannot be used is a 503 that says why."""
    if "database" not in g:
        try:
            g.database = store.connect(current_app.config["DATABASE"])
        except store.UnusableDatabase as error:
            current_app.logger.error("The instance database cannot be used: %s", error)
            abort(UNAVAILABLE, description=UNUSABLE_DATABASE)
    return g.database


def close(_exception: BaseException | None = None) -> None:
    database = g.pop("database", None)
    if database is not None:
        database.close()


def unavailable(error: store.UnusableDatabase):
    """A database lost during a request (a PostgreSQL server restarting, a file made read-only): the same 503."""
    from validator.web import errors

    current_app.logger.error("The instance database cannot be used: %s", error)
    return errors.show_error(ServiceUnavailable(description=UNUSABLE_DATABASE))


def init_app(app: Flask) -> None:
    app.teardown_appcontext(close)
    app.register_error_handler(store.UnusableDatabase, unavailable)
