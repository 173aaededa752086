"""The one hardened XML parser for everything VASSAL ships as XML.

buildFile, savedata and moduledata come from strangers, so: no entity
resolution, no network, no DTD loading, no huge trees, and any DOCTYPE or
entity declaration is refused outright.  We parse size-capped bytes, never a
path, so the cap is the caller's and nothing is read behind our back.
"""

from __future__ import annotations

from lxml import etree

from .errors import VassalFormatError

_PARSER_OPTIONS = dict(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False,
                       dtd_validation=False, remove_comments=True, remove_pis=True)


def _parser() -> etree.XMLParser:
    return etree.XMLParser(**_PARSER_OPTIONS)


def parse_xml(data: bytes, *, source: str, entry: str | None = None) -> etree._Element:
    """The root element of ``data``, or a :class:`VassalFormatError` with line and column."""
    if b"<!DOCTYPE" in data or b"<!ENTITY" in data:
        raise VassalFormatError(source, "declares a DOCTYPE or entities, which VASSAL files never need and we refuse",
                                entry=entry)
    try:
        root = etree.fromstring(data, parser=_parser())
    except etree.XMLSyntaxError as error:
        line, column = error.position if error.position else (0, 0)
        message = error.msg or str(error)
        raise VassalFormatError(source, f"is not well-formed XML at line {line}, column {column}: {message}",
                                entry=entry) from None
    tree = root.getroottree()
    if tree.docinfo.doctype or tree.docinfo.internalDTD is not None:
        raise VassalFormatError(source, "declares a DOCTYPE, which VASSAL files never need and we refuse",
                                entry=entry)
    for node in root.iter(etree.Entity):
        raise VassalFormatError(source, f"uses the entity &{node.name}; at line {node.sourceline}, "
                                "which we refuse", entry=entry)
    return root
