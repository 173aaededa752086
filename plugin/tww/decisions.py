"""Where chapter 15 of The Third World War leaves a question open, the reading Referee's checks apply.

One paragraph per case, in our own words; the case page shows it beside the checks.
"""

from collections.abc import Mapping
from types import MappingProxyType

DECISIONS: Mapping[str, str] = MappingProxyType({
    "15.1.2": (
        "A territorial counts as newly arrived while the save lists it in an arrive event, that is in the phase it "
        "is placed; from then on only 15.1.3 binds it."
    ),
    "15.2": (
        "Any unit of the side standing in a hex reopens it; only units the save marks zoc=\"yes\" reopen the six hexes "
        "around them. The supply source's own hex must be open too. A nation with no war-entry fact has not entered "
        "the war. Only the partisans are applied to the path: rule 8's other limits (enemy units, enemy zones of "
        "control) are outside the text, so a unit with no path at all gets a warning, not a violation."
    ),
    "15.2.3": (
        "The Kurdish partisans' side and the parts of Kurdistan they hold come from the save (rule 20.3.7 is not in "
        "the text). Without them, paths that would cross Kurdish non-clear hexes are reported as unchecked."
    ),
    "15.3": (
        "A limited unit acts when it moves in a movement phase, attacks in a combat phase or regroups in a regroup "
        "phase; defending and retreating are not acting. Units of the nations and factions of 15.3.3 are limited "
        "whether or not the save marks them."
    ),
    "15.3.2": (
        "The regroup phase of the Pact first impulse is open to limited units whichever sub-impulse the save names; "
        "its movement and combat phases are open only in the first echelon."
    ),
    "15.4.1": (
        "Rivalry binds nations committed to the same side; rivals on opposite sides are simply enemies, and neutral "
        "units are not bound. The exemption of air units, printed under 15.4.1.3, is read as covering every item of "
        "15.4.1."
    ),
    "15.4.1.2": (
        "A unit may stay in a rival nation while the save records the forced retreat that put it there (an event "
        "this phase, or forced-retreat=\"yes\" carried on the piece). Leaving and coming back is not traced: the save "
        "should drop the marking when the unit leaves."
    ),
    "15.4.2": (
        "The list breaks off inside the name of the last Arab nation, read as the United Arab Emirates; the pairs "
        "printed after it are missing and can be added by a save or a setting. Iran here is the Islamic Republic "
        "government (nation id iran), not the Iranian factions."
    ),
})
