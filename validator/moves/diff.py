"""The difference between two positions of one game: pieces added, removed, moved and changed.

Pieces are matched by id, which our save XML states and a VASSAL reading
keeps from the VASSAL piece.  A piece is *moved* when its location differs
(off the map is the location ``None``), and *changed* when any other of its
values differs: the fields every piece has (``name``, ``side``,
``nationality``, ``type``, ``size``, ``strength``) and each game attribute,
named ``attribute:NAME``.  A piece can be both moved and changed.  The
position's own values (scenario, Game-Turn, phase, phasing side, facts) are
compared too, since a move check or a chain needs to know the turn went on.

The JSON shape (``Difference.to_json``) is a public contract, documented in
docs/cli.md.
"""

from __future__ import annotations

from dataclasses import dataclass

from validator.model import Piece, Position
from validator.wording import plural

PIECE_FIELDS = ("name", "side", "nationality", "type", "size", "strength")
POSITION_FIELDS = ("scenario", "turn", "phase", "phasing")
ATTRIBUTE_PREFIX = "attribute:"


@dataclass(frozen=True)
class Moved:
    """A piece standing somewhere else: ``start`` and ``end`` are location ids (``None``: off the map)."""

    before: Piece
    after: Piece

    @property
    def id(self) -> str:
        return self.after.id

    @property
    def start(self) -> str | None:
        return self.before.location

    @property
    def end(self) -> str | None:
        return self.after.location


@dataclass(frozen=True)
class Changed:
    """A piece whose values other than its location differ; ``values`` names each that does."""

    before: Piece
    after: Piece
    values: tuple[str, ...]

    @property
    def id(self) -> str:
        return self.after.id

    def value(self, piece: Piece, name: str) -> object:
        if name.startswith(ATTRIBUTE_PREFIX):
            return piece.attributes.get(name[len(ATTRIBUTE_PREFIX):])
        return getattr(piece, name)


@dataclass(frozen=True)
class Difference:
    """What turned ``before`` into ``after``, piece by piece, in the order the positions list their pieces."""

    before: Position
    after: Position
    added: tuple[Piece, ...]
    removed: tuple[Piece, ...]
    moved: tuple[Moved, ...]
    changed: tuple[Changed, ...]
    position_changes: tuple[str, ...]  # the names of POSITION_FIELDS that differ, then "facts" when they do
    # Where each piece stood when the history being judged began (a chain's or log's first position, a
    # reinforcement where it entered); a move check reads it with ``origin_of``.  None: ``before`` is the start.
    origin: Position | None = None

    def origin_of(self, piece_id: str) -> tuple[Position, Piece] | None:
        """The position and reading of a piece where the history began, or None when it was not in the game."""
        start = self.origin if self.origin is not None else self.before
        for piece in start.pieces:
            if piece.id == piece_id:
                return start, piece
        return None

    @property
    def empty(self) -> bool:
        return not (self.added or self.removed or self.moved or self.changed)

    def location_name(self, location: str | None) -> str:
        """A location as messages name it, on the map of whichever position has it."""
        if location is not None and location not in self.after.map.locations:
            return self.before.location_label(location)
        return self.after.location_label(location)

    def describe_move(self, move: Moved) -> str:
        """The move in words: "German 7th division from Serbia / Axis Mountain to Bosnia / Axis Mountain"."""
        return f"{move.after.name or move.id} from {self.location_name(move.start)} to {self.location_name(move.end)}"

    def summary(self) -> str:
        """One sentence counting what changed: "2 pieces moved, 1 added, none removed, none changed"."""
        if self.empty:
            return "no piece added, removed, moved or changed"
        counts = [(len(self.moved), "moved"), (len(self.added), "added"), (len(self.removed), "removed"),
                  (len(self.changed), "changed")]
        parts = [f"{plural(count, 'piece')} {verb}" for count, verb in counts if count]
        return ", ".join(parts)

    def to_json(self) -> dict:
        return {
            "before": _position_json(self.before),
            "after": _position_json(self.after),
            "position_changes": list(self.position_changes),
            "added": [self._piece_json(piece, self.after) for piece in self.added],
            "removed": [self._piece_json(piece, self.before) for piece in self.removed],
            "moved": [
                {"piece": move.id, "piece_name": move.after.name or move.id,
                 "from": move.start, "from_name": self.location_name(move.start),
                 "to": move.end, "to_name": self.location_name(move.end)}
                for move in self.moved
            ],
            "changed": [
                {"piece": change.id, "piece_name": change.after.name or change.id,
                 "values": {name: {"before": change.value(change.before, name),
                                   "after": change.value(change.after, name)} for name in change.values}}
                for change in self.changed
            ],
        }

    def to_text(self) -> str:
        lines = [f"{self.before.source} -> {self.after.source}: {self.summary()}."]
        for name in self.position_changes:
            if name == "facts":
                lines.append("  facts changed")
            else:
                was, now = getattr(self.before, name) or "(none)", getattr(self.after, name) or "(none)"
                lines.append(f"  {name}: {was} -> {now}")
        lines += [f"  moved   {self.describe_move(move)}" for move in self.moved]
        lines += [f"  added   {piece.name or piece.id} at {self.after.location_label(piece.location)}"
                  for piece in self.added]
        lines += [f"  removed {piece.name or piece.id} from {self.before.location_label(piece.location)}"
                  for piece in self.removed]
        for change in self.changed:
            values = "; ".join(f"{name} {change.value(change.before, name)!s} -> {change.value(change.after, name)!s}"
                               for name in change.values)
            lines.append(f"  changed {change.after.name or change.id}: {values}")
        return "\n".join(lines)

    @staticmethod
    def _piece_json(piece: Piece, position: Position) -> dict:
        return {"piece": piece.id, "piece_name": piece.name or piece.id, "location": piece.location,
                "location_name": position.location_label(piece.location)}


def difference(before: Position, after: Position) -> Difference:
    """Compare two positions; the caller decides whether they belong to one game (a chain says so)."""
    earlier = {piece.id: piece for piece in before.pieces}
    later_ids = {piece.id for piece in after.pieces}
    added, moved, changed = [], [], []
    for piece in after.pieces:
        old = earlier.get(piece.id)
        if old is None:
            added.append(piece)
            continue
        if old.location != piece.location:
            moved.append(Moved(old, piece))
        values = changed_values(old, piece)
        if values:
            changed.append(Changed(old, piece, values))
    removed = tuple(piece for piece in before.pieces if piece.id not in later_ids)
    position_changes = [name for name in POSITION_FIELDS if getattr(before, name) != getattr(after, name)]
    if dict(before.facts) != dict(after.facts):
        position_changes.append("facts")
    return Difference(before, after, tuple(added), removed, tuple(moved), tuple(changed), tuple(position_changes))


def changed_values(before: Piece, after: Piece) -> tuple[str, ...]:
    """The names of the values other than the location that differ between two readings of one piece."""
    names = [name for name in PIECE_FIELDS if getattr(before, name) != getattr(after, name)]
    for attribute in sorted(set(before.attributes) | set(after.attributes)):
        if before.attributes.get(attribute) != after.attributes.get(attribute):
            names.append(ATTRIBUTE_PREFIX + attribute)
    return tuple(names)


def _position_json(position: Position) -> dict:
    return {name: getattr(position, name) for name in ("source", "game", *POSITION_FIELDS)}
