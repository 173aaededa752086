"""What a module holds that a mapping is written from, as plain data and as text.

``referee vassal module`` prints it, and the mapping draft is built from the
same data: the maps and their boards, each board's grid with how it names
points (numbering, zones, regions), the prototypes, and every piece slot with
the properties and layers its piece carries (its own traits and its
prototypes').  A grid or numbering class the reader does not compute is named,
since it is why VASSAL's location names would be ``unknown`` there.
"""

from __future__ import annotations

from .grids import HexGrid, Numbering, RegionGrid, SquareGrid, UnknownGrid, ZonedGrid
from .module import Board, MapDefinition, Module, PieceTemplate

SUMMARY_VERSION = 1


def numbering_summary(numbering: Numbering | None) -> dict | None:
    if numbering is None:
        return None
    return {
        "class": numbering.custom or ("VASSAL oblique" if numbering.oblique else "VASSAL"),
        "computed": numbering.known,
        "first": numbering.first, "separator": numbering.sep,
        "column": {"type": "letters" if numbering.h_type == "A" else "numbers", "offset": numbering.h_off,
                   "leading_zeros": numbering.h_leading, "descending": numbering.h_descend},
        "row": {"type": "letters" if numbering.v_type == "A" else "numbers", "offset": numbering.v_off,
                "leading_zeros": numbering.v_leading, "descending": numbering.v_descend},
        "stagger": numbering.stagger, "location_format": numbering.location_format,
    }


def grid_summary(grid: object | None) -> dict | None:
    """The grid as data: its kind, geometry, numbering, zones or regions; ``unknown`` grids by class name."""
    if grid is None:
        return None
    if isinstance(grid, HexGrid):
        return {"kind": "hex", "sideways": grid.sideways, "x0": grid.x0, "y0": grid.y0, "dx": grid.dx,
                "dy": grid.dy, "numbering": numbering_summary(grid.numbering)}
    if isinstance(grid, SquareGrid):
        return {"kind": "square", "x0": grid.x0, "y0": grid.y0, "dx": grid.dx, "dy": grid.dy,
                "numbering": numbering_summary(grid.numbering)}
    if isinstance(grid, RegionGrid):
        return {"kind": "regions", "regions": [name for name, _, _ in grid.regions]}
    if isinstance(grid, ZonedGrid):
        return {"kind": "zones", "zones": [
            {"name": zone.name, "location_format": zone.location_format, "use_parent_grid": zone.use_parent_grid,
             "grid": grid_summary(zone.grid)} for zone in grid.zones],
            "background": grid_summary(grid.background)}
    if isinstance(grid, UnknownGrid):
        return {"kind": "unknown", "class": grid.class_name}
    return {"kind": "unknown", "class": type(grid).__name__}


def unknown_reasons(grid: object | None) -> list[str]:
    """Why a grid would name some points ``unknown``: each class this reader does not compute, by name."""
    summary = grid_summary(grid)
    reasons: list[str] = []

    def visit(part: dict | None) -> None:
        if part is None:
            return
        if part["kind"] == "unknown":
            reasons.append(f"the grid class {part['class']}")
        numbering = part.get("numbering")
        if numbering and not numbering["computed"]:
            reasons.append(f"the grid numbering class {numbering['class']}")
        for zone in part.get("zones", ()):
            visit(zone["grid"])
        visit(part.get("background"))

    visit(summary)
    return reasons


def _board(board: Board) -> dict:
    return {"name": board.name, "image": board.image, "width": board.width, "height": board.height,
            "reversible": board.reversible, "grid": grid_summary(board.grid),
            "unknown_because": unknown_reasons(board.grid)}


def _map(definition: MapDefinition) -> dict:
    return {"name": definition.id, "kind": definition.kind, "boards": [_board(b) for b in definition.boards],
            "draw_piles": [pile.name for pile in definition.draw_piles],
            "setup_stacks": [stack.name for stack in definition.setup_stacks]}


def carried(template: PieceTemplate, prototypes: dict[str, PieceTemplate]) -> tuple[dict[str, str], list[dict]]:
    """The properties (name to default) and layers a slot's piece carries: its own, then its prototypes'."""
    properties: dict[str, str] = {}
    layers: list[dict] = []
    seen: set[str] = set()

    def add(part: PieceTemplate) -> None:
        for name, value in part.properties:
            properties.setdefault(name, value)
        layers.extend({"name": name, "levels": list(levels)} for name, levels in part.layers)
        for used in part.prototypes:
            if used in prototypes and used not in seen:
                seen.add(used)
                add(prototypes[used])

    add(template)
    return properties, layers


def _piece(template: PieceTemplate, prototypes: dict[str, PieceTemplate]) -> dict:
    properties, layers = carried(template, prototypes)
    entry = {"name": template.name, "piece_name": template.piece_name, "image": template.image,
             "folder": template.folder, "prototypes": list(template.prototypes), "properties": properties,
             "layers": layers, "line": template.line}
    if template.problem:
        entry["problem"] = template.problem
    return entry


def summarise(module: Module) -> dict:
    """The module as JSON-ready data (``summary_version`` 1)."""
    prototypes = {p.name: p for p in module.prototypes}
    return {
        "summary_version": SUMMARY_VERSION,
        "module": {"source": module.source, "name": module.name, "version": module.version,
                   "vassal_version": module.vassal_version, "extends": module.extends,
                   "extensions": list(module.extensions), "global_properties": list(module.global_properties)},
        "maps": [_map(definition) for definition in module.maps.values()],
        "prototypes": [_piece(p, prototypes) for p in module.prototypes],
        "pieces": [_piece(p, prototypes) for p in module.piece_slots],
    }


def _grid_lines(grid: dict | None, indent: str) -> list[str]:
    if grid is None:
        return [f"{indent}no grid: every point is 'offboard'"]
    kind = grid["kind"]
    if kind == "unknown":
        return [f"{indent}grid {grid['class']}, which Referee does not compute: its points are 'unknown'"]
    if kind == "regions":
        return [f"{indent}regions ({len(grid['regions'])}): {', '.join(grid['regions'])}"]
    if kind == "zones":
        lines = [f"{indent}zones ({len(grid['zones'])}):"]
        for zone in grid["zones"]:
            lines.append(f"{indent}  {zone['name']} (named {zone['location_format']})")
            if zone["grid"] is not None:
                lines.extend(_grid_lines(zone["grid"], indent + "    "))
        if grid["background"] is not None:
            lines.append(f"{indent}outside the zones:")
            lines.extend(_grid_lines(grid["background"], indent + "  "))
        return lines
    numbering = grid["numbering"]
    shape = f"{kind} grid{' (sideways)' if grid.get('sideways') else ''}, spacing {grid['dx']:g} x {grid['dy']:g}"
    if numbering is None:
        return [f"{indent}{shape}, not numbered: its points are 'offboard'"]
    column, row = numbering["column"], numbering["row"]
    order = "column then row" if numbering["first"] == "H" else "row then column"
    text = (f"{indent}{shape}, numbered by {numbering['class']} ({order}; columns in {column['type']} from offset "
            f"{column['offset']}, rows in {row['type']} from offset {row['offset']})")
    if not numbering["computed"]:
        text += ", which Referee does not compute: its points are 'unknown'"
    return [text]


def render_text(summary: dict) -> str:
    """The summary as lines a club reads while writing its mapping."""
    module = summary["module"]
    head = f"{module['name'] or '(no name)'} {module['version'] or '(no version)'}"
    if module["extends"] is not None:
        head += f", an extension for the module '{module['extends'] or 'any module'}'"
    lines = [f"{module['source']}: {head}"]
    lines.extend(f"  with the extension {source}" for source in module["extensions"])
    if module["global_properties"]:
        lines.append(f"global properties ({len(module['global_properties'])}): "
                     + ", ".join(module["global_properties"]))
    lines.append(f"maps ({len(summary['maps'])}):")
    for definition in summary["maps"]:
        lines.append(f"  {definition['name']} ({definition['kind']})")
        for board in definition["boards"]:
            size = f"{board['width']} x {board['height']}" if board["width"] is not None else "size unknown"
            lines.append(f"    board {board['name']} ({size})")
            lines.extend(_grid_lines(board["grid"], "      "))
        for label, names in (("draw piles", definition["draw_piles"]), ("setup stacks", definition["setup_stacks"])):
            if names:
                lines.append(f"    {label} ({len(names)}): {', '.join(names)}")
    for label, key in (("prototypes", "prototypes"), ("pieces", "pieces")):
        lines.append(f"{label} ({len(summary[key])}):")
        for piece in summary[key]:
            text = f"  {piece['name']}"
            if piece["folder"]:
                text += f" [{piece['folder']}]"
            if piece["image"]:
                text += f" image {piece['image']}"
            if piece["prototypes"]:
                text += f"; prototypes {', '.join(piece['prototypes'])}"
            if piece["properties"]:
                text += f"; properties {', '.join(piece['properties'])}"
            if piece.get("problem"):
                text += f"; unreadable: {piece['problem']}"
            lines.append(text)
    return "\n".join(lines) + "\n"


__all__ = ["SUMMARY_VERSION", "carried", "grid_summary", "render_text", "summarise", "unknown_reasons"]
