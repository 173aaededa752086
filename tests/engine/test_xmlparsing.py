"""The hardened parser's refusals, and messages that stay readable whatever the file holds."""

from __future__ import annotations

import pytest

from validator.xmlparsing import LONGEST_PROBLEM, XmlInputError, parse_xml


def test_a_value_echoed_in_a_message_is_cut_short_and_its_length_given():
    error = XmlInputError("f.xml", "the value '" + "9" * 5000 + "' is too large", 3)
    assert "(5,002 characters) is too large" in str(error)  # the value and its quotes
    assert len(error.problem) < 150


def test_a_path_in_a_message_is_kept_whole():
    path = "/home/club/saves/" + "campaign-" * 15 + "map.xml"
    assert path in str(XmlInputError("f.xml", f"the map {path} is missing"))


def test_a_message_of_many_short_words_is_cut_at_a_readable_length():
    error = XmlInputError("f.xml", "the fact at-war='" + "germany " * 200_000 + "' is wrong", 3)
    assert len(error.problem) < LONGEST_PROBLEM + 100
    assert error.problem.endswith("characters, is left out)")


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16", "utf-16-le", "utf-16-be", "utf-32"])
def test_a_doctype_is_refused_in_any_encoding(encoding):
    text = f'<?xml version="1.0" encoding="{encoding}"?>\n<!DOCTYPE p [<!ENTITY e "injected">]>\n<p>&e;</p>\n'
    data = text.encode(encoding)
    with pytest.raises(XmlInputError, match="DOCTYPE or entities"):
        parse_xml(data, "save.xml")


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16", "utf-16-le", "utf-16-be", "utf-32"])
def test_an_entity_reference_without_a_doctype_is_refused_in_any_encoding(encoding):
    data = f'<?xml version="1.0" encoding="{encoding}"?>\n<p a="1">\n&e;</p>\n'.encode(encoding)
    with pytest.raises(XmlInputError) as caught:
        parse_xml(data, "f.xml")
    assert "not well-formed XML (Entity 'e' not defined" in caught.value.problem
    assert caught.value.line == 3


def test_predefined_entities_and_character_references_are_read_as_their_characters():
    root = parse_xml(b'<p a="&amp;&lt;&#65;">&gt;&#x42;</p>', "f.xml")
    assert (root.get("a"), root.text) == ("&<A", ">B")
