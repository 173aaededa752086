"""Where chapters 11 and 44 leave a question open, the reading Referee's checks apply.

One paragraph per case, in our own words; the case page shows it beside the
checks, and docs/save-format.md repeats the list.
"""

from collections.abc import Mapping
from types import MappingProxyType

DECISIONS: Mapping[str, str] = MappingProxyType({
    "11.2": (
        "Partisans count against the pool of their home country (the piece's home attribute), wherever they stand, "
        "and only while on the map. Going over a pool is a violation whether or not a partisan was built this turn, "
        "except for the surplus 44.32B lets stand."
    ),
    "11.22": (
        "An a:b entry is read as a automatic and at most b. For the Western Allied and communist columns the "
        "partisans between a and b come from the faction-wide production results of 44.36 and 44.37, which may be "
        "spent in any eligible area; Referee checks each area against b and the faction's total above the automatic "
        "levels against its results. 44.32B lowers both numbers of the Russian row by one per result, at most three."
    ),
    "11.23": (
        "The Communist China footnote has no cap: the pool is 1 plus one for each year from 1942 to the current "
        "year. Ireland's Axis pool of 2 carries the footnote that it depends on the diplomatic result; the texts give "
        "no scale, so Referee uses 2 once 11.341B allows construction. Non-Axis partisans in the Middle East areas "
        "have no pool."
    ),
    "11.32A": (
        "'Europe' is read as the European theatre of the tables, the Middle East included; Siberia, China, Communist "
        "China, India and the Pacific minors are outside it. 'At war with the Axis' means at war with any Axis major "
        "power. Without an rgt fact a position that needs it gets an unchecked finding."
    ),
    "11.33": (
        "The conditions of 11.33A-D are checked when a partisan is built (placed-this-phase); 11.37 keeps partisans "
        "on the map after they stop holding. Surrender 'to the Allies' accepts a Western Allied or communist power, "
        "either Allied faction, or 'allies'."
    ),
    "11.341A": (
        "The limits on Persia, Lebanon/Syria and Arabia bind every Axis partisan standing there, built this turn or "
        "not, since the text covers operating there as well as building. Lebanon/Syria is Allied-controlled when the "
        "country-controller fact names an Allied power."
    ),
    "11.353B": (
        "The power the partisan works against is the regular controller of the hex it is placed in."
    ),
    "11.353D": (
        "'Enemy' means a power of the opposing side (the Axis against the Western Allies and Russia), so a hex held "
        "by a neutral, by nobody or by a friend is not eligible; 11.353B separately demands a state of war. Vacant "
        "means holding no piece except partisans of the same builder (enemy pieces are left to 11.353E)."
    ),
    "11.353E": (
        "A unit marked zoc='true' covers its own hex and the six around it; a unit whose ZoC the ZoC rules shape "
        "differently lists its hexes in zoc-hexes. When the save marks no ZoC at all and an enemy ground unit is "
        "next to a new partisan, the ZoC question is reported as unchecked."
    ),
    "11.42": (
        "A partisan's country is the map area of its hex, or the country that area is part of (eastern Poland and "
        "the Ukraine in Russia, Ulster in Britain, Corsica in France, Spanish Morocco in Spain). Sea hexes belong to "
        "no country."
    ),
    "11.61": (
        "The map and the control facts give each hex's regular controller, the one it reverts to when a partisan "
        "leaves. A control fact that names 'partisan' claims that a partisan holds the hex, and is checked."
    ),
    "11.63": (
        "A claimed objective count that exceeds the map's by no more than the partisan-held objectives of that power "
        "is a violation; any other difference is a warning, since it does not come from chapter 11."
    ),
    "11.64": (
        "Air units in a partisan-held city and naval units in a partisan-held port are reported under 11.62; air or "
        "naval units in any other partisan-held hex under 11.64."
    ),
    "11.71": (
        "'Enemy' is the opposing side, and the losing power must be a major power. A friendly non-partisan unit "
        "(ground, air or naval, of the partisan's side) cancels the loss whether it stands in one of the six hexes "
        "next to the partisan or in the partisan's own hex. Hexes off the edge "
        "of the map do not break the ring. For 11.71B a Persian partisan must be next to Abadan, Ahwaz or Tehran; "
        "standing in one of them is not enough, since the text says adjacent."
    ),
})
