"""The Third World War, chapter 15 (special rules).

The checks live in one module per part of the chapter: territorials (15.1),
communications through partisan country (15.2), limited abilities (15.3) and
rivalry (15.4).  ``validation`` refuses saves the rules cannot use;
``picture`` draws the closed hexes, the units and the offending hexes.
"""

from pathlib import Path

from validator.games import Game

# Importing the check modules registers their checks, in chapter order.
from plugin.tww import territorials  # noqa: F401
from plugin.tww import communications  # noqa: F401
from plugin.tww import limited_abilities  # noqa: F401
from plugin.tww import rivalry  # noqa: F401
from plugin.tww.decisions import DECISIONS
from plugin.tww.unchecked import UNCHECKED
from plugin.tww import picture
from plugin.tww.ruleset import rules
from plugin.tww.validation import prepare_map, validate_position

HERE = Path(__file__).resolve().parent

game = Game(
    id="tww",
    title="The Third World War: special rules (15)",
    rulebook_files=("third-world-war-15-special-rules.txt",),
    case_index_path=HERE / "cases.toml",
    maps_folder=HERE / "maps",
    rules=rules,
    fixups_path=HERE / "fixups.toml",
    prepare_map=prepare_map,
    validate_position=validate_position,
    picture=picture.picture,
    picture_caption=(
        "Hexes coloured by terrain, shaded red where closed to Pact and blue where closed to NATO communications "
        "(dashed where a missing fact decides), units as small counters in their side's colour. A hex outlined "
        "in orange is named by a violation above; the hexes are not numbered."
    ),
    decisions=DECISIONS,
    unchecked=UNCHECKED,
)
