"""What one viewer may see of a decoded VASSAL game: the fog-of-war rules, piece by piece.

``viewer`` is the side the reader plays (a roster side such as ``"Axis"``),
or ``None`` for a spectator, who sees through no mask and no invisibility;
``arbiter`` sees everything.  An invisible piece (Invisible, ``hide;``) the
viewer may not see is not there for them at all; a masked piece (Mask,
``obs;``) the viewer may not see through, and any piece inside a face-down
deck, is *obscured*: its place is known, not what it is.  Who may see
follows the trait's access rule (:class:`~.model.Concealment`).

The dump (:mod:`.dump`) and the mapping (:mod:`.translation`) both ask
these questions, so a dumped piece and a checked piece are seen alike.
"""

from __future__ import annotations

from .locations import location_of
from .model import Concealment, Piece, SavedGame
from .module import Module


class View:
    """One viewer's sight of a game, and the module that names its locations (or none)."""

    def __init__(self, module: Module | None, viewer: str | None, arbiter: bool) -> None:
        self.module, self.viewer, self.arbiter = module, viewer, arbiter

    def sees_through(self, concealment: Concealment | None) -> bool:
        return self.arbiter or (concealment is not None and concealment.visible_to(self.viewer))

    def visible(self, piece: Piece) -> bool:
        """False for a piece invisible to this viewer: it is left out entirely."""
        return not piece.hidden or self.sees_through(piece.hide)

    def obscured(self, piece: Piece, face_down_decks: frozenset[str]) -> bool:
        """True when this viewer sees where the piece is but not what it is."""
        if self.arbiter:
            return False
        in_face_down_deck = piece.deck_id is not None and piece.deck_id in face_down_decks
        return (piece.masked and not self.sees_through(piece.mask)) or in_face_down_deck

    def location(self, piece: Piece, boards) -> str | None:
        """VASSAL's name for the piece's place, or None without a module or off every map."""
        if self.module is None or piece.map is None:
            return None
        return location_of(self.module, piece.map, piece.x, piece.y, boards)


def face_down_decks(game: SavedGame) -> frozenset[str]:
    """The ids of the game's face-down decks, whose pieces every player sees obscured."""
    return frozenset(deck.id for deck in game.decks if deck.face_down)
