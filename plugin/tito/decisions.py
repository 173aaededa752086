"""Where the Tito rulebook leaves a question open, the reading Referee's checks apply.

Each entry is one paragraph in our own words, keyed by the case it belongs
to; the case page shows it beside the checks, and the checks' messages say
when a verdict rests on it.
"""

from collections.abc import Mapping
from types import MappingProxyType

DECISIONS: Mapping[str, str] = MappingProxyType({
    "5.4": (
        "Neutral Chetniks are controlled by neither player, so Referee expects them in the zone's Neutral Chetnik "
        "box and nowhere else, and expects that box to hold nothing but neutral Chetniks. A Chetnik stack whose "
        "collaboration roll has just made it neutral is assumed to have been moved there already."
    ),
    "6.13": (
        "Where pro-Axis Chetniks may stand is not spelled out in the text we have (7.24 is missing). Referee lets "
        "them stand in the Axis locations of a zone display and in the Axis box of an Objective Display, because "
        "they stack freely with Axis units (7.32) and share Objective Displays with pro-Yugoslav Chetniks "
        "(addendum 7.44E); and also in the Chetnik triangle and circle, where a collaboration roll may leave them. "
        "They never stand in Partisan locations or Yugoslav boxes."
    ),
    "6.15": (
        "Referee reads Yugoslav and Axis as the side a unit serves: Partisans, Soviets, pro-Yugoslav Chetniks and "
        "Bulgarians from Game-Turn 15 are Yugoslav; Germans, Italians, Croats, Serbians, earlier Bulgarians and "
        "pro-Axis Chetniks are Axis. The Partisan and Chetnik triangles and circles and the Yugoslav box are "
        "Yugoslav locations. Following the reading of 6.13, a pro-Axis Chetnik in the Chetnik triangle or circle "
        "is not in an enemy location. Neutral Chetniks belong to neither side and are judged by 5.4. A unit in "
        "an enemy location usually breaks 6.13 or 6.14 as well, and each case reports what it forbids."
    ),
    "6.21": (
        "The limit binds at the end of every Movement Phase, so Referee applies it to a position saved in any phase "
        "except while units may still be moving: the Yugoslav and Axis Movement Phases, the reaction segment of "
        "the Anti-Guerrilla Operations Phase (bonus moves) and the Italian Surrender Phase (Operation Konstantin). "
        "The set-up counts too, since Axis units cannot move before the first Yugoslav Movement Phase ends. Tito "
        "and markers add nothing; a guerrilla brigade counts one half like any brigade and a Partisan division one."
    ),
    "6.34": (
        "Pro-Axis Chetniks are held to the same bar as other Axis-controlled units: in the Axis Hide-away only when "
        "an Anti-Guerrilla Operation against that zone lists them. Their own Chetnik Hide-away stays open to them."
    ),
    "6.44": (
        "Bulgarian units are Axis through Game-Turn 14 and Yugoslav from Game-Turn 15 unless the piece's side says "
        "otherwise. Soviets and pro-Yugoslav Bulgarians are treated as Partisans for placement: Partisan triangle "
        "and circle, Yugoslav box, and never in a location holding Chetniks of any allegiance."
    ),
    "6.62": (
        "Cases 6.65 and 6.66, which the spheres refer to, are not in the text we have, so Croats are held to Bosnia "
        "and Croatia and Axis Bulgarians to Macedonia with no exceptions. The opening of the Italian sphere to "
        "Germans (6.64A) is treated as in force from the start of the Game-Turn after the one in which the 45 "
        "victory points or the first brigade were reached, so it also covers that turn's operations, whose units "
        "are chosen as if they moved. Units set aside for an operation are placed in the operation's zone."
    ),
    "7.51": (
        "The garrison is every German, Italian, Croat, Serbian and Axis Bulgarian unit in the zone, counted in "
        "division-equivalents; pro-Axis Chetniks and intrinsic defences (8.52) are left out. Units on an "
        "operation count for the operation's zone wherever they stand (7.54). The shortfall follows the worked "
        "example of 7.5: the garrison's fraction is dropped before subtracting, so 4 1/2 against 6 is short by 2."
    ),
    "7.61": (
        "Cases 7.64 to 7.68, which govern Partisan divisions, are not in the text we have. Referee therefore "
        "treats a Partisan division like a brigade: none before Partisan brigade-strength. Brigades may appear "
        "from the Guerrilla Status Phase of the Game-Turn in which brigade-strength is reached."
    ),
    "7.63": (
        "A position cannot show where a brigade was formed, so the save says it: a guerrilla-unit-formed event "
        "lists the units formed this Game-Turn. A listed unit standing in a Hide-away breaks the rule; a brigade "
        "in a Hide-away that no event lists is taken to have moved there."
    ),
    "10.21": (
        "Italians caught in a place the Pullback forbids must leave in the next Axis Movement Phase. Referee "
        "reports them as a warning until that phase of the Pullback's Game-Turn is over and as a violation after."
    ),
    "13.91": (
        "The Bulgarian 25th and 27th are recognised by their designation attribute. Referee confines them to the "
        "Axis boxes of Serbian displays labelled Bulgarian Occupation, or to Serbia's Axis triangle and circle "
        "while an operation against Serbia lists them, from the Game-Turn after the 45 points or first brigade."
    ),
    "14.2": (
        "Tito has no strength and is not counted as a unit when a Mountain's points are capped by its unit count. "
        "A display with an intrinsic defence scores only once the save records it eliminated. Following addendum "
        "7.44E, a display held by Chetniks scores nothing while pro-Axis Chetniks stand in its Axis box. Losses "
        "(14.3) are not computed."
    ),
})
