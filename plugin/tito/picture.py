"""A picture of a Tito position: one panel per zone, as the map's displays are laid out.

Each zone's panel holds its zone display (the Partisan, Axis and Chetnik
Mountain triangles and Hide-away circles, and the Neutral Chetnik box, 5.2
and 5.4) and then its Objective Displays, each with its Yugoslav and Axis
boxes (5.3).  Every place shows how many pieces stand there and what they
count toward the stacking limit in division-equivalents (6.22, 6.24; counted
by :func:`plugin.tito.units.division_equivalent`, the checks' own helper).
A place a violation names is outlined in red and carries the violation's
number, the same number the report page gives it.  Hovering a place (its
``<title>``) lists the pieces.

The SVG is built with lxml, so every text from the save (zone, display and
piece names) is escaped by construction.  Colours are presentation
attributes, not style attributes, because the app's Content-Security-Policy
forbids inline styles; they are chosen to read in greyscale print too
(outlines and numbers, not colour alone, mark an offence).
"""

from __future__ import annotations

from fractions import Fraction
from types import MappingProxyType

from lxml import etree

from validator import svg
from validator.model import Location, Position
from validator.report import Report
from validator.wording import plural

from plugin.tito import facts, units

COLUMNS = 3
PANEL_WIDTH = 400
GAP = 14
TITLE_HEIGHT = 30
SHAPE = 64  # width and height of a triangle, circle or zone box
ZONE_ROW = 104  # a row of shapes with their labels
DISPLAY_ROW = 44
HEADER_ROW = 16  # "Yugoslav box", "Axis box" over the Objective Displays
BOX_WIDTH = 112
BOX_LEFT = 160  # where an Objective Display's boxes start, after its name
BOX_HEIGHT = 34
LEGEND_HEIGHT = 40

FILLS = MappingProxyType({
    "partisan": "#f6d5d0", "yugoslav": "#f6d5d0", "axis": "#d9dee8", "chetnik": "#dde8cc", "neutral": "#eeeeee",
})
SIDE_LABELS = MappingProxyType({
    "partisan": "Partisan", "axis": "Axis", "chetnik": "Chetnik", "yugoslav": "Yugoslav", "neutral": "Neutral",
})
OUTLINE = "#444444"
OFFENCE = "#c62828"
TEXT = "#1d1d1f"
MUTED = "#5f5f66"


def picture(position: Position, report: Report) -> str:
    """The position as an SVG document: zone panels in a grid, offending places marked."""
    marks = _violation_numbers(report)
    stacks = position.stacks()
    panels = [_ZonePanel(position, zone, stacks, marks) for zone in position.map.areas]
    rows = [panels[start : start + COLUMNS] for start in range(0, len(panels), COLUMNS)]
    width = COLUMNS * PANEL_WIDTH + (COLUMNS + 1) * GAP
    height = LEGEND_HEIGHT + sum(max(panel.height for panel in row) + GAP for row in rows) + GAP

    root = svg.document(
        f"Tito position: {plural(len(position.pieces), 'piece')} in {plural(len(panels), 'zone')}",
        (0, 0, width, height),
        class_="tito-picture",
        font_family="system-ui, sans-serif",
        font_size="13",
    )
    _legend(root, width, len(report.violations))
    y = LEGEND_HEIGHT
    for row in rows:
        for column, panel in enumerate(row):
            panel.draw(root, GAP + column * (PANEL_WIDTH + GAP), y)
        y += max(panel.height for panel in row) + GAP
    return svg.serialised(root)


def _violation_numbers(report: Report) -> dict[str, list[int]]:
    """Each offending location with the numbers of its violations, as the report page numbers them."""
    marks: dict[str, list[int]] = {}
    for number, violation in enumerate(report.violations, start=1):
        if violation.location:
            marks.setdefault(violation.location, []).append(number)
    return marks


class _ZonePanel:
    """One zone: its zone display, its Objective Displays, and any other places it holds."""

    def __init__(self, position: Position, zone: str, stacks: dict, marks: dict[str, list[int]]) -> None:
        self.position, self.zone, self.stacks, self.marks = position, zone, stacks, marks
        self.area = position.map.areas[zone]
        here = [location for location in position.map.locations.values() if location.area == zone]
        self.by_id = {location.id: location for location in here}
        self.displays = [display for display in position.map.displays.values() if display.area == zone]
        shown = {location.id for location in here if self._is_drawn_elsewhere(location)}
        self.others = [location for location in here if location.id not in shown]
        self.height = (
            TITLE_HEIGHT
            + 2 * ZONE_ROW
            + (HEADER_ROW if self.displays else 0)
            + len(self.displays) * DISPLAY_ROW
            + (DISPLAY_ROW if self.others else 0)
            + 10
        )

    def _is_drawn_elsewhere(self, location: Location) -> bool:
        if location.kind in (facts.MOUNTAIN, facts.HIDE_AWAY, facts.NEUTRAL_BOX):
            return location.attributes.get("display") == "zone"
        if location.kind == facts.OBJECTIVE_BOX:
            return any(location.attributes.get("display") == display.id for display in self.displays)
        return False

    def draw(self, parent: etree._Element, x: int, y: int) -> None:
        panel = svg.element(parent, "g", class_="zone", transform=f"translate({x},{y})")
        svg.element(
            panel,
            "rect",
            x="0",
            y="0",
            width=PANEL_WIDTH,
            height=self.height,
            rx="6",
            fill="#ffffff",
            stroke=OUTLINE,
            stroke_width="1",
        )
        svg.element(panel, "text", self.area.label, x=12, y=21, font_size="16", font_weight="700", fill=TEXT)
        top = TITLE_HEIGHT
        self._zone_row(panel, top, facts.MOUNTAIN, "triangle", "Mountains")
        self._zone_row(panel, top + ZONE_ROW, facts.HIDE_AWAY, "circle", "Hide-aways")
        neutral = self._find(facts.NEUTRAL_BOX, "neutral")
        if neutral is not None:
            self._place(panel, neutral, "box", 4 * (SHAPE + 22) - 60, top + ZONE_ROW + 18, SHAPE, SHAPE, "Neutral box")
        y = top + 2 * ZONE_ROW
        if self.displays:
            for column, side in enumerate(facts.OBJECTIVE_BOX_SIDES):
                svg.element(
                    panel,
                    "text",
                    f"{SIDE_LABELS[side]} box",
                    x=BOX_LEFT + column * (BOX_WIDTH + 8) + BOX_WIDTH / 2,
                    y=y + 10,
                    fill=MUTED,
                    font_size="11",
                    text_anchor="middle",
                )
            svg.element(panel, "text", "Objective Displays", x=12, y=y + 10, fill=MUTED, font_size="11")
            y += HEADER_ROW
        for display in self.displays:
            self._display_row(panel, display, y)
            y += DISPLAY_ROW
        if self.others:
            svg.element(panel, "text", "Other places", x=12, y=y + 22, fill=MUTED)
            for column, location in enumerate(self.others[:2]):
                self._place(
                    panel,
                    location,
                    "box",
                    BOX_LEFT + column * (BOX_WIDTH + 8),
                    y + 4,
                    BOX_WIDTH,
                    BOX_HEIGHT,
                    location.label,
                )

    def _find(self, kind: str, side: str) -> Location | None:
        return next(
            (
                location
                for location in self.by_id.values()
                if location.kind == kind
                and location.attributes.get("side") == side
                and location.attributes.get("display") == "zone"
            ),
            None,
        )

    def _zone_row(self, panel: etree._Element, top: int, kind: str, shape: str, heading: str) -> None:
        svg.element(panel, "text", heading, x=12, y=top + 12, fill=MUTED, font_size="11")
        for column, side in enumerate(facts.ZONE_DISPLAY_SIDES):
            location = self._find(kind, side)
            if location is not None:
                self._place(
                    panel, location, shape, 12 + column * (SHAPE + 22), top + 18, SHAPE, SHAPE, SIDE_LABELS[side]
                )

    def _display_row(self, panel: etree._Element, display, y: int) -> None:
        label = display.label if len(display.label) <= 19 else display.label[:18] + "…"
        svg.element(panel, "text", label, x=12, y=y + 22, fill=TEXT, font_weight="600")
        for column, side in enumerate(facts.OBJECTIVE_BOX_SIDES):
            location = self.by_id.get(f"{self.zone}/{display.id}/{side}")
            if location is not None:
                self._place(
                    panel, location, "box", BOX_LEFT + column * (BOX_WIDTH + 8), y + 4, BOX_WIDTH, BOX_HEIGHT, None
                )

    def _place(
        self, panel, location: Location, shape: str, x: int, y: int, width: int, height: int, caption: str | None
    ) -> None:
        """One location: its outline, its count and division-equivalents, its marks."""
        pieces = self.stacks.get(location.id, [])
        numbers = self.marks.get(location.id, [])
        side = location.attributes.get("side", "neutral")
        group = svg.element(panel, "g", class_="place offending" if numbers else "place", data_location=location.id)
        listed = ", ".join(units.describe(piece) for piece in pieces[:12])
        if len(pieces) > 12:
            listed += f" and {len(pieces) - 12} more"
        svg.element(group, "title", f"{self.position.location_label(location.id)}: {listed or 'empty'}")
        outline = {
            "fill": FILLS.get(side, "#ffffff"),
            "stroke": OFFENCE if numbers else OUTLINE,
            "stroke_width": "3.5" if numbers else "1",
        }
        if numbers:
            outline["class_"] = "offending"
        if shape == "triangle":
            points = f"{x + width / 2},{y} {x + width},{y + height} {x},{y + height}"
            svg.element(group, "polygon", points=points, **outline)
            text_y = y + height * 0.72
        elif shape == "circle":
            svg.element(group, "circle", cx=x + width / 2, cy=y + height / 2, r=width / 2, **outline)
            text_y = y + height / 2 - 2
        else:
            svg.element(group, "rect", x=x, y=y, width=width, height=height, rx="3", **outline)
            text_y = y + (height / 2 - 2 if height > BOX_HEIGHT else height / 2 + 4)
        centre = x + width / 2
        if pieces:
            total = sum((units.division_equivalent(piece) for piece in pieces), Fraction(0))
            count = f"{len(pieces)} unit" + ("" if len(pieces) == 1 else "s")
            if shape == "box" and height <= BOX_HEIGHT:
                svg.element(
                    group,
                    "text",
                    f"{count} · {_divisions(total)}",
                    x=centre,
                    y=text_y,
                    text_anchor="middle",
                    font_size="11",
                    fill=TEXT,
                )
            else:
                svg.element(group, "text", count, x=centre, y=text_y, text_anchor="middle", font_size="11", fill=TEXT)
                svg.element(
                    group,
                    "text",
                    _divisions(total),
                    x=centre,
                    y=text_y + 13,
                    text_anchor="middle",
                    font_size="11",
                    font_weight="700",
                    fill=TEXT,
                )
        if caption:
            svg.element(
                group, "text", caption, x=centre, y=y + height + 13, text_anchor="middle", font_size="11", fill=MUTED
            )
        if numbers:
            shown = ", ".join(str(number) for number in numbers[:3]) + ("…" if len(numbers) > 3 else "")
            badge_width = 12 + 7 * len(shown)
            # On a box the badge sits on its top edge, clear of the counts written inside.
            badge_y = y if shape == "box" else y + 4
            badge_x = min(x + width - 4, PANEL_WIDTH - badge_width / 2 - 2)
            svg.element(
                group,
                "rect",
                class_="badge",
                x=badge_x - badge_width / 2,
                y=badge_y - 10,
                width=badge_width,
                height="20",
                rx="10",
                fill=OFFENCE,
            )
            svg.element(
                group,
                "text",
                shown,
                x=badge_x,
                y=badge_y + 4,
                class_="badge-number",
                text_anchor="middle",
                font_size="11",
                font_weight="700",
                fill="#ffffff",
            )


def _divisions(total: Fraction) -> str:
    return f"{units.fraction_text(total)} div"


def _legend(root: etree._Element, width: int, violations: int) -> None:
    legend = svg.element(root, "g", class_="legend")
    svg.element(
        legend, "rect", x=GAP, y="10", width="18", height="14", fill="#ffffff", stroke=OFFENCE, stroke_width="3.5"
    )
    if violations:
        words = (
            f"A place outlined in red breaks a rule; its red number is the violation's number in the report "
            f"({violations} in all). Each place shows its units and their division-equivalents (6.22)."
        )
    else:
        words = "No place breaks a rule. Each place shows its units and their division-equivalents (6.22)."
    svg.element(legend, "text", words, x=GAP + 26, y=22, fill=TEXT, font_size="12")
