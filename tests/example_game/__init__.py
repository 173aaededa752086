"""Fen Patrol: the example game of docs/writing-a-game.md, registered by the tests as an outside pack.

Everything a game needs, at its smallest: a case index (``cases.toml``), one
check module with one check (``stacking``), a map (``maps/fen-map.xml``), a
picture (``picture``), and a rulebook of our own (``fen-patrol.txt``) to
import.  Its fixtures are in ``tests/fixtures/fen/``, run by the same
harness as every other game's.
"""

from pathlib import Path

from validator.games import Game
from validator.rules import RuleSet

from tests.example_game import picture, stacking

# The check modules, listed: registration never depends on what happens to be imported.
CHECK_MODULES = (stacking,)

game = Game(
    id="fen",
    title="Fen Patrol (an example game)",
    folder=Path(__file__).resolve().parent,
    rules=RuleSet.from_modules("fen", CHECK_MODULES),
    rulebook_files=("fen-patrol.txt",),
    picture=picture.picture,
    picture_caption=picture.CAPTION,
)
