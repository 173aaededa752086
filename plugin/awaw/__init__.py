"""A World at War, chapters 11 (partisans) and 44 (intelligence)."""

from pathlib import Path

from validator.games import Game
from validator.rules import RuleSet

HERE = Path(__file__).resolve().parent

rules = RuleSet("awaw")

game = Game(
    id="awaw",
    title="A World at War: partisans (11) and intelligence (44)",
    rulebook_files=("a-world-at-war-11-partisans.txt", "a-world-at-war-44-intelligence.txt"),
    case_index_path=HERE / "cases.toml",
    rules=rules,
)
