"""Test helper: the sample modules and saves of ``examples/vassal/sample_modules.py``, plus hex games.

The Tito sample module and the Tito saves built from our hand-written
examples live in ``examples/vassal/`` (the shipped samples are built from
them); they are re-exported here for the tests.  This module adds a sample
module for each hex game: a HexGrid numbered the way the game's
``plugin/<game>/mappings/vassal-mapping.xml`` expects, and the inverse of its mapping
for round trips.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from sample_modules import (
    BOARD,
    SAVE_NS,
    TITO_MAIN_MAP,
    TITO_MODULE_NAME,
    TITO_MODULE_VERSION,
    NotExpressible,
    board_picker,
    build_file,
    global_property,
    map_element,
    piece,
    region_grid,
    tito_game,
    tito_module,
    tito_region_points,
    tito_save_from_position,
    tito_unit,
    write_game,
    write_module,
)


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
    from plugin.awaw.facts import FACTS
    if name not in FACTS.by_name:
        return None
    return " ".join(_AWAW_FACT_WORDS.get(word, word.capitalize()) for word in name.split("-")), str


AWAW = HexGame(
    game="awaw",
    module_name="A World at War (Referee sample module)",
    version="1.0",
    map_name="Europe",
    board="Theatre",
    layout=HexLayout(h_off=1, v_off=1),
    columns=20,
    rows=34,
    cell=lambda hex_id: (int(hex_id[:2]) - 1, int(hex_id[2:]) - 1),
    attributes={
        "type": ("Type", _words),
        "builder": ("Builder", _words),
        "home": ("Home", _words),
        "owner": ("Owner", _words),
        "zoc": ("ZOC", _YES_NO),
        "placed-this-phase": ("Placed This Phase", _YES_NO),
    },
    position={"turn": ("Turn", str.title), "phase": ("Phase", _words), "phasing": ("Phasing", _words)},
    facts=_awaw_fact,
)


__all__ = [
    "AWAW",
    "HexGame",
    "HexLayout",
    "TWW",
    "NotExpressible",
    "TITO_MAIN_MAP",
    "TITO_MODULE_NAME",
    "TITO_MODULE_VERSION",
    "board_picker",
    "build_file",
    "global_property",
    "map_element",
    "piece",
    "region_grid",
    "tito_game",
    "tito_module",
    "tito_region_points",
    "tito_save_from_position",
    "tito_unit",
    "write_game",
    "write_module",
]
