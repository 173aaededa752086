"""The filters that build HTML from rulebook text and search snippets."""

from __future__ import annotations

from markupsafe import Markup

from validator.rulebook.model import PARAGRAPH
from validator.web.markup import highlighted, linked, printable

from .conftest import orchard_rulebook, resolve, written


def test_linked_escapes_the_text_and_wraps_each_reference(app):
    book = orchard_rulebook()
    [block] = resolve([written(PARAGRAPH, "<b>See</b> [2.2] & [9.9].")], book)
    with app.test_request_context("/"):
        html = linked(block, book)
    assert isinstance(html, Markup)
    assert html == (
        '&lt;b&gt;See&lt;/b&gt; <a class="ref" href="/alpha/rules/2.2">2.2</a> &amp; '
        '<span class="ref unresolved" title="Not in the imported rulebook">9.9</span>.'
    )


def test_highlighted_turns_markers_into_marks_and_escapes_the_rest():
    assert highlighted("a \x02<b>\x03 c") == Markup("a <mark>&lt;b&gt;</mark> c")


def test_highlighted_stays_well_formed_with_unbalanced_markers():
    assert highlighted("\x03x \x02y") == Markup("x <mark>y</mark>")
    assert highlighted("\x02a\x02b\x03") == Markup("<mark>ab</mark>")


def test_printable_replaces_control_characters_and_caps_length():
    assert printable("a\x00b\x1b") == "a\ufffdb\ufffd"
    assert printable("x" * 100, limit=10) == "x" * 9 + "…"
