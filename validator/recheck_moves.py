"""Re-judging a stored log or chain under the current Referee: which steps or saves changed verdict?

A log's record keeps its ``.vlog`` (and names its kept module); a chain's
keeps its saves in one uncompressed zip, entries numbered in playing order
(:func:`validator.web.chain_checks.zipped`).  :func:`judged_again` reads
those same bytes with today's readers (the zip entry by entry, streamed
under the ``entry_bytes`` cap, never extracted) and judges them as the
original check did, under the house rules the stored report was made under.
:class:`MovesRecheck` compares the stored verdict with the new one: the
verdict, the illegal steps or saves then and now, and each step or save
whose verdict or cases changed.  Nothing is stored.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from validator import games, intake, provenance
from validator.errors import InputError
from validator.house_rules import HouseRules
from validator.limits import Limits
from validator.saves.uploaded_maps import UploadedMap
from validator.stored_results import CHAIN, LOG

if TYPE_CHECKING:
    from validator.recheck import StoredCheck

def judged_again(stored: StoredCheck, limits: Limits, rules: HouseRules | None) -> dict:
    """The stored log or chain judged again: the JSON the current version would store (no pictures)."""
    if stored.report.get("kind") == LOG:
        return _log_again(stored, limits, rules)
    return _chain_again(stored, limits, rules)


def _log_again(stored: StoredCheck, limits: Limits, rules: HouseRules | None) -> dict:
    from validator.moves.steps import read_log_moves
    from validator.moves.verdicts import judge_log

    if stored.module_path is None or not stored.module_path.is_file():
        raise InputError(stored.source_name, "the module it was read with is no longer kept")
    game = games.get(stored.game)
    submission = intake.Submission(stored.save_path.read_bytes(), stored.source_name, game=game.id,
                                   module=stored.module_path, map=_uploaded_map(stored), viewer=stored.viewer,
                                   limits=limits)
    reading = intake.read_submission(submission)
    log = read_log_moves(submission)
    if log.total > limits.log_steps:
        raise InputError(stored.source_name, f"the log has {log.total:,} steps, {limits.beyond('log_steps')}")
    verdict = judge_log(log, house_rules=rules)
    checked_with = provenance.of_reading(game, submission, reading)
    return {"kind": LOG, **verdict.to_json(), "checked_with": checked_with.to_json()}


def _chain_again(stored: StoredCheck, limits: Limits, rules: HouseRules | None) -> dict:
    from validator.moves.verdicts import judge_chain

    game = games.get(stored.game)
    uploaded = _uploaded_map(stored)
    readings: list[tuple[intake.Submission, intake.Reading]] = []
    for data, name in stored_saves(stored, limits):
        vassal = intake.is_vassal_file(name, data)
        if vassal and (stored.module_path is None or not stored.module_path.is_file()):
            raise InputError(name, "the module the chain's VASSAL saves were read with is no longer kept")
        submission = (intake.Submission(data, name, game=game.id, module=stored.module_path, viewer=stored.viewer,
                                        limits=limits) if vassal
                      else intake.Submission(data, name, game=game.id, map=uploaded, limits=limits))
        readings.append((submission, intake.read_submission(submission)))
    verdict = judge_chain([reading.position for _, reading in readings], house_rules=rules)
    first = next(((submission, reading) for submission, reading in readings if submission.is_vassal), readings[0])
    return {"kind": CHAIN, **verdict.to_json(), "checked_with": provenance.of_reading(game, *first).to_json()}


def stored_saves(stored: StoredCheck, limits: Limits) -> list[tuple[bytes, str]]:
    """The chain's saves from its zip, in playing order, each named as the stored report names it."""
    from validator.saves.vassal.archive import Archive

    with Archive(stored.save_path, limits=limits, name=stored.source_name) as archive:
        entries = sorted(archive.names, key=_playing_order)
        if len(entries) > limits.chain_saves:
            raise InputError(stored.source_name, f"the chain holds {len(entries):,} saves, "
                                                 f"{limits.beyond('chain_saves')}")
        names = stored.report.get("saves")
        if not isinstance(names, list) or len(names) != len(entries):
            names = entries
        return [(b"".join(archive.iter_chunks(entry)), str(name)) for entry, name in zip(entries, names, strict=True)]


def _playing_order(entry: str) -> int:
    """An entry's number in the chain (``3.vsav``: 3); the zip is written numbered in playing order."""
    number = entry.partition(".")[0]
    return int(number) if number.isdecimal() else 0


def _uploaded_map(stored: StoredCheck) -> UploadedMap | None:
    if stored.map_uploaded and stored.map_path is not None and stored.map_path.is_file():
        return UploadedMap(stored.map_path.read_bytes(), stored.map_name or "map.xml")
    return None


@dataclass(frozen=True)
class MoveChange:
    """One step or save whose verdict or cases differ: its index, and legal and cases then and now."""

    index: int
    legal_then: bool
    legal_now: bool
    cases_then: tuple[str, ...]
    cases_now: tuple[str, ...]

    def to_json(self) -> dict:
        return {"index": self.index, "legal_then": self.legal_then, "legal_now": self.legal_now,
                "cases_then": list(self.cases_then), "cases_now": list(self.cases_now)}


def _cases(move: dict) -> tuple[str, ...]:
    """What a step or save broke: its violations' cases and its breaks' kinds (a rewind, another scenario)."""
    cases = {str(item.get("case")) for item in move.get("violations") or () if isinstance(item, dict)}
    cases |= {str(found.get("kind")) for found in move.get("breaks") or () if isinstance(found, dict)}
    return tuple(sorted(cases))


def _moves(report: dict) -> dict[int, dict]:
    held = report.get("steps" if report.get("kind") == LOG else "links")
    return {move["index"]: move for move in held if isinstance(move, dict) and isinstance(move.get("index"), int)} \
        if isinstance(held, list) else {}


@dataclass(frozen=True)
class MovesRecheck:
    """A stored log's or chain's verdict beside the one the current version gives on the same files."""

    then: dict
    now: dict
    judges_moves = True

    @property
    def noun(self) -> str:
        """What the moves page calls a judged move: a log's step, a chain's save."""
        return "step" if self.then.get("kind") == LOG else "save"

    @property
    def verdict_changed(self) -> bool:
        return bool(self.then.get("legal")) != bool(self.now.get("legal"))

    def illegal(self, report: dict) -> list[int]:
        """The indexes of the steps or saves the report holds illegal (a step not stored told nothing: legal)."""
        return sorted(index for index, move in _moves(report).items() if move.get("legal") is False)

    @property
    def illegal_then(self) -> list[int]:
        return self.illegal(self.then)

    @property
    def illegal_now(self) -> list[int]:
        return self.illegal(self.now)

    @property
    def changed(self) -> list[MoveChange]:
        """Every step or save whose verdict or broken cases differ between the stored report and now."""
        then, now = _moves(self.then), _moves(self.now)
        found = []
        for index in sorted(set(then) | set(now)):
            before, after = then.get(index, {}), now.get(index, {})
            change = MoveChange(index, before.get("legal") is not False, after.get("legal") is not False,
                                _cases(before), _cases(after))
            if (change.legal_then, change.cases_then) != (change.legal_now, change.cases_now):
                found.append(change)
        return found

    @property
    def start(self) -> MoveChange:
        """The position judging began from (index 0), judged then and now: its legality and cases."""
        then, now = self.then.get("start") or {}, self.now.get("start") or {}
        return MoveChange(0, bool(then.get("legal", True)), bool(now.get("legal", True)), _cases(then), _cases(now))

    @property
    def start_changed(self) -> bool:
        start = self.start
        return (start.legal_then, start.cases_then) != (start.legal_now, start.cases_now)

    def sentence(self) -> str:
        then = "legal" if self.then.get("legal") else "illegal"
        now = "legal" if self.now.get("legal") else "illegal"
        what = "log" if self.noun == "step" else "chain"
        counts = (f"{_counted(len(self.illegal_then), self.noun)} then, {_counted(len(self.illegal_now), self.noun)} "
                  "now")
        if self.verdict_changed:
            return f"The verdict changed: the {what} was {then} and is {now} under the current version ({counts})."
        if self.changed or self.start_changed:
            moved = len(self.changed)
            return (f"The verdict stands ({now}), but {moved} {self.noun}{'' if moved == 1 else 's'} changed verdict "
                    f"or cases{' and the start is judged otherwise' if self.start_changed else ''} ({counts}).")
        return f"The verdict stands: the {what} is {now} under the current version, every {self.noun} as before."

    def to_json(self) -> dict:
        start = self.start.to_json()
        del start["index"]
        return {"kind": self.then.get("kind"), "verdict_changed": self.verdict_changed,
                "legal_then": bool(self.then.get("legal")), "legal_now": bool(self.now.get("legal")),
                "illegal_then": self.illegal_then, "illegal_now": self.illegal_now, "start": start,
                "changed": [change.to_json() for change in self.changed],
                "checked_with_then": self.then.get("checked_with"), "checked_with_now": self.now.get("checked_with"),
                "sentence": self.sentence()}


def _counted(count: int, noun: str) -> str:
    """``2 illegal steps`` for a log, ``1 failing save`` for a chain (a save not following, or moving illegally)."""
    return f"{count} {'illegal' if noun == 'step' else 'failing'} {noun}{'' if count == 1 else 's'}"
