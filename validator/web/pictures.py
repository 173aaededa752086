"""The position's picture: drawn by the game's plugin, cleaned before any page shows it.

A plugin's ``picture(position, report)`` returns an SVG document as a string.
Its text may carry words from the save (piece names, zone names), so the app
never trusts the string: it is parsed with the project's hardened parser
(``validator.xmlparsing.parse_xml``), must be an ``<svg>`` root in the SVG
namespace, may use only drawing elements (no scripts, no foreign objects,
no style sheets, no links or animation) and no event-handler, ``style`` or
outside ``href`` attributes, and is then serialised again by lxml.  The
result is well-formed, every text and attribute escaped by construction, and
safe to place inline in a page, which is the one place the app marks
generated markup as safe.  Style attributes would be blocked by the
Content-Security-Policy anyway (``style-src 'self'``): plugins colour with
presentation attributes (``fill``, ``stroke``) or classes styled in
``referee.css``.

The picture is drawn once, when the position is checked, and stored with the
record; a failure to draw is logged and noted on the report page, never a
failed check.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import current_app
from lxml import etree

from validator.games import Game
from validator.model import Position
from validator.report import Report
from validator.xmlparsing import XmlInputError, parse_xml

SVG_NAMESPACE = "http://www.w3.org/2000/svg"
XLINK_NAMESPACE = "http://www.w3.org/1999/xlink"
MAX_PICTURE_CHARACTERS = 4 * 1024 * 1024

ALLOWED_ELEMENTS = frozenset(
    {
        "svg", "g", "defs", "symbol", "use", "title", "desc", "rect", "circle", "ellipse", "line",
        "polyline", "polygon", "path", "text", "tspan", "marker", "clipPath", "mask",
        "linearGradient", "radialGradient", "stop", "pattern",
    }
)
NOT_DRAWN = "The plugin could not draw a picture of this position; the report above is complete without it."


# What a picture cleaned by this module begins with once it is stored: the report page shows it
# as it is, without parsing and cleaning it again on every view.  A picture stored without it
# (by an older, laxer version) is cleaned on the way out, as before.  Raise the number when the
# cleaner allows less, so pictures it cleaned before are cleaned again when shown.
CLEANER_VERSION = 1
CLEANED_MARK = f"<!-- cleaned by Referee's picture cleaner, version {CLEANER_VERSION} -->"


class PictureError(ValueError):
    """The plugin's picture is not a clean SVG document."""


@dataclass(frozen=True)
class Picture:
    svg: str | None
    note: str | None = None


def draw(game: Game, position: Position, report: Report, titled: str = "") -> Picture:
    """The game's cleaned picture of the position, or no picture with a note saying why.

    ``titled`` goes before the picture's own title, so that a reader tells two pictures of one page apart
    (the position before a move and after it).
    """
    if game.picture is None:
        return Picture(None, None)
    try:
        drawn = game.picture(position, report)
        return Picture(CLEANED_MARK + clean_svg(drawn, titled))
    except Exception as error:  # a plugin defect must not lose the report
        current_app.logger.warning("The %s plugin's picture was refused: %s", game.id, error)
        return Picture(None, NOT_DRAWN)


def shown(stored: str) -> str:
    """A stored picture as a page places it: cleaned when it was stored, or cleaned now (raises PictureError)."""
    if stored.startswith(CLEANED_MARK):
        return stored[len(CLEANED_MARK):]
    return clean_svg(stored)


def clean_svg(drawn: object, titled: str = "") -> str:
    """``drawn`` parsed, checked against the allowed SVG subset and serialised again (``titled``: see draw)."""
    if isinstance(drawn, bytes):
        data = drawn
    elif isinstance(drawn, str):
        data = drawn.encode("utf-8")
    else:
        raise PictureError(f"the picture is a {type(drawn).__name__}, not an SVG string")
    if len(data) > MAX_PICTURE_CHARACTERS:
        raise PictureError(f"the picture is larger than {MAX_PICTURE_CHARACTERS:,} bytes")
    try:
        root = parse_xml(data, "picture")
    except XmlInputError as error:
        raise PictureError(str(error)) from None
    if root.tag != f"{{{SVG_NAMESPACE}}}svg":
        raise PictureError(f"the picture's root is {root.tag}, not an SVG <svg> element")
    for element in root.iter():
        if not isinstance(element.tag, str):
            raise PictureError("the picture holds something other than elements and text")
        namespace, name = _split(element.tag)
        if namespace != SVG_NAMESPACE or name not in ALLOWED_ELEMENTS:
            raise PictureError(f"the element {element.tag} is not allowed in a picture")
        for attribute, value in element.attrib.items():
            _check_attribute(element.tag, attribute, value)
    etree.cleanup_namespaces(root)
    if titled:
        _put_before_title(root, titled)
    return etree.tostring(root, encoding="unicode")


def _put_before_title(root: etree._Element, words: str) -> None:
    title = root.find(f"{{{SVG_NAMESPACE}}}title")
    if title is None:
        title = etree.Element(f"{{{SVG_NAMESPACE}}}title")
        root.insert(0, title)
    title.text = f"{words}: {title.text}" if title.text else words


def _split(tag: str) -> tuple[str, str]:
    if tag.startswith("{"):
        namespace, name = tag[1:].split("}", 1)
        return namespace, name
    return "", tag


def _check_attribute(tag: str, attribute: str, value: str) -> None:
    namespace, name = _split(attribute)
    if namespace not in ("", XLINK_NAMESPACE):
        raise PictureError(f"the attribute {attribute} on {tag} is not allowed in a picture")
    lowered = name.lower()
    if lowered.startswith("on") or lowered == "style":
        raise PictureError(f"the attribute {name} on {tag} is not allowed in a picture")
    if lowered == "href" and not value.startswith("#"):
        raise PictureError(f"the {tag} links outside the picture ({value[:40]!r})")
    compact = "".join(value.split()).lower()
    if "url(" in compact and any(not after.startswith("#") for after in compact.split("url(")[1:]):
        raise PictureError(f"the attribute {name} on {tag} refers outside the picture")
    if "\\" in value and "(" in value:          # a CSS escape could spell url( without the letters
        raise PictureError(f"the attribute {name} on {tag} holds a CSS escape, which a picture does not need")
