"""A club's house rules: how severe a breach of each check is in that club's games.

A house rule is keyed by game, case and check name (one case may have
several checks) and gives the check a severity with the club's reason:

- ``error``: what the check finds makes the position illegal (the default
  for most checks; a rule saying so turns a check's own warnings into errors);
- ``warning``: what it finds is shown, but the position is not illegal: the
  result moves from the report's violations to its findings with severity
  ``warning`` (the linter convention: exit 0 with the warnings shown);
- ``off``: the check's results are left out of the report.

House rules are applied to a finished :class:`~validator.report.Report` as a
step of their own (:func:`apply`), never inside a check or the runner, and the
report then carries the rules in force for its game, so its text, JSON and
page say so.  A log's steps and a chain's links are re-rated the same way,
report by report (:func:`apply_to_moves`).  The command line reads them from an XML file
(``schemas/house-rules.xsd``, :func:`read_file`); the web app keeps them in
the database (:mod:`validator.web.house_rules`).  Documented in
docs/house-rules.md.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from validator.cases import CaseNumber, CaseNumberError
from validator.errors import InputError
from validator.rules import Finding, Result, Violation

SEVERITIES = ("error", "warning", "off")
NAMESPACE = "urn:referee:house-rules:1"
SCHEMA = "house-rules.xsd"
MAX_FILE_BYTES = 1024 * 1024  # a thousand rules with long reasons fit in a tenth of this
MAX_REASON_CHARACTERS = 2000


class HouseRuleError(InputError):
    """A house rule that cannot be used: an unknown game, case, check or severity, or an empty reason."""


@dataclass(frozen=True)
class HouseRule:
    """One check's severity in one game, with the club's reason; ``url`` links to where it is kept (web only)."""

    game: str
    case: CaseNumber
    check: str
    severity: str
    reason: str
    url: str = ""

    def governs(self, result: Result) -> bool:
        """True when ``result`` comes from this rule's check (its case, or an item of it)."""
        return (result.game == self.game and result.check == self.check and result.case is not None
                and (result.case == self.case or result.case.is_within(self.case)))

    def sentence(self) -> str:
        """"[6.21] overstacked_box is a warning: we allow ...": how the text report lists it."""
        said = {"error": "is an error", "warning": "is a warning", "off": "is off"}[self.severity]
        return f"[{self.case}] {self.check} {said}: {self.reason}"

    def to_json(self) -> dict:
        return {"game": self.game, "case": str(self.case), "check": self.check, "severity": self.severity,
                "reason": self.reason, "url": self.url or None}


@dataclass(frozen=True)
class HouseRules:
    """The house rules of one source (a file, or the club's web page), in the order they were written."""

    rules: tuple[HouseRule, ...] = ()
    source: str = ""

    def of_game(self, game: str) -> tuple[HouseRule, ...]:
        return tuple(rule for rule in self.rules if rule.game == game)

    def in_force(self, games: set[str]) -> HouseRules | None:
        """The rules of these games only, what a log or chain says it was rated under; None when none is theirs
        (as a report of one position under rules of other games says nothing of them)."""
        rules = tuple(rule for rule in self.rules if rule.game in games)
        return HouseRules(rules, self.source) if rules else None

    def governing(self, result: Result) -> HouseRule | None:
        return next((rule for rule in self.rules if rule.governs(result)), None)


def validated(game_id: str, case: str, check: str, severity: str, reason: str,
              source: str = "", line: int = 0, url: str = "") -> HouseRule:
    """A house rule once its game, case, check and severity are known ones; else one sentence naming them."""
    from validator import games

    registry = games.registry()
    if game_id not in registry:
        raise HouseRuleError(source, f"there is no game '{game_id}'; the known games are "
                                     f"{', '.join(sorted(registry))}.", line)
    game = registry[game_id]
    try:
        number = CaseNumber.parse(case.strip())
    except CaseNumberError:
        number = None
    checked = sorted({check.case for check in game.rules.checks()})
    if number is None or number not in checked:
        raise HouseRuleError(source, f"{game_id} has no check of case '{case}'; its checked cases are "
                                     f"{', '.join(map(str, checked))}.", line)
    names = [registered.name for registered in game.rules.enforcing(number)]
    if check not in names:
        raise HouseRuleError(source, f"case {number} of {game_id} has no check named '{check}'; its checks are "
                                     f"{', '.join(names)}.", line)
    if severity not in SEVERITIES:
        raise HouseRuleError(source, f"'{severity}' is not a severity; choose {', '.join(SEVERITIES)}.", line)
    reason = " ".join(reason.split())
    if not reason:
        raise HouseRuleError(source, f"the house rule on {game_id} {number} {check} gives no reason; "
                                     "say why the club plays it so.", line)
    if len(reason) > MAX_REASON_CHARACTERS:
        raise HouseRuleError(source, f"the reason is {len(reason):,} characters long; keep it under "
                                     f"{MAX_REASON_CHARACTERS:,}.", line)
    return HouseRule(game_id, number, check, severity, reason, url)


def read_file(path: Path) -> HouseRules:
    """The house rules in an XML file (``schemas/house-rules.xsd``); a bad file is one sentence with its line."""
    from validator.xmlparsing import XmlInputError, parse_xml, validate

    source = str(path)
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        raise HouseRuleError(source, f"the house rules file cannot be read ({error.strerror or error}).") from None
    if len(data) > MAX_FILE_BYTES:
        raise XmlInputError(source, f"the house rules file is larger than {MAX_FILE_BYTES:,} bytes")
    try:
        root = parse_xml(data, source)
    except XmlInputError as error:
        if not error.problem.startswith("not well-formed"):
            raise
        raise XmlInputError(source, f"{error.problem}; correct the file there (docs/house-rules.md shows a whole "
                                    "house rules file) and read it again.", error.line, error.column) from None
    validate(root, SCHEMA, source)
    rules = []
    seen: dict[tuple, int] = {}
    for game in root.iterfind(f"{{{NAMESPACE}}}game"):
        for element in game.iterfind(f"{{{NAMESPACE}}}rule"):
            rule = validated(game.get("id"), element.get("case"), element.get("check"), element.get("severity"),
                             element.text or "", source, element.sourceline or 0)
            key = (rule.game, rule.case, rule.check)
            if key in seen:
                raise HouseRuleError(source, f"the check {rule.check} of {rule.game} {rule.case} has a house rule "
                                             f"already on line {seen[key]}; keep one.", element.sourceline or 0)
            seen[key] = element.sourceline or 0
            rules.append(rule)
    return HouseRules(tuple(rules), source)


def apply(report, house_rules: HouseRules):
    """The report as the club plays it: each governed result re-rated, and the game's rules in force recorded.

    A result citing two cases (one check under both) is rated case by case:
    a club that makes 6.63 a warning but leaves 15.4 alone still has 15.4
    forbid the move, so the warning and the violation are both shown.
    """
    in_force = house_rules.of_game(report.position.game)
    if not in_force:
        return report
    from validator.infractions import once, per_case

    rated = HouseRules(in_force, house_rules.source)
    results = (_rated(part, rated.governing(part)) for result in report.results for part in per_case(result))
    return dataclasses.replace(report, results=once(result for result in results if result is not None),
                               house_rules=rated)


def apply_to_moves(verdict, house_rules: HouseRules):
    """A judged move, log or chain as the club plays it: every step's and link's report re-rated by :func:`apply`.

    ``verdict`` is a :class:`~validator.moves.verdicts.MoveVerdict` (one
    step or link), a :class:`~validator.moves.verdicts.LogVerdict` or a
    :class:`~validator.moves.verdicts.ChainVerdict` (its starting position too);
    the same kind comes back, recording the rules in force for its game.  A
    warning does not make a step or link illegal; a break (a rewind, an
    unexplained change) is no check's result and stays.  A verdict judged with
    ``first`` stopped at the first move illegal as Referee rates it: to stop
    at the first illegal one as the club plays, give the house rules to
    :func:`~validator.moves.verdicts.judge_log` or ``judge_chain`` instead.
    """
    from validator.moves.verdicts import ChainVerdict, LogVerdict, MoveVerdict

    if isinstance(verdict, MoveVerdict):
        return dataclasses.replace(verdict, report=apply(verdict.report, house_rules))
    rated = tuple(apply_to_moves(move, house_rules) for move in verdict.verdicts)
    if isinstance(verdict, LogVerdict):
        return dataclasses.replace(verdict, start=apply(verdict.start, house_rules), verdicts=rated,
                                   house_rules=house_rules.in_force({verdict.moves.game.id}))
    if isinstance(verdict, ChainVerdict):
        return dataclasses.replace(verdict, start=apply(verdict.start, house_rules), verdicts=rated,
                                   house_rules=house_rules.in_force({position.game for position in verdict.positions}))
    raise TypeError(f"house rules apply to a move, a log or a chain verdict, not {type(verdict).__name__}")


def _rated(result: Result, rule: HouseRule | None) -> Result | None:
    if rule is None:
        return result
    if rule.severity == "off":
        return None
    if rule.severity == "warning" and isinstance(result, Violation):
        fields = {field.name: getattr(result, field.name) for field in dataclasses.fields(result)}
        return Finding(**{**fields, "severity": "warning"})
    if rule.severity == "error" and result.severity == "warning":
        fields = {field.name: getattr(result, field.name) for field in dataclasses.fields(result)}
        return Violation(**{**fields, "severity": "error"})
    return result

