"""Test helper: small VASSAL modules of our own for each game, and saves placed on them.

No real VASSAL module for Tito, A World at War or The Third World War is
available, so the tests build one per game: a ``buildFile.xml`` with one map
and one image-less board (its size given in the buildFile), whose grid names
locations the way each game's ``plugin/<game>/vassal-mapping.xml`` expects.

* Tito: a RegionGrid with a region for every place of the sample map file
  ("Serbia Axis Mountain", "Serbia: Belgrade Axis", ...), plus a "Dead Pile"
  region and a "Turn Track" map;
* hex games: a HexGrid numbered the way the game's mapping expects.

``tito_save_from_position`` turns one of our hand-written Tito saves into a
VASSAL save on the sample module (the inverse of the mapping), so that the
round trip ``save XML -> .vsav -> export -> check`` can be compared with
checking the hand-written save directly.
"""

from __future__ import annotations

import re
import zipfile
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import quoteattr

from lxml import etree

from validator.saves.vassal.sequence import encode

from vassal_save_writer import add_piece, restore, write_save

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
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<VASSAL.build.GameModule name={quoteattr(name)} '
            f'version={quoteattr(version)} VassalVersion="3.7.0">\n' + "\n".join(maps) + "\n</VASSAL.build.GameModule>\n")


def map_element(map_name: str, board: str, grid: str, width: int, height: int) -> str:
    return (f' <VASSAL.build.module.Map mapName={quoteattr(map_name)} edgeWidth="0" edgeHeight="0">\n'
            f'  <VASSAL.build.module.map.BoardPicker>\n'
            f'   <{BOARD}Board name={quoteattr(board)} width="{width}" height="{height}">\n{grid}\n'
            f'   </{BOARD}Board>\n  </VASSAL.build.module.map.BoardPicker>\n </VASSAL.build.module.Map>')


def region_grid(regions: dict[str, tuple[int, int]]) -> str:
    lines = [f'    <{BOARD}board.RegionGrid snapto="true">']
    lines += [f'     <{BOARD}board.Region name={quoteattr(name)} originx="{x}" originy="{y}"/>'
              for name, (x, y) in regions.items()]
    return "\n".join(lines + [f'    </{BOARD}board.RegionGrid>'])


@dataclass(frozen=True)
class HexLayout:
    """A HexGrid whose columns are vertical, numbered without stagger: odd columns sit half a hex lower."""

    dx: float = 56.0
    dy: float = 64.0
    x0: int = 40
    y0: int = 40
    h_off: int = 1
    v_off: int = 1

    def grid(self) -> str:
        return (f'    <{BOARD}board.HexGrid dx="{self.dx}" dy="{self.dy}" x0="{self.x0}" y0="{self.y0}" '
                f'sideways="false">\n     <{BOARD}board.mapgrid.HexGridNumbering first="H" sep="" hType="N" '
                f'vType="N" hLeading="1" vLeading="1" hOff="{self.h_off}" vOff="{self.v_off}" stagger="false"/>\n'
                f'    </{BOARD}board.HexGrid>')

    def point(self, column: int, row: int) -> tuple[int, int]:
        """The pixel centre of the hex at 0-based (column, row)."""
        y = self.y0 + row * self.dy + (self.dy / 2 if column % 2 else 0)
        return round(self.x0 + column * self.dx), round(y)


def write_module(path: Path, build_xml: str, name: str, version: str) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("buildFile.xml", build_xml)
        archive.writestr("moduledata", module_data(name, version))
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


def write_game(path: Path, pieces: list[str], properties: dict[str, str], boards: list[str], *, fmt: str = "VCSK",
               module: tuple[str, str] | None = None) -> Path:
    """A .vsav of ``pieces`` with module-level global ``properties``; ``module`` adds the save's moduledata."""
    components = tuple(boards) + tuple(global_property(name, value) for name, value in properties.items())
    extra = {"moduledata": module_data(*module)} if module else None
    return write_save(path, restore(*pieces, components=components), fmt, extra=extra)


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
    return {name: (20 + REGION_SPACING * (index % 20), 20 + REGION_SPACING * (index // 20))
            for index, name in enumerate(names)}


def tito_module(folder: Path, *, name: str = TITO_MODULE_NAME, version: str = TITO_MODULE_VERSION) -> Path:
    points = tito_region_points()
    width = 40 + REGION_SPACING * 20
    height = 40 + REGION_SPACING * (len(points) // 20 + 1)
    build = build_file(name, version,
                       map_element(TITO_MAIN_MAP, TITO_BOARD, region_grid(points), width, height),
                       map_element(TITO_TURN_MAP, "Track", region_grid({"Turn 1": (20, 20)}), 400, 60))
    return write_module(folder / "tito-sample.vmod", build, name, version)


def tito_unit(piece_id: str, name: str, at: str | None, properties: dict[str, str]) -> str:
    """A unit on the sample module's main map at region ``at`` (a region name; ``None``: off every map)."""
    if at is None:
        return piece(piece_id, name, None, 0, 0, properties)
    x, y = tito_region_points()[at]
    return piece(piece_id, name, TITO_MAIN_MAP, x, y, properties)


def tito_game(path: Path, pieces: list[str], properties: dict[str, str] | None = None, **options) -> Path:
    return write_game(path, pieces, properties or {}, [board_picker(TITO_MAIN_MAP, TITO_BOARD),
                                                      board_picker(TITO_TURN_MAP, "Track")], **options)


_WORDS = {
    "nationality": {"german": "German", "italian": "Italian", "croat": "Croat", "serbian": "Serbian",
                    "bulgarian": "Bulgarian", "soviet": "Soviet", "partisan": "Partisan", "chetnik": "Chetnik"},
    "type": {"infantry": "Inf", "mountain-infantry": "Mtn", "mechanized-infantry": "Mech", "panzer": "Pz",
             "cavalry": "Cav", "parachute": "Para", "guerrilla": "Gue", "tito": "Tito", "marker": "Marker"},
    "size": {"battalion": "Bn", "regiment": "Rgt", "brigade": "Bde", "division": "Div", "corps": "Corps",
             "group": "Grp"},
    "allegiance": {"pro-yugoslav": "Pro-Yugoslav", "pro-axis": "Pro-Axis", "neutral": "Neutral"},
    "side": {"axis": "Axis", "yugoslav": "Yugoslav", "neutral": "Neutral"},
}
_FACT_PROPERTIES = {
    "tito-state": "Tito", "victory-points": "VP", "partisan-brigade-strength": "Partisan Brigade Strength",
    "chetnik-brigade-strength": "Chetnik Brigade Strength",
    "forty-five-points-or-brigade": "Forty Five Points Or Brigade", "italian-pullback": "Italian Pullback",
    "italian-withdrawal": "Italian Withdrawal", "italian-surrender": "Italian Surrender",
    "allied-support-withdrawal": "Allied Support Withdrawal", "tito-located": "Tito Located",
}


class NotExpressible(ValueError):
    """A hand-written save holds something a VASSAL save on the sample module cannot say."""


def _title(words: str) -> str:
    return " ".join(word.capitalize() for word in words.split("-"))


def tito_save_from_position(xml_path: Path, out_path: Path, fmt: str = "VCSK") -> Path:
    """The VASSAL save (on the sample module) that the Tito mapping exports back to ``xml_path``'s position."""
    root = etree.parse(str(xml_path)).getroot()
    if root.find(SAVE_NS + "event") is not None:
        raise NotExpressible("events")
    map_element_ = root.find(SAVE_NS + "map")
    if map_element_.get("href") is None or Path(map_element_.get("href")).name != TITO_MAP.name:
        raise NotExpressible("a map other than the sample map")
    regions, _ = _tito_places()
    properties: dict[str, str] = {}
    for name, prop, convert in (("scenario", "Scenario", _title), ("turn", "Turn", str),
                                ("phase", "Phase", _title), ("phasing", "Phasing", _WORDS["side"].get)):
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
        extra = set(element.attrib) - {"id", "name", "side", "nationality", "type", "size", "strength", "location",
                                       "allegiance", "designation"}
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
    return tito_game(out_path, pieces, properties, fmt=fmt)


# -- hex games ---------------------------------------------------------------------------


def _words(value: str) -> str:
    """``west-germany`` -> ``West Germany``: the module's words, which the mappings slug back."""
    return " ".join(word.capitalize() for word in value.split("-"))


@dataclass(frozen=True)
class HexGame:
    """A sample hex-game module and the inverse of its mapping, for round trips."""

    game: str
    module_name: str
    version: str
    map_name: str
    board: str
    layout: HexLayout
    columns: int
    rows: int
    cell: object
    """Our hex id -> (0-based column, 0-based row) on the VASSAL board."""
    attributes: dict
    """Our piece attribute -> (Marker property, our value -> module word)."""
    position: dict
    """Our position attribute -> (global property, our value -> module word)."""
    facts: object
    """Our fact name -> (global property, our value -> module word), or None when the module cannot say it."""

    def module(self, folder: Path) -> Path:
        width = round(self.layout.x0 + self.columns * self.layout.dx + 40)
        height = round(self.layout.y0 + (self.rows + 1) * self.layout.dy + 40)
        build = build_file(self.module_name, self.version,
                           map_element(self.map_name, self.board, self.layout.grid(), width, height))
        return write_module(folder / f"{self.game}-sample.vmod", build, self.module_name, self.version)

    def unit(self, piece_id: str, name: str, hex_id: str | None, properties: dict[str, str]) -> str:
        if hex_id is None:
            return piece(piece_id, name, None, 0, 0, properties)
        x, y = self.layout.point(*self.cell(hex_id))
        return piece(piece_id, name, self.map_name, x, y, properties)

    def game_file(self, path: Path, pieces: list[str], properties: dict[str, str] | None = None, **options) -> Path:
        return write_game(path, pieces, properties or {}, [board_picker(self.map_name, self.board)], **options)

    def save_from_position(self, xml_path: Path, out_path: Path) -> Path:
        """The VASSAL save on this sample module that the game's mapping exports back to ``xml_path``."""
        root = etree.parse(str(xml_path)).getroot()
        if root.find(SAVE_NS + "event") is not None:
            raise NotExpressible("events")
        properties: dict[str, str] = {}
        for name, value in root.attrib.items():
            if name in ("version", "game"):
                continue
            if name not in self.position:
                raise NotExpressible(f"the position attribute {name}")
            prop, convert = self.position[name]
            properties[prop] = convert(value)
        listed: dict[str, list[str]] = {}
        for fact in root.iter(SAVE_NS + "fact"):
            found = self.facts(fact.get("name"))
            if found is None:
                raise NotExpressible(f"the fact {fact.get('name')}")
            prop, convert = found
            listed.setdefault(prop, []).append(convert(fact.get("value")))
        properties.update({prop: "; ".join(values) for prop, values in listed.items()})
        pieces = []
        for element in root.iter(SAVE_NS + "piece"):
            if element.get("location") is None or re.search(r"[\\,;/\t]", element.get("id")):
                raise NotExpressible(f"the piece {element.get('id')}")
            marks = {}
            for name, value in element.attrib.items():
                if name in ("id", "name", "location"):
                    continue
                if name not in self.attributes:
                    raise NotExpressible(f"the piece attribute {name}")
                prop, convert = self.attributes[name]
                marks[prop] = convert(value)
            pieces.append(self.unit(element.get("id"), element.get("name"), element.get("location"), marks))
        return self.game_file(out_path, pieces, properties)


_YES_NO = {"yes": "Yes", "no": "No", "true": "Yes", "false": "No"}.__getitem__
_TWW_SIDES = {"nato": "NATO", "pact": "Pact", "neutral": "Neutral"}.__getitem__
_TWW_FACTS = {"impulse": "Impulse", "sub-impulse": "Sub Impulse", "war-entry:yugoslavia": "Yugoslavia War Entry",
              "war-entry:finland": "Finland War Entry", "kurdish-partisans": "Kurdish Partisans"}

TWW = HexGame(
    game="tww", module_name="The Third World War (Referee sample module)", version="1.0", map_name="Europe",
    board="Schematic", layout=HexLayout(h_off=1, v_off=1), columns=14, rows=6,
    cell=lambda hex_id: (int(hex_id[1:3]), int(hex_id[3:5])),
    attributes={"side": ("Side", _TWW_SIDES), "nationality": ("Nation", _words), "type": ("Type", _words),
                "size": ("Size", _words), "strength": ("Strength", str), "territorial": ("Territorial", _YES_NO),
                "limited": ("Limited", _YES_NO), "zoc": ("ZOC", _YES_NO),
                "communication": ("Communication", _YES_NO), "forced-retreat": ("Forced Retreat", _YES_NO)},
    position={"scenario": ("Scenario", str), "turn": ("Turn", str), "phase": ("Phase", _words),
              "phasing": ("Phasing", _TWW_SIDES)},
    facts=lambda name: (_TWW_FACTS[name], _words) if name in _TWW_FACTS else None,
)

_AWAW_FACT_WORDS = {"rgt": "RGT", "brp": "BRP"}


def _awaw_fact(name: str):
    from plugin.awaw.situation import FACTS
    if name not in FACTS:
        return None
    return " ".join(_AWAW_FACT_WORDS.get(word, word.capitalize()) for word in name.split("-")), str


AWAW = HexGame(
    game="awaw", module_name="A World at War (Referee sample module)", version="1.0", map_name="Europe",
    board="Theatre", layout=HexLayout(h_off=1, v_off=1), columns=20, rows=34,
    cell=lambda hex_id: (int(hex_id[:2]) - 1, int(hex_id[2:]) - 1),
    attributes={"type": ("Type", _words), "builder": ("Builder", _words), "home": ("Home", _words),
                "owner": ("Owner", _words), "zoc": ("ZOC", _YES_NO), "placed-this-phase": ("Placed This Phase", _YES_NO)},
    position={"turn": ("Turn", str.title), "phase": ("Phase", _words), "phasing": ("Phasing", _words)},
    facts=_awaw_fact,
)


__all__ = [
    "AWAW", "HexGame", "HexLayout", "TWW", "NotExpressible", "TITO_MAIN_MAP", "TITO_MODULE_NAME", "TITO_MODULE_VERSION", "board_picker",
    "build_file", "global_property", "map_element", "piece", "region_grid", "tito_game", "tito_module",
    "tito_region_points", "tito_save_from_position", "tito_unit", "write_game", "write_module",
]
