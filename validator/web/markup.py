"""Filters that turn rulebook text and search snippets into safe HTML.

Everything here escapes the text first and only then adds our own tags, so
nothing from a rulebook or a request reaches a page unescaped.  Templates
never use ``|safe``; they call these filters instead.
"""

from __future__ import annotations

import re

from flask import Flask, url_for
from markupsafe import Markup, escape

from validator.rulebook.model import Block, Rulebook
from validator.rulebook.storage import HIGHLIGHT_END, HIGHLIGHT_START
from validator.web.reading import is_linked

UNRESOLVED_HINT = "Not in the imported rulebook"

_HIGHLIGHT_MARKERS = re.compile(f"([{HIGHLIGHT_START}{HIGHLIGHT_END}])")


def linked(block: Block, book: Rulebook) -> Markup:
    """A block's text with each reference wrapped: a link when it resolved, a span when not."""
    pieces = []
    for text, reference in block.segments():
        if reference is None:
            pieces.append(escape(text))
        elif is_linked(book, reference):
            href = url_for("rules.case", game=book.game, case=str(reference.target))
            pieces.append(Markup('<a class="ref" href="{}">{}</a>').format(href, text))
        else:
            pieces.append(unresolved(text))
    return Markup("").join(pieces)


def unresolved(text: object) -> Markup:
    """A reference the book cannot resolve: marked, explained on hover, never a link."""
    return Markup('<span class="ref unresolved" title="{}">{}</span>').format(UNRESOLVED_HINT, text)


def highlighted(snippet: str) -> Markup:
    """A search snippet with its highlight markers turned into ``<mark>`` elements."""
    pieces = []
    open_mark = False
    for piece in _HIGHLIGHT_MARKERS.split(snippet):
        if piece == HIGHLIGHT_START and not open_mark:
            pieces.append(Markup("<mark>"))
            open_mark = True
        elif piece == HIGHLIGHT_END and open_mark:
            pieces.append(Markup("</mark>"))
            open_mark = False
        elif piece not in (HIGHLIGHT_START, HIGHLIGHT_END):
            pieces.append(escape(piece))
    if open_mark:
        pieces.append(Markup("</mark>"))
    return Markup("").join(pieces)


def printable(text: str, limit: int = 80) -> str:
    """Text from a URL or form made fit to show: control characters replaced, length capped."""
    shown = "".join(character if character.isprintable() else "\ufffd" for character in text)
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"


def init_app(app: Flask) -> None:
    app.add_template_filter(linked)
    app.add_template_filter(highlighted)
    app.add_template_filter(unresolved)
