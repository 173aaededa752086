"""How much of a VASSAL save the game's mapping resolved, as a stored report shows it.

A web check reads the save through the game's module mapping (see
:mod:`validator.saves.vassal.translation`): every piece the save places is
either translated to one of our pieces at one of our locations, or skipped for
a stated reason (off the map, masked from this viewer, a marker the mapping
ignores ...).  A piece the mapping cannot place or describe refuses the whole
save, so a stored report's unresolved counts are always zero; they are kept
under the names ``referee vassal mapping check`` uses (``pieces``,
``resolved``, ``unresolved``, ``skipped``, ``unresolved_pieces``,
``unresolved_locations``), so that a reader of either JSON finds them in the
same place.  ``locations_resolved`` counts the distinct locations the
resolved pieces stand at.

The counts come from the viewer's own translation, not from the command's
coverage, which reads every piece as the arbiter sees it: on the web that
would name pieces hidden from the viewer.  They are taken once, when the
report is made, and stored with the report JSON as ``mapping_coverage``.
"""

from __future__ import annotations

from validator.saves.vassal.translation import Translation


def of_translation(translation: Translation, mapping_name: str) -> dict:
    """Pieces and locations resolved, pieces skipped by reason, unresolved ones (none: they refuse the save).

    ``mapping_name`` is the mapping as the page may name it (never a path on the server).
    """
    skipped = {reason: count for reason, count in translation.skipped.items() if count}
    locations = {piece.location for piece in translation.pieces if piece.location is not None}
    return {
        "mapping": mapping_name,
        "pieces": len(translation.pieces) + sum(skipped.values()),
        "resolved": len(translation.pieces),
        "locations_resolved": len(locations),
        "unresolved": 0,
        "skipped": skipped,
        "unresolved_pieces": [],
        "unresolved_locations": [],
    }
