"""The Tito cases Referee knows it cannot decide from a save, and what deciding them would need.

Each entry is keyed by the case and says, in our own words, what is missing;
the coverage listing (validator/coverage.py) shows it, so "legal" is never
read as covering these cases.
"""

from collections.abc import Mapping
from types import MappingProxyType

UNCHECKED: Mapping[str, str] = MappingProxyType({
    "14.3": (
        "Most losses depend on the Game-Turn's past, which a save does not hold: which Chetnik and Partisan units "
        "were on the map at the start of the preceding Yugoslav Movement Phase (14.3C, D) and which optional Soviet "
        "reinforcements were deployed in it (14.3F). The 14.2 tally therefore says losses are not computed."
    ),
    "15.3": (
        "The number on the secretly drawn Soviet counter (15.31) and a count of the Anti-Guerrilla Operations "
        "performed in earlier Game-Turns (15.32); a save records only this Game-Turn's operations."
    ),
})
