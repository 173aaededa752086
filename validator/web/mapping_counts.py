"""How much of a VASSAL save the game's mapping resolved, as a stored report shows it.

A web check reads the save through the game's module mapping (see
:mod:`validator.saves.vassal.translation`): every piece the save places is
either translated to one of our pieces at one of our locations, or skipped for
a stated reason (off the map, masked from this viewer, a marker the mapping
ignores ...).  A piece the mapping cannot place or describe refuses the whole
save, so a stored report's unresolved counts are empty by construction; they
are kept in the same shape as ``referee vassal mapping check`` reports them,
so that a reader of the JSON finds them where the command puts them.

The counts are taken from the translation itself, once, when the report is
made, and stored with the report JSON as ``mapping_coverage``.
"""

from __future__ import annotations

from validator.saves.vassal.translation import Translation


def of_translation(translation: Translation, mapping_name: str) -> dict:
    """Pieces and locations resolved, pieces skipped by reason, unresolved names by count.

    ``mapping_name`` is the mapping as the page may name it (never a path on the server).
    """
    locations = {piece.location for piece in translation.pieces if piece.location is not None}
    return {
        "mapping": mapping_name,
        "pieces_resolved": len(translation.pieces),
        "locations_resolved": len(locations),
        "skipped": {reason: count for reason, count in translation.skipped.items() if count},
        "unresolved_pieces": {},
        "unresolved_locations": {},
    }
