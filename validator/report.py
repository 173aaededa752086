"""A report: the results of checking one position, and its renderings.

The text form is one linter-style line per result:
``Serbia / Axis Mountain: [6.21] 7.5 division-equivalents; the limit is 7``.
The JSON form is a public contract (docs/save-format.md): ``violations`` and
``findings`` arrays whose items carry at least ``rule``, ``case``,
``severity``, ``message``, ``location``, ``pieces`` and ``url``.
"""

from __future__ import annotations

from dataclasses import dataclass

from validator.model import Position
from validator.rules import Result, Violation


def case_url(game: str, case: object) -> str:
    """The path of a case page, relative to the site root."""
    return f"/{game}/rules/{case}"


@dataclass(frozen=True)
class Report:
    position: Position
    results: tuple[Result, ...]

    @property
    def violations(self) -> list[Result]:
        return [result for result in self.results if isinstance(result, Violation)]

    @property
    def findings(self) -> list[Result]:
        return [result for result in self.results if not isinstance(result, Violation)]

    @property
    def legal(self) -> bool:
        return not self.violations

    def result_json(self, result: Result, base_url: str = "") -> dict:
        return {
            "rule": result.rule,
            "case": str(result.case),
            "severity": result.severity,
            "message": result.message,
            "location": result.location,
            "location_name": self.position.location_label(result.location) if result.location else None,
            "pieces": list(result.pieces),
            "url": base_url + case_url(result.game, result.case),
            "facts": result.facts,
        }

    def to_json(self, base_url: str = "") -> dict:
        position = self.position
        return {
            "game": position.game,
            "source": position.source,
            "scenario": position.scenario,
            "turn": position.turn,
            "phase": position.phase,
            "phasing": position.phasing,
            "legal": self.legal,
            "violations": [self.result_json(result, base_url) for result in self.violations],
            "findings": [self.result_json(result, base_url) for result in self.findings],
        }

    def line(self, result: Result) -> str:
        where = self.position.location_label(result.location) if result.location else self.position.source
        marker = "" if result.severity == "error" else f" ({result.severity})"
        return f"{where}: [{result.case}]{marker} {result.message}"

    def to_text(self) -> str:
        lines = [self.line(result) for result in self.violations]
        lines += [self.line(result) for result in self.findings]
        verdict = "legal" if self.legal else f"{len(self.violations)} violation(s)"
        lines.append(f"{self.position.source}: {verdict}, {len(self.findings)} finding(s).")
        return "\n".join(lines)
