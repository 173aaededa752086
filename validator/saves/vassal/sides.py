"""The sides a viewer may name: those the save's roster, its masks, or the game's mapping define.

A viewer (``--viewer SIDE``) chooses whose fog of war applies.  A side that
nothing defines would quietly give a spectator's view (VASSAL compares side
names exactly), so it is refused, and the refusal lists the sides that exist:

* the sides of the save's player roster, in roster order;
* the sides its engaged Mask and Invisible traits name (side access records
  the side itself, ``sides:A:B`` lists sides), which still count after the
  player who engaged them left the roster;
* for ``check`` and ``export``, the module words of the game mapping's
  ``sides`` table (for Tito: Axis, Yugoslav and Neutral).
"""

from __future__ import annotations

from collections.abc import Iterator

from validator.quoting import quote

from .errors import VassalFormatError
from .mapping import Mapping
from .model import SavedGame

MAPPING_SIDES_TABLE = "sides"
LISTED = 20  # sides a refusal names at most


class UnknownSide(VassalFormatError):
    """The viewer names a side that neither the save nor the game's mapping defines."""


def defined_sides(game: SavedGame, mapping: Mapping | None = None) -> tuple[str, ...]:
    """Every side a viewer may name, each once, in the order of the list above."""
    return tuple(dict.fromkeys(side for side in _named_sides(game, mapping) if side))


def _named_sides(game: SavedGame, mapping: Mapping | None) -> Iterator[str]:
    yield from (side for _name, side in game.players)
    for piece in game.pieces:
        for concealment in (piece.mask, piece.hide):
            if concealment is not None:
                yield from (concealment.owner_side or "", *concealment.sides)
    if mapping is not None and MAPPING_SIDES_TABLE in mapping.tables:
        yield from mapping.tables[MAPPING_SIDES_TABLE].entries


def require_defined_side(viewer: str | None, game: SavedGame, mapping: Mapping | None = None) -> None:
    """Refuse a viewer side the save and mapping do not define; ``None`` (a spectator) always passes."""
    if viewer is None:
        return
    sides = defined_sides(game, mapping)
    if viewer in sides:
        return
    if not sides:
        where = "its player roster is empty and no mask names a side" if mapping is None else (
            "its player roster is empty, no mask names a side and the game's mapping lists none")
        raise UnknownSide(game.source, f"the save defines no side ({where}), so there is no side {quote(viewer)} "
                                       "to see as; leave the viewer out to see as a spectator")
    raise UnknownSide(game.source, f"there is no side {quote(viewer)}; {_listed(sides)} (names are matched "
                                   "exactly), so name one of them or leave the viewer out to see as a spectator")


def _listed(sides: tuple[str, ...]) -> str:
    quoted = [quote(side) for side in sides[:LISTED]]
    if len(sides) > LISTED:
        return f"the first {LISTED} of its {len(sides):,} sides are " + ", ".join(quoted)
    if len(quoted) == 1:
        return f"the only side is {quoted[0]}"
    return "the sides are " + ", ".join(quoted[:-1]) + " and " + quoted[-1]
