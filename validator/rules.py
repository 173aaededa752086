"""Rule sets, checks and what checks yield.

A check is a generator tagged with ``@case("6.21")``: it yields
:class:`Violation` values for what the position breaks and :class:`Finding`
values for what an arbiter needs to know (a garrison shortfall, a tally, or a
case it cannot decide).  It never formats pages or reads files; the runner
stamps each result with its case, rule id and game.

Tagging only marks the function.  A game lists its check modules explicitly
and :meth:`RuleSet.from_modules` collects the tagged functions from them, in
the order the modules are listed and then the order the functions are
defined, so importing a module never registers anything anywhere.

A check says what it judges.  A ``"position"`` check is called with one
saved position, judged on its own.  A ``"move"`` check is called with the
position before, the position after and their
:class:`~validator.moves.diff.Difference`, and judges what changed; the
runner gives each check only what it judges.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from types import ModuleType

from validator.cases import CaseNumber

SEVERITIES = ("error", "warning", "unchecked", "info")


@dataclass(frozen=True, init=False)
class Result:
    """A verdict about one place in a position, explained with its own numbers.

    ``__init__`` is written out rather than generated: a frozen dataclass's
    sets each of eleven fields through ``object.__setattr__``, and a big
    position yields thousands of results (tests/engine/test_results.py keeps
    its parameters the fields, in order).
    """

    message: str
    location: str | None = None
    pieces: tuple[str, ...] = ()
    case: CaseNumber | None = None  # a check may narrow its case to an item of it
    severity: str = ""
    rule: str = ""
    game: str = ""
    facts: dict = field(default_factory=dict, compare=False)  # machine-readable numbers
    judges: str = ""  # what the check that gave it judges, "position" or "move": stamped by the runner
    check: str = ""  # the name of the check that gave it (house rules are keyed by it): stamped by the runner
    also_cases: tuple[CaseNumber, ...] = ()  # other cases stating the same rule, cited with it (validator.infractions)

    kind = "result"

    def __init__(
        self, message: str, location: str | None = None, pieces: Iterable[str] = (),
        case: CaseNumber | str | None = None, severity: str = "", rule: str = "", game: str = "",
        facts: dict | None = None, judges: str = "", check: str = "", also_cases: tuple[CaseNumber, ...] = (),
    ) -> None:
        """The fields as given; a case given as text is parsed, pieces become a tuple, no facts an empty dict."""
        self.__dict__.update(
            message=message, location=location, pieces=tuple(pieces),
            case=_parsed_case(case) if isinstance(case, str) else case, severity=severity, rule=rule, game=game,
            facts={} if facts is None else facts, judges=judges, check=check, also_cases=also_cases,
        )

    def stamped(self, **stamps: object) -> Result:
        """A copy with the runner's stamps set: its fields are read already, so ``__init__`` is not run again.

        ``dataclasses.replace`` would rebuild every field; a big position
        yields hundreds of results, each stamped once.
        """
        if not stamps.keys() <= _FIELD_NAMES:
            raise TypeError(f"a result has no field {', '.join(sorted(stamps.keys() - _FIELD_NAMES))}")
        copy = object.__new__(type(self))
        copy.__dict__.update(self.__dict__, **stamps)
        return copy


_FIELD_NAMES = frozenset(Result.__dataclass_fields__)


@lru_cache(maxsize=1024)
def _parsed_case(text: str) -> CaseNumber:
    """A case a check names by its text (``"14.2A"``), parsed once: checks name the same few, result after result."""
    return CaseNumber.parse(text)


@dataclass(frozen=True, init=False)
class Violation(Result):
    """Something the position breaks."""

    kind = "violation"


@dataclass(frozen=True, init=False)
class Finding(Result):
    """A derived fact an arbiter needs, or severity "unchecked": what a check could not decide."""

    kind = "finding"


POSITION = "position"
MOVE = "move"
JUDGED = (POSITION, MOVE)  # what a check may judge

CheckFunction = Callable[..., Iterable[Result]]


@dataclass(frozen=True)
class Check:
    """A check of one game: the function, its case, its severity, what it judges, and its stable rule id."""

    game: str
    case: CaseNumber
    severity: str
    function: CheckFunction
    judges: str = POSITION

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


@dataclass(frozen=True)
class CaseTag:
    """What ``@case`` writes on a function: the case it checks, how severe a breach is, what it judges."""

    case: CaseNumber
    severity: str
    judges: str


TAGS_ATTRIBUTE = "referee_case_tags"


def case(number: str, severity: str = "error", judges: str = POSITION) -> Callable[[CheckFunction], CheckFunction]:
    """Tag the decorated generator as a check of case ``number``; a rule set collects it from its module.

    A function may carry several tags (one check enforcing two cases); they
    are collected in the order they were written, the one nearest the
    function first.
    """
    if severity not in SEVERITIES:
        raise ValueError(f"severity must be one of {', '.join(SEVERITIES)}, not {severity!r}")
    if judges not in JUDGED:
        raise ValueError(f"a check judges one of {', '.join(JUDGED)}, not {judges!r}")
    tag = CaseTag(CaseNumber.parse(number), severity, judges)

    def mark(function: CheckFunction) -> CheckFunction:
        setattr(function, TAGS_ATTRIBUTE, (*tags_of(function), tag))
        return function

    return mark


def tags_of(function: object) -> tuple[CaseTag, ...]:
    """The ``@case`` tags a function carries, or ()."""
    return getattr(function, TAGS_ATTRIBUTE, ())


class RuleSet:
    """The checks of one game, in a fixed order: built once from what the game lists, never added to."""

    def __init__(self, game: str, checks: Iterable[Check] = ()) -> None:
        self.game = game
        self._checks = tuple(checks)
        strangers = sorted({check.game for check in self._checks} - {game})
        if strangers:
            raise ValueError(f"the rule set of {game!r} was given checks of {', '.join(map(repr, strangers))}")

    @classmethod
    def from_functions(cls, game: str, functions: Iterable[CheckFunction]) -> RuleSet:
        """The checks the tagged ``functions`` make, in their order; an untagged function is a mistake."""
        checks = []
        for function in functions:
            tags = tags_of(function)
            if not tags:
                raise ValueError(f"{function.__qualname__} is listed as a check of {game!r} but has no @case tag")
            checks.extend(Check(game, tag.case, tag.severity, function, tag.judges) for tag in tags)
        return cls(game, checks)

    @classmethod
    def from_modules(cls, game: str, modules: Iterable[ModuleType]) -> RuleSet:
        """Every tagged function defined in ``modules``: module by module, each in definition order.

        A function a module only imports belongs to the module that defines
        it.  A listed module that defines no check is a mistake in the list.
        """
        functions = []
        for module in modules:
            defined = list(dict.fromkeys(  # a function bound to two names is one check
                value for value in vars(module).values()
                if tags_of(value) and getattr(value, "__module__", None) == module.__name__
            ))
            if not defined:
                raise ValueError(
                    f"the module {module.__name__} is listed as a check module of {game!r} but defines no check"
                )
            functions.extend(defined)
        return cls.from_functions(game, functions)

    def checks(self) -> list[Check]:
        """Every check, whatever it judges, in the rule set's order."""
        return list(self._checks)

    def judging(self, judged: str) -> list[Check]:
        """The checks that judge ``judged`` (``"position"`` or ``"move"``), in the rule set's order."""
        return [check for check in self._checks if check.judges == judged]

    def enforcing(self, number: CaseNumber) -> list[Check]:
        """The checks registered for exactly this case."""
        return [check for check in self._checks if check.case == number]
