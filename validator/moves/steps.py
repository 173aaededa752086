"""The moves a VASSAL log records: the position before and after each step an undo did not take back.

A log is the position when logging began followed by its steps (the VASSAL
reader's :class:`~validator.saves.vassal.reader.GameLog`).  A logged undo is
a step of its own holding the inverse of the step it takes back, so neither
the undone step nor the undo is a move: an undo takes back the latest step
not yet taken back, as VASSAL's Undo button does.  Every other step is a
move from the position after the step before it (undone or not: an undo
restores that position) to the position after it.

Positions are read the way a single VASSAL save is (the game's mapping, the
module, the side whose view is read), one step at a time, so a long log is
judged without holding all its positions.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property

from validator.errors import InputError
from validator.games import Game, get
from validator.intake import NO_GAME, NO_MODULE, Submission, mapping_for
from validator.model import Position
from validator.moves.diff import Difference, difference
from validator.saves.vassal.export import map_href_for
from validator.saves.vassal.mapping import Mapping
from validator.saves.vassal.model import LogStep, SavedGame
from validator.saves.vassal.module import Module, read_module
from validator.saves.vassal.positions import read_translation
from validator.saves.vassal.reader import GameLog, read_log
from validator.saves.vassal.sides import require_defined_side
from validator.saves.vassal.translation import translate
from validator.saves.xml_reader import folder_resolver


@dataclass(frozen=True)
class Step:
    """One move of a log: its 1-based index (as VASSAL's Step button counts) and the positions around it."""

    index: int
    difference: Difference

    @property
    def before(self) -> Position:
        return self.difference.before

    @property
    def after(self) -> Position:
        return self.difference.after


def taken_back(steps: tuple[LogStep, ...]) -> frozenset[int]:
    """The indices of the steps a later undo takes back, and of the undo steps themselves."""
    standing: list[int] = []
    gone: set[int] = set()
    for step in steps:
        if step.undo:
            gone.add(step.index)
            if standing:
                gone.add(standing.pop())
        else:
            standing.append(step.index)
    return frozenset(gone)


@dataclass(frozen=True)
class LogMoves:
    """A log read for judging: how many steps it has, which were taken back, and its moves one by one."""

    source: str
    game: Game
    log: GameLog
    module: Module
    mapping: Mapping
    submission: Submission

    @property
    def total(self) -> int:
        return len(self.log.steps)

    @property
    def undone(self) -> tuple[int, ...]:
        """The steps an undo took back (not the undo steps themselves), in order."""
        undo_steps = {step.index for step in self.log.steps if step.undo}
        return tuple(sorted(taken_back(self.log.steps) - undo_steps))

    @property
    def undo_steps(self) -> tuple[int, ...]:
        return tuple(step.index for step in self.log.steps if step.undo)

    @property
    def moves(self) -> int:
        return self.total - len(taken_back(self.log.steps))

    @cached_property
    def start(self) -> Position:
        """The position when logging began."""
        return self.position(self.log.initial)

    def steps(self) -> Iterator[Step]:
        """Each move in order; a step that changed nothing a position shows is left out."""
        gone = taken_back(self.log.steps)
        previous_saved: SavedGame = self.log.initial
        previous: Position | None = self.start
        for log_step, saved in self.log.positions():
            if log_step.index not in gone:
                before = previous if previous is not None else self.position(previous_saved)
                after = self.position(saved)
                change = difference(before, after)
                if not change.empty or change.position_changes:
                    yield Step(log_step.index, change)
                previous = after
            else:
                previous = None
            previous_saved = saved

    def position(self, saved: SavedGame) -> Position:
        submission = self.submission
        translation = translate(saved, self.module, self.mapping, self.game.id, viewer=submission.viewer,
                                arbiter=submission.arbiter)
        folder = self.mapping.map_path.parent
        return read_translation(translation, self.game, map_href_for(self.mapping, folder), folder_resolver(folder),
                                submission.limits)


def read_log_moves(submission: Submission) -> LogMoves:
    """The log the submission names, ready to be judged step by step; an :class:`InputError` when unusable."""
    if submission.game is None:
        raise InputError(submission.source, NO_GAME)
    if submission.module is None:
        raise InputError(submission.source, NO_MODULE)
    mapping = mapping_for(submission.game, submission.mapping)
    game = get(submission.game)
    module = read_module(submission.module, limits=submission.limits)
    save = io.BytesIO(submission.save) if isinstance(submission.save, bytes) else submission.save  # a web upload
    log = read_log(save, name=submission.source, limits=submission.limits)
    require_defined_side(submission.viewer, log.initial, mapping)
    return LogMoves(submission.source, game, log, module, mapping, submission)
