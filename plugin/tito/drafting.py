"""Tito's words for the VASSAL mapping draft (``Game.vocabulary``): unit kinds, nationalities, sizes, facts.

A Tito unit needs its nationality (its side follows from it, 3.0) and its
size (what it counts toward stacking, 6.22): a piece whose names do not
give both is left out of the draft's check until the club says what it is.
"""

from __future__ import annotations

from validator.vocabulary import PieceWords, Vocabulary

from plugin.tito.units import KIND_WORDS, NATION_WORDS, SIZE_WORDS
from plugin.tito.validation import FACTS, POSITION

VOCABULARY = Vocabulary(
    kind=PieceWords("type", "unit-types", KIND_WORDS),
    attributes=(PieceWords("nationality", "nationalities", NATION_WORDS, sources=("name", "folder")),
                PieceWords("size", "sizes", SIZE_WORDS)),
    position=POSITION,
    position_needed=("turn",),
    facts=FACTS,
    names={"game-turn": "turn", "phasing-side": "phasing", "phasing-player": "phasing", "vp": "victory-points",
           "tito": "tito-state", "tito-status": "tito-state", "defences-eliminated": "intrinsic-defence-eliminated",
           "defenses-eliminated": "intrinsic-defence-eliminated"},
)
