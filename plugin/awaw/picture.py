"""An SVG picture of an A World at War position: control shading, partisans, offending hexes.

Hexes are drawn from their column and row in the map's declared layout
(flat-topped for odd-q/even-q, pointy-topped for odd-r/even-r).  A large map
is cropped to the hexes around partisans and marked hexes.  Colours are
presentation attributes (``fill``, ``stroke``), never ``style``, so the
picture passes the app's Content-Security-Policy.
"""

from __future__ import annotations

from types import MappingProxyType

from validator import hexgrid, svg

from plugin.awaw.situation import faction_of, situation
from plugin.awaw.vocabulary import AXIS, COMMUNIST, NEUTRAL, NOBODY, PARTISAN, WESTERN_ALLIES

SIZE = 14.0  # hex radius
MARGIN = 3  # hexes kept around the interesting ones when cropping
MAX_DRAWN_HEXES = 4000
FILLS = MappingProxyType({
    AXIS: "#b4bcc8", WESTERN_ALLIES: "#b5d8a8", COMMUNIST: "#efb1aa", NEUTRAL: "#f3ecd9", NOBODY: "#e6e6e6",
    PARTISAN: "#f7d86a", "sea": "#cfe3f3",
})
PARTISAN_MARKS = MappingProxyType({AXIS: "#38414d", WESTERN_ALLIES: "#2f6b2a", COMMUNIST: "#9c2a1f"})
OFFENCE = "#d10000"
LEGEND = (
    (AXIS, "Axis"), (WESTERN_ALLIES, "Western Allies"), (COMMUNIST, "communist"), (PARTISAN, "held by a partisan"),
    (NEUTRAL, "neutral"), ("sea", "sea"),
)


def _fill(where, hex_id: str) -> str:
    if where.hexes[hex_id].sea:
        return FILLS["sea"]
    controller = where.effective_controller(hex_id)
    return FILLS.get(controller) or FILLS.get(faction_of(controller)) or FILLS[NOBODY]


def picture(position, report=None) -> str:
    """The position as an SVG document; hexes named by the report's violations are outlined in red."""
    where = situation(position)
    coordinates, layout = hexgrid.drawn_coordinates(position.map)
    flat = hexgrid.is_flat_topped(layout)
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
    centres = {h: hexgrid.centre(layout, *coordinates[h], SIZE) for h in chosen}
    xs = [x for x, _ in centres.values()] or [0.0]
    ys = [y for _, y in centres.values()] or [0.0]
    left, top = min(xs) - SIZE * 1.5, min(ys) - SIZE * 1.5
    width, height = max(xs) - left + SIZE * 1.5, max(ys) - top + SIZE * 1.5 + 24 * len(LEGEND) // 3 + 30

    root = svg.document(
        f"A World at War position {position.turn}: hex control with partisans", (left, top, width, height),
        width=f"{min(width, 1600):.0f}",
    )
    hex_layer = svg.element(root, "g", stroke="#8a8a8a", stroke_width="0.6")
    for hex_id in sorted(chosen, key=lambda h: coordinates[h]):
        polygon = svg.element(hex_layer, "polygon", points=svg.points(hexgrid.corners(*centres[hex_id], SIZE, flat)),
                              fill=_fill(where, hex_id))
        svg.element(polygon, "title", f"{position.location_label(hex_id)}: {where.effective_controller(hex_id)}")
    piece_layer = svg.element(root, "g", font_size="9", text_anchor="middle")
    for piece in where.partisans:
        if piece.location not in centres:
            continue
        x, y = centres[piece.location]
        mark = PARTISAN_MARKS.get(faction_of(piece.attribute("builder")), "#000000")
        circle = svg.element(piece_layer, "circle", cx=svg.number(x), cy=svg.number(y), r=svg.number(SIZE * 0.45),
                             fill=mark)
        svg.element(circle, "title", f"partisan {piece.id} built by {piece.attribute('builder')}")
        svg.element(piece_layer, "text", "P", x=svg.number(x), y=svg.number(y + 3), fill="#ffffff")
    for hex_id in sorted(marked & set(centres)):
        svg.outline(root, hexgrid.corners(*centres[hex_id], SIZE, flat), OFFENCE, 3)
    legend = svg.element(root, "g", font_size="10")
    base_y = max(ys) + SIZE * 2
    for index, (key, name) in enumerate(LEGEND):
        svg.legend_entry(legend, left + 10 + (index % 3) * 130, base_y + (index // 3) * 16, name,
                         fill=FILLS[key], stroke="#8a8a8a")
    hint = "red outline: a hex named by a violation" if marked else "no hex is named by a violation"
    svg.element(legend, "text", hint, x=svg.number(left + 10), y=svg.number(base_y + 40), fill=OFFENCE)
    return svg.serialised(root)
