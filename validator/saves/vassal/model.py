"""What a decoded VASSAL game looks like: plain frozen values, no behaviour.

Readers build these; checks and plugins only read them.  Player ids are never
kept: in VASSAL they are the players' secret passwords.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Protocol

from .commands import BoardPlacement, Command

_EMPTY: Mapping[str, str] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class Trait:
    """One decorator of a piece (or its BasicPiece, last): id prefix, own type and own state."""

    id: str
    type: str
    state: str


class TraitChain(Sequence[Trait]):
    """A piece's traits, outermost first, built when first asked for.

    A reader needs the few traits that give names and properties, which it
    reads straight from the type's plan; the full list of dozens of traits per
    piece is for the callers that look at it, and costs nothing until then.
    It compares equal to the same traits as a tuple.
    """

    __slots__ = ("_ids", "_types", "_states", "_traits")

    def __init__(self, ids: Sequence[str], own_types: Sequence[str], states: Sequence[str]) -> None:
        self._ids, self._types, self._states = ids, own_types, states
        self._traits: tuple[Trait, ...] | None = None

    def _built(self) -> tuple[Trait, ...]:
        if self._traits is None:
            states = list(self._states) + [""] * (len(self._ids) - len(self._states))
            self._traits = tuple(map(Trait, self._ids, self._types, states))
        return self._traits

    def __getitem__(self, index):
        return self._built()[index]

    def __len__(self) -> int:
        return len(self._ids)

    def __iter__(self) -> Iterator[Trait]:
        return iter(self._built())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, TraitChain):
            return self._built() == other._built()
        return isinstance(other, tuple) and self._built() == other

    def __hash__(self) -> int:
        return hash(self._built())

    def __repr__(self) -> str:
        return f"TraitChain({self._built()!r})"


class _LevelSource(Protocol):
    """What a Layer reads its level names from (``piece_types.LayerType``)."""

    @property
    def level_names(self) -> tuple[str, ...]: ...


@dataclass(frozen=True, slots=True)
class Layer:
    """An Embellishment ("Layer") trait: which of its named levels shows, if any."""

    name: str
    level: int
    """1-based level; kept even when inactive (VASSAL remembers it as a negative value)."""
    active: bool
    level_name: str
    levels: _LevelSource
    """The Layer's type, which reads its level names when asked: a Layer may name thousands of them."""

    @property
    def level_names(self) -> tuple[str, ...]:
        """Every level's name, in order (built when asked for, not kept)."""
        return self.levels.level_names


@dataclass(frozen=True, slots=True)
class Concealment:
    """Who may see through an engaged Mask (``obs;``) or Invisible (``hide;``) trait.

    VASSAL records who engaged it (``obscuredBy`` / ``hiddenBy``) and asks the
    trait's access rule whether the *current* player may see:

    * ``player`` (the default, ``PlayerAccess``): only the player who engaged
      it.  The save records that player's secret id; we keep only the side the
      roster gives that id (``owner_side``, ``None`` when the id is not in the
      roster).
    * ``side`` (``SideAccess``): players of the side that engaged it; the save
      records the side itself.
    * ``sides`` (``SpecifiedSideAccess``, ``sides:A:B``): players of any listed
      side, provided the side that engaged it is itself listed.
    """

    access: str
    """``"player"``, ``"side"`` or ``"sides"``."""
    owner_side: str | None
    sides: tuple[str, ...] = ()
    """The listed sides of a ``sides`` rule; empty otherwise."""

    def visible_to(self, side: str | None) -> bool:
        """Whether a player of ``side`` sees through it (``None``, a spectator, never does)."""
        if side is None or self.owner_side is None:
            return False
        if self.access == "sides":
            return self.owner_side in self.sides and side in self.sides
        return side == self.owner_side


@dataclass(frozen=True, slots=True)
class Piece:
    """A game piece where the save puts it: map ``None`` means on no map."""

    id: str
    name: str
    basic_name: str
    image: str
    map: str | None
    x: int
    y: int
    stack_id: str | None
    deck_id: str | None
    traits: Sequence[Trait]
    """Outermost first; the BasicPiece (``piece;``) is last."""
    properties: Mapping[str, str] = field(default_factory=lambda: _EMPTY)
    """Marker values, Dynamic Property values and BasicPiece persistent properties."""
    layers: tuple[Layer, ...] = ()
    masked: bool = False
    """A Mask (``obs;``) trait hides the piece from players other than its owner."""
    mask_name: str | None = None
    hidden: bool = False
    """An Invisible (``hide;``) trait hides the piece from players other than its owner."""
    mask: Concealment | None = None
    """Who sees through the mask, when ``masked``."""
    hide: Concealment | None = None
    """Who sees the piece, when ``hidden``."""


@dataclass(frozen=True, slots=True)
class Stack:
    """A VASSAL stack; ``piece_ids`` run bottom to top."""

    id: str
    map: str | None
    x: int
    y: int
    piece_ids: tuple[str, ...]
    layer: int | None = None


@dataclass(frozen=True, slots=True)
class Deck:
    """A deck (draw pile); ``piece_ids`` in the deck's own order."""

    id: str
    name: str
    map: str | None
    x: int
    y: int
    face_down: bool
    piece_ids: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Metadata:
    """The ``savedata`` or ``moduledata`` entry (any field may be missing)."""

    name: str | None = None
    version: str | None = None
    vassal_version: str | None = None
    date_saved: int | None = None
    """Milliseconds since the epoch."""
    description: str | None = None


@dataclass(frozen=True, slots=True)
class SavedGame:
    """One position: every piece, container, property and board layout at a moment."""

    source: str
    format: str
    """Generation of the ``savedGame`` entry: ``VCSK``, ``VOBS``, ``VOXZ`` or ``plain``."""
    pieces: tuple[Piece, ...]
    stacks: tuple[Stack, ...]
    decks: tuple[Deck, ...]
    global_properties: Mapping[str, str]
    """Module-level global properties (container ``Module`` or unnamed), by name."""
    map_properties: Mapping[str, Mapping[str, str]]
    """Global properties of maps and zones, by container id, then name."""
    boards: tuple[BoardPlacement, ...]
    players: tuple[tuple[str, str], ...] = ()
    """(name, side) for each roster entry; the secret player ids are dropped."""
    metadata: Metadata | None = None
    module_metadata: Metadata | None = None

    def piece(self, piece_id: str) -> Piece:
        for piece in self.pieces:
            if piece.id == piece_id:
                return piece
        raise KeyError(piece_id)


@dataclass(frozen=True, slots=True)
class LogStep:
    """One replay step of a .vlog: the leaf commands of one top-level ``LOG`` token."""

    index: int
    """1-based, as VASSAL's Step button counts."""
    commands: tuple[Command, ...]
    undo: bool = False
    """True when the step is a logged undo (its commands are the explicit inverses)."""
    chat: tuple[str, ...] = field(default=())
