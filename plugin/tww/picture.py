"""A picture of a Third World War position: hexes, closed hexes per side, units, offences.

Built with lxml as an SVG document that uses presentation attributes only
(no ``style`` attributes or elements), so a page with a strict
Content-Security-Policy can show it.  Hexes are placed from their column and
row on the map's declared layout; a map without coordinates is laid out in
the order the map lists its hexes.

``python -m plugin.tww.picture SAVE [-o OUT.svg]`` checks a save and writes
its picture.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

from lxml import etree

from validator.hexgrid import LAYOUTS
from validator.model import Location, Position
from validator.wording import plural

from plugin.tww import state, terms
from plugin.tww.partisans import partisan_map

SVG = "http://www.w3.org/2000/svg"
SIZE = 18.0  # hex radius in picture units
ROOT3 = math.sqrt(3)
TERRAIN_FILL = {
    terms.CLEAR: "#f5f2e3", terms.WILDERNESS: "#cfe2c0", terms.MOUNTAIN: "#c8b597", terms.MOUNTAIN_PASS: "#dcc9a6",
}
OTHER_FILL = "#e4ddc6"
SIDE_COLOUR = {"pact": "#c0262d", "nato": "#1f5fbf", "neutral": "#6b6b6b"}
OFFENCE_COLOUR = "#ff8c00"
LABELLED_HEXES = 3000  # above this many hexes, ids are left off


def _element(parent, tag: str, **attributes) -> etree._Element:
    return etree.SubElement(parent, f"{{{SVG}}}{tag}", {key.replace("_", "-"): str(value) for key, value in attributes.items()})


def centres(position: Position) -> tuple[dict[str, tuple[float, float]], bool]:
    """Each hex's centre, and whether the hexes are flat-topped."""
    hexes = [location for location in position.map.locations.values() if location.kind == "hex"]
    layout = position.map.attributes.get("layout", "odd-q")
    layout = layout if layout in LAYOUTS else "odd-q"
    placed = {}
    if hexes and all(_coordinates(location) for location in hexes):
        coordinates = {location.id: _coordinates(location) for location in hexes}
    else:
        width = max(1, math.ceil(math.sqrt(len(hexes))))
        coordinates = {location.id: (index % width, index // width) for index, location in enumerate(hexes)}
        layout = "odd-q"
    parity = 1 if layout.startswith("odd") else 0
    flat = layout.endswith("q")
    for hex_id, (column, row) in coordinates.items():
        if flat:
            shove = 0.5 if column % 2 == parity else 0.0
            placed[hex_id] = (SIZE * 1.5 * column, SIZE * ROOT3 * (row + shove))
        else:
            shove = 0.5 if row % 2 == parity else 0.0
            placed[hex_id] = (SIZE * ROOT3 * (column + shove), SIZE * 1.5 * row)
    return placed, flat


def _coordinates(location: Location) -> tuple[int, int] | None:
    try:
        return int(location.attributes["column"]), int(location.attributes["row"])
    except (KeyError, ValueError):
        return None


def _corners(x: float, y: float, flat: bool, scale: float = 1.0) -> str:
    start = 0 if flat else 30
    points = []
    for corner in range(6):
        angle = math.radians(start + 60 * corner)
        points.append(f"{x + SIZE * scale * math.cos(angle):.1f},{y + SIZE * scale * math.sin(angle):.1f}")
    return " ".join(points)


def picture(position: Position, report=None) -> str:
    """The position as an SVG document string; ``report``'s violations mark their hexes."""
    placed, flat = centres(position)
    derived = partisan_map(position)
    offences = {result.location for result in (report.violations if report is not None else ())}
    xs = [x for x, _ in placed.values()] or [0.0]
    ys = [y for _, y in placed.values()] or [0.0]
    left, top = min(xs) - SIZE * 1.2, min(ys) - SIZE * 1.2 - 70
    width, height = max(xs) - left + SIZE * 1.2, max(ys) - top + SIZE * 1.2
    root = etree.Element(f"{{{SVG}}}svg", nsmap={None: SVG}, attrib={
        "viewBox": f"{left:.1f} {top:.1f} {max(width, 460):.1f} {height:.1f}", "width": f"{max(width, 460):.0f}",
        "height": f"{height:.0f}", "role": "img", "font-family": "sans-serif",
    })
    verdict = "legal" if report is None or report.legal else plural(len(report.violations), "violation")
    _element(root, "title").text = f"{position.source or 'position'}: turn {position.turn or '?'}, {verdict}"
    _legend(root, left + 6, top + 6)
    labelled = len(placed) <= LABELLED_HEXES
    hexes = position.map.locations
    pact, nato = derived.sides["pact"], derived.sides["nato"]
    for hex_id, (x, y) in placed.items():
        location = hexes[hex_id]
        group = _element(root, "g", id=f"hex-{hex_id}")
        _element(group, "polygon", points=_corners(x, y, flat), fill=TERRAIN_FILL.get(state.terrain(location), OTHER_FILL),
                 stroke="#9a9382", stroke_width="0.6")
        for side_map, colour in ((pact, SIDE_COLOUR["pact"]), (nato, SIDE_COLOUR["nato"])):
            if hex_id in side_map.blocked:
                _element(group, "polygon", points=_corners(x, y, flat, 0.86), fill=colour, fill_opacity="0.3",
                         **{"class": f"closed-{side_map.side}"})
            elif hex_id in side_map.uncertain:
                _element(group, "polygon", points=_corners(x, y, flat, 0.86), fill="none", stroke=colour,
                         stroke_width="1.2", stroke_dasharray="3 2", **{"class": f"maybe-closed-{side_map.side}"})
        if state.is_city(location):
            _element(group, "circle", cx=f"{x:.1f}", cy=f"{y - SIZE * 0.45:.1f}", r="2.2", fill="#222222")
        if hex_id in offences:
            _element(group, "polygon", points=_corners(x, y, flat, 0.95), fill="none", stroke=OFFENCE_COLOUR,
                     stroke_width="3", **{"class": "offence"})
        if labelled:
            _element(group, "text", x=f"{x:.1f}", y=f"{y + SIZE * 0.75:.1f}", font_size="5", text_anchor="middle",
                     fill="#555555").text = hex_id
    for location_id, pieces in position.stacks().items():
        if location_id not in placed:
            continue
        x, y = placed[location_id]
        side = pieces[0].side
        group = _element(root, "g", **{"class": "stack"})
        _element(group, "rect", x=f"{x - 9:.1f}", y=f"{y - 6:.1f}", width="18", height="12", rx="1.5",
                 fill=SIDE_COLOUR.get(side, SIDE_COLOUR["neutral"]), stroke="#ffffff", stroke_width="0.8")
        label = pieces[0].id[:6] + (f"+{len(pieces) - 1}" if len(pieces) > 1 else "")
        _element(group, "text", x=f"{x:.1f}", y=f"{y + 2:.1f}", font_size="5", text_anchor="middle",
                 fill="#ffffff").text = label
        _element(group, "title").text = "; ".join(
            f"{state.described(piece)}, {piece.nationality} {piece.type}".strip(", ") for piece in pieces
        )
    return etree.tostring(root, encoding="unicode")


def _legend(root, x: float, y: float) -> None:
    group = _element(root, "g", **{"class": "legend"}, font_size="9")
    entries = (
        (SIDE_COLOUR["pact"], "closed to Pact communications (15.2)"),
        (SIDE_COLOUR["nato"], "closed to NATO communications (15.2)"),
        (OFFENCE_COLOUR, "hex of a violation"),
    )
    for index, (colour, text) in enumerate(entries):
        row_y = y + index * 14
        if colour == OFFENCE_COLOUR:
            _element(group, "rect", x=f"{x:.1f}", y=f"{row_y:.1f}", width="10", height="10", fill="none", stroke=colour, stroke_width="2")
        else:
            _element(group, "rect", x=f"{x:.1f}", y=f"{row_y:.1f}", width="10", height="10", fill=colour, fill_opacity="0.3")
        _element(group, "text", x=f"{x + 14:.1f}", y=f"{row_y + 9:.1f}", fill="#222222").text = text
    _element(group, "text", x=f"{x:.1f}", y=f"{y + 3 * 14 + 9:.1f}", fill="#222222").text = (
        "dashed: closed only if the Kurdish alignment or the turn (missing) says so"
    )


def main(argv: list[str] | None = None) -> int:
    from validator import runner
    from validator.saves.xml_reader import SaveInputError, read_position_file

    parser = argparse.ArgumentParser(prog="python -m plugin.tww.picture", description="Draw a Third World War save as SVG.")
    parser.add_argument("save", type=Path)
    parser.add_argument("-o", "--output", type=Path, help="the SVG file to write (default: standard output)")
    arguments = parser.parse_args(argv)
    try:
        position = read_position_file(arguments.save, "tww")
    except SaveInputError as error:
        print(f"picture: {error}", file=sys.stderr)
        return 2
    svg = picture(position, runner.check(position))
    if arguments.output:
        arguments.output.write_text(svg, encoding="utf-8")
    else:
        print(svg)
    return 0


if __name__ == "__main__":
    sys.exit(main())
