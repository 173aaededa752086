"""XML inside VASSAL files (buildFile, savedata, moduledata), read with the project's one hardened parser.

:func:`validator.xmlparsing.parse_xml` does the parsing (no entities, no
network, no DTD, no huge trees, DOCTYPE refused, capped bytes in); this
module only names the zip entry and turns its :class:`XmlInputError` into the
:class:`VassalFormatError` every VASSAL reader raises.
"""

from __future__ import annotations

from lxml import etree

from validator.xmlparsing import XmlInputError
from validator.xmlparsing import parse_xml as _parse_xml

from .errors import VassalFormatError


def parse_xml(data: bytes, *, source: str, entry: str | None = None) -> etree._Element:
    """The root element of ``data``, or a :class:`VassalFormatError` naming the file, entry, line and column."""
    try:
        return _parse_xml(data, source)
    except XmlInputError as error:
        where = ""
        if error.line:
            where = f" at line {error.line}" + (f", column {error.column}" if error.column else "")
        raise VassalFormatError(source, f"its XML cannot be used{where}: {error.problem}", entry=entry) from None
