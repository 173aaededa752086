"""A World at War, chapters 11 (partisans) and 44 (intelligence): hex positions, force pools, placement, control, BRP losses.

The save format is documented in docs/save-format.md, section "A World at
War".  ``situation`` reads a position once for every check; the checks live
in ``pool_checks`` (11.22, 11.23, 44.32-44.37), ``construction`` (11.3),
``movement`` (11.42, 11.44), ``control`` (11.61-11.65) and ``economy``
(11.71); ``picture`` draws the map.
"""

from pathlib import Path

from validator.games import Game
from validator.rules import RuleSet

from plugin.awaw import construction, control, economy, map_data, movement, moves, picture, pool_checks
from plugin.awaw.decisions import DECISIONS
from plugin.awaw.drafting import VOCABULARY
from plugin.awaw.unchecked import UNCHECKED
from plugin.awaw.validation import prepare_map, validate_position

# The check modules in the order the report lists their results.
CHECK_MODULES = (pool_checks, construction, movement, control, economy, moves, map_data)


game = Game(
    id="awaw",
    title="A World at War: partisans (11) and intelligence (44)",
    folder=Path(__file__).resolve().parent,
    rules=RuleSet.from_modules("awaw", CHECK_MODULES),
    rulebook_files=("a-world-at-war-11-partisans.txt", "a-world-at-war-44-intelligence.txt"),
    validate_position=validate_position,
    prepare_map=prepare_map,
    picture=picture.picture,
    picture_caption=(
        "Hexes shaded by who controls them (the key is under the map), partisans as dark circles marked P. "
        "A hex outlined in red is named by a violation above; the hexes are not numbered."
    ),
    decisions=DECISIONS,
    unchecked=UNCHECKED,
    turn_order=moves.turn_order,
    vocabulary=VOCABULARY,
)
