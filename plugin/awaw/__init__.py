"""A World at War, chapters 11 (partisans) and 44 (intelligence): hex positions, force pools, placement, control, BRP losses.

The save format is documented in docs/save-format.md, section "A World at
War".  ``situation`` reads a position once for every check; the checks live
in ``pool_checks`` (11.22, 11.23, 44.32-44.37), ``construction`` (11.3),
``movement`` (11.42, 11.44), ``control`` (11.61-11.65) and ``economy``
(11.71); ``picture`` draws the map.
"""

from pathlib import Path

from validator.games import Game

# Imported for their checks, in the order the report lists them.
from plugin.awaw import pool_checks, construction, movement, control, economy  # noqa: F401, I001
from plugin.awaw.decisions import DECISIONS
from plugin.awaw.unchecked import UNCHECKED
from plugin.awaw.picture import picture
from plugin.awaw.ruleset import rules
from plugin.awaw.situation import situation as read_situation

HERE = Path(__file__).resolve().parent


def validate_position(position):
    """What makes an A World at War save unusable, as (line, problem) pairs for the reader (exit code 2)."""
    return read_situation(position).problems


game = Game(
    id="awaw",
    title="A World at War: partisans (11) and intelligence (44)",
    rulebook_files=("a-world-at-war-11-partisans.txt", "a-world-at-war-44-intelligence.txt"),
    case_index_path=HERE / "cases.toml",
    maps_folder=HERE / "maps",
    rules=rules,
    validate_position=validate_position,
    picture=picture,
    picture_caption=(
        "Hexes shaded by who controls them (the key is under the map), partisans as dark circles marked P. "
        "A hex outlined in red is named by a violation above; the hexes are not numbered."
    ),
    decisions=DECISIONS,
    unchecked=UNCHECKED,
)
