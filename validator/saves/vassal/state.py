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

from collections.abc import Iterator
from types import MappingProxyType

from validator.limits import DEFAULT_LIMITS, Limits
from validator.recently_used import RecentlyUsed

from .commands import (
    AddPiece,
    BoardPlacement,
    ChangePiece,
    ChangeProperty,
    Command,
    MovePiece,
    OtherCommand,
    RemovePiece,
    SetBoards,
    SetGlobalProperty,
    add_fields,
    change_fields,
    move_fields,
    parse_leaf,
)
from .errors import VassalFormatError
from .model import Concealment, Deck, Metadata, Piece, SavedGame, Stack, TraitChain
from .piece_types import TYPE_CACHE_SIZE, PieceType, facts_of, parse_piece_type
from .pieces import (
    ContainerState,
    PieceChainError,
    PieceFacts,
    basic_state,
    chain_elements,
    chain_view,
    concealment,
    deck_name,
    deck_state,
    encode_chain,
    innermost_state,
    stack_state,
    trait_id,
)
from .sequence import TooManyItems, encode, java_int, leading, split

MODULE_CONTAINER = "Module"
_SHORT_STATE = 64
_KEPT_STACK_STATES = 1024
"""Stack states up to ``_SHORT_STATE`` characters are read once per replay, the first this many of them."""


def _coordinate(text: str) -> int:
    """``Integer.parseInt`` with default 0; up to nine ASCII digits is always a valid int, so skip the full rule."""
    return int(text) if len(text) < 10 and text.isascii() and text.isdigit() else java_int(text, 0)


def _created(type_string: str) -> bool:
    """Whether ``BasicCommandEncoder.createPiece`` makes a piece of this type (stacks and decks aside).

    A chain of two traits or more always gives one: an unknown trait id
    becomes a Marker and an innermost it cannot create a default BasicPiece.
    A type of one element gives a piece only as a BasicPiece (``piece;``);
    anything else makes ``createBasic`` return null, and the AddPiece adds
    nothing.
    """
    if type_string.startswith("piece;"):
        return True
    first_tab = type_string.find("\t")
    if first_tab < 0:
        return False
    if type_string[first_tab - 1] != "\\":     # an unescaped TAB: the chain has an inner element
        return True
    return len(chain_view(type_string, 2)) > 1


class _PieceRecord:
    __slots__ = ("id", "type", "state", "position", "facts", "_stackable")

    def __init__(self, piece_id: str, type_string: str, state: str) -> None:
        self.id, self.type, self.state = piece_id, type_string, state
        self.position: tuple[str | None, int, int] | None = None   # None: derive from the state
        self.facts: tuple | None = None   # ((type, state), PieceFacts, traits, state elements found)
        self._stackable: bool | None = None

    @property
    def stackable(self) -> bool:
        """Pieces with the "Does not stack" (``immob;``) trait never join a stack; only moves ask."""
        if self._stackable is None:
            self._stackable = not (self.type.startswith("immob;") or "\timmob;" in self.type)
        return self._stackable

    def own_position(self, known_map) -> tuple[str | None, int, int]:
        if self.position is None:
            state = basic_state(innermost_state(self.state)) if self.state else None
            self.position = (known_map(state.map), state.x, state.y) if state else (None, 0, 0)
        return self.position


class _Members:
    """The piece ids of a stack or deck, bottom first, each one once.

    A doubly linked list kept in two dicts: adding at either end or after a
    given piece, removing any piece and testing membership all take constant
    time, so a move onto a stack of thousands costs what a move onto an empty
    point does.
    """

    __slots__ = ("_after", "_before", "first", "last")

    def __init__(self) -> None:
        self._after: dict[str, str | None] = {}
        self._before: dict[str, str | None] = {}
        self.first: str | None = None
        self.last: str | None = None

    def __len__(self) -> int:
        return len(self._after)

    def __contains__(self, piece_id: str) -> bool:
        return piece_id in self._after

    def __iter__(self) -> Iterator[str]:
        after, current = self._after, self.first
        while current is not None:
            yield current
            current = after[current]

    def insert_after(self, anchor: str | None, piece_id: str) -> None:
        """Put ``piece_id`` just above ``anchor`` (another member); at the bottom when ``anchor`` is ``None``."""
        if piece_id in self._after:
            self.remove(piece_id)
        following = self.first if anchor is None else self._after[anchor]
        self._after[piece_id], self._before[piece_id] = following, anchor
        if anchor is None:
            self.first = piece_id
        else:
            self._after[anchor] = piece_id
        if following is None:
            self.last = piece_id
        else:
            self._before[following] = piece_id

    def append(self, piece_id: str) -> None:
        self.insert_after(self.last, piece_id)

    def remove(self, piece_id: str) -> None:
        following, anchor = self._after.pop(piece_id), self._before.pop(piece_id)
        if anchor is None:
            self.first = following
        else:
            self._after[anchor] = following
        if following is None:
            self.last = anchor
        else:
            self._before[following] = anchor


class _Container:
    __slots__ = ("id", "kind", "name", "map", "x", "y", "children", "layer", "face_down", "type", "state")

    def __init__(self, container_id: str, kind: str) -> None:
        self.id, self.kind = container_id, kind
        self.name = ""
        self.map: str | None = None
        self.x = self.y = 0
        self.children = _Members()
        self.layer: int | None = None
        self.face_down = False


class GameState:
    """The game as a sequence of commands leaves it."""

    def __init__(self, source: str, limits: Limits = DEFAULT_LIMITS, maps: frozenset[str] | None = None) -> None:
        """``maps``: the ids of the maps the module defines, when it is known; a piece on any other is on none."""
        self.source = source
        self.limits = limits
        self.maps = maps
        self.not_created: dict[str, int] = {}
        """AddPiece commands VASSAL would not create a piece for, by their type's first trait id."""
        self.pieces: dict[str, _PieceRecord] = {}
        self.containers: dict[str, _Container] = {}
        self.container_of: dict[str, str] = {}
        self.global_properties: dict[str, str] = {}
        self.map_properties: dict[str, dict[str, str]] = {}
        self.boards: dict[str, tuple[BoardPlacement, ...]] = {}
        self.players: dict[str, tuple[str, str]] = {}
        self._local_stacks = 0
        # Container ids by exact position, in the order they were put there: all of them, and those a
        # piece moved there would join (holding pieces, or a deck), so that finding one never walks
        # past empty stacks.
        self._at: dict[tuple[str | None, int, int], dict[str, None]] = {}
        self._joinable_at: dict[tuple[str | None, int, int], dict[str, None]] = {}
        self._types: RecentlyUsed[str, PieceType] = RecentlyUsed(TYPE_CACHE_SIZE)
        # Short stack states read before: a save's thousands of empty stacks mostly share one.
        self._stack_states: dict[str, ContainerState] = {}
        self._traits_read: dict[str, object] = {}
        """What the types' Layers, Text Labels and Markers said, by own type (see ``parse_piece_type``)."""

    def known_map(self, map_id: str | None) -> str | None:
        """The map id as VASSAL finds it: ``Map.getMapById`` gives null for a map the module does not define."""
        if map_id is None or self.maps is None or map_id in self.maps:
            return map_id
        return None

    # -- commands ---------------------------------------------------------------------------------

    def apply(self, command: Command) -> None:
        """Execute one typed command as VASSAL would; commands that change no position are ignored."""
        kind = type(command)
        if kind is MovePiece:
            self._move(command.id, command.new_map, command.new_x, command.new_y, command.new_under_id)
        elif kind is ChangePiece:
            self._change(command.id, command.new_state, command.old_state)
        elif kind is AddPiece:
            self._add(command.id, command.type, command.state)
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

    def apply_leaf(self, text: str) -> None:
        """Execute one leaf command string; the same effect as ``apply(parse_leaf(text))``, faster.

        The piece commands that make up nearly all of a long log go straight
        from their fields to the state, with no command object in between;
        fields without an escaped ``/`` or a quote are split with plain
        ``str.split``, which is then exactly what the SequenceEncoder rules give.
        """
        head = text[:2]
        if head == "M/":
            if "\\" in text or "'" in text:
                piece_id, new_map, new_x, new_y, new_under_id = move_fields(text)[:5]
            else:
                fields = text.split("/", 6)
                if len(fields) < 6:
                    fields += ["null"] * (6 - len(fields))
                piece_id, new_map, x_text, y_text, new_under_id = fields[1:6]
                new_x, new_y = _coordinate(x_text), _coordinate(y_text)
                new_map = None if new_map == "null" else new_map
                new_under_id = None if new_under_id == "null" else new_under_id
            self._move(piece_id, new_map, new_x, new_y, new_under_id)
        elif head == "D/":
            if "\\/" in text or "'" in text:
                piece_id, new_state, old_state = change_fields(text)
            else:
                after_id = text.find("/", 2)
                if after_id < 0:
                    piece_id, new_state, old_state = text[2:], "", None
                else:
                    end = text.find("/", after_id + 1)
                    piece_id = text[2:after_id]
                    new_state = text[after_id + 1:] if end < 0 else text[after_id + 1:end]
                    if end < 0:
                        old_state = None
                    else:
                        after_old = text.find("/", end + 1)
                        old_state = text[end + 1:] if after_old < 0 else text[end + 1:after_old]
            self._change(piece_id, new_state, old_state)
        elif head == "+/":
            self._add(*add_fields(text))
        elif head == "-/":
            self._remove(text[2:])
        elif head != "CH" or not text.startswith("CHAT"):
            try:
                command = parse_leaf(text, self.limits.list_items)
            except TooManyItems as error:
                raise VassalFormatError(self.source, f"a command {error}", entry="savedGame") from None
            if command is not None:
                self.apply(command)

    def _set_property(self, container: str, name: str, value: str) -> None:
        if container in ("", MODULE_CONTAINER):
            properties = self.global_properties
        else:
            properties = self.map_properties.get(container)
            if properties is None:
                self._count_item(self.map_properties, "maps with properties")
                properties = self.map_properties[container] = {}
        if name not in properties:
            self._count_item(properties, "properties")
        properties[name] = value

    def _count_item(self, held: dict, what: str) -> None:
        """Refuse a command that would make a list of the game (players, properties) longer than the limit."""
        if len(held) >= self.limits.list_items:
            raise VassalFormatError(self.source, f"its commands set {len(held) + 1:,} {what}, more than the "
                                                 f"list_items limit of {self.limits.list_items:,}", entry="savedGame")

    def _other(self, text: str) -> None:
        if text.startswith("PLAYER\t"):
            tokens = leading(text, "\t", 4) + ["", "", ""]
            if tokens[1] not in self.players:
                self._count_item(self.players, "players")
            self.players[tokens[1]] = (tokens[2], tokens[3])
        elif text.startswith("PYREMOVE\t"):
            self.players.pop(leading(text, "\t", 2)[1] if "\t" in text else "", None)

    def _add(self, piece_id: str, type_string: str, state: str) -> None:
        if type_string == "stack" or type_string.startswith("deck;"):
            self.pieces.pop(piece_id, None)
            container = self.containers.get(piece_id)
            if container is None:
                self._count_piece()
                container = _Container(piece_id, "stack" if type_string == "stack" else "deck")
                self.containers[piece_id] = container
            container.kind = "stack" if type_string == "stack" else "deck"
            container.name = deck_name(type_string) if container.kind == "deck" else ""
            self._set_container_state(container, state)
        elif not _created(type_string):
            first = trait_id(chain_elements(type_string, 1)[0]) if type_string else ""
            if first not in self.not_created:
                self._count_item(self.not_created, "kinds of piece type VASSAL would not create")
            self.not_created[first] = self.not_created.get(first, 0) + 1
        else:
            if piece_id in self.containers:
                self._remove(piece_id)      # a piece replacing a stack or deck of the same id
            if piece_id not in self.pieces:
                self._count_piece()
            self.pieces[piece_id] = _PieceRecord(piece_id, type_string, state)

    def _count_piece(self) -> None:
        """Refuse an AddPiece that would make more pieces, stacks and decks than the pieces limit allows."""
        held = len(self.pieces) + len(self.containers)
        if held >= self.limits.pieces:
            raise VassalFormatError(self.source, f"it adds {held + 1:,} pieces, stacks and decks, "
                                                 f"{self.limits.beyond('pieces')}", entry="savedGame")

    def _set_container_state(self, container: _Container, state: str) -> None:
        listed = state.count(";" if container.kind == "stack" else ",") - (2 if container.kind == "stack" else 0)
        if listed > self.limits.stack_members:
            raise VassalFormatError(self.source, f"the {container.kind} {container.id} lists {listed:,} pieces, "
                                                 f"{self.limits.beyond('stack_members')}", entry="savedGame")
        if container.kind == "stack":
            parsed = self._stack_states.get(state)
            if parsed is None:
                parsed = stack_state(state)
                if len(state) <= _SHORT_STATE and len(self._stack_states) < _KEPT_STACK_STATES:
                    self._stack_states[state] = parsed
        else:
            parsed = deck_state(state)
        if container.map is None and not container.children:
            self._set_unplaced_container_state(container, parsed)
            return
        self._place(container, self.known_map(parsed.map), parsed.x, parsed.y)
        container.layer, container.face_down = parsed.layer, parsed.face_down
        for old in container.children:
            if self.container_of.get(old) == container.id:
                del self.container_of[old]
        children = container.children = _Members()
        for child in parsed.piece_ids:
            if child in self.pieces and child not in children:
                self._detach(child)
                self.container_of[child] = container.id
                children.append(child)
        self._index_joinable(container)

    def _set_unplaced_container_state(self, container: _Container, parsed: ContainerState) -> None:
        """The state of a container on no map and holding nothing: every AddPiece of a save's stacks.

        Such a container is in neither position index (only placing it on a
        map puts it there), so placing it is setting its point and indexing
        it at the new one; the thousands of empty stacks of pre-3.7.13 saves
        cost no more than that.
        """
        map_id = self.known_map(parsed.map)
        container.map, container.x, container.y = map_id, parsed.x, parsed.y
        container.layer, container.face_down = parsed.layer, parsed.face_down
        key = (map_id, parsed.x, parsed.y)
        if map_id is not None:
            self._at.setdefault(key, {})[container.id] = None
        pieces, container_of, children = self.pieces, self.container_of, container.children
        for child in parsed.piece_ids:
            if child in pieces and child not in children:
                self._detach(child)
                container_of[child] = container.id
                children.append(child)
        if map_id is not None and (children or container.kind == "deck"):
            self._joinable_at.setdefault(key, {}).setdefault(container.id)

    def _change(self, piece_id: str, new_state: str, old_state: str | None = None) -> None:
        """``ChangePiece``: the new state whole without an old one, else merged as ``mergeState`` does."""
        record = self.pieces.get(piece_id)
        if record is not None:
            if old_state is not None and old_state != record.state:
                new_state = self._merged_piece_state(record, new_state, old_state)
            record.state = new_state
            record.position = None
            return
        container = self.containers.get(piece_id)
        if container is not None:
            if old_state is not None and container.kind == "stack":
                new_state = self._merged_stack_state(container, new_state, old_state)
            self._set_container_state(container, new_state)

    def _merged_piece_state(self, record: _PieceRecord, new_state: str, old_state: str) -> str:
        """The state ``Decorator.mergeState`` leaves: each trait takes its new state only where it differs from its old.

        Trait by trait, outermost first, a trait whose own state in the
        command's old state equals its own state in the new one keeps the
        state it has now; the BasicPiece's ``mergeState`` does the same with its
        whole state.  So a change made on another copy of the piece changes
        only the traits it changed.  (When the piece's state is the command's
        old state, the result is the new state, which the caller does without
        this.)
        """
        try:
            count = self.piece_type(record.type).trait_count
        except PieceChainError as error:
            raise VassalFormatError(self.source, f"piece {record.id}: {error}", entry="savedGame") from None
        levels = [chain_elements(state, count) for state in (new_state, old_state, record.state)]
        for elements in levels:
            elements += [""] * (count - len(elements))
        merged = [new if new != old else current for new, old, current in zip(*levels, strict=True)]
        return encode_chain(merged)

    def _merged_stack_state(self, container: _Container, new_state: str, old_state: str) -> str:
        """The state ``Stack.mergeState`` sets: the new one, plus the pieces the stack holds now that neither names.

        Such a piece goes just above the piece below it now, where the new
        state lists that one, and at the bottom otherwise.
        """
        new_tokens, old_tokens = split(new_state, ";"), split(old_state, ";")
        contents, old_contents = new_tokens[3:], set(old_tokens[3:])
        named = set(contents)
        below = None
        for child in container.children:
            if child not in named and child not in old_contents:
                index = contents.index(below) if below is not None and below in contents else -1
                contents.insert(index + 1, child)
                named.add(child)
            below = child
        return encode(new_tokens[:3] + contents, ";")

    def _place(self, container: _Container, map_id: str | None, x: int, y: int) -> None:
        key = (container.map, container.x, container.y)
        for index in (self._at, self._joinable_at):
            old = index.get(key)
            if old is not None and container.id in old:
                del old[container.id]
                if not old:
                    del index[key]      # an empty entry per visited point would grow with the log, not the game
        container.map, container.x, container.y = map_id, x, y
        if map_id is not None:
            self._at.setdefault((map_id, x, y), {})[container.id] = None
        self._index_joinable(container)

    def _index_joinable(self, container: _Container) -> None:
        """Keep ``container`` among the joinable ones at its point exactly while it holds pieces or is a deck.

        A container only becomes joinable again by being placed anew (a
        command that lists its pieces places it), so this index keeps the
        order of ``_at`` without its empty stacks.
        """
        key = (container.map, container.x, container.y)
        joinable = container.map is not None and (container.kind == "deck" or len(container.children) > 0)
        if joinable:
            self._joinable_at.setdefault(key, {}).setdefault(container.id)
            return
        present = self._joinable_at.get(key)
        if present is not None and container.id in present:
            del present[container.id]
            if not present:
                del self._joinable_at[key]

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
                elif not container.children:
                    self._index_joinable(container)

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
        return self.pieces[piece_id].own_position(self.known_map)

    def _new_local_stack(self, map_id: str, x: int, y: int, children: list[str]) -> _Container:
        self._local_stacks += 1
        stack = _Container(f"local-{self._local_stacks}", "stack")
        self.containers[stack.id] = stack
        self._place(stack, map_id, x, y)
        for child in children:
            self._detach(child)
            self.container_of[child] = stack.id
            stack.children.append(child)
        self._index_joinable(stack)
        return stack

    def _container_at(self, map_id: str, x: int, y: int, exclude: str) -> _Container | None:
        """The first container put at this point that holds pieces or is a deck, other than ``exclude``."""
        for container_id in self._joinable_at.get((map_id, x, y), ()):
            if container_id != exclude:
                return self.containers[container_id]
        return None

    def _move(self, piece_id: str, new_map: str | None, new_x: int, new_y: int, under: str | None) -> None:
        """``MovePiece``; a map the module does not define is no map (``Map.getMapById`` gives null)."""
        if self.maps is not None:
            new_map = self.known_map(new_map)
        moving_container = self.containers.get(piece_id)
        if moving_container is not None:
            self._move_container(moving_container, new_map, new_x, new_y)
            return
        record = self.pieces.get(piece_id)
        if record is None:
            return
        if under == piece_id:
            under = None                   # no piece goes on top of itself
        container_of = self.container_of
        if under is None and new_map is not None and record.stackable:
            # The common move in a long log: a piece alone in a stack of our own making goes to an
            # empty point.  VASSAL drops the old stack and wraps the piece in a new one there; moving
            # the stack along leaves the same position with less work.
            current = container_of.get(piece_id)
            if current is not None and current.startswith("local-"):
                target = (new_map, new_x, new_y)
                stack = self.containers[current]
                if target not in self._at and len(stack.children) == 1:
                    self._place(stack, new_map, new_x, new_y)
                    record.position = target
                    return
        self._detach(piece_id)
        if new_map is None:
            record.position = (None, new_x, new_y)
            return
        placed = False
        if under is not None and under in self.pieces and self.position_of(under) == (new_map, new_x, new_y):
            container_id = container_of.get(under)
            if container_id is None:
                self._new_local_stack(new_map, new_x, new_y, [under])
                container_id = container_of[under]
            container = self.containers[container_id]
            self._count_member(container)
            container.children.insert_after(under, piece_id)
            container_of[piece_id] = container_id
            placed = True
        if not placed and record.stackable:
            container = self._container_at(new_map, new_x, new_y, exclude="")
            if container is not None:
                self._count_member(container)
                container.children.append(piece_id)
                container_of[piece_id] = container.id
                placed = True
        if not placed:
            record.position = (new_map, new_x, new_y)
            if record.stackable:
                self._new_local_stack(new_map, new_x, new_y, [piece_id])
        if under is None:
            container_id = container_of.get(piece_id)
            if container_id is not None:
                children = self.containers[container_id].children
                if children.first != piece_id:
                    children.remove(piece_id)
                    children.insert_after(None, piece_id)

    def _count_member(self, container: _Container) -> None:
        """Refuse a move that would make a stack or deck hold more pieces than the limit allows."""
        if len(container.children) >= self.limits.stack_members:
            raise VassalFormatError(self.source, f"moves make the {container.kind} {container.id} hold "
                                                 f"{len(container.children) + 1:,} pieces, "
                                                 f"{self.limits.beyond('stack_members')}", entry="savedGame")

    def _move_container(self, container: _Container, new_map: str | None, new_x: int, new_y: int) -> None:
        self._place(container, new_map, new_x, new_y)
        if new_map is None or container.kind != "stack":
            return
        target = self._container_at(new_map, new_x, new_y, exclude=container.id)
        if target is not None:
            if len(target.children) + len(container.children) > self.limits.stack_members:
                raise VassalFormatError(self.source, f"a move makes the stack {target.id} hold "
                                                     f"{len(target.children) + len(container.children):,} pieces, "
                                                     f"{self.limits.beyond('stack_members')}", entry="savedGame")
            for child in container.children:
                self.container_of[child] = target.id
                target.children.append(child)
            container.children = _Members()
            self._index_joinable(container)

    # -- snapshot ---------------------------------------------------------------------------------

    def piece_type(self, type_string: str) -> PieceType:
        """The parsed plan of a type string, from this replay's cache when it was seen before."""
        piece_type = self._types.get(type_string)
        if piece_type is None:
            piece_type = parse_piece_type(type_string, self.limits.traits, self.limits.list_items, self._traits_read)
            self._types.put(type_string, piece_type)
        return piece_type

    def _facts(self, record: _PieceRecord) -> PieceFacts:
        key = (record.type, record.state)
        if record.facts is None or record.facts[0] != key:
            try:
                piece_type = self.piece_type(record.type)
                states = chain_view(record.state, piece_type.trait_count + 1)
                facts = facts_of(piece_type, states, self.limits.list_items)
            except PieceChainError as error:
                raise VassalFormatError(self.source, f"piece {record.id}: {error}") from None
            except TooManyItems as error:
                raise VassalFormatError(self.source, f"piece {record.id} {error}") from None
            if record.position is None:
                # The innermost state is the BasicPiece's when the chain has one element per trait; a
                # shorter chain is whole in the view, so its last element is the one own_position reads.
                found, traits = len(states), piece_type.trait_count
                if found == traits:
                    basic = facts.basic
                    record.position = (self.known_map(basic.map), basic.x, basic.y)
                elif found < traits and found <= DEFAULT_LIMITS.traits and record.id not in self.container_of:
                    basic = basic_state(states[-1]) if record.state else None
                    record.position = (self.known_map(basic.map), basic.x, basic.y) if basic else (None, 0, 0)
            record.facts = (key, facts, TraitChain(piece_type.ids, piece_type.own_types, states), len(states))
        return record.facts[1]

    def state_levels(self, piece_id: str) -> int:
        """How many elements the piece's state chain holds, counted up to one past its traits (read with its facts)."""
        record = self.pieces[piece_id]
        self._facts(record)
        return record.facts[3]

    def _roster_sides(self) -> dict[str, str]:
        return {player_id: side for player_id, (_, side) in self.players.items()}

    def _piece(self, record: _PieceRecord, roster_sides: dict[str, str]) -> Piece:
        facts = self._facts(record)
        traits = record.facts[2]
        map_id, x, y = self.position_of(record.id)
        container_id = self.container_of.get(record.id)
        container = self.containers.get(container_id) if container_id else None
        return Piece(
            id=record.id, name=facts.name, basic_name=facts.basic_name, image=facts.image,
            map=map_id, x=x, y=y,
            stack_id=container_id if container is not None and container.kind == "stack" else None,
            deck_id=container_id if container is not None and container.kind == "deck" else None,
            traits=traits, properties=facts.properties, layers=facts.layers,
            masked=facts.masked, mask_name=facts.mask_name, hidden=facts.hidden,
            mask=None if facts.mask_owner is None else self._concealment(record, facts.mask_owner, roster_sides),
            hide=None if facts.hide_owner is None else self._concealment(record, facts.hide_owner, roster_sides),
        )

    def _concealment(self, record: _PieceRecord, owner: tuple[str, str] | None,
                     roster_sides: dict[str, str]) -> Concealment | None:
        try:
            return concealment(owner, roster_sides, self.limits.list_items)
        except TooManyItems as error:
            raise VassalFormatError(self.source, f"piece {record.id} {error}") from None

    def piece(self, piece_id: str) -> Piece | None:
        """One piece as a snapshot would show it now, or ``None`` when no such piece exists."""
        record = self.pieces.get(piece_id)
        return None if record is None else self._piece(record, self._roster_sides())

    def children_of(self, container_id: str) -> tuple[str, ...]:
        """The piece ids a stack or deck holds now (bottom first); empty for anything else."""
        container = self.containers.get(container_id)
        return tuple(container.children) if container is not None else ()

    def snapshot(self, *, format: str, metadata: Metadata | None = None,
                 module_metadata: Metadata | None = None) -> SavedGame:
        roster_sides = self._roster_sides()
        pieces = [self._piece(record, roster_sides) for record in self.pieces.values()]
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
