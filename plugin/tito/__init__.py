"""Tito and His Partisan Army (SPI): the game's facts and encoded rules."""

from pathlib import Path

from validator.games import Game
from validator.rules import RuleSet

HERE = Path(__file__).resolve().parent

rules = RuleSet("tito")

game = Game(
    id="tito",
    title="Tito and His Partisan Army (SPI)",
    rulebook_files=("tito-rulebook.txt",),
    case_index_path=HERE / "cases.toml",
    rules=rules,
)
