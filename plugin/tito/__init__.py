"""Tito and His Partisan Army (SPI): the game's facts and encoded rules.

``facts`` holds the rulebook's facts as data, ``locations`` the places a map
file's zones and displays define, ``validation`` what makes a save unusable,
and the ``checks_*`` modules the rules, one small generator per case.
``DECISIONS`` says how Referee reads the cases the rulebook leaves open.
"""

from pathlib import Path

from validator.games import Game
from validator.rules import RuleSet

from plugin.tito import (
    checks_garrison,
    checks_guerrillas,
    checks_placement,
    checks_setup,
    checks_stacking,
    checks_victory,
    checks_zones,
    facts,
    moves,
)
from plugin.tito.decisions import DECISIONS
from plugin.tito.drafting import VOCABULARY
from plugin.tito.locations import prepare_map
from plugin.tito.unchecked import UNCHECKED
from plugin.tito.validation import validate_position


def draw_picture(position, report) -> str:
    """The position drawn as an SVG (``Game.picture``): the drawing code is imported by a page that shows one."""
    from plugin.tito.picture import picture as drawn

    return drawn(position, report)


def allowed_change(before, after, was, now):
    """What allows ``was`` to become ``now`` (``Game.allowed_change``, see :mod:`plugin.tito.changes`): imported
    by a chain's check, which asks, not by every check."""
    from plugin.tito.changes import allowed_change as allowed

    return allowed(before, after, was, now)


# The check modules in rulebook order, which is the order reports list their results.
CHECK_MODULES = (
    checks_placement,
    checks_stacking,
    checks_zones,
    checks_guerrillas,
    checks_garrison,
    checks_victory,
    checks_setup,
    moves,
)

game = Game(
    id="tito",
    title="Tito and His Partisan Army (SPI)",
    folder=Path(__file__).resolve().parent,
    rules=RuleSet.from_modules("tito", CHECK_MODULES),
    rulebook_files=("tito-rulebook.txt",),
    validate_position=validate_position,
    prepare_map=prepare_map,
    picture=draw_picture,
    picture_caption=(
        "Each zone's displays: Mountain triangles, Hide-away circles and boxes, each with its units and their "
        "division-equivalents. A place outlined in red breaks a rule; the number in its red badge is the "
        "violation's number above."
    ),
    decisions=DECISIONS,
    unchecked=UNCHECKED,
    phases=facts.PHASES,
    allowed_change=allowed_change,
    vocabulary=VOCABULARY,
)

__all__ = ("CHECK_MODULES", "DECISIONS", "game")
