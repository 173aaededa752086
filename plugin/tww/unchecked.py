"""The Third World War cases Referee knows it cannot decide, and what deciding them would need.

Each entry is keyed by the case and says, in our own words, what is missing.
The coverage listing (validator/coverage.py) shows them.
"""

from collections.abc import Mapping
from types import MappingProxyType

UNCHECKED: Mapping[str, str] = MappingProxyType({
    "15.1.1": (
        "The die rolls for territorial arrivals, which a save does not record; where arriving territorials may "
        "stand is checked under 15.1.2."
    ),
})
