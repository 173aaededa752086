"""Cleaning a plugin's SVG before a page shows it inline."""

from __future__ import annotations

import pytest
from lxml import etree

from validator.web.pictures import PictureError, clean_svg

SVG = "http://www.w3.org/2000/svg"


def test_a_clean_picture_comes_back_well_formed_with_text_escaped():
    drawn = (
        f'<svg xmlns="{SVG}" viewBox="0 0 10 10"><!-- note --><g class="zone">'
        '<rect x="1" y="1" width="5" height="5" fill="#fff" stroke="#c62828"/>'
        "<text>&lt;script&gt;alert(1)&lt;/script&gt; &amp; <![CDATA[<b>]]></text></g></svg>"
    )
    cleaned = clean_svg(drawn)
    assert "<script>" not in cleaned and "<b>" not in cleaned and "note" not in cleaned
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;b&gt;" in cleaned
    root = etree.fromstring(cleaned.encode())
    assert root.tag == f"{{{SVG}}}svg"
    assert root.xpath("string(//s:text)", namespaces={"s": SVG}) == "<script>alert(1)</script> & <b>"


def test_bytes_with_an_xml_declaration_are_accepted():
    drawn = f'<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="{SVG}"><text>Niš</text></svg>'.encode()
    assert "Niš" in clean_svg(drawn)


@pytest.mark.parametrize(
    ("drawn", "reason"),
    [
        (f'<svg xmlns="{SVG}"><script>alert(1)</script></svg>', "script"),
        (
            f'<svg xmlns="{SVG}"><foreignObject><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject></svg>',
            "foreignObject",
        ),
        (f'<svg xmlns="{SVG}"><style>rect {{ fill: red }}</style></svg>', "style"),
        (f'<svg xmlns="{SVG}"><rect onclick="alert(1)"/></svg>', "onclick"),
        (f'<svg xmlns="{SVG}"><rect style="fill: red"/></svg>', "style"),
        (
            f'<svg xmlns="{SVG}" xmlns:x="http://www.w3.org/1999/xlink"><use x:href="http://evil/x.svg#a"/></svg>',
            "links outside",
        ),
        (f'<svg xmlns="{SVG}"><use href="javascript:alert(1)"/></svg>', "links outside"),
        (f'<svg xmlns="{SVG}"><rect fill="url(http://evil/x)"/></svg>', "refers outside"),
        (f'<svg xmlns="{SVG}"><a href="#x"><rect/></a></svg>', "not allowed"),
        (f'<svg xmlns="{SVG}"><animate attributeName="href" to="javascript:alert(1)"/></svg>', "not allowed"),
        (f'<svg xmlns="{SVG}"><p>escape foreign content</p></svg>', "not allowed"),
        ("<svg><rect/></svg>", "not an SVG"),
        ('<html xmlns="http://www.w3.org/1999/xhtml"/>', "not an SVG"),
        ('<!DOCTYPE svg [<!ENTITY x "y">]><svg xmlns="http://www.w3.org/2000/svg">&x;</svg>', "DOCTYPE"),
        (f'<svg xmlns="{SVG}"><rect>', "not well-formed"),
        (None, "not an SVG string"),
        (b"\xff\xfe\x00", "not well-formed"),
    ],
)
def test_anything_beyond_plain_drawing_is_refused(drawn, reason):
    with pytest.raises(PictureError, match=reason):
        clean_svg(drawn)


def test_a_huge_picture_is_refused():
    with pytest.raises(PictureError, match="larger than"):
        clean_svg(f'<svg xmlns="{SVG}">' + "<g/>" * 2_000_000 + "</svg>")
