"""Replaying commands the way VASSAL executes them, to reach a position.

A save is a list of commands that rebuild the game; a log is the same plus
steps.  This module keeps the mutable game state (pieces, stacks, decks,
properties, boards) and turns it into a frozen :class:`SavedGame` on demand.
Type and state strings stay raw until a snapshot needs them, so replaying a
long log costs little more than reading it.

Where a piece is follows the rule that holds in every real save: a piece
listed by a Stack or Deck is where that container is; otherwise its
BasicPiece state (or the last MovePiece) says.
"""

from __future__ import annotations

from types import MappingProxyType

from .commands import (AddPiece, BoardPlacement, ChangePiece, ChangeProperty, Command, MovePiece, OtherCommand,
                       RemovePiece, SetBoards, SetGlobalProperty)
from .errors import VassalFormatError
from .model import Deck, Metadata, Piece, SavedGame, Stack
from .pieces import (PieceChainError, PieceFacts, basic_state, deck_name, deck_state, innermost_state, parse_traits,
                     piece_facts, stack_state)
from .sequence import split

MODULE_CONTAINER = "Module"


class _PieceRecord:
    __slots__ = ("id", "type", "state", "position", "facts")

    def __init__(self, piece_id: str, type_string: str, state: str) -> None:
        self.id, self.type, self.state = piece_id, type_string, state
        self.position: tuple[str | None, int, int] | None = None   # None: derive from the state
        self.facts: tuple | None = None   # ((type, state), PieceFacts, traits)

    @property
    def stackable(self) -> bool:
        """Pieces with the "Does not stack" (``immob;``) trait never join a stack."""
        return not (self.type.startswith("immob;") or "\timmob;" in self.type)

    def own_position(self) -> tuple[str | None, int, int]:
        if self.position is None:
            state = basic_state(innermost_state(self.state)) if self.state else None
            self.position = (state.map, state.x, state.y) if state else (None, 0, 0)
        return self.position


class _Container:
    __slots__ = ("id", "kind", "name", "map", "x", "y", "children", "layer", "face_down", "type", "state")

    def __init__(self, container_id: str, kind: str) -> None:
        self.id, self.kind = container_id, kind
        self.name = ""
        self.map: str | None = None
        self.x = self.y = 0
        self.children: list[str] = []
        self.layer: int | None = None
        self.face_down = False


class GameState:
    """The game as a sequence of commands leaves it."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.pieces: dict[str, _PieceRecord] = {}
        self.containers: dict[str, _Container] = {}
        self.container_of: dict[str, str] = {}
        self.global_properties: dict[str, str] = {}
        self.map_properties: dict[str, dict[str, str]] = {}
        self.boards: dict[str, tuple[BoardPlacement, ...]] = {}
        self.players: dict[str, tuple[str, str]] = {}
        self._local_stacks = 0
        self._at: dict[tuple[str | None, int, int], list[str]] = {}   # container ids by exact position

    # -- commands ---------------------------------------------------------------------------------

    def apply(self, command: Command) -> None:
        kind = type(command)
        if kind is AddPiece:
            self._add(command)
        elif kind is ChangePiece:
            self._change(command)
        elif kind is MovePiece:
            self._move(command)
        elif kind is RemovePiece:
            self._remove(command.id)
        elif kind is SetGlobalProperty:
            self._set_property(command.container, command.name, command.value)
        elif kind is ChangeProperty:
            if command.new_value is not None:
                self._set_property(command.container, command.name, command.new_value)
        elif kind is SetBoards:
            self.boards[command.map] = command.boards
        elif kind is OtherCommand:
            self._other(command.text)

    def _set_property(self, container: str, name: str, value: str) -> None:
        if container in ("", MODULE_CONTAINER):
            self.global_properties[name] = value
        else:
            self.map_properties.setdefault(container, {})[name] = value

    def _other(self, text: str) -> None:
        if text.startswith("PLAYER\t"):
            tokens = split(text, "\t") + ["", "", ""]
            self.players[tokens[1]] = (tokens[2], tokens[3])
        elif text.startswith("PYREMOVE\t"):
            self.players.pop(split(text, "\t")[1] if "\t" in text else "", None)

    def _add(self, command: AddPiece) -> None:
        type_string = command.type
        if type_string == "stack" or type_string.startswith("deck;"):
            self.pieces.pop(command.id, None)
            container = self.containers.get(command.id)
            if container is None:
                container = _Container(command.id, "stack" if type_string == "stack" else "deck")
                self.containers[command.id] = container
            container.kind = "stack" if type_string == "stack" else "deck"
            container.name = deck_name(type_string) if container.kind == "deck" else ""
            self._set_container_state(container, command.state)
        elif type_string:
            self.containers.pop(command.id, None)
            self.pieces[command.id] = _PieceRecord(command.id, type_string, command.state)

    def _set_container_state(self, container: _Container, state: str) -> None:
        parsed = stack_state(state) if container.kind == "stack" else deck_state(state)
        self._place(container, parsed.map, parsed.x, parsed.y)
        container.layer, container.face_down = parsed.layer, parsed.face_down
        for old in container.children:
            if self.container_of.get(old) == container.id:
                del self.container_of[old]
        children = []
        for child in parsed.piece_ids:
            if child in self.pieces and child not in children:
                self._detach(child)
                self.container_of[child] = container.id
                children.append(child)
        container.children = children

    def _change(self, command: ChangePiece) -> None:
        container = self.containers.get(command.id)
        if container is not None:
            self._set_container_state(container, command.new_state)
            return
        record = self.pieces.get(command.id)
        if record is not None:
            record.state = command.new_state
            record.position = None
            record.facts = None

    def _place(self, container: _Container, map_id: str | None, x: int, y: int) -> None:
        old = self._at.get((container.map, container.x, container.y))
        if old is not None and container.id in old:
            old.remove(container.id)
        container.map, container.x, container.y = map_id, x, y
        if map_id is not None:
            self._at.setdefault((map_id, x, y), []).append(container.id)

    def _detach(self, piece_id: str) -> None:
        container_id = self.container_of.pop(piece_id, None)
        if container_id is not None:
            container = self.containers.get(container_id)
            if container is not None and piece_id in container.children:
                container.children.remove(piece_id)
                if not container.children and container.id.startswith("local-"):
                    # A stack we synthesised (no command can name it) dies with its last piece, as in VASSAL.
                    self._place(container, None, 0, 0)
                    del self.containers[container.id]

    def _remove(self, piece_id: str) -> None:
        container = self.containers.pop(piece_id, None)
        if container is not None:
            self._place(container, None, container.x, container.y)
            for child in container.children:
                self.container_of.pop(child, None)
                record = self.pieces.get(child)
                if record is not None:
                    record.position = (None, container.x, container.y)
            return
        self._detach(piece_id)
        self.pieces.pop(piece_id, None)

    def position_of(self, piece_id: str) -> tuple[str | None, int, int]:
        container_id = self.container_of.get(piece_id)
        if container_id is not None:
            container = self.containers[container_id]
            return container.map, container.x, container.y
        return self.pieces[piece_id].own_position()

    def _new_local_stack(self, map_id: str, x: int, y: int, children: list[str]) -> _Container:
        self._local_stacks += 1
        stack = _Container(f"local-{self._local_stacks}", "stack")
        self.containers[stack.id] = stack
        self._place(stack, map_id, x, y)
        for child in children:
            self._detach(child)
            self.container_of[child] = stack.id
            stack.children.append(child)
        return stack

    def _container_at(self, map_id: str, x: int, y: int, exclude: str) -> _Container | None:
        for container_id in self._at.get((map_id, x, y), ()):
            container = self.containers[container_id]
            if container_id != exclude and (container.children or container.kind == "deck"):
                return container
        return None

    def _move(self, command: MovePiece) -> None:
        moving_container = self.containers.get(command.id)
        if moving_container is not None:
            self._move_container(moving_container, command)
            return
        record = self.pieces.get(command.id)
        if record is None:
            return
        self._detach(command.id)
        target = (command.new_map, command.new_x, command.new_y)
        if command.new_map is None:
            record.position = target
            return
        under = command.new_under_id
        placed = False
        if under is not None and under in self.pieces and self.position_of(under) == target:
            container_id = self.container_of.get(under)
            if container_id is None:
                self._new_local_stack(command.new_map, command.new_x, command.new_y, [under])
                container_id = self.container_of[under]
            container = self.containers[container_id]
            container.children.insert(container.children.index(under) + 1, command.id)
            self.container_of[command.id] = container_id
            placed = True
        if not placed and record.stackable:
            container = self._container_at(command.new_map, command.new_x, command.new_y, exclude="")
            if container is not None:
                container.children.append(command.id)
                self.container_of[command.id] = container.id
                placed = True
        if not placed:
            record.position = target
            if record.stackable:
                self._new_local_stack(command.new_map, command.new_x, command.new_y, [command.id])
        if under is None:
            container_id = self.container_of.get(command.id)
            if container_id is not None:
                children = self.containers[container_id].children
                children.remove(command.id)
                children.insert(0, command.id)

    def _move_container(self, container: _Container, command: MovePiece) -> None:
        self._place(container, command.new_map, command.new_x, command.new_y)
        if command.new_map is None or container.kind != "stack":
            return
        target = self._container_at(command.new_map, command.new_x, command.new_y, exclude=container.id)
        if target is not None:
            for child in list(container.children):
                self.container_of[child] = target.id
                target.children.append(child)
            container.children = []

    # -- snapshot ---------------------------------------------------------------------------------

    def _facts(self, record: _PieceRecord) -> PieceFacts:
        key = (record.type, record.state)
        if record.facts is None or record.facts[0] != key:
            try:
                traits = parse_traits(record.type, record.state)
            except PieceChainError as error:
                raise VassalFormatError(self.source, f"piece {record.id}: {error}") from None
            record.facts = (key, piece_facts(traits), traits)
        return record.facts[1]

    def snapshot(self, *, format: str, metadata: Metadata | None = None,
                 module_metadata: Metadata | None = None) -> SavedGame:
        pieces = []
        for record in self.pieces.values():
            facts = self._facts(record)
            traits = record.facts[2]
            map_id, x, y = self.position_of(record.id)
            container_id = self.container_of.get(record.id)
            container = self.containers.get(container_id) if container_id else None
            pieces.append(Piece(
                id=record.id, name=facts.name, basic_name=facts.basic_name, image=facts.image,
                map=map_id, x=x, y=y,
                stack_id=container_id if container is not None and container.kind == "stack" else None,
                deck_id=container_id if container is not None and container.kind == "deck" else None,
                traits=traits, properties=facts.properties, layers=facts.layers,
                masked=facts.masked, mask_name=facts.mask_name, hidden=facts.hidden,
            ))
        stacks = tuple(Stack(c.id, c.map, c.x, c.y, tuple(c.children), c.layer)
                       for c in self.containers.values() if c.kind == "stack" and c.children)
        decks = tuple(Deck(c.id, c.name, c.map, c.x, c.y, c.face_down, tuple(c.children))
                      for c in self.containers.values() if c.kind == "deck")
        boards = tuple(board for placements in self.boards.values() for board in placements)
        return SavedGame(
            source=self.source, format=format, pieces=tuple(pieces), stacks=stacks, decks=decks,
            global_properties=MappingProxyType(dict(self.global_properties)),
            map_properties=MappingProxyType({k: MappingProxyType(dict(v)) for k, v in self.map_properties.items()}),
            boards=boards, players=tuple(self.players.values()),
            metadata=metadata, module_metadata=module_metadata,
        )
