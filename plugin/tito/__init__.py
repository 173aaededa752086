"""Tito and His Partisan Army (SPI): the game's facts and encoded rules.

``facts`` holds the rulebook's facts as data, ``locations`` the places a map
file's zones and displays define, ``validation`` what makes a save unusable,
and the ``checks_*`` modules the rules, one small generator per case.
``DECISIONS`` says how Referee reads the cases the rulebook leaves open.
"""

from pathlib import Path

from validator.games import Game
from validator.rules import RuleSet

from plugin.tito.decisions import DECISIONS
from plugin.tito.locations import prepare_map
from plugin.tito import picture
from plugin.tito.unchecked import UNCHECKED
from plugin.tito.validation import validate_position

HERE = Path(__file__).resolve().parent

rules = RuleSet("tito")

game = Game(
    id="tito",
    title="Tito and His Partisan Army (SPI)",
    rulebook_files=("tito-rulebook.txt",),
    case_index_path=HERE / "cases.toml",
    maps_folder=HERE / "maps",
    rules=rules,
    prepare_map=prepare_map,
    validate_position=validate_position,
    picture=picture.picture,
    picture_caption=(
        "Each zone's displays: Mountain triangles, Hide-away circles and boxes, each with its units and their "
        "division-equivalents. A place outlined in red breaks a rule; the number in its red badge is the "
        "violation's number above."
    ),
    decisions=DECISIONS,
    unchecked=UNCHECKED,
)

# The checks register themselves on ``rules`` when imported.
# Imported in rulebook order, which is the order reports list their results.
from plugin.tito import checks_placement  # noqa: E402,F401,I001
from plugin.tito import checks_stacking  # noqa: E402,F401
from plugin.tito import checks_zones  # noqa: E402,F401
from plugin.tito import checks_guerrillas  # noqa: E402,F401
from plugin.tito import checks_garrison  # noqa: E402,F401
from plugin.tito import checks_victory  # noqa: E402,F401
from plugin.tito import checks_setup  # noqa: E402,F401

__all__ = ["DECISIONS", "game", "rules"]
