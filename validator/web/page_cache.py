"""Rules pages rendered once per imported rulebook: the contents and each case page, until the next import.

A case page or the table of contents is the same for every visitor until
the game's rulebook is imported again: it is built from the book, the case
index and the game's checks, none of which change in between.  Rendering
the contents alone makes about a thousand macro calls, so each page is kept
as the HTML it rendered to, keyed by the game, the book's import stamp and
the page.  A new import has a new stamp, so no page of the old book is
served again; the old pages fall out as newer ones are kept.

A page that shows a stored report's violations (``?report=``) is never
kept: it depends on the report.
"""

from __future__ import annotations

from collections.abc import Callable

from flask import current_app

from validator.recently_used import RecentlyUsed

CACHE_KEY = "referee.pages"
SIZE = 2_000  # pages kept per app: every case page of several games' books


def rendered(game_id: str, stamp: str, page: str, render: Callable[[], str]) -> str:
    """The page's HTML for this import of the game's book: ``render()`` the first time, the same text after."""
    pages: RecentlyUsed[tuple[str, str, str], str] = current_app.extensions.setdefault(CACHE_KEY, RecentlyUsed(SIZE))
    key = (game_id, stamp, page)
    html = pages.get(key)
    if html is None:
        html = render()
        pages.put(key, html)
    return html
