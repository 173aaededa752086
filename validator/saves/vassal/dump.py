"""A decoded save or log as plain data: the JSON of ``referee vassal dump`` and its text listing.

The JSON shape is a public contract, documented in ``docs/vassal-dump.md``
(``DUMP_VERSION`` changes only when a key changes meaning or goes away).

Fog of war.  A dump shows what one player may see, never more:

* ``viewer`` is the side the reader plays (a roster side such as ``"Axis"``),
  or ``None`` for a spectator, who sees through no mask and no invisibility;
* a masked piece (Mask, ``obs;``) the viewer may not see through keeps its id,
  place and stack but shows only its mask name: no real name, image or
  properties (``obscured`` is true);
* an invisible piece (Invisible, ``hide;``) the viewer may not see is left out
  entirely, also from the stack and deck lists;
* pieces inside a face-down deck are shown obscured to every viewer;
* ``arbiter=True`` shows everything, with the ``masked`` / ``hidden`` flags.

Who may see follows the trait's access rule (:class:`Concealment`).  VASSAL
decides it by comparing the *current* player with the one who engaged the
trait; a saved file does not say who is looking, so the caller names a side,
and under the default "player" rule every player of the engaging player's
side counts as that player (we cannot tell two players of one side apart
without their secret ids, which we never keep).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping
from typing import Any

from validator.limits import DEFAULT_LIMITS, Limits
from validator.privacy import scrubbed, without_addresses
from validator.wording import plural

from .commands import AddPiece, ChangePiece, ChangeProperty, MovePiece, RemovePiece, SetGlobalProperty
from .damage import damage_notes
from .model import Metadata, Piece, SavedGame
from .module import Module, read_module
from .reader import GameLog, open_save, read_final_state, stream_log
from .state import GameState
from .views import View, face_down_decks

DUMP_VERSION = 1
DEFAULT_MASK_NAME = "?"


def _entry(view: View, piece: Piece, boards, face_down: frozenset[str]) -> dict[str, Any] | None:
    """The piece as this viewer sees it, or ``None`` when it is invisible to them."""
    if not view.visible(piece):
        return None
    obscured = view.obscured(piece, face_down)
    entry: dict[str, Any] = {
        "id": piece.id,
        "name": (piece.mask_name or DEFAULT_MASK_NAME) if obscured else piece.name,
        "basic_name": None if obscured else piece.basic_name,
        "image": None if obscured else (piece.image or None),
        "map": piece.map,
        "x": piece.x,
        "y": piece.y,
        "location": view.location(piece, boards),
        "stack": piece.stack_id,
        "deck": piece.deck_id,
        "masked": piece.masked,
        "hidden": piece.hidden,
        "obscured": obscured,
        "properties": {} if obscured else dict(piece.properties),
    }
    if view.arbiter:
        entry["mask_name"] = piece.mask_name
        entry["mask_owner_side"] = piece.mask.owner_side if piece.mask else None
        entry["hidden_by_side"] = piece.hide.owner_side if piece.hide else None
    return entry


def _metadata(metadata: Metadata | None) -> dict[str, Any] | None:
    if metadata is None:
        return None
    return {"name": metadata.name, "version": metadata.version, "vassal_version": metadata.vassal_version,
            "date_saved": metadata.date_saved,
            "description": without_addresses(metadata.description) if metadata.description else metadata.description}


def _position(game: SavedGame, view: View) -> dict[str, Any]:
    face_down = face_down_decks(game)
    pieces = [entry for entry in (_entry(view, piece, game.boards, face_down) for piece in game.pieces)
              if entry is not None]
    shown = {entry["id"] for entry in pieces}
    stacks = [{"id": stack.id, "map": stack.map, "x": stack.x, "y": stack.y,
               "pieces": [piece_id for piece_id in stack.piece_ids if piece_id in shown]}
              for stack in game.stacks]
    decks = [{"id": deck.id, "name": deck.name, "map": deck.map, "x": deck.x, "y": deck.y,
              "face_down": deck.face_down,
              "pieces": [piece_id for piece_id in deck.piece_ids if piece_id in shown]}
             for deck in game.decks]
    return scrubbed({  # no e-mail address a player typed is shown (validator.privacy)
        "dump_version": DUMP_VERSION,
        "source": os.path.basename(game.source),
        "format": game.format,
        "viewer": view.viewer,
        "arbiter": view.arbiter,
        "metadata": {"save": _metadata(game.metadata), "module": _metadata(game.module_metadata)},
        "boards": [{"map": board.map, "board": board.board, "column": board.column, "row": board.row,
                    "reversed": board.reversed} for board in game.boards],
        "players": [{"side": side} for _, side in game.players],  # a player's name is personal data
        "global_properties": dict(game.global_properties),
        "map_properties": {container: dict(values) for container, values in game.map_properties.items()},
        "stacks": [stack for stack in stacks if stack["pieces"]],
        "decks": decks,
        "pieces": pieces,
    })


def dump_game(game: SavedGame, module: Module | None = None, *, viewer: str | None = None,
              arbiter: bool = False) -> dict[str, Any]:
    """One position as JSON-ready data (see docs/vassal-dump.md), as ``viewer`` may see it."""
    return _position(game, View(module, viewer, arbiter))


def _touched_ids(state, command) -> set[str]:
    """The pieces whose dump one command can change: the piece named, and everything in a named container."""
    kind = type(command)
    if kind not in (AddPiece, ChangePiece, MovePiece, RemovePiece):
        return set()
    ids = {command.id, *state.children_of(command.id)}
    if kind is MovePiece and command.new_under_id is not None:
        ids.add(command.new_under_id)       # it may be wrapped in a new stack
    return ids


class _StepChanges:
    """What one viewer has seen of each piece so far, to say what a step changed for them."""

    def __init__(self, view: View, state: GameState, initial: SavedGame) -> None:
        self.view, self.state = view, state
        face_down = face_down_decks(initial)
        self.seen: dict[str, dict[str, Any]] = {}
        for piece in initial.pieces:
            entry = _entry(view, piece, initial.boards, face_down)
            if entry is not None:
                self.seen[piece.id] = entry
        self.touched: set[str] = set()
        self.properties: dict[str, str] = {}

    def apply(self, commands) -> None:
        """Apply commands to the state, remembering the pieces and module properties they may change."""
        state, touched, properties = self.state, self.touched, self.properties
        for command in commands:
            touched |= _touched_ids(state, command)
            state.apply(command)
            touched |= _touched_ids(state, command)
            if type(command) is SetGlobalProperty and command.container in ("", "Module"):
                properties[command.name] = command.value
            elif type(command) is ChangeProperty and command.container in ("", "Module") \
                    and command.new_value is not None:
                properties[command.name] = command.new_value

    def step(self, index: int, undo: bool, chat) -> dict[str, Any]:
        """The step's dump: what the commands applied since the last step changed for this viewer."""
        state, view, seen = self.state, self.view, self.seen
        boards = tuple(board for placements in state.boards.values() for board in placements)
        face_down = frozenset(container.id for container in state.containers.values()
                              if container.kind == "deck" and container.face_down)
        added, changed, removed = [], [], []
        for piece_id in sorted(self.touched):
            piece = state.piece(piece_id)
            entry = None if piece is None else _entry(view, piece, boards, face_down)
            before = seen.get(piece_id)
            if entry is None:
                if before is not None:
                    removed.append(piece_id)
                    del seen[piece_id]
            elif before is None:
                added.append(entry)
                seen[piece_id] = entry
            elif entry != before:
                changed.append(entry)
                seen[piece_id] = entry
        properties, self.touched, self.properties = self.properties, set(), {}
        return scrubbed({"index": index, "undo": undo, "chat": list(chat),
                         "changes": {"added": added, "changed": changed, "removed": removed},
                         "global_properties": properties})


def iter_step_dumps(log: GameLog, module: Module | None = None, *, viewer: str | None = None,
                    arbiter: bool = False) -> Iterator[dict[str, Any]]:
    """Each log step as JSON-ready data: its flags, chat and the changes this viewer can see.

    Only the pieces a step's commands name (and the contents of containers
    they name) are looked at again, so a long log costs what its steps touch.
    """
    state = log.initial_state()
    changes = _StepChanges(View(module, viewer, arbiter), state, state.snapshot(format=log.format))
    for step in log.steps:
        changes.apply(step.commands)
        yield changes.step(step.index, step.undo, step.chat)


def iter_dump(path: str | os.PathLike[str], module_path: str | os.PathLike[str] | None = None, *,
              viewer: str | None = None, arbiter: bool = False,
              limits: Limits = DEFAULT_LIMITS) -> Iterator[dict[str, Any]]:
    """``dump --steps`` as it streams: the header (the position when logging began), then one object per step.

    The file is read as the objects are taken, one step at a time, so memory
    holds the position and the current step, never the whole log.  A group
    that is not a logged step but comes after the first one (VASSAL writes
    none) is applied, and its changes are reported with the next step.
    """
    module = read_module(module_path, limits=limits) if module_path is not None else None
    maps = frozenset(module.maps) if module is not None else None
    view = View(module, viewer, arbiter)
    with open_save(path, limits=limits) as archive:
        log = stream_log(archive, maps)
        state = log.state
        changes: _StepChanges | None = None
        for section in log.sections:
            if changes is None and section.step is None:
                for command in section.commands:
                    state.apply(command)
                continue
            if changes is None:
                initial = state.snapshot(format=log.format, metadata=log.metadata,
                                         module_metadata=log.module_metadata)
                yield _header(initial, view, state)
                changes = _StepChanges(view, state, initial)
            changes.apply(section.commands)
            if section.step is not None:
                yield changes.step(section.step.index, section.step.undo, section.step.chat)
        if changes is None:
            initial = state.snapshot(format=log.format, metadata=log.metadata, module_metadata=log.module_metadata)
            yield _header(initial, view, state)


def _header(game: SavedGame, view: View, state: GameState) -> dict[str, Any]:
    data = _position(game, view)
    data["position"] = "initial"
    data["notes"] = damage_notes(state, [entry["id"] for entry in data["pieces"]])
    return data


def dump_log(log: GameLog, module: Module | None = None, *, viewer: str | None = None,
             arbiter: bool = False) -> dict[str, Any]:
    """A log as JSON-ready data: the position when logging began, then ``steps`` of visible changes."""
    view = View(module, viewer, arbiter)
    state = log.initial_state()
    data = _header(state.snapshot(format=log.format), view, state)
    data["metadata"] = {"save": _metadata(log.metadata), "module": _metadata(log.module_metadata)}
    data["steps"] = list(iter_step_dumps(log, module, viewer=viewer, arbiter=arbiter))
    return data


def dump_file(path: str | os.PathLike[str], module_path: str | os.PathLike[str] | None = None, *,
              steps: bool = False, viewer: str | None = None, arbiter: bool = False,
              limits: Limits = DEFAULT_LIMITS) -> dict[str, Any]:
    """What ``referee vassal dump`` prints, as data; raises :class:`VassalFormatError` for unusable input.

    Without ``steps`` the position is the final one (a .vlog replayed to its
    end); with ``steps`` it is the position when logging began, plus the steps
    (all in memory: :func:`iter_dump` streams them instead).  With a module, a
    piece on a map the module does not define is on no map, as in VASSAL.
    """
    if steps:
        header, *step_dumps = iter_dump(path, module_path, viewer=viewer, arbiter=arbiter, limits=limits)
        header["steps"] = step_dumps
        return header
    module = read_module(module_path, limits=limits) if module_path is not None else None
    game, state = read_final_state(path, limits=limits, maps=frozenset(module.maps) if module is not None else None)
    data = dump_game(game, module, viewer=viewer, arbiter=arbiter)
    data["position"] = "final"
    data["notes"] = damage_notes(state, [entry["id"] for entry in data["pieces"]])
    return data


def render_json_line(data: Mapping[str, Any]) -> str:
    """One object of the ``--steps`` stream: JSON on a single line (JSON Lines), UTF-8 friendly."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"


def render_json(data: Mapping[str, Any]) -> str:
    """The dump as JSON text: UTF-8 friendly, two-space indent, keys in contract order."""
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


_TEXT_PROPERTIES = 4


def _flags(entry: Mapping[str, Any]) -> str:
    flags = [flag for flag in ("obscured", "masked", "hidden") if entry.get(flag)]
    return f" [{', '.join(flags)}]" if flags else ""


def _piece_line(entry: Mapping[str, Any]) -> str:
    where = entry["map"] if entry["map"] is not None else "(no map)"
    location = entry["location"] if entry["location"] is not None else f"({entry['x']},{entry['y']})"
    properties = list(entry["properties"].items())
    shown = ", ".join(f"{key}={value}" for key, value in properties[:_TEXT_PROPERTIES])
    if len(properties) > _TEXT_PROPERTIES:
        shown += f", ... {len(properties) - _TEXT_PROPERTIES} more"
    return f"{where} | {location} | {entry['name']}{_flags(entry)}" + (f" | {shown}" if shown else "")


def _sort_key(entry: Mapping[str, Any]) -> tuple:
    return (entry["map"] is None, entry["map"] or "", entry["location"] or "", entry["y"], entry["x"],
            entry["name"], entry["id"])


def _text_header(data: Mapping[str, Any]) -> list[str]:
    who = "arbiter (everything)" if data["arbiter"] else (
        f"side {data['viewer']}" if data["viewer"] is not None else "spectator")
    lines = [f"{data['source']}: {data['format']} save, {plural(len(data['pieces']), 'piece')} shown to {who}"
             + (f", position {data['position']}" if "position" in data else "")]
    lines += [f"note: {note['message']}" for note in data.get("notes", ())]
    lines += [_piece_line(entry) for entry in sorted(data["pieces"], key=_sort_key)]
    return lines


def _text_step(step: Mapping[str, Any]) -> list[str]:
    changes = step["changes"]
    lines = [f"step {step['index']}{' (undo)' if step['undo'] else ''}: "
             f"{len(changes['added'])} added, {len(changes['changed'])} changed, "
             f"{len(changes['removed'])} removed"]
    lines += [f"  chat: {line}" for line in step["chat"]]
    lines += [f"  + {_piece_line(entry)}" for entry in changes["added"]]
    lines += [f"  ~ {_piece_line(entry)}" for entry in changes["changed"]]
    lines += [f"  - {piece_id}" for piece_id in changes["removed"]]
    lines += [f"  property {name} = {value}" for name, value in step["global_properties"].items()]
    return lines


def render_text(data: Mapping[str, Any]) -> str:
    """A readable listing: a header, one line per piece (map | location | name | properties), then steps."""
    lines = _text_header(data)
    for step in data.get("steps", ()):
        lines += _text_step(step)
    return "\n".join(lines) + "\n"


def render_text_lines(objects: Iterator[Mapping[str, Any]]) -> Iterator[str]:
    """The text listing of :func:`iter_dump`'s stream, a piece of text per object as it comes."""
    for index, data in enumerate(objects):
        yield "\n".join(_text_header(data) if index == 0 else _text_step(data)) + "\n"


__all__ = ["DUMP_VERSION", "dump_file", "dump_game", "dump_log", "iter_dump", "iter_step_dumps", "render_json",
           "render_json_line", "render_text", "render_text_lines"]
