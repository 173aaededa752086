"""Damage that still decodes, found where it shows, for the notes of ``referee vassal dump``.

A file that was cut, re-encoded or edited by hand often still reads: VASSAL
itself ignores what it cannot use.  The dump says what it found instead of
passing it on silently:

* ``control_characters``: a piece's name or state holds a control character
  (other than TAB, line feed and carriage return) -- text that was never
  typed, such as bytes of another encoding or of another file;
* ``replacement_characters``: a name or state holds U+FFFD, which is what
  bytes that are not UTF-8 decode to (VASSAL reads the entry the same way);
* ``broken_escapes``: a piece's state chain does not nest one level per trait
  of its type.  ``Decorator.getState`` writes exactly one state per trait,
  each escaped one backslash deeper, so a state with more or fewer levels
  lost or gained backslashes;
* ``not_created``: AddPiece commands whose type VASSAL's ``createPiece``
  makes nothing of (so they add nothing).

Commands VASSAL does not know are not damage: every encoder ignores what it
does not claim, and modules add their own.  Only pieces the viewer may see
are named, so a note never tells of a piece the fog of war hides.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from .pieces import PieceChainError
from .state import GameState

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_REPLACEMENT = "\ufffd"
LISTED_PIECES = 20
"""Piece ids a note names; the count says how many there are."""


def _note(kind: str, pieces: list[str], message: str) -> dict[str, Any]:
    return {"kind": kind, "count": len(pieces), "pieces": pieces[:LISTED_PIECES], "message": message}


def damage_notes(state: GameState, shown: Iterable[str]) -> list[dict[str, Any]]:
    """The notes for the pieces ``shown`` (ids) in ``state``, and for what its AddPiece commands did not create."""
    control, replacement, broken = [], [], []
    for piece_id in shown:
        record = state.pieces.get(piece_id)
        if record is None:
            continue
        piece = state.piece(piece_id)
        texts = (piece.name, piece.basic_name, record.state)
        if any(_CONTROL.search(text) for text in texts):
            control.append(piece_id)
        if any(_REPLACEMENT in text for text in texts):
            replacement.append(piece_id)
        try:
            traits = state.piece_type(record.type).trait_count
        except PieceChainError:
            continue
        if state.state_levels(piece_id) != traits:
            broken.append(piece_id)
    notes = []
    if control:
        notes.append(_note("control_characters", control, f"{len(control):,} piece(s) hold control characters in "
                                                           "their name or state: the file may be damaged."))
    if replacement:
        notes.append(_note("replacement_characters", replacement,
                           f"{len(replacement):,} piece(s) hold U+FFFD in their name or state: bytes that were "
                           "not UTF-8, so the file may be damaged."))
    if broken:
        notes.append(_note("broken_escapes", broken, f"{len(broken):,} piece(s) have a state whose nesting does "
                                                     "not match their traits: its escapes are broken."))
    not_created = sum(state.not_created.values())
    if not_created:
        kinds = ", ".join(f"'{kind}'" if kind else "an empty type" for kind in sorted(state.not_created))
        notes.append({"kind": "not_created", "count": not_created, "pieces": [],
                      "message": f"{not_created:,} AddPiece command(s) name a piece type VASSAL does not create "
                                 f"({kinds}), so they add nothing."})
    return notes
