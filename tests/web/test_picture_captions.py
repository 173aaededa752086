"""Each game's report page captions its picture with what that picture draws.

The example illegal saves are checked through the web, and the caption under
the picture is held against the SVG above it: the colour the caption says
offending places are outlined in is the colour of the picture's heavy
outlines, the caption speaks of violation numbers only where the picture
draws them, and it names the shapes (hexes, triangles) the picture uses.
"""

from __future__ import annotations

import colorsys
import io
import re
from pathlib import Path

import pytest

from .conftest import SVG, html, text_of

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
NS = {"s": SVG}
HEAVY_OUTLINE = 3.0  # stroke width from which a line marks an offence rather than a border

# Colour words by hue in degrees, for naming the colour a picture draws with.
HUES = (("red", 0, 15), ("orange", 15, 45), ("yellow", 45, 70), ("green", 70, 170), ("blue", 170, 260),
        ("purple", 260, 330), ("red", 330, 360))


def colour_word(colour: str) -> str:
    """The everyday name of a #rrggbb colour, by its hue."""
    red, green, blue = (int(colour[index : index + 2], 16) / 255 for index in (1, 3, 5))
    hue, _lightness, saturation = colorsys.rgb_to_hls(red, green, blue)
    if saturation < 0.2:
        return "grey"
    degrees = hue * 360
    return next(word for word, low, high in HUES if low <= degrees < high)


def sides(points: str) -> int:
    return len(points.split())


@pytest.mark.parametrize("example", ["tito/overstacked.xml", "awaw/partisans-illegal.xml", "tww/illegal.xml"])
def test_the_caption_says_what_the_picture_draws(real_client, example):
    response = real_client.post(
        "/api/check", content_type="multipart/form-data",
        data={"save": (io.BytesIO((EXAMPLES / example).read_bytes()), Path(example).name)},
    )
    assert response.status_code == 200, response.get_data(as_text=True)
    checked = response.get_json()
    assert checked["violations"], "the example must break a rule for its picture to mark one"
    page = html(real_client.get(f"/reports/{checked['id']}"))
    figure = page.xpath("//figure[contains(@class, 'position-picture')]")[0]
    caption = text_of(figure.xpath("./figcaption")[0])
    svg = figure.xpath("./*[local-name()='svg']")[0]

    outlined = re.search(r"outlined in (\w+)", caption)
    assert outlined, f"the caption does not say how offences are outlined: {caption!r}"
    heavy = {
        element.get("stroke").lower()
        for element in svg.iter()
        if element.get("stroke", "").startswith("#") and float(element.get("stroke-width", "1")) >= HEAVY_OUTLINE
    }
    assert heavy, "the picture draws no heavy outline"
    assert {colour_word(colour) for colour in heavy} == {outlined[1]}, (caption, heavy)

    drawn_numbers = {
        number
        for text in svg.xpath(".//*[local-name()='text']")
        if re.fullmatch(r"\d+(, \d+)*…?", (text.text or "").strip())
        for number in re.findall(r"\d+", text.text)
    }
    assert drawn_numbers <= {str(number) for number in range(1, len(checked["violations"]) + 1)}
    if drawn_numbers:
        assert "number" in caption and "not numbered" not in caption, caption
    else:
        assert "not numbered" in caption, caption

    hex_ids = {item["location"] for item in checked["violations"] + checked["findings"] if item["location"]}
    labels = {(text.text or "").strip() for text in svg.xpath(".//*[local-name()='text']")}
    if hex_ids & labels:
        assert "labelled with its id" in caption, caption

    polygons = [sides(points) for points in svg.xpath(".//*[local-name()='polygon']/@points")]
    assert ("hex" in caption) == (6 in polygons), caption
    assert ("triangle" in caption) == (3 in polygons), caption
