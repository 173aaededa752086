"""Mutations of valid inputs, as Hypothesis strategies: what a damaged or hostile file looks like.

Two kinds.  Byte mutations know nothing of the format: flip bits, cut the
file short, insert bytes (random ones, or tokens the formats give meaning
to), delete or repeat a stretch.  XML mutations keep the file well-formed so
that the damage reaches the reader's own checks past the parser: drop,
duplicate, reorder or move elements, change, drop or add attributes (a new
value, or one borrowed from elsewhere in the file, which keeps the file valid
more often), change text.  Each strategy applies one to four mutations to one valid input.
"""

from __future__ import annotations

from hypothesis import strategies as st
from lxml import etree

TOKENS = (
    b"<", b">", b"&", b"&amp;", b'"', b"'", b"\x00", b"\xff", b"\xc3", b"]]>", b"<!DOCTYPE x>",
    b"<!ENTITY e 'x'>", b"<?xml version='1.0'?>", b"\x1b", b"\\", b"\t", b"\n", b"\r", b";", b"/", b",",
    b"9" * 12, b"-1", b"0", b"NaN", b"1e309", b"PK\x03\x04", b"!VCSK", b"!VOBS", b"!VOXZ",
)
"""Bytes that mean something to one of the formats: markup, escapes, separators, numbers, signatures."""

ATTRIBUTE_VALUES = (
    "", " ", "0", "-1", "1", "2147483648", "9" * 30, "1e309", "NaN", "inf", "-0", "0.5", "x", "Ž", "日本",
    "../../etc/passwd", "/", ".", "http://example.org/x", "{", "}", "{x}", "{{", "$", "\\", ";", "|", "a" * 300,
    "tito", "awaw", "tww", "yes", "no", "true", "false",
)
"""Values an attribute may be changed to: empty, numbers at and past their edges, other scripts, paths, slots."""


@st.composite
def _one_byte_mutation(draw, data: bytes) -> bytes:
    if not data:
        return draw(st.binary(min_size=1, max_size=16))
    size = len(data)
    kind = draw(st.sampled_from(("flip", "truncate", "insert", "delete", "repeat")))
    at = draw(st.integers(0, size - 1))
    if kind == "flip":
        return data[:at] + bytes([data[at] ^ draw(st.integers(1, 255))]) + data[at + 1:]
    if kind == "truncate":
        return data[:at]
    if kind == "insert":
        inserted = draw(st.one_of(st.sampled_from(TOKENS), st.binary(min_size=1, max_size=32)))
        return data[:at] + inserted + data[at:]
    length = draw(st.integers(1, min(64, size - at)))
    if kind == "delete":
        return data[:at] + data[at + length:]
    return data[:at] + data[at:at + length] * draw(st.integers(2, 8)) + data[at + length:]


@st.composite
def byte_mutations(draw, data: bytes) -> bytes:
    """``data`` after one to four byte mutations."""
    for _ in range(draw(st.integers(1, 4))):
        data = draw(_one_byte_mutation(data))
    return data


def _parse(data: bytes) -> etree._Element:
    """Our own valid sample (never a mutated one) parsed to be mutated."""
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, remove_blank_text=False)
    return etree.fromstring(data, parser)


def _elements(root: etree._Element) -> list[etree._Element]:
    return [element for element in root.iter() if isinstance(element.tag, str)]


def _mutate_element(draw, root: etree._Element) -> None:
    elements = _elements(root)
    element = draw(st.sampled_from(elements))
    parent = element.getparent()
    kinds = ["attribute", "borrowed value", "borrowed value", "drop attribute", "add attribute"]
    if element.text and element.text.strip():
        kinds.append("text")
    if parent is not None:
        kinds += ["drop", "duplicate", "reorder", "move"]
    kind = draw(st.sampled_from(kinds))
    if kind == "attribute" and element.attrib:
        name = draw(st.sampled_from(sorted(element.attrib)))
        element.set(name, draw(_attribute_value()))
    elif kind == "borrowed value" and element.attrib:
        lender = draw(st.sampled_from([other for other in elements if other.attrib] or [element]))
        value = lender.get(draw(st.sampled_from(sorted(lender.attrib))))
        element.set(draw(st.sampled_from(sorted(element.attrib))), value)
    elif kind == "drop attribute" and element.attrib:
        del element.attrib[draw(st.sampled_from(sorted(element.attrib)))]
    elif kind == "add attribute":
        other = draw(st.sampled_from(elements))
        name = draw(st.sampled_from(sorted(other.attrib))) if other.attrib else "extra"
        element.set(name, draw(_attribute_value()))
    elif kind == "text":
        element.text = draw(_attribute_value())
    elif kind == "drop":
        parent.remove(element)
    elif kind == "duplicate":
        copies = draw(st.integers(1, 3))
        for _ in range(copies):
            parent.insert(parent.index(element), _copy(element))
    elif kind == "reorder":
        siblings = list(parent)
        order = draw(st.permutations(range(len(siblings))))
        for child in siblings:
            parent.remove(child)
        for index in order:
            parent.append(siblings[index])
    elif kind == "move":
        target = draw(st.sampled_from(elements))
        if element not in target.iterancestors() and element is not target:
            parent.remove(element)
            target.append(element)


def _copy(element: etree._Element) -> etree._Element:
    copy = etree.fromstring(etree.tostring(element))
    copy.tail = element.tail
    return copy


def _attribute_value() -> st.SearchStrategy[str]:
    xml_characters = st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\ufffe\uffff")
    return st.one_of(st.sampled_from(ATTRIBUTE_VALUES), st.text(xml_characters, max_size=12))


@st.composite
def xml_mutations(draw, data: bytes) -> bytes:
    """``data`` (a valid XML file of ours) after one to four structural mutations, still well-formed."""
    root = _parse(data)
    for _ in range(draw(st.integers(1, 4))):
        _mutate_element(draw, root)
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8")


def mutations(data: bytes, xml: bool = True) -> st.SearchStrategy[bytes]:
    """Byte mutations of ``data``; for XML, structural ones twice as often (and now and then bytes on top)."""
    if not xml:
        return byte_mutations(data)
    structural = xml_mutations(data)
    return st.one_of(byte_mutations(data), structural, structural, structural.flatmap(byte_mutations))


COMMAND_VALUES = (
    b"", b"0", b"-1", b"2147483647", b"2147483648", b"-2147483649", b"99999999999999999999", b"NaN", b"1e9",
    b"null", b"true", b"\\", b"\\" * 40, b"\x1b", b"\x1b" * 3, b"\t", b";", b"/", b",", b"+", b"D", b"M",
    b"Yugoslavia", b"Main", b"unknown", b"piece", b"mark", b"stack", b"deck", b"LOG\t", b"begin_save", b"end_save",
)
"""Values a field of a VASSAL command may be changed to: numbers past Java's int, escapes, separators, keywords."""

_SEPARATORS = frozenset(b"\x1b\\/;\t,")


def _fields(text: bytes) -> list[tuple[int, int]]:
    """Where each field lies: the runs between VASSAL's separators (ESC, backslash, /, ;, TAB, comma)."""
    fields, start = [], 0
    for index, byte in enumerate(text):
        if byte in _SEPARATORS:
            if index > start:
                fields.append((start, index))
            start = index + 1
    if len(text) > start:
        fields.append((start, len(text)))
    return fields


@st.composite
def command_text_mutations(draw, text: bytes) -> bytes:
    """A VASSAL command text after one to four changes to its fields and commands, or to its bytes."""
    for _ in range(draw(st.integers(1, 4))):
        fields = _fields(text)
        kind = draw(st.sampled_from(("field", "repeat command", "drop command", "bytes")))
        if kind == "bytes" or not fields:
            text = draw(_one_byte_mutation(text))
            continue
        start, end = draw(st.sampled_from(fields))
        if kind == "field":
            text = text[:start] + draw(st.sampled_from(COMMAND_VALUES)) + text[end:]
            continue
        escape = text.rfind(b"\x1b", 0, start)
        following = text.find(b"\x1b", end)
        begin, finish = escape + 1, following if following >= 0 else len(text)
        if kind == "repeat command":
            text = text[:finish] + (b"\x1b" + text[begin:finish]) * draw(st.integers(1, 3)) + text[finish:]
        else:
            text = text[:begin] + text[finish + 1:]
    return text
