"""The picture cleaner: no reference out of the picture survives, however it is written."""

from __future__ import annotations

import pytest

from validator.web.pictures import PictureError, clean_svg

SVG = "http://www.w3.org/2000/svg"


def _rect(fill: str) -> str:
    return f'<svg xmlns="{SVG}"><rect width="1" height="1" fill="{fill}"/></svg>'


@pytest.mark.parametrize("fill", [
    "url(#m) url(http://evil.example/x)",          # one inside reference used to let the rest through
    "url(http://evil.example/x) url(#m)",
    "url(#m),url(//evil.example/x)",
    "url(#m) URL(\n http://evil.example/x)",
])
def test_a_reference_outside_the_picture_is_refused_beside_an_inside_one(fill):
    with pytest.raises(PictureError, match="refers outside the picture"):
        clean_svg(_rect(fill))


def test_a_css_escape_that_could_spell_url_is_refused():
    with pytest.raises(PictureError, match="holds a CSS escape"):
        clean_svg(_rect("\\75 rl(http://evil.example/x)"))


def test_references_inside_the_picture_are_kept():
    cleaned = clean_svg(_rect("url(#gradient) url( #pattern)"))
    assert 'fill="url(#gradient) url( #pattern)"' in cleaned
