"""Judging moves one after another: every step of a VASSAL log, or every save of a chain after the first.

The position judging starts from (the log's when logging began, the
chain's first save) is checked as a position, its ``start``: its
violations make the log or chain illegal, and are reported there once.

Each move is judged as ``referee check BEFORE AFTER`` judges one: the
game's move checks on the difference, and the position checks on the
position after.  A log's step or a chain's link is blamed only for the
position results it brings: one already standing before it is the earlier
move's (or the start's), so a single illegal move is reported once, at its
index, and not again at every later one.  A link also says whether the save
follows from the one before (:mod:`validator.moves.chains`); after a link
that does not follow (another scenario, a rewind), whose position is not
judged, the next link is blamed for all its position results.

``first`` stops at the first illegal move.  ``progress`` is told of each
move judged (see :mod:`validator.moves.progress`).  ``house_rules`` rates
each move's results as a club plays them (:func:`validator.house_rules.apply_to_moves`),
before ``first`` asks whether the move is illegal.

The JSON shapes are a public contract, documented in docs/cli.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from dataclasses import fields as dataclass_fields
from typing import TYPE_CHECKING

from validator import runner
from validator.games import Game, get
from validator.infractions import once
from validator.model import Piece, Position
from validator.moves import chains
from validator.moves.diff import Difference, difference
from validator.report import Report
from validator.rules import Finding, Result
from validator.wording import plural, verb_for

if TYPE_CHECKING:  # reading a log needs the VASSAL readers; judging a chain of our saves does not
    from validator.coverage import Coverage
    from validator.house_rules import HouseRules
    from validator.moves.steps import LogMoves

Progress = Callable[[int], None]


def _quiet(done: int) -> None:
    """No progress shown."""


@dataclass(frozen=True)
class MoveVerdict:
    """One move judged: its index (a log's step, a chain's save), its difference, its results and breaks."""

    index: int
    difference: Difference
    report: Report
    breaks: tuple[chains.Break, ...] = ()

    @property
    def legal(self) -> bool:
        return not self.breaks and self.report.legal

    @property
    def speaks(self) -> bool:
        """Whether there is anything to tell: a break, a violation, or a finding that is not information."""
        return bool(self.breaks) or any(result.severity != "info" for result in self.report.results)

    @property
    def comparable(self) -> bool:
        """Whether the two positions are of one game and scenario, so their pieces can be counted as moves."""
        return not any(found.kind in (chains.GAME, chains.SCENARIO) for found in self.breaks)

    def moves_json(self) -> list[dict]:
        if not self.comparable:
            return []
        change = self.difference
        return [{"piece": move.id, "piece_name": move.after.name or move.id, "from": move.start,
                 "from_name": change.location_name(move.start), "to": move.end,
                 "to_name": change.location_name(move.end)} for move in change.moved]

    def to_json(self, base_url: str = "") -> dict:
        report = self.report
        pieces = (*self.difference.before.pieces, *report.position.pieces)
        names = {piece.id: piece.name or piece.id for piece in pieces}
        return {
            "index": self.index,
            "before": self.difference.before.source,
            "after": report.position.source,
            "legal": self.legal,
            "moves": self.moves_json(),
            "breaks": [found.to_json(names) for found in self.breaks],
            "violations": [report.result_json(result, base_url) for result in report.violations],
            "findings": [report.result_json(result, base_url) for result in report.findings],
        }

    def lines(self, label: str) -> list[str]:
        moved = "; ".join(self.difference.describe_move(move) for move in self.difference.moved)
        head = f"{label} {self.index}: {moved or self.difference.summary()}"
        lines = [head]
        lines += [f"  [{found.kind}] {found.message}" for found in self.breaks]
        shown = [*self.report.violations, *(result for result in self.report.findings if result.severity != "info")]
        lines += ["  " + self.report.line(result).replace("\n", "\n  ") for result in shown]
        return lines


def judge_move(change: Difference, game: Game | None = None, standing: Iterable[Result] | None = None,
               breaks: tuple[chains.Break, ...] = (), index: int = 1,
               after_results: list[Result] | None = None, history: History | None = None,
               allowed: tuple[Result, ...] = ()) -> MoveVerdict:
    """One move judged; with ``standing`` (the position results before it) only the results it brings count.

    ``after_results``: the position results of the position after, when the caller has them already.
    ``history``: the chain or log the move is part of, which the move checks judge it within.
    ``allowed``: findings for the changes of unit the game allows (see :func:`chains.allowed`).
    """
    game = game or get(change.after.game)
    if standing is None and after_results is None and history is None:
        return MoveVerdict(index, change, runner.check_move(change, game), breaks)
    position_results = after_results if after_results is not None else list(runner.iter_results(change.after, game))
    if standing is not None:
        position_results = brought(position_results, standing)
    move_results = history.move_results(change, game) if history is not None \
        else runner.iter_move_results(change, game)
    results = once((*position_results, *move_results, *allowed))
    return MoveVerdict(index, change, Report(position=change.after, results=results, before=change.before), breaks)


def brought(results: Iterable[Result], standing: Iterable[Result]) -> list[Result]:
    """The results a move brings: new at their place, or holding a piece the standing one did not.

    A result is matched by its kind (violation or finding), severity, rule,
    check and location, not by its words: a stack that grows from 8 to 9
    units is worse (a piece more), and blamed; one that shrinks back is not,
    though its message changed.  Findings count as violations do: a position
    a check cannot decide must not read as fine because the step before it
    held another.
    """
    held: dict[tuple, set[str]] = {}
    for result in standing:
        held.setdefault(_key(result), set()).update(result.pieces)
    return [result for result in results
            if not (_key(result) in held and set(result.pieces) <= held[_key(result)])]


def _key(result: Result) -> tuple:
    return type(result), result.severity, result.rule, result.check, result.location


class History:
    """What a move is judged from: where each piece began, and the position the current phase began in.

    A move check that limits where a unit may be (Tito 6.63: the zone it
    started in) compares with the first position of the chain or log (a
    piece that entered later: where it entered), so a unit going back home is
    not blamed.  A check that limits how far a unit goes in a phase (6.11,
    6.31, 6.41) must see the unit's whole move in that phase, however many
    saves or steps it took: within one Game-Turn and phase the move checks
    judge the difference from the phase's first position, and a move is
    blamed only for what it adds to the results standing before it.

    When the saves do not give the Game-Turn and phase, the moves over
    several saves of one Game-Turn cannot be told one phase's or several:
    each move is judged from the save before it, and what judging them whole
    from the Game-Turn's first save would add is said as ``unchecked``
    findings of the same cases, naming what is missing.
    """

    def __init__(self, first: Position) -> None:
        self.first = first
        self.pieces: dict[str, Piece] = {piece.id: piece for piece in first.pieces}
        self.origin = first
        self.phase_start: Position | None = None
        self.standing: list[Result] = []
        self.turn_start: Position | None = None  # the first save of a run of one Game-Turn giving no phase
        self.turn_standing: list[Result] = []

    def move_results(self, change: Difference, game: Game) -> list[Result]:
        """The move checks' results ``change`` brings, judged over the whole phase so far."""
        entered = [piece for piece in change.after.pieces if piece.id not in self.pieces]
        if entered:
            self.pieces.update((piece.id, piece) for piece in entered)
            self.origin = replace(self.first, pieces=tuple(self.pieces.values()))
        phase = _phase_of(change.after)
        if phase is None or _phase_of(change.before) != phase or self.phase_start is None \
                or _phase_of(self.phase_start) != phase:
            self.phase_start, self.standing = change.before, []
        whole = replace(difference(self.phase_start, change.after), origin=self.origin)
        results = list(runner.iter_move_results(whole, game))
        found = brought(results, self.standing)
        self.standing = results
        return [*found, *self._undecided_over_the_turn(change, game, results)]

    def _undecided_over_the_turn(self, change: Difference, game: Game, judged: list[Result]) -> list[Result]:
        """Without a phase, what the move checks would add judging the Game-Turn's moves whole, as unchecked."""
        before, after = change.before, change.after
        if (_phase_of(before) is not None and _phase_of(after) is not None) or before.turn != after.turn:
            self.turn_start, self.turn_standing = None, []
            return []
        if self.turn_start is None or self.turn_start.turn != after.turn:
            self.turn_start, self.turn_standing = before, judged  # the run's first move is judged whole already
            return []
        whole = replace(difference(self.turn_start, after), origin=self.origin)
        results = list(runner.iter_move_results(whole, game))
        added = brought(brought(results, judged), self.turn_standing)
        self.turn_standing = results
        return [_undecided(result, self.turn_start, after) for result in added]


def _undecided(result: Result, turn_start: Position, after: Position) -> Finding:
    """``result`` of the Game-Turn's moves judged whole, said as what cannot be decided without the phase."""
    missing = "phase" if after.turn else "Game-Turn and phase"
    message = (f"judged whole from {turn_start.source}, the moves of Game-Turn {after.turn or '?'} give: "
               f"{result.message}; but the saves give no {missing}, so whether these moves are one phase's "
               f"cannot be told: give each save its {missing} to have them judged whole")
    fields = {name.name: getattr(result, name.name) for name in dataclass_fields(result)}
    return Finding(**{**fields, "message": message, "severity": "unchecked"})


def _phase_of(position: Position) -> tuple[str, str] | None:
    """The Game-Turn and phase a position is in, or None when it does not say both (then no move is accumulated)."""
    return (position.turn, position.phase) if position.turn and position.phase else None


@dataclass(frozen=True)
class LogVerdict:
    """Every move of a log judged, up to the first illegal one when asked, and the position it started from."""

    moves: LogMoves
    start: Report  # the position checks of the position when logging began
    verdicts: tuple[MoveVerdict, ...]
    judged: int
    stopped_at: int | None = None  # the step judging stopped at (``first``), or None
    house_rules: HouseRules | None = None  # the club's rules its reports were rated under, or None

    @property
    def illegal(self) -> list[MoveVerdict]:
        return [verdict for verdict in self.verdicts if not verdict.legal]

    @property
    def legal(self) -> bool:
        return self.start.legal and not self.illegal

    def to_json(self, base_url: str = "") -> dict:
        log = self.moves
        return {
            "game": log.game.id,
            "source": log.source,
            "step_count": log.total,
            "undone_steps": list(log.undone),
            "undo_steps": list(log.undo_steps),
            "judged_steps": self.judged,
            "stopped_at": self.stopped_at,
            "legal": self.legal,
            "start": start_json(self.start, base_url),
            "illegal_steps": [verdict.index for verdict in self.illegal],
            "steps": [verdict.to_json(base_url) for verdict in self.verdicts if verdict.speaks],
            "coverage": coverage_json(self.start.coverage, base_url),
            **house_rules_json(self.house_rules),
        }

    def to_text(self) -> str:
        lines = start_lines(self.start, "the position when logging began")
        lines += [line for verdict in self.verdicts if verdict.speaks for line in verdict.lines("step")]
        log = self.moves
        undone = f", {plural(len(log.undone), 'step')} undone" if log.undone else ""
        stopped = f"; stopped at step {self.stopped_at}, the first illegal one" if self.stopped_at else ""
        illegal = self.illegal
        faults = [f"{plural(len(illegal), 'illegal step')} ({', '.join(str(step.index) for step in illegal)})"] \
            if illegal else []
        if not self.start.legal:
            faults.append("the position it starts from is illegal")
        verdict = "; ".join(faults) or "legal"
        lines += coverage_lines(self.start.coverage)
        lines += house_rules_lines(self.house_rules)
        lines.append(f"{log.source}: {plural(log.total, 'step')}{undone}; {plural(self.judged, 'move')} judged"
                     f"{stopped}: {verdict}.")
        return "\n".join(lines)


def start_json(start: Report, base_url: str = "") -> dict:
    """The ``start`` object of a log or chain: the position checks of the position judging began from."""
    return {"legal": start.legal,
            "violations": [start.result_json(result, base_url) for result in start.violations],
            "findings": [start.result_json(result, base_url) for result in start.findings]}


def start_lines(start: Report, what: str) -> list[str]:
    """The start's violations, and its findings that are not information, as the text report lists them."""
    shown = [*start.violations, *(result for result in start.findings if result.severity != "info")]
    if not shown:
        return []
    counted = [plural(count, noun) for count, noun in ((len(start.violations), "violation"),
                                                       (len(shown) - len(start.violations), "finding")) if count]
    return [f"start: {what} has {' and '.join(counted)}",
            *("  " + start.line(result).replace("\n", "\n  ") for result in shown)]


def coverage_json(covered: Coverage | None, base_url: str = "") -> dict | None:
    """The ``coverage`` object of a report that judged moves: the move cases counted in."""
    if covered is None or covered.index_problem:
        return None
    return {**covered.summary_json(moves=True), "url": base_url + covered.url}


def coverage_lines(covered: Coverage | None) -> list[str]:
    return [covered.sentence(moves=True)] if covered is not None else []


def house_rules_json(house_rules: HouseRules | None) -> dict:
    """``house_rules`` as a single report's JSON has it, only on a verdict rated under house rules."""
    if house_rules is None:
        return {}
    return {"house_rules": {"source": house_rules.source, "rules": [rule.to_json() for rule in house_rules.rules]}}


def house_rules_lines(house_rules: HouseRules | None) -> list[str]:
    if house_rules is None:
        return []
    return [f"Checked under the house rules of {house_rules.source}:",
            *(f"    {rule.sentence()}" for rule in house_rules.rules)]


def _rated(verdict: MoveVerdict, house_rules: HouseRules | None) -> MoveVerdict:
    if house_rules is None:
        return verdict
    from validator.house_rules import apply_to_moves

    return apply_to_moves(verdict, house_rules)


def judge_log(log: LogMoves, first: bool = False, progress: Progress = _quiet,
              house_rules: HouseRules | None = None) -> LogVerdict:
    """Every move of the log, each blamed only for the position violations it brings."""
    verdicts = []
    start = runner.check(log.start, log.game)
    rated_start = start
    in_force = None
    if house_rules is not None:
        from validator.house_rules import apply

        rated_start, in_force = apply(start, house_rules), house_rules.in_force({log.game.id})
    # The last position judged and its results: a step from it reuses them.  Holding the position keeps the
    # identity test sound (a step after undone ones starts from a position read anew, which is judged anew).
    last_position, last_results = log.start, list(start.results)
    history = History(log.start)
    judged = 0
    for step in log.steps():
        before_results = last_results if step.before is last_position \
            else list(runner.iter_results(step.before, log.game))
        after_results = list(runner.iter_results(step.after, log.game))
        verdict = _rated(judge_move(step.difference, log.game, before_results, index=step.index,
                                    after_results=after_results, history=history), house_rules)
        last_position, last_results = step.after, after_results
        verdicts.append(verdict)
        judged += 1
        progress(judged)
        if first and not verdict.legal:
            return LogVerdict(log, rated_start, tuple(verdicts), judged, step.index, in_force)
    return LogVerdict(log, rated_start, tuple(verdicts), judged, house_rules=in_force)


@dataclass(frozen=True)
class ChainVerdict:
    """The first save of a chain checked as a position, and each save after it judged as a move from the one before."""

    positions: tuple[Position, ...]
    start: Report  # the position checks of the first save
    verdicts: tuple[MoveVerdict, ...] = field(default=())
    stopped_at: int | None = None
    house_rules: HouseRules | None = None  # the club's rules its reports were rated under, or None

    @property
    def legal(self) -> bool:
        return self.start.legal and all(verdict.legal for verdict in self.verdicts)

    @property
    def coverage(self) -> Coverage | None:
        """What the checks of the chain's game cover, moves counted in; None for a game the registry lacks."""
        return Report(position=self.positions[0], results=()).coverage

    def to_json(self, base_url: str = "") -> dict:
        return {
            "game": self.positions[0].game,
            "saves": [position.source for position in self.positions],
            "stopped_at": self.stopped_at,
            "legal": self.legal,
            "start": start_json(self.start, base_url),
            "links": [verdict.to_json(base_url) for verdict in self.verdicts],
            "coverage": coverage_json(self.coverage, base_url),
            **house_rules_json(self.house_rules),
        }

    def to_text(self) -> str:
        lines = start_lines(self.start, f"the first save ({self.positions[0].source})")
        for verdict in self.verdicts:
            follows = "follows" if not verdict.breaks else "does not follow"
            counted = f": {verdict.difference.summary()}" if verdict.comparable else ""
            lines.append(f"save {verdict.index} ({verdict.report.position.source}) {follows} from save "
                         f"{verdict.index - 1} ({verdict.difference.before.source}){counted}.")
            lines += verdict.lines("save")[1:]
        illegal = [verdict.index for verdict in self.verdicts if not verdict.legal]
        stopped = f"; stopped at save {self.stopped_at}, the first that fails" if self.stopped_at else ""
        faults = [f"{plural(len(illegal), 'save')} ({', '.join(map(str, illegal))}) "
                  f"{verb_for(len(illegal), 'does', 'do')} not follow or {verb_for(len(illegal), 'holds', 'hold')} "
                  "illegal moves"] if illegal else []
        if not self.start.legal:
            faults.append("the first save is illegal")
        verdict_text = "; ".join(faults) or "every save follows from the one before and its moves are legal"
        lines += coverage_lines(self.coverage)
        lines += house_rules_lines(self.house_rules)
        lines.append(f"{plural(len(self.positions), 'save')} in a chain{stopped}: {verdict_text}.")
        return "\n".join(lines)


def judge_chain(positions: list[Position], first: bool = False, progress: Progress = _quiet,
                house_rules: HouseRules | None = None) -> ChainVerdict:
    """The first save as a position, then each save after it as a move from the one before, with the breaks that
    stop it following.  The first save's violations make the chain illegal, and are reported once, as the start's;
    a link is blamed only for the position results it brings, as a log's step is."""
    verdicts = []
    start = rated_start = runner.check(positions[0], get(positions[0].game))
    in_force = None
    if house_rules is not None:
        from validator.house_rules import apply

        rated_start = apply(start, house_rules)
        in_force = house_rules.in_force({position.game for position in positions})
    history = History(positions[0])
    standing = list(start.results)  # the position results before the link: reported already, not blamed again
    for index, (before, after) in enumerate(zip(positions, positions[1:], strict=False), start=2):
        change = difference(before, after)
        breaks = chains.unrelated(before, after)
        if breaks:  # another game or scenario: its pieces cannot be compared as moves
            history, standing = History(after), []  # nothing of the save after is reported: the next link says all
            verdict = MoveVerdict(index, change, Report(position=after, results=(), before=before), tuple(breaks))
        else:
            game = get(after.game)
            rewound = chains.rewind(game, before, after)
            if rewound is not None:  # moves read backwards mean nothing
                history, standing = History(after), []
                verdict = MoveVerdict(index, change, Report(position=after, results=(), before=before), (rewound,))
            else:
                after_results = list(runner.iter_results(after, game))
                verdict = judge_move(change, game, standing, breaks=tuple(chains.unexplained(change, game)),
                                     index=index, after_results=after_results, history=history,
                                     allowed=tuple(chains.allowed(change, game)))
                standing = after_results
        verdict = _rated(verdict, house_rules)
        verdicts.append(verdict)
        progress(index - 1)
        if first and not verdict.legal:
            return ChainVerdict(tuple(positions), rated_start, tuple(verdicts), index, in_force)
    return ChainVerdict(tuple(positions), rated_start, tuple(verdicts), house_rules=in_force)
