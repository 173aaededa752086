"""An SVG picture of an A World at War position: control shading, partisans, offending hexes.

Hexes are drawn from their column and row in the map's declared layout
(flat-topped for odd-q/even-q, pointy-topped for odd-r/even-r).  A large map
is cropped to the hexes around partisans and marked hexes.  Colours are
presentation attributes (``fill``, ``stroke``), never ``style``, so the
picture passes the app's Content-Security-Policy.
"""

from __future__ import annotations

import math

from lxml import etree

from plugin.awaw.situation import faction_of, situation
from plugin.awaw.vocabulary import AXIS, COMMUNIST, NEUTRAL, NOBODY, PARTISAN, WESTERN_ALLIES

SVG = "http://www.w3.org/2000/svg"
SIZE = 14.0  # hex radius
MARGIN = 3  # hexes kept around the interesting ones when cropping
MAX_DRAWN_HEXES = 4000
FILLS = {
    AXIS: "#b4bcc8", WESTERN_ALLIES: "#b5d8a8", COMMUNIST: "#efb1aa", NEUTRAL: "#f3ecd9", NOBODY: "#e6e6e6",
    PARTISAN: "#f7d86a", "sea": "#cfe3f3",
}
PARTISAN_MARKS = {AXIS: "#38414d", WESTERN_ALLIES: "#2f6b2a", COMMUNIST: "#9c2a1f"}
LEGEND = (
    (AXIS, "Axis"), (WESTERN_ALLIES, "Western Allies"), (COMMUNIST, "communist"), (PARTISAN, "held by a partisan"),
    (NEUTRAL, "neutral"), ("sea", "sea"),
)


def _centre(layout: str, column: int, row: int) -> tuple[float, float]:
    shoved_odd = layout.startswith("odd")
    if layout.endswith("q"):
        shift = (column % 2 == 1) == shoved_odd
        return column * 1.5 * SIZE, (row + (0.5 if shift else 0.0)) * math.sqrt(3) * SIZE
    shift = (row % 2 == 1) == shoved_odd
    return (column + (0.5 if shift else 0.0)) * math.sqrt(3) * SIZE, row * 1.5 * SIZE


def _corners(layout: str, x: float, y: float) -> str:
    start = 0 if layout.endswith("q") else 30
    points = []
    for corner in range(6):
        angle = math.radians(start + 60 * corner)
        points.append(f"{x + SIZE * math.cos(angle):.1f},{y + SIZE * math.sin(angle):.1f}")
    return " ".join(points)


def _coordinates(position) -> dict[str, tuple[int, int]]:
    found: dict[str, tuple[int, int]] = {}
    hexes = [location for location in position.map.locations.values() if location.kind == "hex"]
    width = max(1, int(math.sqrt(len(hexes))))
    for index, location in enumerate(hexes):
        try:
            found[location.id] = (int(location.attributes["column"]), int(location.attributes["row"]))
        except (KeyError, ValueError):  # listed neighbours and no grid: lay the hexes out in reading order
            found[location.id] = (index % width, index // width)
    return found


def _fill(where, hex_id: str) -> str:
    if where.hexes[hex_id].sea:
        return FILLS["sea"]
    controller = where.effective_controller(hex_id)
    return FILLS.get(controller) or FILLS.get(faction_of(controller)) or FILLS[NOBODY]


def picture(position, report=None) -> str:
    """The position as an SVG document; hexes named by the report's violations are outlined in red."""
    where = situation(position)
    layout = position.map.attributes.get("layout", "odd-q")
    coordinates = _coordinates(position)
    marked = {result.location for result in (report.violations if report is not None else []) if result.location}
    chosen = set(coordinates)
    if len(chosen) > MAX_DRAWN_HEXES:
        focus = [coordinates[h] for h in marked | {p.location for p in where.partisans if p.location} if h in coordinates]
        if focus:
            columns, rows = [c for c, _ in focus], [r for _, r in focus]
            low_c, high_c, low_r, high_r = min(columns) - MARGIN, max(columns) + MARGIN, min(rows) - MARGIN, max(rows) + MARGIN
            chosen = {h for h, (c, r) in coordinates.items() if low_c <= c <= high_c and low_r <= r <= high_r}
        if len(chosen) > MAX_DRAWN_HEXES:
            chosen = set(sorted(chosen, key=lambda h: coordinates[h])[:MAX_DRAWN_HEXES])
    centres = {h: _centre(layout, *coordinates[h]) for h in chosen}
    xs = [x for x, _ in centres.values()] or [0.0]
    ys = [y for _, y in centres.values()] or [0.0]
    left, top = min(xs) - SIZE * 1.5, min(ys) - SIZE * 1.5
    width, height = max(xs) - left + SIZE * 1.5, max(ys) - top + SIZE * 1.5 + 24 * len(LEGEND) // 3 + 30

    svg = etree.Element(f"{{{SVG}}}svg", nsmap={None: SVG})
    svg.set("viewBox", f"{left:.1f} {top:.1f} {width:.1f} {height:.1f}")
    svg.set("width", f"{min(width, 1600):.0f}")
    svg.set("role", "img")
    title = etree.SubElement(svg, f"{{{SVG}}}title")
    title.text = f"A World at War position {position.turn}: hex control with partisans"
    hex_layer = etree.SubElement(svg, f"{{{SVG}}}g", {"stroke": "#8a8a8a", "stroke-width": "0.6"})
    for hex_id in sorted(chosen, key=lambda h: coordinates[h]):
        x, y = centres[hex_id]
        polygon = etree.SubElement(hex_layer, f"{{{SVG}}}polygon", {"points": _corners(layout, x, y), "fill": _fill(where, hex_id)})
        label = etree.SubElement(polygon, f"{{{SVG}}}title")
        label.text = f"{position.location_label(hex_id)}: {where.effective_controller(hex_id)}"
    piece_layer = etree.SubElement(svg, f"{{{SVG}}}g", {"font-size": "9", "text-anchor": "middle"})
    for piece in where.partisans:
        if piece.location not in centres:
            continue
        x, y = centres[piece.location]
        mark = PARTISAN_MARKS.get(faction_of(piece.attribute("builder")), "#000000")
        circle = etree.SubElement(piece_layer, f"{{{SVG}}}circle",
                                  {"cx": f"{x:.1f}", "cy": f"{y:.1f}", "r": f"{SIZE * 0.45:.1f}", "fill": mark})
        tooltip = etree.SubElement(circle, f"{{{SVG}}}title")
        tooltip.text = f"partisan {piece.id} built by {piece.attribute('builder')}"
        text = etree.SubElement(piece_layer, f"{{{SVG}}}text", {"x": f"{x:.1f}", "y": f"{y + 3:.1f}", "fill": "#ffffff"})
        text.text = "P"
    for hex_id in sorted(marked & set(centres)):
        x, y = centres[hex_id]
        etree.SubElement(svg, f"{{{SVG}}}polygon", {"points": _corners(layout, x, y), "fill": "none",
                                                    "stroke": "#d10000", "stroke-width": "3"})
    legend = etree.SubElement(svg, f"{{{SVG}}}g", {"font-size": "10"})
    base_y = max(ys) + SIZE * 2
    for index, (key, name) in enumerate(LEGEND):
        x = left + 10 + (index % 3) * 130
        y = base_y + (index // 3) * 16
        etree.SubElement(legend, f"{{{SVG}}}rect", {"x": f"{x:.1f}", "y": f"{y:.1f}", "width": "10", "height": "10",
                                                    "fill": FILLS[key], "stroke": "#8a8a8a"})
        text = etree.SubElement(legend, f"{{{SVG}}}text", {"x": f"{x + 14:.1f}", "y": f"{y + 9:.1f}"})
        text.text = name
    hint = etree.SubElement(legend, f"{{{SVG}}}text", {"x": f"{left + 10:.1f}", "y": f"{base_y + 40:.1f}", "fill": "#d10000"})
    hint.text = "red outline: a hex named by a violation" if marked else "no hex is named by a violation"
    return etree.tostring(svg, encoding="unicode")
