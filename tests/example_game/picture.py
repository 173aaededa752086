"""A picture of a Fen Patrol position: the hexes by terrain, the patrols, the crowded hexes outlined."""

from __future__ import annotations

from validator import hexgrid, svg
from validator.model import Position
from validator.report import Report

RADIUS = 30.0  # centre to corner, in picture units
TERRAIN = {"reeds": "#c9dcae", "mud": "#c8b08a", "water": "#a9cfe8"}
SIDES = {"wardens": "#1f5fbf", "poachers": "#b3261e"}
OFFENCE = "#d10000"
CAPTION = (
    "Hexes coloured by terrain (green reeds, brown mud, blue water), each patrol a dot in its side's colour "
    "(blue Wardens, red Poachers). A hex outlined in red is named by a violation above."
)


def picture(position: Position, report: Report) -> str:
    """The position as an SVG document; the hexes the report's violations name are outlined in red."""
    coordinates, layout = hexgrid.drawn_coordinates(position.map)
    flat = hexgrid.is_flat_topped(layout)
    centres = {hex_id: hexgrid.centre(layout, *place, RADIUS) for hex_id, place in coordinates.items()}
    xs = [x for x, _ in centres.values()] or [0.0]
    ys = [y for _, y in centres.values()] or [0.0]
    left, top = min(xs) - RADIUS * 1.2, min(ys) - RADIUS * 1.2
    width, height = max(xs) - left + RADIUS * 1.2, max(ys) - top + RADIUS * 1.2
    root = svg.document(f"Fen Patrol, turn {position.turn or '?'}", (left, top, width, height),
                        font_family="sans-serif")
    for hex_id, (x, y) in centres.items():
        terrain = position.map.locations[hex_id].attributes.get("terrain", "")
        shape = svg.element(root, "polygon", points=svg.points(hexgrid.corners(x, y, RADIUS, flat)),
                            fill=TERRAIN.get(terrain, "#eeeeee"), stroke="#777777", stroke_width="1")
        svg.element(shape, "title", f"{position.location_label(hex_id)}: {terrain or 'terrain not given'}")
    for hex_id, pieces in position.stacks().items():
        if hex_id not in centres:
            continue
        x, y = centres[hex_id]
        for index, piece in enumerate(pieces):
            dot = svg.element(root, "circle", cx=svg.number(x - 12 + 12 * (index % 3)),
                              cy=svg.number(y + 8 * (index // 3)), r="5", fill=SIDES.get(piece.side, "#555555"))
            svg.element(dot, "title", f"{piece.name} ({piece.side or 'no side'})")
    for hex_id in sorted({violation.location for violation in report.violations} & set(centres)):
        svg.outline(root, hexgrid.corners(*centres[hex_id], RADIUS * 0.92, flat), OFFENCE, 3, class_="offence")
    return svg.serialised(root)
