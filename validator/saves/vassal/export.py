"""A translated VASSAL save written as Referee's save XML: what ``referee export`` writes.

The export is the same ``<position>`` document a person would write by hand
(``docs/save-format.md``), with the values of the :class:`.Translation`
unchanged, its ``<map href>`` pointing at the mapping's map file, and a
comment saying what was exported and what was skipped.

The layout is fixed, one element per line, and :mod:`.positions` numbers a
position read directly the same way (:func:`fact_line`, :func:`map_line`,
:func:`piece_line`): line 1 is the XML declaration, line 2 the comment,
line 3 the ``<position>``, then each fact, the map, ``<pieces>`` and each
piece.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from lxml import etree

from validator.saves.errors import NAMESPACE as SAVE_NAMESPACE

from .mapping import Mapping
from .translation import Translation, xml_text

SAVE_VERSION = "1"
POSITION_LINE = 3


def fact_line(index: int) -> int:
    """The line of the translation's ``index``-th fact (from 0)."""
    return POSITION_LINE + 1 + index


def map_line(translation: Translation) -> int:
    return POSITION_LINE + 1 + len(translation.facts)


def piece_line(translation: Translation, index: int) -> int:
    """The line of the translation's ``index``-th piece (from 0), below the map and ``<pieces>``."""
    return map_line(translation) + 2 + index


def _comment(text: str) -> str:
    """Comment text on one line (the layout above counts on it), without the ``--`` XML forbids there."""
    return " " + re.sub(r"[\r\n]", " ", xml_text(text)).replace("--", "- -").rstrip("-") + " "


def _element(parent: etree._Element, name: str, attributes) -> etree._Element:
    element = etree.SubElement(parent, f"{{{SAVE_NAMESPACE}}}{name}")
    for key, value in attributes:
        element.set(key, value)
    return element


def export_xml(translation: Translation, map_href: str) -> bytes:
    """The translation as our save XML, its ``<map href>`` set to ``map_href``."""
    root = etree.Element(f"{{{SAVE_NAMESPACE}}}position", nsmap={None: SAVE_NAMESPACE})
    root.set("version", SAVE_VERSION)
    root.set("game", translation.game)
    for name, value in translation.attributes.items():
        root.set(name, value)
    for name, value in translation.facts:
        _element(root, "fact", (("name", name), ("value", value)))
    _element(root, "map", (("href", map_href),))
    pieces = _element(root, "pieces", ())
    for piece in translation.pieces:
        element = _element(pieces, "piece", (("id", piece.id), ("name", piece.name), *piece.attributes.items()))
        if piece.location is not None:
            element.set("location", piece.location)
    root.addprevious(etree.Comment(_comment(
        f"Exported by Referee from {os.path.basename(translation.source)} with the mapping "
        f"{os.path.basename(translation.mapping_source)}, as {translation.seen_as} sees it: {translation.note}")))
    return etree.tostring(root.getroottree(), xml_declaration=True, encoding="UTF-8", pretty_print=True)


def map_href_for(mapping: Mapping, relative_to: str | os.PathLike[str] | None) -> str:
    """The ``<map href>`` an exported save needs: relative to the folder it will be read from, else absolute."""
    if relative_to is None:
        return mapping.map_path.as_posix()
    return Path(os.path.relpath(mapping.map_path, Path(relative_to).resolve())).as_posix()


__all__ = ["POSITION_LINE", "export_xml", "fact_line", "map_href_for", "map_line", "piece_line"]
