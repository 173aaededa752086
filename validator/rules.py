"""Rule sets, checks and what checks yield.

A check is a generator decorated with ``@rules.case("6.21")``: it yields
:class:`Violation` values for what the position breaks and :class:`Finding`
values for what an arbiter needs to know (a garrison shortfall, a tally, or a
case it cannot decide).  It never formats pages or reads files; the runner
stamps each result with its case, rule id and game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterable

from validator.cases import CaseNumber

SEVERITIES = ("error", "warning", "unchecked", "info")


@dataclass(frozen=True)
class Result:
    """A verdict about one place in a position, explained with its own numbers."""

    message: str
    location: str | None = None
    pieces: tuple[str, ...] = ()
    case: CaseNumber | None = None  # a check may narrow its case to an item of it
    severity: str = ""
    rule: str = ""
    game: str = ""
    facts: dict = field(default_factory=dict, compare=False)  # machine-readable numbers

    kind = "result"

    def __post_init__(self) -> None:
        if isinstance(self.case, str):
            object.__setattr__(self, "case", CaseNumber.parse(self.case))
        object.__setattr__(self, "pieces", tuple(self.pieces))


@dataclass(frozen=True)
class Violation(Result):
    """Something the position breaks."""

    kind = "violation"


@dataclass(frozen=True)
class Finding(Result):
    """A derived fact an arbiter needs, or severity "unchecked": what a check could not decide."""

    kind = "finding"


@dataclass(frozen=True)
class Check:
    """A registered check: the function, its case and its stable rule id."""

    game: str
    case: CaseNumber
    severity: str
    function: Callable[..., Iterable[Result]]

    @property
    def rule(self) -> str:
        return f"{self.game}:{self.case}"

    @property
    def name(self) -> str:
        return self.function.__name__

    @property
    def summary(self) -> str:
        """The first line of the check's docstring: the rule in our own words."""
        doc = (self.function.__doc__ or "").strip()
        return doc.splitlines()[0] if doc else ""


class RuleSet:
    """The checks of one game, in registration order."""

    def __init__(self, game: str) -> None:
        self.game = game
        self._checks: list[Check] = []

    def case(self, number: str, severity: str = "error") -> Callable:
        """Register the decorated generator as a check of case ``number``."""
        if severity not in SEVERITIES:
            raise ValueError(f"severity must be one of {', '.join(SEVERITIES)}, not {severity!r}")
        parsed = CaseNumber.parse(number)

        def register(function: Callable[..., Iterable[Result]]) -> Callable[..., Iterable[Result]]:
            self._checks.append(Check(self.game, parsed, severity, function))
            return function

        return register

    def checks(self) -> list[Check]:
        return list(self._checks)

    def enforcing(self, number: CaseNumber) -> list[Check]:
        """The checks registered for exactly this case."""
        return [check for check in self._checks if check.case == number]
