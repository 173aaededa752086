"""The project's one hardened XML parser, and schema validation with line numbers.

Every XML file Referee reads comes from someone else: no entity resolution,
no network, no DTD loading, no huge trees, and a DOCTYPE or entity
declaration is refused outright.  Callers pass size-capped bytes, never a
path, so nothing is read behind the cap.
"""

from __future__ import annotations

import re
from functools import cache

from lxml import etree

from validator import paths
from validator.errors import InputError

_DECLARATIONS_REFUSED = "the file declares a DOCTYPE or entities, which are refused; remove the declaration."
LONGEST_WORD = 200  # longer runs without a space (a value echoed back, not a path) are cut in messages
LONGEST_PROBLEM = 4000  # room for a list of what is wrong, not for a megabyte echoed back
_LONG_WORD = re.compile(rf"(?<!\S)\S{{{LONGEST_WORD + 1},}}")
"""A run of more than LONGEST_WORD characters without a space; tried only where a run starts, so each is read once."""


def _readable(problem: str) -> str:
    """The problem with any value it echoes cut short: a file may hold a megabyte in one attribute."""
    def cut(match: re.Match) -> str:
        word = match.group()
        return f"{word[:60]}…{word[-10:]} ({len(word):,} characters)"

    problem = _LONG_WORD.sub(cut, problem)
    if len(problem) > LONGEST_PROBLEM:
        left_out = len(problem) - LONGEST_PROBLEM
        problem = f"{problem[:LONGEST_PROBLEM]}… (the rest of this message, {left_out:,} characters, is left out)"
    return problem


class XmlInputError(InputError):
    """Unusable XML: where it is and what is wrong, as one sentence, any value it echoes cut short."""

    def __init__(self, source: str, problem: str, line: int = 0, column: int = 0) -> None:
        super().__init__(source, _readable(problem), line, column)


def _parser() -> etree.XMLParser:
    return etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        huge_tree=False,
        dtd_validation=False,
        remove_comments=True,
        remove_pis=True,
    )


def parse_xml(data: bytes, source: str) -> etree._Element:
    """The root element of ``data``, or :class:`XmlInputError` with line and column."""
    if b"!" in data and (b"<!DOCTYPE" in data or b"<!ENTITY" in data):  # a byte search (memchr) for most files
        line = data[: data.find(b"<!")].count(b"\n") + 1
        raise XmlInputError(source, _DECLARATIONS_REFUSED, line)
    try:
        root = etree.fromstring(data, parser=_parser())
    except etree.XMLSyntaxError as error:
        line, column = error.position if error.position else (0, 0)
        raise XmlInputError(source, f"not well-formed XML ({error.msg})", line, column) from None
    docinfo = root.getroottree().docinfo
    if docinfo.internalDTD is not None or docinfo.doctype:  # the byte test above sees only ASCII-compatible encodings
        raise XmlInputError(source, _DECLARATIONS_REFUSED, 1)
    if b"&" in data:  # else no reference in ASCII-compatible or UTF-16/32 text (see _refuse_entities)
        _refuse_entities(root, source)
    return root


def _refuse_entities(root: etree._Element, source: str) -> None:
    """A second line behind the DTD refusal: without a DTD an undeclared entity is already a syntax error.

    The walk over every node is skipped for files without an ampersand
    byte (some 4% of a big save's parse); an EBCDIC file, whose ampersand is
    another byte, still has its DTD refused above.
    """
    for node in root.iter(etree.Entity):
        raise XmlInputError(source, f"the entity &{node.name}; is refused", node.sourceline or 0)


@cache
def schema(name: str) -> etree.XMLSchema:
    """A schema from ``schemas/``, loaded once."""
    data = (paths.schemas_dir() / name).read_bytes()
    return etree.XMLSchema(etree.fromstring(data, parser=_parser()))


MAX_REPORTED_SCHEMA_ERRORS = 10


def validate(root: etree._Element, schema_name: str, source: str) -> None:
    """Raise :class:`XmlInputError` listing the schema's own errors with their lines."""
    checker = schema(schema_name)
    if checker.validate(root):
        return
    errors = list(checker.error_log)
    first = errors[0]
    problem = f"does not match the {schema_name} schema: {first.message}"
    others = [f"line {error.line}: {error.message}" for error in errors[1:MAX_REPORTED_SCHEMA_ERRORS]]
    if others:
        problem += "; also " + "; ".join(others)
    if len(errors) > MAX_REPORTED_SCHEMA_ERRORS:
        problem += f"; and {len(errors) - MAX_REPORTED_SCHEMA_ERRORS} more"
    raise XmlInputError(source, problem, first.line, first.column)
