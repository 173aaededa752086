"""Reading .vsav and .vlog files into positions and replay steps.

The pipeline, one job per module: :mod:`archive` streams the ``savedGame``
entry under a cap, :mod:`obfuscation` removes whichever generation of
obfuscation it has, :mod:`commands` splits the stream into commands, and
:mod:`state` replays them.  A .vlog is the restore section (the game when
logging began) followed by one step per top-level ``LOG`` token.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO

from validator.limits import DEFAULT_LIMITS, Limits

from .archive import Archive
from .commands import Chat, Command, OtherCommand, SaveMarker, UndoMarker, iter_command_groups, parse_leaf
from .errors import VassalFormatError
from .metadata import parse_metadata
from .model import LogStep, Metadata, SavedGame
from .obfuscation import decode_text, deobfuscate, detect_format
from .sequence import TooManyItems
from .state import GameState

SAVE_ENTRY = "savedGame"
_METADATA_CAP = 1024 * 1024

Source = str | os.PathLike[str] | BinaryIO


@dataclass(frozen=True, slots=True)
class Section:
    """One top-level token's commands: the restore section's part, or a log step."""

    commands: tuple[Command, ...]
    step: LogStep | None


def _open_save(source: Source, limits: Limits, name: str | None) -> Archive:
    archive = Archive(source, limits=limits, name=name)
    if not archive.has(SAVE_ENTRY):
        archive.close()
        raise VassalFormatError(archive.source, "has no savedGame entry, so it is not a VASSAL save or log")
    return archive


def _metadata(archive: Archive, entry: str) -> Metadata | None:
    if not archive.has(entry):
        return None
    return parse_metadata(archive.read(entry, cap=_METADATA_CAP), source=archive.source, entry=entry)


class _FormatProbe:
    """Remembers the first bytes of the entry so the generation can be reported."""

    def __init__(self, chunks: Iterator[bytes]) -> None:
        self._chunks, self.head = chunks, b""

    def __iter__(self) -> Iterator[bytes]:
        for chunk in self._chunks:
            if len(self.head) < 8:
                self.head += chunk[:8]
            yield chunk


def _text(archive: Archive, probe_holder: list) -> Iterator[str]:
    probe = _FormatProbe(archive.iter_chunks(SAVE_ENTRY))
    probe_holder.append(probe)
    text = decode_text(deobfuscate(probe, source=archive.source, entry=SAVE_ENTRY, limits=archive.limits))
    return _refusing_empty(text, archive.source, probe)


def _refusing_empty(text: Iterator[str], source: str, probe: _FormatProbe) -> Iterator[str]:
    """The entry's text, refused when there is none.

    VASSAL always writes commands, so an entry without any is a truncated or
    broken file; read on, it would replay into an empty position that breaks
    no rule and be reported as legal.
    """
    empty = True
    for chunk in text:
        empty = empty and not chunk
        yield chunk
    if empty:
        problem = "the entry is empty" if not probe.head else "the entry holds nothing after its header"
        raise VassalFormatError(source, f"{problem}, so the file holds no game", entry=SAVE_ENTRY)


def _groups(archive: Archive, probe_holder: list) -> Iterator[tuple[list[str], bool]]:
    """The entry's command groups, counted under the archive's limits, refused when none holds a command.

    "hello" or random bytes decode to leaves no VASSAL encoder claims; VASSAL
    would ignore them all and load an empty game, which breaks no rule and
    would be reported as legal.  A file VASSAL wrote always holds at least
    ``begin_save``, so a file without one command we know is not a game.
    """
    understood = began = False
    leaves_seen = 0
    for leaves, logged in iter_command_groups(_text(archive, probe_holder), limits=archive.limits,
                                              source=archive.source, entry=SAVE_ENTRY):
        if not understood:
            for leaf in leaves:
                leaves_seen += 1
                command = _parse(leaf, archive)
                if type(command) is SaveMarker and not command.end:  # a begin_save alone forms no game
                    began = True
                elif type(command) is not OtherCommand:
                    understood = True
                    break
        yield leaves, logged
    if not understood:
        found = ("it holds no command at all" if not leaves_seen else
                 "it holds a begin_save but no piece and no end_save" if began else
                 "its one command is not one VASSAL writes (no begin_save, no piece)" if leaves_seen == 1 else
                 f"none of its {leaves_seen:,} commands is one VASSAL writes (no begin_save, no piece)")
        raise VassalFormatError(archive.source, f"{found}, so it is not a saved game; save the game again in VASSAL "
                                                "and send that file", entry=SAVE_ENTRY)


def _parse(leaf: str, archive: Archive) -> Command | None:
    try:
        return parse_leaf(leaf, archive.limits.list_items)
    except TooManyItems as error:
        raise VassalFormatError(archive.source, f"a command {error}", entry=SAVE_ENTRY) from None


def _sections(archive: Archive, probe_holder: list) -> Iterator[Section]:
    step_index = 0
    for leaves, logged in _groups(archive, probe_holder):
        commands = [_parse(leaf, archive) for leaf in leaves]
        if logged:
            step_index += 1
            undo = any(type(command) is UndoMarker and command.active for command in commands)
            chat = tuple(command.text for command in commands if type(command) is Chat)
            step = LogStep(step_index, tuple(commands), undo, chat)
            yield Section(step.commands, step)
        else:
            yield Section(tuple(commands), None)


def _replay_into(state: GameState, archive: Archive, probe_holder: list) -> int:
    """Apply every leaf of the entry straight to ``state`` (no command objects); the number of log steps."""
    steps = 0
    apply_leaf = state.apply_leaf
    for leaves, logged in _groups(archive, probe_holder):
        for leaf in leaves:
            apply_leaf(leaf)
        steps += logged
    return steps


def iter_sections(source: Source, *, limits: Limits = DEFAULT_LIMITS, name: str | None = None) -> Iterator[Section]:
    """Stream every top-level command group of a save or log, restore section first.

    Nothing but the current group is held in memory, which is what lets a
    long log be replayed in bounded space.
    """
    with _open_save(source, limits, name) as archive:
        yield from _sections(archive, [])


@dataclass(frozen=True, slots=True)
class GameLog:
    """A .vlog: the position when logging began and the steps that follow it."""

    source: str
    format: str
    restore: tuple[Command, ...]
    steps: tuple[LogStep, ...]
    metadata: Metadata | None
    module_metadata: Metadata | None
    limits: Limits = DEFAULT_LIMITS
    """The limits it was read under, which replaying it keeps to."""
    maps: frozenset[str] | None = None
    """The module's map ids when one was given: a piece on any other map is on none."""

    def _state(self) -> GameState:
        state = GameState(self.source, self.limits, self.maps)
        for command in self.restore:
            state.apply(command)
        return state

    def initial_state(self) -> GameState:
        """A fresh, mutable replay state holding the restore section; apply steps' commands to move on."""
        return self._state()

    def _snapshot(self, state: GameState) -> SavedGame:
        return state.snapshot(format=self.format, metadata=self.metadata, module_metadata=self.module_metadata)

    @property
    def initial(self) -> SavedGame:
        """The position the restore section describes (the game when logging began)."""
        return self._snapshot(self._state())

    def positions(self) -> Iterator[tuple[LogStep, SavedGame]]:
        """Each step with the position right after it, replaying in order (undo steps included)."""
        state = self._state()
        for step in self.steps:
            for command in step.commands:
                state.apply(command)
            yield step, self._snapshot(state)

    @property
    def final(self) -> SavedGame:
        state = self._state()
        for step in self.steps:
            for command in step.commands:
                state.apply(command)
        return self._snapshot(state)


def read_log(source: Source, *, limits: Limits = DEFAULT_LIMITS, name: str | None = None,
             maps: frozenset[str] | None = None) -> GameLog:
    """A .vlog (or a .vsav, which is a log without steps) as restore commands plus steps."""
    with _open_save(source, limits, name) as archive:
        restore: list[Command] = []
        steps: list[LogStep] = []
        probes: list = []
        for section in _sections(archive, probes):
            if section.step is None:
                restore.extend(section.commands)
            else:
                steps.append(section.step)
        fmt = detect_format(probes[0].head)
        return GameLog(archive.source, fmt, tuple(restore), tuple(steps),
                       _metadata(archive, "savedata"), _metadata(archive, "moduledata"), archive.limits, maps)


def read_saved_game(source: Source, *, limits: Limits = DEFAULT_LIMITS, name: str | None = None,
                    maps: frozenset[str] | None = None) -> SavedGame:
    """The position a .vsav holds (for a .vlog: the position after its last step)."""
    return read_final_state(source, limits=limits, name=name, maps=maps)[0]


def read_final_state(source: Source, *, limits: Limits = DEFAULT_LIMITS, name: str | None = None,
                     maps: frozenset[str] | None = None) -> tuple[SavedGame, GameState]:
    """The final position and the replay state that reached it (which counts what VASSAL would not create)."""
    with _open_save(source, limits, name) as archive:
        state = GameState(archive.source, archive.limits, maps)
        probes: list = []
        _replay_into(state, archive, probes)
        game = state.snapshot(format=detect_format(probes[0].head), metadata=_metadata(archive, "savedata"),
                              module_metadata=_metadata(archive, "moduledata"))
        return game, state


@dataclass(frozen=True, slots=True)
class StreamedLog:
    """A log read as it streams: its source, format and metadata, then its sections one at a time."""

    source: str
    format: str
    metadata: Metadata | None
    module_metadata: Metadata | None
    state: GameState
    sections: Iterator[Section]
    """Each top-level group in file order; the caller applies them to ``state``."""


def stream_log(archive: Archive, maps: frozenset[str] | None = None) -> StreamedLog:
    """A log whose steps are read one by one, so memory holds the position and one step, never the whole log.

    ``archive`` must stay open while the sections are read.
    """
    probes: list = []
    sections = _sections(archive, probes)
    first = next(sections, None)
    fmt = detect_format(probes[0].head) if probes else "plain"

    def all_sections() -> Iterator[Section]:
        if first is not None:
            yield first
        yield from sections

    return StreamedLog(archive.source, fmt, _metadata(archive, "savedata"), _metadata(archive, "moduledata"),
                       GameState(archive.source, archive.limits, maps), all_sections())


def open_save(source: Source, *, limits: Limits = DEFAULT_LIMITS, name: str | None = None) -> Archive:
    """The save's archive, refused when it has no ``savedGame`` entry; close it (or use ``with``) when done."""
    return _open_save(source, limits, name)


def replay(source: Source, *, limits: Limits = DEFAULT_LIMITS, name: str | None = None,
           maps: frozenset[str] | None = None) -> tuple[GameState, int]:
    """Apply every command of a save or log in one streaming pass; the state and the step count.

    For very long logs where only the end matters: no step is kept.
    """
    with _open_save(source, limits, name) as archive:
        state = GameState(archive.source, archive.limits, maps)
        steps = _replay_into(state, archive, [])
        return state, steps


__all__ = ["GameLog", "Section", "StreamedLog", "iter_sections", "open_save", "read_final_state", "read_log",
           "read_saved_game", "replay", "stream_log", "SaveMarker"]
