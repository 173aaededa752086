"""The A World at War cases Referee knows it cannot decide, and what deciding them would need.

Each entry is keyed by the case and says, in our own words, what is missing:
a fact a save does not carry, or a rule of a chapter that is not imported.
The coverage listing (validator/coverage.py) shows them.
"""

from collections.abc import Mapping
from types import MappingProxyType

UNCHECKED: Mapping[str, str] = MappingProxyType({
    "11.352": (
        "The BRPs each power spent on partisans this turn and which of its builds were free; a save carries "
        "neither."
    ),
    "11.36": (
        "A way for a save to say that it is an opening set-up, and the scenario set-ups of other chapters; the "
        "construction checks judge only partisans the save marks as placed this phase."
    ),
    "11.44": (
        "The cooperation and support rules of chapters that are not imported; the check of 11.44 flags the stacks "
        "they would bind, as unchecked findings."
    ),
    "11.45": "The attrition combats of the turn and the attrition rules of other chapters; a save records no combat.",
    "11.46": "The attacks of the turn and the combat rules of chapter 15 (15.33C); a save records no combat.",
    "11.47": "The combat rules of other chapters, where the value is used; a save records no combat.",
    "11.48": "The winter rules of chapter 34 (34.43), where the preparation level is used.",
    "11.51": "The supply rules of chapter 30 (30.551B); partisans trace no supply, and a save records none.",
    "11.66": "The Suez canal rules of other chapters and the canal's state, which a save does not carry.",
    "44.34": (
        "The Indian National Army rules of chapter 72 and the India box, neither of which Referee models; the "
        "Indian partisans' own construction limits are checked under 11.341C and 11.353B."
    ),
})
