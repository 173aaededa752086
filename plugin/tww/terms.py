"""The vocabulary of The Third World War saves: sides, terrain, phases, nations.

Nation ids are lower-case with hyphens (``west-germany``); the same id names
a country's area on the map and the ``nationality`` of its units.  The sets
below carry the facts of chapter 15 (which nations have territorial
reserves, which forces have limited abilities); the rivalry pairs are data in
``rivalry.toml``.
"""

from __future__ import annotations

from types import MappingProxyType

SIDES = ("nato", "pact")
SIDE_NAMES = MappingProxyType({"nato": "NATO", "pact": "Pact", "neutral": "neutral"})
ALIGNMENTS = SIDES + ("neutral",)  # what a unit or a nation may be committed to

# Terrain of a hex.  "clear" is the only clear terrain; every other value is
# non-clear.  "other" stands for any non-clear terrain the list does not name.
CLEAR = "clear"
WILDERNESS = "wilderness"
MOUNTAIN = "mountain"
MOUNTAIN_PASS = "mountain-pass"
TERRAINS = (CLEAR, WILDERNESS, MOUNTAIN, MOUNTAIN_PASS, "rough", "forest", "marsh", "desert", "urban", "other")

# Phases a save may name; limited abilities (15.3) and rivalry (15.4) speak of
# the first three.
MOVEMENT, COMBAT, REGROUP = "movement", "combat", "regroup"
PHASES = ("reinforcement", MOVEMENT, COMBAT, REGROUP, "air", "naval", "isolation", "administrative")
IMPULSES = ("first", "second", "reserve")
SUB_IMPULSES = ("first-echelon", "second-echelon")  # of the Pact first impulse

# Region and nation ids the partisan rules (15.2) name.
AFGHANISTAN, FINLAND, YUGOSLAVIA, KURDISTAN = "afghanistan", "finland", "yugoslavia", "kurdistan"

# 15.1: the countries with territorial reserves (alphabetical).
TERRITORIAL_NATIONS = frozenset(
    {"austria", "belgium", "denmark", "iraq", "netherlands", "sweden", "west-germany"}
)

# 15.3.3: the nations and factions whose forces have limited abilities (alphabetical).
LIMITED_FORCES = frozenset(
    {
        "afghanistan", "iranian-army", "iranian-communists", "iranian-revolutionary-guards", "iraq",
        "kurds", "kuwait", "mujahideen", "oman", "qatar", "saudi-arabia", "tudeh", "united-arab-emirates",
    }
)

# Unit types rivalry leaves alone (15.4.1.3 exempts air units) and that do not
# count as ground units.
AIR_TYPES = frozenset({"air"})
NON_GROUND_TYPES = AIR_TYPES | {"naval"}

YES, NO = "yes", "no"

# -- the words modules name pieces with ------------------------------------------

# The nation ids chapter 15 names (territorials, partisan countries, limited
# forces, the rivals of 15.4.2), those of the schematic map, and the two NATO
# powers every module has counters for (``united-states`` and ``britain``,
# common names hyphenated like the other ids), for the mapping
# draft (plugin/tww/drafting.py): a piece whose name or folder holds one (as
# words: "West Germany") is of that nation.
NATIONS = tuple(sorted(
    TERRITORIAL_NATIONS | LIMITED_FORCES | {AFGHANISTAN, FINLAND, YUGOSLAVIA}
    | {"greece", "iran", "israel", "jordan", "syria", "turkey", "soviet-union", "united-states", "britain"}
))
NATION_WORDS = MappingProxyType({
    **{nation: nation for nation in NATIONS},
    "wg": "west-germany", "frg": "west-germany", "ussr": "soviet-union", "soviet": "soviet-union",
    "sov": "soviet-union", "uae": "united-arab-emirates", "dutch": "netherlands",
    "us": "united-states", "usa": "united-states", "u-s": "united-states", "american": "united-states",
    "america": "united-states", "uk": "britain", "u-k": "britain", "british": "britain",
    "great-britain": "britain", "united-kingdom": "britain",
})
SIDE_WORDS = MappingProxyType({"nato": "nato", "pact": "pact", "warsaw-pact": "pact", "wp": "pact",
                               "neutral": "neutral", "neutrals": "neutral"})
# Unit types: "air" and "naval" are the ones chapter 15 tells apart (AIR_TYPES, NON_GROUND_TYPES).
KIND_WORDS = MappingProxyType({
    "inf": "infantry", "infantry": "infantry", "arm": "armor", "armor": "armor", "armour": "armor",
    "tank": "armor", "mech": "mechanized", "mechanized": "mechanized", "abn": "airborne", "airborne": "airborne",
    "para": "airborne", "air": "air", "naval": "naval", "fleet": "naval",
})


def side_name(side: str) -> str:
    return SIDE_NAMES.get(side, side)
