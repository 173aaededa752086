"""The Third World War's words for the VASSAL mapping draft and the map skeleton (``Game.vocabulary``).

A unit needs its side (15.3 and 15.4 read it) and its nation: the draft
takes the side from a piece's name or palette folder (``NATO``, ``Pact``),
never from its nation, since a nation's side is the scenario's to say.
"""

from __future__ import annotations

from validator.vocabulary import PieceWords, Vocabulary

from plugin.tww.terms import KIND_WORDS, NATION_WORDS, SIDE_WORDS
from plugin.tww.validation import AREA, FACTS, HEX, POSITION

VOCABULARY = Vocabulary(
    kind=PieceWords("type", "unit-types", KIND_WORDS),
    attributes=(PieceWords("nationality", "nationalities", NATION_WORDS, sources=("name", "folder")),
                PieceWords("side", "sides", SIDE_WORDS, sources=("name", "folder"))),
    position=POSITION,
    position_needed=("turn",),
    facts=FACTS,
    names={"game-turn": "turn", "war-turn": "turn", "phasing-side": "phasing"},
    hex_columns=("area", "terrain", "city", "region"),
    area_columns=("kind", "side"),
    hexes=HEX,
    areas=AREA,
)
