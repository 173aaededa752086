"""The Third World War, chapter 15 (special rules)."""

from pathlib import Path

from validator.games import Game
from validator.rules import RuleSet

HERE = Path(__file__).resolve().parent

rules = RuleSet("tww")

game = Game(
    id="tww",
    title="The Third World War: special rules (15)",
    rulebook_files=("third-world-war-15-special-rules.txt",),
    case_index_path=HERE / "cases.toml",
    rules=rules,
    fixups_path=HERE / "fixups.toml",
)
