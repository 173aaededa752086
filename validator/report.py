"""A report: the results of checking one position, and its renderings.

The text form is one linter-style line per result:
``Serbia / Axis Mountain: [6.21] 7.5 division-equivalents; the limit is 7``,
followed, when the result names pieces, by an indented ``pieces:`` line, and
at the end by what the verdict covers and the verdict itself
(``overstacked.xml: 2 violations, 15 findings.``).
The JSON form is a public contract (docs/save-format.md): ``violations`` and
``findings`` arrays whose items carry at least ``rule``, ``case``,
``severity``, ``message``, ``location``, ``pieces``, ``piece_names`` and
``url``, and a ``coverage`` object saying how many of the game's cases the
checks cover.

Pieces are shown by the names a player sees on the counters.  The id is
added only where the name alone would not tell two apart: when two pieces
listed by one result share the name, or another piece of that name stands
at the same location (``Partisan brigade (p3)``).  A piece the save gives
no name is shown by its id.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from validator import games
from validator.coverage import Coverage, of_game
from validator.model import Piece, Position
from validator.rules import Result, Violation
from validator.wording import plural

if TYPE_CHECKING:
    from validator.house_rules import HouseRules
    from validator.provenance import Provenance


def case_url(game: str, case: object) -> str:
    """The path of a case page, relative to the site root."""
    return f"/{game}/rules/{case}"


@dataclass(frozen=True)
class Report:
    """The results of checking one position (or a move to it), with what it was checked with and under."""

    position: Position
    results: tuple[Result, ...]
    # A report on a move: the position before it (the results judge ``position``, the one after,
    # and the move from ``before``); its pieces are named too, since a move may remove one.
    before: Position | None = None
    provenance: Provenance | None = None  # what it was checked with (validator.provenance); JSON "checked_with"
    house_rules: HouseRules | None = None  # the club's rules it was rated under (validator.house_rules.apply)

    @property
    def violations(self) -> list[Result]:
        return [result for result in self.results if isinstance(result, Violation)]

    @property
    def findings(self) -> list[Result]:
        return [result for result in self.results if not isinstance(result, Violation)]

    @property
    def legal(self) -> bool:
        return not self.violations

    @cached_property
    def coverage(self) -> Coverage | None:
        """What the game's checks cover; None for a game the registry does not know."""
        game = games.registry().get(self.position.game)
        return of_game(game, count_fixture_files=False) if game is not None else None

    @cached_property
    def _pieces(self) -> dict[str, Piece]:
        earlier = {piece.id: piece for piece in self.before.pieces} if self.before is not None else {}
        return earlier | {piece.id: piece for piece in self.position.pieces}

    @cached_property
    def _names_by_location(self) -> Counter:
        return Counter((piece.name, piece.location) for piece in self.position.pieces if piece.name)

    def piece_names(self, result: Result) -> list[str]:
        """The result's pieces by name, each with its id only where the name is ambiguous."""
        pieces = [self._pieces.get(piece_id) for piece_id in result.pieces]
        names = [piece.name if piece is not None and piece.name else piece_id
                 for piece, piece_id in zip(pieces, result.pieces, strict=True)]
        listed = Counter(names)
        shown = []
        for piece, piece_id, name in zip(pieces, result.pieces, names, strict=True):
            ambiguous = listed[name] > 1 or (piece is not None and self._names_by_location[name, piece.location] > 1)
            shown.append(f"{name} ({piece_id})" if ambiguous and name != piece_id else name)
        return shown

    def result_json(self, result: Result, base_url: str = "") -> dict:
        return {
            "rule": result.rule,
            "case": str(result.case),
            "severity": result.severity,
            "message": result.message,
            "location": result.location,
            "location_name": self.position.location_label(result.location) if result.location else None,
            "pieces": list(result.pieces),
            "piece_names": self.piece_names(result),
            "url": base_url + case_url(result.game, result.case),
            "also_cases": [  # the same rule stated under other cases (validator.infractions)
                {"case": str(case), "rule": f"{result.game}:{case}", "url": base_url + case_url(result.game, case)}
                for case in result.also_cases],
            "facts": result.facts,
            "judges": result.judges or "position",
            **self._house_rule_json(result),
        }

    def _house_rule_json(self, result: Result) -> dict:
        """``house_rule``: the club's rule that re-rated this result, only on a report made under house rules."""
        if self.house_rules is None:
            return {}
        rule = self.house_rules.governing(result)
        return {"house_rule": rule.to_json() if rule is not None else None}

    def to_json(self, base_url: str = "") -> dict:
        from validator.privacy import scrubbed  # no e-mail address a save carries is shown (validator.privacy)

        position = self.position
        covered = self.coverage
        return scrubbed({
            "game": position.game,
            "source": position.source,
            "scenario": position.scenario,
            "turn": position.turn,
            "phase": position.phase,
            "phasing": position.phasing,
            "legal": self.legal,
            **({"before": {name: getattr(self.before, name) for name in ("source", "scenario", "turn", "phase",
                                                                          "phasing")}}
               if self.before is not None else {}),
            "violations": [self.result_json(result, base_url) for result in self.violations],
            "findings": [self.result_json(result, base_url) for result in self.findings],
            "coverage": (
                {**covered.summary_json(moves=self.before is not None), "url": base_url + covered.url}
                if covered is not None and not covered.index_problem else None
            ),
            "checked_with": self.provenance.to_json() if self.provenance is not None else None,
            **({"house_rules": {"source": self.house_rules.source,
                                "rules": [rule.to_json() for rule in self.house_rules.rules]}}
               if self.house_rules is not None else {}),
        })

    def line(self, result: Result) -> str:
        where = self.position.location_label(result.location) if result.location else self.position.source
        marker = "" if result.severity == "error" else f" ({result.severity})"
        if self.house_rules is not None and self.house_rules.governing(result) is not None:
            marker = f" ({result.severity}, house rule)"
        cited = ", ".join(str(case) for case in (result.case, *result.also_cases))
        text = f"{where}: [{cited}]{marker} {result.message}"
        if result.pieces:
            text += "\n    pieces: " + ", ".join(self.piece_names(result))
        return text

    def verdict(self) -> str:
        """The last line: "overstacked.xml: 2 violations, 15 findings."."""
        verdict = "legal" if self.legal else plural(len(self.violations), "violation")
        return f"{self.position.source}: {verdict}, {plural(len(self.findings), 'finding')}."

    def to_text(self) -> str:
        lines = [self.line(result) for result in self.violations]
        lines += [self.line(result) for result in self.findings]
        if self.coverage is not None:
            lines.append(self.coverage.sentence(moves=self.before is not None))
        if self.house_rules is not None:
            lines.append(f"Checked under the house rules of {self.house_rules.source}:")
            lines += [f"    {rule.sentence()}" for rule in self.house_rules.rules]
        lines.append(self.verdict())
        return "\n".join(lines)
