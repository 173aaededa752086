"""What a verdict covers: every case of a game's case index as enforced, unchecked or not encoded.

"Legal" means legal under the checks Referee has, so every report says how
many of the game's cases those checks cover, and the coverage listing (the
``/<game>/coverage`` page, ``referee rules coverage GAME``) says which.

A case of the index is

* **enforced** when a check that decides (any severity but "unchecked") is
  registered at the case, at one of its lettered items (the index lists
  cases, not items: a check at 11.32A answers for 11.32), or at a case that
  encloses it (a check may report any case within the one it is registered
  at, so the check of 15.3 answers for 15.3.1 too);
* **unchecked** when the game declares, in ``Game.unchecked``, that Referee
  cannot decide it and what deciding it would need (a fact a save does not
  carry, a rule outside the imported chapters).  A declaration covers the
  cases within the declared one, unless a check enforces them.  A check of
  severity "unchecked" only flags positions, so its case needs a declaration;
* **not encoded** otherwise.

An enforced case whose deciding checks all judge a move (Tito 6.63, 6.41)
is a *move case*: a single position cannot break it, only a pair of saves, a
log's step or a chain's link can.  A report on one position therefore
counts the cases it was checked against without them, and says how many
move cases it left to a pair, a log or a chain; a report on moves counts
them in.

Fixture counts are the pass and fail saves kept for each check's case in
``tests/fixtures/<game>/<case>/`` of a source checkout, named ``pass-*.xml``
and ``fail-*.xml``, or ``pass-*/`` and ``fail-*/`` for a move's pair of saves
(the one layout of tests/game_fixtures.py).  An installed
Referee carries no tests, so there the counts are unknown (None), and the
listings say where to find them rather than show a number that is not there.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from validator.cases import CaseNumber, Fields, parent_fields
from validator.games import CaseRow, Game, IndexEntry
from validator.rules import MOVE, Check
from validator.wording import plural

ENFORCED = "enforced"
UNCHECKED = "unchecked"
NOT_ENCODED = "not encoded"

_SOURCE_ROOT = Path(__file__).resolve().parent.parent

FIXTURES_ELSEWHERE = (
    "Fixture counts come from tests/fixtures in a source checkout of Referee; "
    "this installation carries no tests, so they are not shown."
)


def checkout_fixtures() -> Path | None:
    """The fixtures folder of the source checkout this code runs from, or None when installed."""
    if not (_SOURCE_ROOT / "setup.cfg").is_file():
        return None
    folder = _SOURCE_ROOT / "tests" / "fixtures"
    return folder if folder.is_dir() else None


@dataclass(frozen=True)
class FixtureCount:
    """How many passing and failing saves the suite keeps for some checks."""

    passing: int = 0
    failing: int = 0

    def __add__(self, other: FixtureCount) -> FixtureCount:
        return FixtureCount(self.passing + other.passing, self.failing + other.failing)


def _pairs(case_folder: Path, verdict: str) -> int:
    """Move fixtures: folders ``pass-*/`` or ``fail-*/`` holding the saves before and after."""
    return sum(1 for path in case_folder.glob(f"{verdict}-*") if path.is_dir())


def count_fixtures(folder: Path | None) -> dict[CaseNumber, FixtureCount] | None:
    """Pass and fail fixtures by case, read from one game's fixtures folder; None without one."""
    if folder is None or not folder.is_dir():
        return None
    counts: dict[CaseNumber, FixtureCount] = {}
    for case_folder in folder.iterdir():
        number = CaseNumber.try_parse(case_folder.name)
        if number is None or not case_folder.is_dir():
            continue  # a shared map beside the case folders, or the bad-input folder
        counts[number] = FixtureCount(
            passing=sum(1 for _ in case_folder.glob("pass-*.xml")) + _pairs(case_folder, "pass"),
            failing=sum(1 for _ in case_folder.glob("fail-*.xml")) + _pairs(case_folder, "fail"),
        )
    return counts


@dataclass(frozen=True)
class CaseCoverage:
    """One case of the index with what Referee does about it."""

    number: CaseNumber
    title: str
    status: str
    checks: tuple[Check, ...]  # every check answering for the case, flagging ones included
    needs: str  # for an unchecked case: what deciding it would need, in the plugin's words
    fixtures: FixtureCount | None  # of the checks' cases; None when the counts are unknown
    enforced_below: int  # cases of the index below this one that are enforced
    cases_below: int

    @property
    def parent(self) -> CaseNumber | None:
        return self.number.parent

    @property
    def judged_on_moves_only(self) -> bool:
        """Enforced only by checks of a move: no single position can break it."""
        deciding = [check for check in self.checks if check.severity != UNCHECKED]
        return self.status == ENFORCED and all(check.judges == MOVE for check in deciding)


@dataclass(frozen=True)
class Coverage:
    """A game's case index, case by case, with the totals a report quotes.

    A report quotes only the totals, so they are counted from the index's
    rows by their fields; the case-by-case listing (:attr:`cases`) is made
    when a page or ``referee rules coverage`` first asks for it.
    """

    game: Game
    fixture_counts: dict[CaseNumber, FixtureCount] | None  # None when the counts are unknown
    classified: Classified | None = None  # None when the index could not be read
    index_problem: str = ""  # set when the game's case index could not be read

    @property
    def fixtures_known(self) -> bool:
        return self.fixture_counts is not None

    @cached_property
    def cases(self) -> tuple[CaseCoverage, ...]:
        """Every case of the index with its status, checks, needs and fixtures, in case order."""
        if self.classified is None:
            return ()
        return self.classified.cases(self.game.case_index, self.fixture_counts)

    @cached_property
    def _tally(self) -> Counter:
        return Counter(self.classified.statuses[key] for key in self.classified.keys) if self.classified else Counter()

    def count(self, status: str) -> int:
        return self._tally[status]

    @property
    def checked(self) -> int:
        return self.count(ENFORCED)

    @cached_property
    def move_cases(self) -> int:
        """Enforced cases only a move can break (:attr:`CaseCoverage.judged_on_moves_only`)."""
        return self.classified.move_cases() if self.classified else 0

    def checked_in(self, moves: bool) -> int:
        """The enforced cases a verdict rests on: without the move cases when no move was judged."""
        return self.checked if moves else self.checked - self.move_cases

    @property
    def total(self) -> int:
        return len(self.classified.keys) if self.classified else 0

    @property
    def total_words(self) -> str:
        """What the index holds, counted as the import summary counts: "185 sections and cases", "12 cases"."""
        has_sections = self.classified is not None and any(
            len(levels) == 1 and not letter for levels, letter, _ in self.classified.keys
        )
        if self.total == 1:
            return "1 section" if has_sections else "1 case"
        return f"{self.total} sections and cases" if has_sections else f"{self.total} cases"

    @property
    def url(self) -> str:
        return coverage_url(self.game.id)

    @property
    def command(self) -> str:
        return f"referee rules coverage {self.game.id}"

    def sentence(self, moves: bool = True) -> str:
        """What a verdict of this game rests on, as a report says it; ``moves``: whether it judged moves too."""
        if self.index_problem:
            return (
                f"Referee cannot say how many cases its checks cover: the {self.game.id} case index "
                f"could not be read ({self.index_problem})."
            )
        return (
            f"Checked against {self.checked_in(moves)} of the {self.total_words} of the {self.game.id} case "
            f"index{'' if moves else left_to_moves(self.move_cases)}; run {self.command} to see which."
        )

    def summary_json(self, moves: bool = True) -> dict:
        """The ``coverage`` object of a report; ``checked_cases`` leaves out the move cases when no move was judged."""
        return {
            "checked_cases": self.checked_in(moves),
            "move_cases": self.move_cases,
            "unchecked_cases": self.count(UNCHECKED),
            "index_cases": self.total,
            "url": self.url,
        }


def left_to_moves(move_cases: int) -> str:
    """The clause a report on one position adds to its coverage: the move cases it could not judge ("" if none)."""
    if not move_cases:
        return ""
    counted = plural(move_cases, "move case")
    return f", and not against {counted}, which only a pair of saves, a log or a chain can break"


def coverage_url(game_id: str) -> str:
    """The path of a game's coverage page, relative to the site root."""
    return f"/{game_id}/coverage"


def of_game(game: Game, fixtures_root: Path | None = None, count_fixture_files: bool = True) -> Coverage:
    """The coverage of every case of ``game``'s index.

    ``fixtures_root`` holds one fixtures folder per game; by default it is the
    source checkout's, when this code runs from one.  A report, which quotes
    only the totals, passes ``count_fixture_files=False`` and reads no files.
    """
    root = (fixtures_root or checkout_fixtures()) if count_fixture_files else None
    fixtures = count_fixtures(root / game.id) if root is not None else None
    try:
        rows: list[CaseRow] = game.case_rows
    except (OSError, ValueError, LookupError, TypeError) as error:
        return Coverage(game, fixtures, index_problem=str(error) or type(error).__name__)
    return Coverage(game, fixtures, Classified.of(game, [row[:3] for row in rows]))


@dataclass(frozen=True)
class Classified:
    """Each index case's status, the checks answering for it, what it needs and the index cases below it,
    by the case number's fields (:attr:`CaseNumber.fields`), ``keys`` in index order.

    Worked from the checks and declarations down to the cases they reach,
    not from every case up to every check: a report asks for this each time.
    """

    keys: list[Fields]
    statuses: dict[Fields, str]
    answering: dict[Fields, list[Check]]
    needs: dict[Fields, str]
    below: dict[Fields, list[Fields]]

    @classmethod
    def of(cls, game: Game, keys: list[Fields]) -> Classified:
        below: dict[Fields, list[Fields]] = {key: [] for key in keys}
        for key in keys:
            for above in _ancestor_keys(key):  # also numbers the index lacks, where a check may sit
                below.setdefault(above, []).append(key)
        answering: dict[Fields, list[Check]] = {key: [] for key in keys}
        for check in game.rules.checks():
            case = check.case.fields
            reached = [case, *below.get(case, ())]
            if check.case.is_item:
                reached.append(parent_fields(case))
            for key in dict.fromkeys(reached):
                if key in answering:
                    answering[key].append(check)
        needs: dict[Fields, str] = {}
        declared = sorted(
            (number.fields, text)
            for key, text in game.unchecked.items()
            if (number := CaseNumber.try_parse(key)) is not None
        )
        for key, text in declared:  # outer cases first, so a nearer declaration overrides
            for reached in [key, *below.get(key, ())]:
                needs[reached] = text
        statuses: dict[Fields, str] = {}
        for key in keys:
            if any(check.severity != UNCHECKED for check in answering[key]):
                statuses[key] = ENFORCED
                needs.pop(key, None)
            elif key in needs or answering[key]:
                statuses[key] = UNCHECKED
            else:
                statuses[key] = NOT_ENCODED
        return cls(keys, statuses, answering, needs, below)

    def judged_on_moves_only(self, key: Fields) -> bool:
        """As :attr:`CaseCoverage.judged_on_moves_only`, from the case's fields."""
        deciding = [check for check in self.answering[key] if check.severity != UNCHECKED]
        return self.statuses[key] == ENFORCED and all(check.judges == MOVE for check in deciding)

    def move_cases(self) -> int:
        return sum(1 for key in self.keys if self.judged_on_moves_only(key))

    def cases(
        self, index: list[IndexEntry], fixtures: dict[CaseNumber, FixtureCount] | None
    ) -> tuple[CaseCoverage, ...]:
        """The listing: ``index`` is the game's case index, whose numbers have these keys in this order."""
        enforced_below = dict.fromkeys(self.keys, 0)
        for key in self.keys:
            if self.statuses[key] == ENFORCED:
                for above in _ancestor_keys(key):
                    if above in enforced_below:
                        enforced_below[above] += 1
        return tuple(
            CaseCoverage(
                number=entry.number,
                title=entry.title,
                status=self.statuses[key],
                checks=tuple(self.answering[key]),
                needs=self.needs.get(key, ""),
                fixtures=_fixtures_of(self.answering[key], fixtures),
                enforced_below=enforced_below[key],
                cases_below=len(self.below[key]),
            )
            for entry, key in zip(index, self.keys, strict=True)
        )


_ancestors_by_key: dict[Fields, tuple[Fields, ...]] = {}  # kept: every report walks the same index


def _ancestor_keys(key: Fields) -> tuple[Fields, ...]:
    """The fields of a case's ancestors, nearest first, from its own (those of CaseNumber.ancestors).

    Cases of an index share their ancestors (6.21 and 6.22 both have 6.2 and
    6), so each chain is walked once, from the first of its cases asked for
    (issue 14's lean start-up).
    """
    known = _ancestors_by_key.get(key)
    if known is None:
        parent = parent_fields(key)
        known = () if parent is None else (parent, *_ancestor_keys(parent))
        if len(_ancestors_by_key) >= 4096:
            _ancestors_by_key.clear()
        _ancestors_by_key[key] = known
    return known


def _fixtures_of(checks: tuple[Check, ...], fixtures: dict[CaseNumber, FixtureCount] | None) -> FixtureCount | None:
    if fixtures is None or not checks:
        return None
    total = FixtureCount()
    for case in dict.fromkeys(check.case for check in checks):
        total += fixtures.get(case, FixtureCount())
    return total


# -- renderings ------------------------------------------------------------


def as_json(coverage: Coverage) -> dict:
    """The coverage listing as the CLI's JSON contract (docs/cli.md)."""
    return {
        "game": coverage.game.id,
        **coverage.summary_json(),
        "not_encoded_cases": coverage.count(NOT_ENCODED),
        "fixtures_counted": coverage.fixtures_known,
        "cases": [
            {
                "case": str(case.number),
                "title": case.title,
                "parent": str(case.parent) if case.parent else None,
                "status": case.status,
                "checks": [
                    {"rule": check.rule, "case": str(check.case), "name": check.name, "severity": check.severity,
                     "summary": check.summary}
                    for check in case.checks
                ],
                "needs": case.needs or None,
                "fixtures": (
                    {"passing": case.fixtures.passing, "failing": case.fixtures.failing} if case.fixtures else None
                ),
                "enforced_below": case.enforced_below,
                "cases_below": case.cases_below,
            }
            for case in coverage.cases
        ],
    }


def as_text(coverage: Coverage) -> str:
    """The coverage listing for a terminal: a line per case, its checks and needs indented below."""
    if coverage.index_problem:
        return coverage.sentence()
    totals = (
        f"{coverage.game.id}: {coverage.checked} of {coverage.total_words} enforced, "
        f"{coverage.count(UNCHECKED)} unchecked, {coverage.count(NOT_ENCODED)} not encoded."
    )
    lines = [totals]
    if not coverage.fixtures_known:
        lines.append(FIXTURES_ELSEWHERE)
    for case in coverage.cases:
        depth = len(case.number.ancestors())
        indent = "  " * depth
        below = f"  ({case.enforced_below} of {case.cases_below} below enforced)" if case.cases_below else ""
        lines.append(f"{indent}{case.number}  [{case.status}]  {case.title}{below}".rstrip())
        for check in case.checks:
            lines.append(f"{indent}    {check.rule} {check.name} ({check.severity})")
        if case.fixtures is not None:
            lines.append(f"{indent}    fixtures: {fixture_words(case.fixtures)}")
        if case.needs:
            lines.append(f"{indent}    needs: {case.needs}")
    return "\n".join(lines)


def fixture_words(count: FixtureCount) -> str:
    return f"{count.passing} passing, {count.failing} failing"
