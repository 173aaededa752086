"""A small game of our own ("pond") registered for the engine tests."""

from __future__ import annotations

import pytest

from validator import games
from validator.games import Game
from validator.rules import Finding, RuleSet, Violation, case


def build_pond_game(tmp_path) -> Game:
    folder = tmp_path / "pond"
    folder.mkdir()
    (folder / "cases.toml").write_text(
        '[cases]\n"2" = "Pads"\n"2.1" = "Crowding"\n"2.2" = "Herons"\n', encoding="utf-8"
    )

    @case("2.1")
    def crowded_pad(position):
        """A pad holds at most two frogs."""
        for location, pieces in position.stacks().items():
            frogs = [piece for piece in pieces if piece.type == "frog"]
            if len(frogs) > 2:
                yield Violation(f"{len(frogs)} frogs; the limit is 2", at(location), [frog.id for frog in frogs])

    @case("2.2")
    def heron_next_to_frog(position):
        """Herons are counted, and a heron on a frog's pad is reported under 2.2A."""
        herons = [piece for piece in position.pieces if piece.type == "heron"]
        yield Finding(f"{len(herons)} heron(s) on the map", facts={"herons": len(herons)})
        for heron in herons:
            if any(piece.type == "frog" for piece in position.pieces_at(heron.location)):
                yield Violation("a heron shares a pad with frogs", at(heron.location), [heron.id], case="2.2A")

    rules = RuleSet.from_functions("pond", [crowded_pad, heron_next_to_frog])
    return Game(id="pond", title="Pond", rulebook_files=("pond.txt",), folder=folder, rules=rules)


def at(location):
    return location


@pytest.fixture
def pond(tmp_path, monkeypatch):
    game = build_pond_game(tmp_path)
    monkeypatch.setitem(games.registry(), "pond", game)
    return game


MAP = """<map xmlns="urn:referee:save:1" id="pond-map">
  <area id="north" name="North Pond" neighbours="south">
    <location id="north/pad" name="Pad" kind="pad"/>
  </area>
  <area id="south" name="South Pond" neighbours="north">
    <location id="south/pad" name="Pad" kind="pad"/>
  </area>
</map>"""


def position_xml(pieces: str, map_part: str = '<map href="pond-map.xml"/>', extra: str = "", game: str = "pond") -> str:
    return f"""<?xml version="1.0"?>
<position xmlns="urn:referee:save:1" version="1" game="{game}" turn="3" phase="movement" phasing="frogs">
  <fact name="season" value="spring"/>{extra}
  {map_part}
  <pieces>
{pieces}
  </pieces>
</position>
"""


FROG = '    <piece id="{id}" name="Frog {id}" side="frogs" type="frog" location="{at}"/>'
HERON = '    <piece id="{id}" name="Heron {id}" side="herons" type="heron" location="{at}"/>'


@pytest.fixture
def write_save(tmp_path):
    (tmp_path / "pond-map.xml").write_text(MAP, encoding="utf-8")

    def write(text: str, name: str = "save.xml"):
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path

    return write
