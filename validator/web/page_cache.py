"""Pages rendered once and served again: rules pages per imported rulebook, stored report pages per version.

A case page or the table of contents is the same for every visitor until
the game's rulebook is imported again: it is built from the book, the case
index and the game's checks, none of which change in between.  Rendering
the contents alone makes about a thousand macro calls, so each page is kept
as the HTML it rendered to, keyed by the game, the book's import stamp and
the page.  A new import has a new stamp, so no page of the old book is
served again; the old pages fall out as newer ones are kept.

A stored report's page (:func:`for_visitors`) is kept the same way, keyed
by everything it shows that can change after the report was stored: the
book's import stamp (case titles), the rulings that except its violations,
the case files holding it, the removal of its uploads and the site's
address.  The view reads those each time (a few small queries), so a
ruling or a case file shows on the very next view, in every worker.

A search's results page (:func:`searched`) is kept per import and query,
apart from the rules pages, so that many different queries never push the
rules pages out.

A page that shows a stored report's violations (``?report=``) is never
kept: it depends on the report.  Nor is a page shown to a signed-in
arbiter: its header names them and carries their form token, and its
report pages offer them links a player does not see.  A kept page holds a
mark where a form's token goes, and each visitor gets their own token in
its place.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from flask import current_app
from markupsafe import Markup

from validator.recently_used import RecentlyUsed
from validator.web import csrf
from validator.web.arbiters import current_arbiter

CACHE_KEY = "referee.pages"
SIZE = 2_000  # pages kept per app: every case page of several games' books
SEARCHES_KEY = "referee.search-pages"
SEARCHES = 500  # results pages kept per app: the queries asked most lately
REPORTS_KEY = "referee.report-pages"
REPORT_PAGES = 100  # a report page carries its picture, so fewer are kept,
LARGEST_REPORT_PAGE = 512 * 1024  # and none longer than this many characters (about 50 M per app at most)

# Rendered where a kept page's forms carry the visitor's CSRF token.  Every text a page prints
# is escaped, and a stored picture (the one markup that is not) holds no comments
# (validator.web.pictures), so no stored or typed text can put this mark into a page.
FORM_TOKEN_MARK = Markup("<!--referee: the visitor's own form token-->")


def rendered(game_id: str, stamp: str, page: str, render: Callable[[], str]) -> str:
    """The page's HTML for this import of the game's book: ``render()`` the first time, the same text after."""
    return _kept(CACHE_KEY, SIZE, (game_id, stamp, page), render)


def searched(game_id: str, stamp: str, query: str, render: Callable[[], str]) -> str:
    """A search's results page for this import of the game's book, kept apart so queries never evict rules pages."""
    return _kept(SEARCHES_KEY, SEARCHES, (game_id, stamp, query), render)


def for_visitors(key: Hashable, render: Callable[[dict], str]) -> str:
    """A report page kept under ``key`` for visitors not signed in, each served with their own form token.

    ``render(context)`` renders the page with ``context`` added to its
    template's: for the kept page, the token's mark in place of
    ``csrf_token()``.  A signed-in arbiter's page is rendered afresh.
    """
    if current_arbiter() is not None:
        return render({})
    html = _kept(REPORTS_KEY, REPORT_PAGES, key, lambda: render({"csrf_token": lambda: FORM_TOKEN_MARK}),
                 largest=LARGEST_REPORT_PAGE)
    return html.replace(FORM_TOKEN_MARK, csrf.token()) if FORM_TOKEN_MARK in html else html


def _kept(cache: str, size: int, key: Hashable, render: Callable[[], str], largest: int | None = None) -> str:
    """The page kept under ``key`` in the app's ``cache``, rendered and kept first if need be; afresh for an arbiter.

    A page of more than ``largest`` characters is served but not kept.
    """
    if current_arbiter() is not None:
        return render()
    pages: RecentlyUsed[Hashable, str] = current_app.extensions.setdefault(cache, RecentlyUsed(size))
    html = pages.get(key)
    if html is None:
        html = render()
        if largest is None or len(html) <= largest:
            pages.put(key, html)
    return html
