"""A World at War's words for the VASSAL mapping draft and the map skeleton (``Game.vocabulary``).

A partisan has a builder instead of an owner, and a home country no module
names, so the draft lists the partisans' builders apart and leaves their
homes to the club.  The skeleton's hex table is the map's own, except that
its terrain is one of :data:`~plugin.awaw.vocabulary.TERRAINS`, and ``sea``
there makes the hex a sea hex, which is what the partisan rules read.
"""

from __future__ import annotations

from validator.facts import Attribute, AttributeTable, Word
from validator.vocabulary import Implied, KindNeeds, PieceWords, Vocabulary

from plugin.awaw.facts import FACTS, POSITION
from plugin.awaw.validation import AREA, HEX
from plugin.awaw.vocabulary import COUNTRY_NAMES, KIND_WORDS, LAND, NATION_WORDS, PARTISAN_TYPE, SEA, TERRAINS

SKELETON_HEX = AttributeTable(HEX.what, tuple(
    Attribute("terrain", Word(TERRAINS, name=f"a terrain the partisan rules tell apart ({', '.join(TERRAINS)})"))
    if attribute.name == "terrain" else attribute for attribute in HEX.attributes))

VOCABULARY = Vocabulary(
    kind=PieceWords("type", "piece-types", KIND_WORDS),
    attributes=(PieceWords("owner", "owners", NATION_WORDS, sources=("name", "folder"),
                           attribute_for_kind={PARTISAN_TYPE: ("builder", "partisan-builders")}),),
    kind_needs=(KindNeeds(PARTISAN_TYPE, "home", "partisan-homes",
                          "the module gives no partisan's home country: list each partisan by its VASSAL piece id "
                          "(referee vassal dump --format json shows the ids) with the country it was built in"),),
    position=POSITION,
    position_needed=("turn",),
    facts=FACTS,
    names={"game-turn": "turn"},
    hex_columns=("area", "features", "controller", "sea", "island", "terrain", "name"),
    area_columns=("part-of",),
    hexes=SKELETON_HEX,
    areas=AREA,
    implied=(Implied("terrain", SEA, "sea", "true"), Implied("terrain", LAND, "sea", "false")),
    known_areas=tuple(COUNTRY_NAMES),
    area_parent="part-of",
)
