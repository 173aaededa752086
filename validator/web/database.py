"""One database connection per request, opened on first use, closed at teardown."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from flask import Flask, current_app, g

from validator import store


def connection() -> sqlite3.Connection:
    """The request's connection to the instance database."""
    if "database" not in g:
        g.database = store.connect(Path(current_app.config["DATABASE"]))
    return g.database


def close(_exception: BaseException | None = None) -> None:
    database = g.pop("database", None)
    if database is not None:
        database.close()


def init_app(app: Flask) -> None:
    app.teardown_appcontext(close)
