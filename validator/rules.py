"""Rule sets: the checks a game plugin registers, each tied to one case.

A check is a generator decorated with ``@rules.case("6.21")``.  This module
only keeps the registry; running checks against a position is the runner's
job.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable

from validator.cases import CaseNumber

SEVERITIES = ("error", "warning", "unchecked", "info")


@dataclass(frozen=True)
class Check:
    """A registered check: the function, its case and its stable rule id."""

    game: str
    case: CaseNumber
    severity: str
    function: Callable[..., Iterable]

    @property
    def rule(self) -> str:
        return f"{self.game}:{self.case}"

    @property
    def name(self) -> str:
        return self.function.__name__

    @property
    def summary(self) -> str:
        """The first line of the check's docstring: the rule in our own words."""
        return (self.function.__doc__ or "").strip().splitlines()[0] if self.function.__doc__ else ""


class RuleSet:
    """The checks of one game, in registration order."""

    def __init__(self, game: str) -> None:
        self.game = game
        self._checks: list[Check] = []

    def case(self, number: str, severity: str = "error") -> Callable:
        """Register the decorated generator as the check of case ``number``."""
        if severity not in SEVERITIES:
            raise ValueError(f"severity must be one of {', '.join(SEVERITIES)}, not {severity!r}")
        parsed = CaseNumber.parse(number)

        def register(function: Callable[..., Iterable]) -> Callable[..., Iterable]:
            self._checks.append(Check(self.game, parsed, severity, function))
            return function

        return register

    def checks(self) -> list[Check]:
        return list(self._checks)

    def enforcing(self, number: CaseNumber) -> list[Check]:
        """The checks registered for exactly this case."""
        return [check for check in self._checks if check.case == number]
