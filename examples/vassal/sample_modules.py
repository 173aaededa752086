"""Small VASSAL modules of our own, and Tito saves and logs placed on the sample Tito module.

No real VASSAL module for Tito, A World at War or The Third World War is
available, so the samples (``build_samples.py``) and the tests build one: a
``buildFile.xml`` with one map and one image-less board (its size given in the
buildFile), whose grid names locations the way the game's
``plugin/<game>/mappings/vassal-mapping.xml`` expects.  For Tito that is a RegionGrid
with a region for every place of the sample map file ("Serbia Axis Mountain",
"Serbia: Belgrade Axis", ...), plus a "Dead Pile" region and a "Turn Track"
map.

``tito_save_from_position`` turns one of our hand-written Tito saves into a
VASSAL save on the sample module (the inverse of the mapping), so that
``save XML -> .vsav -> export -> check`` can be compared with checking the
hand-written save directly; ``tito_log_from_position`` does the same for a
log that starts there and records moves.
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path
from xml.sax.saxutils import quoteattr

from lxml import etree

from validator.saves.vassal.sequence import encode

from vassal_save_writer import add_piece, archive_entry, command, restore, write_save

ROOT = Path(__file__).resolve().parents[2]
BOARD = "VASSAL.build.module.map.boardPicker."
SAVE_NS = "{urn:referee:save:1}"
TITO_MAP = ROOT / "plugin" / "tito" / "maps" / "tito-map.xml"
TITO_MODULE_NAME, TITO_MODULE_VERSION = "Tito (Referee sample module)", "1.0"
TITO_MAIN_MAP, TITO_BOARD, TITO_TURN_MAP = "Yugoslavia", "Zones", "Turn Track"
REGION_SPACING = 40


def module_data(name: str, version: str) -> bytes:
    return (f"<?xml version='1.0' encoding='UTF-8'?><data version='1'><version>{version}</version>"
            f"<VassalVersion>3.7.0</VassalVersion><name>{name}</name></data>").encode()


def build_file(name: str, version: str, *maps: str) -> str:
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<VASSAL.build.GameModule name={quoteattr(name)} '
        f'version={quoteattr(version)} VassalVersion="3.7.0">\n' + "\n".join(maps) + "\n</VASSAL.build.GameModule>\n"
    )


def map_element(map_name: str, board: str, grid: str, width: int, height: int) -> str:
    return (
        f' <VASSAL.build.module.Map mapName={quoteattr(map_name)} edgeWidth="0" edgeHeight="0">\n'
        f"  <VASSAL.build.module.map.BoardPicker>\n"
        f'   <{BOARD}Board name={quoteattr(board)} width="{width}" height="{height}">\n{grid}\n'
        f"   </{BOARD}Board>\n  </VASSAL.build.module.map.BoardPicker>\n </VASSAL.build.module.Map>"
    )


def region_grid(regions: dict[str, tuple[int, int]]) -> str:
    lines = [f'    <{BOARD}board.RegionGrid snapto="true">']
    lines += [
        f'     <{BOARD}board.Region name={quoteattr(name)} originx="{x}" originy="{y}"/>'
        for name, (x, y) in regions.items()
    ]
    return "\n".join(lines + [f"    </{BOARD}board.RegionGrid>"])


def write_module(path: Path, build_xml: str, name: str, version: str) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(archive_entry("buildFile.xml"), build_xml)
        archive.writestr(archive_entry("moduledata"), module_data(name, version))
    return path


# -- pieces and saves ---------------------------------------------------------------


def piece(piece_id: str, name: str, map_name: str | None, x: int, y: int, properties: dict[str, str]) -> str:
    """An AddPiece command: a Marker trait holding ``properties`` around a BasicPiece called ``name``."""
    basic_type = "piece;" + encode(["", "", "", name], ";")
    basic_state = f"{map_name if map_name else 'null'};{x};{y};;0"
    if not properties:
        return add_piece(piece_id, [basic_type], [basic_state])
    marker_type = "mark;" + encode(properties.keys(), ",")
    return add_piece(piece_id, [marker_type, basic_type], [encode(properties.values(), ","), basic_state])


def global_property(name: str, value: str) -> str:
    return "GlobalProperty\t" + encode(["", name, value, "Module"], ";")


def board_picker(map_name: str, board: str) -> str:
    return f"{map_name}BoardPicker\t{board}\t0\t0"


def write_game(
    path: Path,
    pieces: list[str],
    properties: dict[str, str],
    boards: list[str],
    *,
    fmt: str = "VCSK",
    module: tuple[str, str] | None = None,
    steps: tuple[str, ...] = (),
) -> Path:
    """A .vsav of ``pieces`` with module-level global ``properties``; ``module`` adds the save's moduledata.

    With ``steps`` (logged commands) it is a .vlog that starts at that position.
    """
    components = tuple(boards) + tuple(global_property(name, value) for name, value in properties.items())
    extra = {"moduledata": module_data(*module)} if module else None
    return write_save(path, command(restore(*pieces, components=components), *steps), fmt, extra=extra)


# -- Tito -----------------------------------------------------------------------------


def _tito_places(map_path: Path = TITO_MAP) -> tuple[dict[str, str], dict[str, str]]:
    """Our location ids -> the sample module's region names, and zone ids -> names."""
    root = etree.parse(str(map_path)).getroot()
    regions: dict[str, str] = {}
    zones: dict[str, str] = {}
    for area in root.iter(SAVE_NS + "area"):
        zone, name = area.get("id"), area.get("name")
        zones[zone] = name
        for side in ("partisan", "axis", "chetnik"):
            regions[f"{zone}/mountain/{side}"] = f"{name} {side.capitalize()} Mountain"
            regions[f"{zone}/hide-away/{side}"] = f"{name} {side.capitalize()} Hide-away"
        regions[f"{zone}/neutral-chetnik"] = f"{name} Neutral Chetniks"
        for display in area.iter(SAVE_NS + "display"):
            for side in ("axis", "yugoslav"):
                regions[f"{zone}/{display.get('id')}/{side}"] = f"{name}: {display.get('name')} {side.capitalize()}"
    return regions, zones


def tito_region_points() -> dict[str, tuple[int, int]]:
    """Region name -> its origin on the board, laid out in rows of 20."""
    names = list(_tito_places()[0].values()) + ["Dead Pile"]
    return {
        name: (20 + REGION_SPACING * (index % 20), 20 + REGION_SPACING * (index // 20))
        for index, name in enumerate(names)
    }


def tito_module(folder: Path, *, name: str = TITO_MODULE_NAME, version: str = TITO_MODULE_VERSION) -> Path:
    points = tito_region_points()
    width = 40 + REGION_SPACING * 20
    height = 40 + REGION_SPACING * (len(points) // 20 + 1)
    build = build_file(
        name,
        version,
        map_element(TITO_MAIN_MAP, TITO_BOARD, region_grid(points), width, height),
        map_element(TITO_TURN_MAP, "Track", region_grid({"Turn 1": (20, 20)}), 400, 60),
    )
    return write_module(folder / "tito-sample.vmod", build, name, version)


def tito_unit(piece_id: str, name: str, at: str | None, properties: dict[str, str]) -> str:
    """A unit on the sample module's main map at region ``at`` (a region name; ``None``: off every map)."""
    if at is None:
        return piece(piece_id, name, None, 0, 0, properties)
    x, y = tito_region_points()[at]
    return piece(piece_id, name, TITO_MAIN_MAP, x, y, properties)


def tito_game(path: Path, pieces: list[str], properties: dict[str, str] | None = None, **options) -> Path:
    return write_game(
        path,
        pieces,
        properties or {},
        [board_picker(TITO_MAIN_MAP, TITO_BOARD), board_picker(TITO_TURN_MAP, "Track")],
        **options,
    )


_WORDS = {
    "nationality": {
        "german": "German",
        "italian": "Italian",
        "croat": "Croat",
        "serbian": "Serbian",
        "bulgarian": "Bulgarian",
        "soviet": "Soviet",
        "partisan": "Partisan",
        "chetnik": "Chetnik",
    },
    "type": {
        "infantry": "Inf",
        "mountain-infantry": "Mtn",
        "mechanized-infantry": "Mech",
        "panzer": "Pz",
        "cavalry": "Cav",
        "parachute": "Para",
        "guerrilla": "Gue",
        "tito": "Tito",
        "marker": "Marker",
    },
    "size": {
        "battalion": "Bn",
        "regiment": "Rgt",
        "brigade": "Bde",
        "division": "Div",
        "corps": "Corps",
        "group": "Grp",
    },
    "allegiance": {"pro-yugoslav": "Pro-Yugoslav", "pro-axis": "Pro-Axis", "neutral": "Neutral"},
    "side": {"axis": "Axis", "yugoslav": "Yugoslav", "neutral": "Neutral"},
}
_FACT_PROPERTIES = {
    "tito-state": "Tito",
    "victory-points": "VP",
    "partisan-brigade-strength": "Partisan Brigade Strength",
    "chetnik-brigade-strength": "Chetnik Brigade Strength",
    "forty-five-points-or-brigade": "Forty Five Points Or Brigade",
    "italian-pullback": "Italian Pullback",
    "italian-withdrawal": "Italian Withdrawal",
    "italian-surrender": "Italian Surrender",
    "allied-support-withdrawal": "Allied Support Withdrawal",
    "tito-located": "Tito Located",
}


class NotExpressible(ValueError):
    """A hand-written save holds something a VASSAL save on the sample module cannot say."""


def _title(words: str) -> str:
    return " ".join(word.capitalize() for word in words.split("-"))


def _tito_state(xml_path: Path) -> tuple[list[str], dict[str, str]]:
    """The pieces (AddPiece commands) and global properties that the Tito mapping reads back as ``xml_path``."""
    root = etree.parse(str(xml_path)).getroot()
    if root.find(SAVE_NS + "event") is not None:
        raise NotExpressible("events")
    map_element_ = root.find(SAVE_NS + "map")
    if map_element_.get("href") is None or Path(map_element_.get("href")).name != TITO_MAP.name:
        raise NotExpressible("a map other than the sample map")
    regions, _ = _tito_places()
    properties: dict[str, str] = {}
    for name, prop, convert in (
        ("scenario", "Scenario", _title),
        ("turn", "Turn", str),
        ("phase", "Phase", _title),
        ("phasing", "Phasing", _WORDS["side"].get),
    ):
        if root.get(name) is not None:
            value = convert(root.get(name))
            if value is None:
                raise NotExpressible(f"{name} {root.get(name)}")
            properties[prop] = value
    eliminated = []
    for fact in root.iter(SAVE_NS + "fact"):
        name, value = fact.get("name"), fact.get("value")
        if name == "intrinsic-defence-eliminated":
            eliminated.append(_title(value))
        elif name in _FACT_PROPERTIES and _FACT_PROPERTIES[name] not in properties:
            properties[_FACT_PROPERTIES[name]] = _title(value) if name == "tito-state" else value
        else:
            raise NotExpressible(f"the fact {name}")
    if eliminated:
        properties["Defences Eliminated"] = ", ".join(eliminated)
    pieces = []
    for element in root.iter(SAVE_NS + "piece"):
        extra = set(element.attrib) - {
            "id",
            "name",
            "side",
            "nationality",
            "type",
            "size",
            "strength",
            "location",
            "allegiance",
            "designation",
        }
        location = element.get("location")
        if extra or location is None or location not in regions:
            raise NotExpressible(f"the piece {element.get('id')}")
        marks: dict[str, str] = {}
        for attribute, prop in (("nationality", "Nationality"), ("allegiance", "Allegiance"), ("side", "Side")):
            if element.get(attribute) is not None:
                word = _WORDS[attribute].get(element.get(attribute))
                if word is None:
                    raise NotExpressible(f"{attribute} {element.get(attribute)}")
                marks[prop] = word
        kind = _WORDS["type"].get(element.get("type"), "") if element.get("type") else ""
        size = _WORDS["size"].get(element.get("size"), "") if element.get("size") else ""
        if (element.get("type") and not kind) or (element.get("size") and not size):
            raise NotExpressible(f"the type or size of {element.get('id')}")
        marks["Unit"] = f"{kind} {size}".strip()
        if element.get("strength") is not None:
            marks["CF"] = element.get("strength")
        if element.get("designation") is not None:
            marks["Designation"] = element.get("designation")
        if re.search(r"[\\,;/\t]", element.get("id")):
            raise NotExpressible(f"the id {element.get('id')}")
        pieces.append(tito_unit(element.get("id"), element.get("name"), regions[location], marks))
    return pieces, properties


def tito_save_from_position(xml_path: Path, out_path: Path, fmt: str = "VCSK") -> Path:
    """The VASSAL save (on the sample module) that the Tito mapping exports back to ``xml_path``'s position."""
    pieces, properties = _tito_state(xml_path)
    return tito_game(out_path, pieces, properties, fmt=fmt)


def tito_move(piece_id: str, start: str, end: str, chat: str) -> str:
    """One log step: a piece moved on the main map from region ``start`` to region ``end``, and a chat line."""
    (old_x, old_y), (new_x, new_y) = tito_region_points()[start], tito_region_points()[end]
    move = f"LOG\tM/{piece_id}/{TITO_MAIN_MAP}/{new_x}/{new_y}/null/{TITO_MAIN_MAP}/{old_x}/{old_y}/null/axis"
    return command(move, f"LOG\tCHAT{chat}")


def tito_log_from_position(xml_path: Path, out_path: Path, steps: list[str], fmt: str = "VCSK") -> Path:
    """A VASSAL log (on the sample module) that starts at ``xml_path``'s position and records ``steps``."""
    pieces, properties = _tito_state(xml_path)
    return tito_game(out_path, pieces, properties, fmt=fmt, steps=tuple(steps))
