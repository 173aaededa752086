"""Building the SVG documents a game's picture hook returns.

Every picture is built with lxml, so text taken from a save (piece, zone and
place names) is escaped by construction.  Colours and sizes are presentation
attributes, never ``style`` attributes or elements: the app's
Content-Security-Policy forbids inline styles, and its picture cleaner
(``validator/web/pictures.py``) refuses them.  Attribute names are given as
Python keywords, an underscore standing for a hyphen (``stroke_width``) and
``class_`` for ``class``; values are turned into text.
"""

from __future__ import annotations

from collections.abc import Iterable

from lxml import etree

NAMESPACE = "http://www.w3.org/2000/svg"


def tag(name: str) -> str:
    """An element name in the SVG namespace."""
    return f"{{{NAMESPACE}}}{name}"


def attributes(given: dict[str, object]) -> dict[str, str]:
    """Keyword arguments as SVG attributes: ``stroke_width=3`` -> ``stroke-width="3"``, ``class_`` -> ``class``."""
    return {name.rstrip("_").replace("_", "-"): str(value) for name, value in given.items()}


def document(title: str, view_box: tuple[float, float, float, float], **given: object) -> etree._Element:
    """An ``<svg>`` root showing ``view_box`` (left, top, width, height), described by ``title`` for readers."""
    left, top, width, height = view_box
    root = etree.Element(tag("svg"), nsmap={None: NAMESPACE})
    root.set("viewBox", f"{number(left)} {number(top)} {number(width)} {number(height)}")
    for name, value in attributes(given).items():
        root.set(name, value)
    root.set("role", "img")
    element(root, "title", title)
    return root


def element(parent: etree._Element, name: str, text: str | None = None, **given: object) -> etree._Element:
    """A child element of ``parent``, with its text (escaped when written) and attributes."""
    child = etree.SubElement(parent, tag(name), attributes(given))
    if text is not None:
        child.text = text
    return child


def points(corners: Iterable[tuple[float, float]]) -> str:
    """A polygon's ``points`` attribute, to a tenth of a unit."""
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in corners)


def outline(parent: etree._Element, corners: Iterable[tuple[float, float]], colour: str, width: float,
            **given: object) -> etree._Element:
    """An unfilled polygon around a place: how a picture marks what a violation names."""
    return element(parent, "polygon", points=points(corners), fill="none", stroke=colour, stroke_width=width, **given)


def legend_entry(parent: etree._Element, x: float, y: float, label: str, text_fill: str | None = None,
                 **paint: object) -> None:
    """A ten-unit square painted as ``paint`` says (fill, stroke...), with its label beside it."""
    element(parent, "rect", x=number(x), y=number(y), width="10", height="10", **paint)
    words = {"fill": text_fill} if text_fill else {}
    element(parent, "text", label, x=number(x + 14), y=number(y + 9), **words)


def number(value: float) -> str:
    """A coordinate as an attribute: a whole number as it is, a fraction to a tenth of a unit."""
    return f"{value:.1f}" if isinstance(value, float) else str(value)


def serialised(root: etree._Element) -> str:
    """The document as the string a picture hook returns."""
    return etree.tostring(root, encoding="unicode")
