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
import sys
from pathlib import Path
from types import MappingProxyType

from validator import hexgrid, svg
from validator.model import Position
from validator.wording import plural

from plugin.tww import state, terms
from plugin.tww.partisans import partisan_map

SIZE = 18.0  # hex radius in picture units
TERRAIN_FILL = MappingProxyType({
    terms.CLEAR: "#f5f2e3", terms.WILDERNESS: "#cfe2c0", terms.MOUNTAIN: "#c8b597", terms.MOUNTAIN_PASS: "#dcc9a6",
})
OTHER_FILL = "#e4ddc6"
SIDE_COLOUR = MappingProxyType({"pact": "#c0262d", "nato": "#1f5fbf", "neutral": "#6b6b6b"})
OFFENCE_COLOUR = "#ff8c00"
LABELLED_HEXES = 3000  # above this many hexes, ids are left off


def centres(position: Position) -> tuple[dict[str, tuple[float, float]], bool]:
    """Each hex's centre, and whether the hexes are flat-topped."""
    coordinates, layout = hexgrid.drawn_coordinates(position.map)
    placed = {hex_id: hexgrid.centre(layout, column, row, SIZE) for hex_id, (column, row) in coordinates.items()}
    return placed, hexgrid.is_flat_topped(layout)


def _corners(x: float, y: float, flat: bool, scale: float = 1.0) -> str:
    return svg.points(hexgrid.corners(x, y, SIZE * scale, flat))


def picture(position: Position, report=None) -> str:
    """The position as an SVG document string; ``report``'s violations mark their hexes."""
    placed, flat = centres(position)
    derived = partisan_map(position)
    offences = {result.location for result in (report.violations if report is not None else ())}
    xs = [x for x, _ in placed.values()] or [0.0]
    ys = [y for _, y in placed.values()] or [0.0]
    left, top = min(xs) - SIZE * 1.2, min(ys) - SIZE * 1.2 - 70
    width, height = max(xs) - left + SIZE * 1.2, max(ys) - top + SIZE * 1.2
    verdict = "legal" if report is None or report.legal else plural(len(report.violations), "violation")
    root = svg.document(
        f"{position.source or 'position'}: turn {position.turn or '?'}, {verdict}",
        (left, top, max(width, 460.0), height),
        width=f"{max(width, 460):.0f}", height=f"{height:.0f}", font_family="sans-serif",
    )
    _legend(root, left + 6, top + 6)
    labelled = len(placed) <= LABELLED_HEXES
    hexes = position.map.locations
    pact, nato = derived.sides["pact"], derived.sides["nato"]
    for hex_id, (x, y) in placed.items():
        location = hexes[hex_id]
        group = svg.element(root, "g", id=f"hex-{hex_id}")
        svg.element(group, "polygon", points=_corners(x, y, flat),
                    fill=TERRAIN_FILL.get(state.terrain(location), OTHER_FILL), stroke="#9a9382", stroke_width="0.6")
        for side_map, colour in ((pact, SIDE_COLOUR["pact"]), (nato, SIDE_COLOUR["nato"])):
            if hex_id in side_map.blocked:
                svg.element(group, "polygon", points=_corners(x, y, flat, 0.86), fill=colour, fill_opacity="0.3",
                            class_=f"closed-{side_map.side}")
            elif hex_id in side_map.uncertain:
                svg.element(group, "polygon", points=_corners(x, y, flat, 0.86), fill="none", stroke=colour,
                            stroke_width="1.2", stroke_dasharray="3 2", class_=f"maybe-closed-{side_map.side}")
        if state.is_city(location):
            svg.element(group, "circle", cx=svg.number(x), cy=svg.number(y - SIZE * 0.45), r="2.2", fill="#222222")
        if hex_id in offences:
            svg.outline(group, hexgrid.corners(x, y, SIZE * 0.95, flat), OFFENCE_COLOUR, 3, class_="offence")
        if labelled:
            svg.element(group, "text", hex_id, x=svg.number(x), y=svg.number(y + SIZE * 0.75), font_size="5",
                        text_anchor="middle", fill="#555555")
    for location_id, pieces in position.stacks().items():
        if location_id not in placed:
            continue
        x, y = placed[location_id]
        side = pieces[0].side
        group = svg.element(root, "g", class_="stack")
        svg.element(group, "rect", x=svg.number(x - 9), y=svg.number(y - 6), width="18", height="12", rx="1.5",
                    fill=SIDE_COLOUR.get(side, SIDE_COLOUR["neutral"]), stroke="#ffffff", stroke_width="0.8")
        label = pieces[0].id[:6] + (f"+{len(pieces) - 1}" if len(pieces) > 1 else "")
        svg.element(group, "text", label, x=svg.number(x), y=svg.number(y + 2), font_size="5", text_anchor="middle",
                    fill="#ffffff")
        svg.element(group, "title", "; ".join(
            f"{state.described(piece)}, {piece.nationality} {piece.type}".strip(", ") for piece in pieces
        ))
    return svg.serialised(root)


def _legend(root, x: float, y: float) -> None:
    group = svg.element(root, "g", class_="legend", font_size="9")
    entries = (
        (SIDE_COLOUR["pact"], "closed to Pact communications (15.2)"),
        (SIDE_COLOUR["nato"], "closed to NATO communications (15.2)"),
        (OFFENCE_COLOUR, "hex of a violation"),
    )
    for index, (colour, text) in enumerate(entries):
        if colour == OFFENCE_COLOUR:
            paint = {"fill": "none", "stroke": colour, "stroke_width": "2"}
        else:
            paint = {"fill": colour, "fill_opacity": "0.3"}
        svg.legend_entry(group, x, y + index * 14, text, text_fill="#222222", **paint)
    svg.element(group, "text", "dashed: closed only if the Kurdish alignment or the turn (missing) says so",
                x=svg.number(x), y=svg.number(y + 3 * 14 + 9), fill="#222222")


def main(argv: list[str] | None = None) -> int:
    from validator import runner
    from validator.saves.xml_reader import SaveInputError, read_position_file

    parser = argparse.ArgumentParser(
        prog="python -m plugin.tww.picture", description="Draw a Third World War save as SVG."
    )
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
