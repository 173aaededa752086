"""The Third World War, chapter 15 (special rules).

The checks live in one module per part of the chapter: territorials (15.1),
communications through partisan country (15.2), limited abilities (15.3) and
rivalry (15.4).  ``validation`` refuses saves the rules cannot use;
``picture`` draws the closed hexes, the units and the offending hexes.
"""

from pathlib import Path

from validator.games import Game
from validator.rules import RuleSet

from plugin.tww import communications, limited_abilities, moves, picture, rivalry, terms, territorials
from plugin.tww.decisions import DECISIONS
from plugin.tww.drafting import VOCABULARY
from plugin.tww.unchecked import UNCHECKED
from plugin.tww.validation import prepare_map, validate_position

# The check modules in chapter order, which is the order reports list their results.
CHECK_MODULES = (territorials, communications, limited_abilities, rivalry, moves)

game = Game(
    id="tww",
    title="The Third World War: special rules (15)",
    folder=Path(__file__).resolve().parent,
    rules=RuleSet.from_modules("tww", CHECK_MODULES),
    rulebook_files=("third-world-war-15-special-rules.txt",),
    validate_position=validate_position,
    prepare_map=prepare_map,
    picture=picture.picture,
    picture_caption=(
        "Hexes coloured by terrain, shaded red where closed to Pact and blue where closed to NATO communications "
        "(dashed where a missing fact decides), units as small counters in their side's colour; on maps of up "
        "to 3,000 hexes each hex is labelled with its id. A hex outlined in orange is named by a violation "
        "above; the outlines are not numbered."
    ),
    decisions=DECISIONS,
    unchecked=UNCHECKED,
    phases=terms.PHASES,
    vocabulary=VOCABULARY,
)
