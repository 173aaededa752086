"""The words an A World at War save uses: powers, factions, countries, unit types, hex features, terrain.

Every id here is what a save writes (lower case, hyphenated).  The lists are
facts of the game, not rulebook text: the major powers and their alliance
factions, the countries chapters 11 and 44 name, the Middle East grouping of
11.341A, and the kinds of counters 11.353E lists.  The words modules name
pieces with (``KIND_WORDS``, ``NATION_WORDS``) feed the mapping draft
through :mod:`plugin.awaw.drafting`.
"""

from __future__ import annotations

from types import MappingProxyType

# -- major powers and factions ------------------------------------------------

AXIS = "axis"
WESTERN_ALLIES = "western-allies"
COMMUNIST = "communist"
FACTIONS = (AXIS, WESTERN_ALLIES, COMMUNIST)
FACTION_NAMES = MappingProxyType({AXIS: "Axis", WESTERN_ALLIES: "Western Allied", COMMUNIST: "communist"})

# The two sides of the war: the Axis faction against the two Allied factions.
SIDE_OF_FACTION = MappingProxyType({AXIS: "axis", WESTERN_ALLIES: "allies", COMMUNIST: "allies"})
SIDES = ("axis", "allies")

MAJOR_POWERS = MappingProxyType({
    "germany": AXIS,
    "italy": AXIS,
    "japan": AXIS,
    "britain": WESTERN_ALLIES,
    "france": WESTERN_ALLIES,
    "usa": WESTERN_ALLIES,
    "china": WESTERN_ALLIES,  # Nationalist China
    "russia": COMMUNIST,
})
# Communist China is a minor country in the tables, but 11.352B has it build
# its own partisans, so it may be named as a builder (of the communist faction).
BUILDERS = MappingProxyType({**MAJOR_POWERS, "communist-china": COMMUNIST})
POWER_NAMES = MappingProxyType({
    "germany": "Germany", "italy": "Italy", "japan": "Japan", "britain": "Britain", "france": "France",
    "usa": "the U.S.", "china": "Nationalist China", "russia": "Russia", "communist-china": "Communist China",
})

# Who a hex may be controlled by, besides a builder: nobody at war, or nobody.
NEUTRAL = "neutral"
NOBODY = "none"
PARTISAN = "partisan"  # only as a claim in a save: "a partisan holds this hex"
CONTROLLER_WORDS = (NEUTRAL, NOBODY)

# -- countries ----------------------------------------------------------------

# Country ids a save uses for the places chapters 11 and 44 name.  A map may
# hold other areas (colonies, sea zones); partisans may not be built there.
MAJOR_COUNTRIES = MappingProxyType({
    "france": "France", "britain": "Britain", "russia": "Russia", "siberia": "Siberia", "italy": "Italy",
    "china": "China", "germany": "Germany", "japan": "Japan", "usa": "the U.S.",
})
MINOR_COUNTRIES = MappingProxyType({
    "belgium": "Belgium", "bulgaria": "Bulgaria", "denmark": "Denmark", "egypt": "Egypt", "finland": "Finland",
    "greece": "Greece", "hungary": "Hungary", "iraq": "Iraq", "kuwait": "Kuwait", "arabia": "Arabia",
    "transjordan": "Transjordan", "palestine": "Palestine", "lebanon-syria": "Lebanon/Syria",
    "ireland": "Ireland", "netherlands": "the Netherlands", "norway": "Norway", "persia": "Persia",
    "western-poland": "western Poland", "rumania": "Rumania", "spain": "Spain", "sweden": "Sweden",
    "turkey": "Turkey", "ukraine": "the Ukraine", "yugoslavia": "Yugoslavia",
    "communist-china": "Communist China", "dutch-east-indies": "the Dutch East Indies",
    "philippines": "the Philippines", "thailand": "Thailand",
})
# India is a British colony, but 11.341C gives Japan partisans there.
OTHER_COUNTRIES = MappingProxyType({"india": "India"})
COUNTRY_NAMES = MappingProxyType({**MAJOR_COUNTRIES, **MINOR_COUNTRIES, **OTHER_COUNTRIES})

# The three Middle East areas of 11.341A (and 44.35): Egypt, Persia, and Iraq
# with the five countries grouped with it, which count as one country for
# pools, the one-a-turn limit (11.353C) and movement (11.42).
IRAQ_GROUP = "iraq-group"
IRAQ_GROUP_COUNTRIES = ("iraq", "kuwait", "arabia", "transjordan", "palestine", "lebanon-syria")
MIDDLE_EAST_AREAS = MappingProxyType({
    "egypt": "Egypt", IRAQ_GROUP: "Iraq and its grouped countries", "persia": "Persia",
})

# Theatres, for 11.32A (Europe) and 11.355 (European Axis partisans); the
# tables of 11.22 and 11.23 place each country in one of them.
PACIFIC_COUNTRIES = frozenset(
    {"siberia", "china", "japan", "usa", "india", "communist-china", "dutch-east-indies", "philippines", "thailand"}
)


def theatre(country: str) -> str:
    """"europe" or "pacific" for a country the tables place; "europe" for the rest of the map."""
    return "pacific" if country in PACIFIC_COUNTRIES else "europe"


def pool_area(country: str) -> str:
    """The force-pool area a country's partisans count against: the country, or the Iraq group."""
    return IRAQ_GROUP if country in IRAQ_GROUP_COUNTRIES else country


def area_name(area: str) -> str:
    return MIDDLE_EAST_AREAS.get(area) or COUNTRY_NAMES.get(area) or area


# -- pieces -------------------------------------------------------------------

PARTISAN_TYPE = "partisan"
GROUND_TYPES = frozenset(
    {"ground", "infantry", "armor", "mechanized", "airborne", "marine", "militia", "replacement", "garrison"}
)
AIR_TYPES = frozenset({"air", "fighter", "bomber", "air-transport"})
NAVAL_TYPES = frozenset({"naval", "fleet", "carrier", "battleship", "cruiser", "destroyer", "submarine", "transport"})
# The counters 11.353E lists besides units.
INSTALLATION_TYPES = frozenset(
    {"airbase", "rocket-base", "bridgehead", "port-counter", "railhead", "ic", "fortification", "fortress"}
)
OTHER_TYPES = frozenset({"marker"})
PIECE_TYPES = GROUND_TYPES | AIR_TYPES | NAVAL_TYPES | INSTALLATION_TYPES | OTHER_TYPES | {PARTISAN_TYPE}

# -- hexes --------------------------------------------------------------------

FEATURES = (
    "city", "port", "capital", "objective", "key-economic-area", "ulster", "abadan", "ahwaz", "tehran",
)
PERSIAN_ROUTE_FEATURES = ("abadan", "ahwaz", "tehran")
SEASONS = ("winter", "spring", "summer", "fall")
CONSTRUCTION_PHASE = "unit-construction"

# Terrain, as chapters 11 and 44 tell it apart: a partisan may not move by sea
# (11.43), and sea hexes around a partisan count for 11.71; no rule of theirs
# reads any other terrain, so every land terrain is one word here.  A map
# skeleton's terrain column takes these, and "sea" there is a sea hex.
LAND, SEA = "land", "sea"
TERRAINS = (LAND, SEA)

# -- words modules name pieces with ---------------------------------------------

# Words (and abbreviations) a module's piece names and images use for a kind of
# counter; each value is one of PIECE_TYPES.
KIND_WORDS = MappingProxyType({
    "part": PARTISAN_TYPE, "partisan": PARTISAN_TYPE, "partisans": PARTISAN_TYPE,
    "inf": "infantry", "infantry": "infantry", "arm": "armor", "armor": "armor", "armour": "armor",
    "mech": "mechanized", "mechanized": "mechanized", "airborne": "airborne", "para": "airborne",
    "marine": "marine", "marines": "marine", "militia": "militia", "garrison": "garrison",
    "rep": "replacement", "repl": "replacement", "replacement": "replacement", "replacements": "replacement",
    "air": "air", "fighter": "fighter", "bomber": "bomber",
    "naval": "naval", "fleet": "fleet", "carrier": "carrier", "battleship": "battleship", "cruiser": "cruiser",
    "destroyer": "destroyer", "sub": "submarine", "submarine": "submarine", "transport": "transport",
    "airbase": "airbase", "bridgehead": "bridgehead", "bh": "bridgehead", "railhead": "railhead",
    "fortress": "fortress", "fortification": "fortification", "ic": "ic", "industrial": "ic",
})

# Words a module uses for a power that owns or builds pieces; each value is one of BUILDERS.
NATION_WORDS = MappingProxyType({
    "uk": "britain", "br": "britain", "brit": "britain", "britain": "britain", "british": "britain",
    "fr": "france", "france": "france", "french": "france",
    "ge": "germany", "ger": "germany", "germany": "germany", "german": "germany",
    "it": "italy", "ita": "italy", "italy": "italy", "italian": "italy",
    "ru": "russia", "rus": "russia", "russia": "russia", "russian": "russia", "ussr": "russia",
    "us": "usa", "usa": "usa", "american": "usa", "jp": "japan", "japan": "japan", "japanese": "japan",
    "communist-china": "communist-china", "nationalist-china": "china",
})
